//! Conclusions drawn straight from the message catalog ([`crate::catalog`]): for messages whose
//! meaning is fixed by the text itself (a kubeadm preflight error, an expired kubelet client
//! certificate, a hung runtime, a device plugin or operator validator that cannot work, a
//! cluster agent that cannot register), the catalog entry carries the cause and the one remedy
//! and these rules render them with the placeholders of the line. Lines that look like errors
//! but match nothing are reported as not recognised, with the closest catalog template.

use std::collections::BTreeMap;

use crate::catalog::{self, Entry};
use crate::classify::{Signal, SignalKind};
use crate::rules::{signal_subject, signals};
use crate::{Context, Finding, Severity, Subject};

declare_rule!(
    JoinPreflightFailed,
    "join-preflight-failed",
    Join,
    Error,
    "kubeadm's preflight stops the join or init: a file or directory left from an earlier install (kubelet.conf, /var/lib/etcd), a port in use, swap on, the container runtime not running, bridge-nf-call-iptables or ip_forward off (or /proc/sys/net/bridge missing: br_netfilter not loaded), too few CPUs or too little memory, a missing binary, not root. Each check's message (cmd/kubeadm/app/preflight/checks.go) names its own fix.",
    check_join_preflight
);

declare_rule!(
    JoinClusterInfoInvalid,
    "join-cluster-info-invalid",
    Join,
    Error,
    "kubeadm join's discovery reached the API server and read the cluster-info ConfigMap, but cannot use what it holds (cmd/kubeadm/app/discovery/token/token.go): its CA does not parse (two PEM blocks during a CA rotation are refused by kubeadm before v1.14), its kubeconfig does not parse or has no cluster, it has no kubeconfig key (not set up for token bootstrapping), or it changed between the insecure and the TLS-validated read. Not a token or CA-pin problem: fix cluster-info (or join with --discovery-file).",
    check_join_cluster_info
);

declare_rule!(
    NodeKubeletCertExpired,
    "node-kubelet-cert-expired",
    Node,
    Error,
    "The kubelet's client certificate expired (`part of the existing bootstrap client certificate ... is expired`), it has no bootstrap kubeconfig to get a new one, or its certificate request is rejected: the node cannot authenticate to the API server. `kubeadm certs renew` does not renew kubelet client certificates; the node needs new credentials.",
    check_kubelet_cert
);

declare_rule!(
    NodeRuntimeUnhealthy,
    "node-runtime-unhealthy",
    Node,
    Warning,
    "A kubelet or agent log shows the node cannot run pods well: PLEG not healthy (the container runtime hangs), no CNI plugin initialised, the CRI endpoint unreachable, eviction under memory or disk pressure, or the memory cgroup disabled in the kernel command line. Also a node whose DiskPressure, MemoryPressure or PIDPressure condition (OutOfDisk before v1.13) is True in a Node object, `-o yaml` status or `describe node` Conditions table: it takes no new pods and the kubelet evicts pods; the remedy frees the resource, never a toleration. Also a pod (CoreDNS, a CSI provisioner, metrics-server, an operator) that cannot reach the `kubernetes` Service (`dial tcp 10.96.0.1:443: i/o timeout`, 10.43.0.1 on k3s) or the cluster DNS Service by its cluster IP: its node's Service routing (kube-proxy) or pod network (CNI) is broken, not the API server or the user's kubeconfig (who is dialling decides: an external endpoint stays cluster-unreachable's).",
    check_runtime
);

declare_rule!(
    GpuPluginLogError,
    "gpu-plugin-log-error",
    Gpu,
    Warning,
    "A GPU device plugin or GPU operator validator log shows it cannot work: no GPU visible to the NVIDIA plugin, an invalid MIG layout for the plugin's migStrategy, the operator's driver validation failing, or the container toolkit not set up. The device plugin then advertises nothing on the node.",
    check_gpu_plugin
);

declare_rule!(
    AgentRegistrationFailed,
    "agent-registration-failed",
    Import,
    Error,
    "A cluster-join agent cannot register its cluster with the management plane: Rancher's cattle-cluster-agent cannot reach the server's /ping (a loopback server-url named as such), the server's CA checksum changed, /v3/settings/cacerts is not a certificate, or the Rancher server itself reports it is still waiting for the cluster agent to connect. A join tool older than Kubernetes 1.24's token handling (Argo CD CLI up to v2.3.6, karmadactl up to v1.2, Rancher up to v2.6.6) waiting for the ServiceAccount token Secret that 1.24+ no longer creates (LegacyServiceAccountTokenNoAutoGeneration): upgrade the tool or create the Secret; a newer tool whose Secret the token controller never fills. A Karmada command sent to an API server that does not serve Karmada's API (`the server could not find the requested resource (get clusters.cluster.karmada.io)`, `no matches for kind ... in version \"policy.karmada.io/...`): the host cluster's kubeconfig instead of karmada-apiserver's.",
    check_agent
);

declare_rule!(
    CliUsageError,
    "cli-usage-error",
    Custom,
    Info,
    "A command line in the paste was refused by the CLI itself before it asked any server: cobra's argument checks (`unknown command`, `accepts N arg(s), received M`, `requires at least N arg(s)`, `required flag(s) ... not set`), pflag's (`unknown flag: --x`, `unknown shorthand flag`, `flag needs an argument`), kubectl's usage footer (`See 'kubectl exec -h' for help and examples`), karmadactl's `must specify a member cluster`. kubectl, karmadactl, helm, kubeadm, k3s and argocd are cobra programs. Info: the line says the command was mistyped, nothing about the cluster, so it is read (never `log-line-unrecognised`) and never raises the severity.",
    check_cli_usage
);

declare_rule!(
    LogLineUnrecognised,
    "log-line-unrecognised",
    Custom,
    Info,
    "Lines of a pasted log that look like errors but match no message of the catalog, listed with the closest known template, so nothing a user pasted is dropped silently. Lines that are errors by their own marking (klog E/F level, level=error|fatal, ERROR/FATAL, panic:, a failed systemd unit) give a warning and make the picture incomplete (exit 3, never an all-clear); lines that only contain error words give an info.",
    check_unrecognised
);

fn check_join_preflight(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings(ctx, JoinPreflightFailed::ID)
}
fn check_join_cluster_info(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings(ctx, JoinClusterInfoInvalid::ID)
}
fn check_cli_usage(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, CliUsageError::ID);
    // a container's log (`kubectl logs`, `crictl logs`, `docker logs`): the program in the
    // container refused its own arguments, so it exits at start and the kubelet restarts it
    for f in &mut out {
        if f.subject.kind == "Log"
            && ctx
                .logs()
                .iter()
                .any(|l| l.source == f.subject.name && container_log_text(&l.text))
        {
            f.severity = Severity::Warning;
            f.message = format!(
                "a container's program refused its own arguments (the log is a container's: `kubectl logs`): {}; it exits at start and the kubelet restarts it (CrashLoopBackOff)",
                f.message
                    .split_once(": ")
                    .map_or(f.message.as_str(), |(_, m)| m)
                    .replace("; the cluster was not asked", "")
                    .replace("a command line was refused by the CLI itself: ", "")
            );
            f.remedy = "fix the container's command/args in its workload (a flag renamed or removed in the image's version: compare with that version's `--help`), e.g. `kubectl edit deployment <name>` or the chart's values, then watch the pod restart (`kubectl get pods -w`)".to_owned();
        }
    }
    out
}

/// Whether a signal is a refusal of the user's own command line: a `cli-usage-error` entry
/// that must start the line (`at_start`), not a component's refusal quoted in its log.
pub(crate) fn is_cli_usage(s: &Signal) -> bool {
    catalog::entry(s.detail("entry")).is_some_and(|e| e.rule == CliUsageError::ID && e.at_start)
}

/// Whether a text is (or holds) a container's log: its command is `kubectl logs`, `crictl
/// logs` or `docker logs`.
pub(crate) fn container_log_text(text: &str) -> bool {
    text.lines().take(4096).any(|l| {
        let mut words = l.split_whitespace();
        words
            .clone()
            .any(|w| matches!(w, "kubectl" | "crictl" | "docker" | "nerdctl" | "oc" | "k"))
            && words.any(|w| w == "logs")
    })
}
fn check_kubelet_cert(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings(ctx, NodeKubeletCertExpired::ID)
}
fn check_runtime(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, NodeRuntimeUnhealthy::ID);
    // a CNI the text says was applied while the runtime still reports none: the runtime did
    // not (re)load its config, so the restart comes first
    for f in &mut out {
        let cni = f.evidence.iter().any(|e| {
            matches!(e, crate::Evidence::Log { text, .. }
                if ["cni plugin not initialized", "cni config uninitialized", "failed to load cni", "no network config found"]
                    .iter()
                    .any(|m| text.contains(m)))
        });
        if !cni {
            continue;
        }
        let applied = f.evidence.iter().find_map(|e| match e {
            crate::Evidence::Log { source, .. } => ctx
                .logs()
                .iter()
                .filter(|l| &l.source == source)
                .find_map(|l| cni_applied(&l.text)),
            _ => None,
        });
        if let Some(what) = applied {
            f.message.push_str(&format!(
                "; the text says {what} was applied and the condition persists: the CNI's config is (or should be) on the node, but the container runtime has not loaded it (containerd's CRI plugin loads the CNI config when it starts and reloads it only on file events in its conf_dir)"
            ));
            f.remedy = "on the node confirm the CNI's config and binaries are where the runtime reads them (`ls /etc/cni/net.d /opt/cni/bin`; containerd's conf_dir and bin_dir under [plugins.\"io.containerd.grpc.v1.cri\".cni] in /etc/containerd/config.toml), then restart the runtime and the kubelet (`sudo systemctl restart containerd && sudo systemctl restart kubelet`) and watch the node turn Ready (`kubectl get nodes -w`); if the config is missing, the CNI's DaemonSet pod on this node has not run (its logs say why); upgrade containerd if it recurs"
                .to_owned();
        }
    }
    // the same cause read from the node's own conditions (Node objects, describe tables)
    out.extend(crate::rules::node_conditions::pressure_findings(
        ctx,
        NodeRuntimeUnhealthy::ID,
    ));
    out.extend(crate::rules::node_conditions::problem_findings(
        ctx,
        NodeRuntimeUnhealthy::ID,
    ));
    out.extend(crate::rules::node_conditions::evicted_pods(
        ctx,
        NodeRuntimeUnhealthy::ID,
    ));
    out.extend(service_network_findings(ctx));
    out
}

/// Pods that cannot reach a Service by its cluster IP (classify::service_ip: the `kubernetes`
/// Service on 443, the cluster DNS on 53): one finding per log and address. Who is dialling
/// decides the conclusion: a pod dials the Service's virtual IP, which only the node's Service
/// routing (kube-proxy's iptables/IPVS rules, or a CNI replacing kube-proxy) and the pod
/// network (CNI) carry to the API server's real address (the `kubernetes` Endpoints,
/// pkg/controlplane/reconcilers); a user's kubeconfig is never involved, so this is not
/// cluster-unreachable.
fn service_network_findings(ctx: &Context<'_>) -> Vec<Finding> {
    let kinds = [
        SignalKind::Refused,
        SignalKind::Timeout,
        SignalKind::NoRoute,
        SignalKind::ConnectionClosed,
        SignalKind::NoSuchHost,
    ];
    let mut groups: BTreeMap<(Subject, String), Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &kinds).filter(|s| !s.detail("service_ip").is_empty()) {
        groups
            .entry((signal_subject(s), s.detail("service_ip").to_owned()))
            .or_default()
            .push(s);
    }
    groups
        .into_iter()
        .map(|((subject, vip), lines)| {
            let s = lines[0];
            let text: String = ctx
                .logs()
                .iter()
                .filter(|l| l.source == s.source)
                .map(|l| l.text.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let who = dialler(&text);
            let how = match s.kind {
                SignalKind::Refused => "the connection is refused",
                SignalKind::NoRoute => "there is no route to it",
                SignalKind::ConnectionClosed => "the connection is closed before any answer",
                SignalKind::Timeout if s.text.contains("context deadline exceeded") => {
                    "the request does not finish before its deadline"
                }
                _ => "the connection times out",
            };
            let dns = vip.ends_with(":53");
            let (what, service) = if dns {
                ("the cluster DNS Service", "kube-dns (CoreDNS)")
            } else {
                ("the `kubernetes` Service (the API server)", "kubernetes")
            };
            let host = vip.rsplit_once(':').map_or(vip.as_str(), |(h, _)| h);
            let deadline = if s.text.contains("context deadline exceeded") {
                "; a deadline alone can also be an overloaded API server or etcd, which the API server's own log shows"
            } else {
                ""
            };
            let message = format!(
                "{who} inside the cluster cannot reach {what} at its cluster IP {vip}: {how}{}. Who is dialling decides: a pod reaches a Service only through its node's Service routing (kube-proxy's iptables/IPVS rules, or the CNI that replaces kube-proxy) and the pod network (CNI), so the node this pod runs on does not carry pod traffic to {vip}{deadline}; the API server's address and the user's kubeconfig are not involved (not cluster-unreachable)",
                if lines.len() > 1 { format!(" ({} lines)", lines.len()) } else { String::new() }
            );
            let remedy = format!(
                "find the node of the failing pod (`kubectl get pods -A -o wide`) and check there: kube-proxy (`kubectl -n kube-system get pods -o wide -l k8s-app=kube-proxy` and its log; k3s/rke2 run it inside the k3s/rke2 process) and the CNI's pod on that node (its log); from the node run `curl -k https://{host}:{port}/` (`nslookup kubernetes.default {host}` for DNS): it fails on the node too -> the Service rules are missing (`sudo iptables-save | grep {host}`, `sudo ipvsadm -Ln`), it works on the node but not in a pod -> the pod network (CNI, MTU, rp_filter); `kubectl get endpoints {service} -n {ns}` must list addresses reachable from every node (an API server advertised on a NAT address such as VirtualBox's 10.0.2.15 breaks all nodes); a host firewall (firewalld, ufw, a cloud security group) must allow the pod and service CIDRs (k3s: 10.42.0.0/16 and 10.43.0.0/16) and, with VXLAN overlays, UDP 8472/4789 between nodes; then restart the failing pod",
                port = vip.rsplit_once(':').map_or("", |(_, p)| p),
                ns = if dns { "kube-system" } else { "default" },
            );
            Finding::new(NodeRuntimeUnhealthy::ID, Severity::Error, subject, message)
                .with_evidences(lines.iter().take(3).map(|s| s.evidence()))
                .with_remedy(remedy)
        })
        .collect()
}

/// The in-cluster client a pod's log shows (for the message; "a pod" when none is named).
fn dialler(text: &str) -> &'static str {
    let lower = text.to_ascii_lowercase();
    [
        ("plugin/kubernetes", "CoreDNS"),
        ("coredns", "CoreDNS"),
        ("local-path-provisioner", "local-path-provisioner"),
        ("csi-provisioner", "a CSI provisioner"),
        ("external-provisioner", "a CSI provisioner"),
        ("csi", "a CSI driver's controller"),
        ("metrics-server", "metrics-server"),
        ("calico", "Calico"),
        ("flannel", "flannel"),
        ("dashboard", "the Kubernetes dashboard"),
        ("ingress-nginx", "ingress-nginx"),
        ("traefik", "Traefik"),
        ("helm-install", "k3s's Helm install job"),
        ("tiller", "Helm's tiller"),
    ]
    .iter()
    .find(|(m, _)| lower.contains(m))
    .map_or("a pod", |(_, who)| who)
}

fn check_gpu_plugin(ctx: &Context<'_>) -> Vec<Finding> {
    // the host's `nvidia-smi` version mismatch next to the device plugin's own NVML failure of
    // the same cause: one conclusion, carried by gpu-not-advertised (which cites this line)
    let plugin_mismatch = signals(ctx, &[SignalKind::NvmlInitFailed])
        .any(|s| s.detail("cause") == "version-mismatch");
    let mut out = catalog_findings_of(ctx, GpuPluginLogError::ID, |e| {
        let smi_of_plugin = plugin_mismatch && e.id == "nvidia-smi.version-mismatch";
        !(smi_of_plugin || e.id.starts_with("cuda-app."))
    });
    out.extend(cuda_app_findings(ctx));
    out.extend(plugin_error_findings(ctx));
    // pods the kubelet failed with UnexpectedAdmissionError (device allocation)
    out.extend(crate::rules::kubelet_admission::refused_pods(
        ctx,
        GpuPluginLogError::ID,
    ));
    out
}

/// A CUDA program in a pod that finds no GPU or too old a driver (catalog `cuda-app.*`: PyTorch,
/// TensorFlow, the CUDA runtime's error strings), one finding per subject, concluded with what
/// the pod asked for: a container that asks for no GPU gets none (the device plugin allocates
/// only requested devices, and the NVIDIA runtime exposes none: with the device plugin's
/// envvar strategy NVIDIA_VISIBLE_DEVICES is `void` for containers without an allocation;
/// NVIDIA/k8s-device-plugin README "Running GPU Jobs", nvidia-container-toolkit
/// NVIDIA_VISIBLE_DEVICES). The requests come from a Pod object of the input (effective
/// requests, limits included) or, for a pasted `resources:` excerpt, from that excerpt.
fn cuda_app_findings(ctx: &Context<'_>) -> Vec<Finding> {
    let mut groups: BTreeMap<Subject, Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        if s.detail("entry").starts_with("cuda-app.") {
            groups.entry(signal_subject(s)).or_default().push(s);
        }
    }
    groups
        .into_iter()
        .map(|(subject, lines)| {
            let old_driver = lines.iter().any(|s| {
                matches!(
                    s.detail("entry"),
                    "cuda-app.insufficient-driver" | "cuda-app.torch-driver-too-old"
                )
            });
            let s = lines[0];
            // every line a warning of the framework (PyTorch's `UserWarning: CUDA
            // initialization: ...`, a TensorFlow `W` line): the program goes on, on the CPU
            let warning_only = lines.iter().all(|s| warning_level(&s.text));
            let mut f = Finding::new(GpuPluginLogError::ID, Severity::Error, subject, "")
                .with_evidences(lines.iter().take(3).map(|s| s.evidence()));
            if warning_only {
                match gpu_requested(ctx, s) {
                    // a CPU workload that checked for CUDA: a warning of the framework, not a
                    // failure of the cluster
                    Some((false, why, ev)) => {
                        f.severity = Severity::Info;
                        f.message = format!("a program in the container checked for CUDA, found no GPU and goes on without one; the pod asks for none ({why}), so this is the framework's warning of a CPU workload, not a fault of the node or the device plugin");
                        f.remedy = "nothing to do for a CPU workload (silence the warning with `CUDA_VISIBLE_DEVICES=\"\"` in the container's env); if this workload should run on a GPU, add `nvidia.com/gpu: 1` under the container's resources.limits (plus `runtimeClassName: nvidia` where nvidia is not the node's default runtime)".to_owned();
                        return f.with_evidence(ev);
                    }
                    Some((true, ..)) => {}
                    None => {
                        f.severity = Severity::Warning;
                        f.message = "a program in the container warns that it found no usable NVIDIA GPU and goes on without one (the framework's warning, not an error): fine for a CPU workload; if it should use a GPU, the pod asks for none or the GPU was not injected; the input does not show the pod's resources".to_owned();
                        f.remedy = crate::catalog::CUDA_APP_NO_GPU_REMEDY.to_owned();
                        return f;
                    }
                }
            }
            if old_driver {
                f.message = "a CUDA program in the container needs a newer NVIDIA driver than the node has: the driver on the node is older than the CUDA version the image was built for (the driver's highest supported CUDA version is in the `nvidia-smi` header)".to_owned();
                f.remedy = crate::catalog::CUDA_APP_OLD_DRIVER_REMEDY.to_owned();
                return f;
            }
            match gpu_requested(ctx, s) {
                Some((false, why, ev)) => {
                    f.message = format!("a CUDA program in the container finds no GPU, and the pod asks for none ({why}): Kubernetes gives a container a GPU only through a GPU limit (nvidia.com/gpu), so the device plugin allocated none and the NVIDIA runtime exposes none (NVIDIA_VISIBLE_DEVICES is void for it); the node's driver is not the cause");
                    f.remedy = "add the GPU to the container that runs the program: `nvidia.com/gpu: 1` under its resources.limits (requests default to the limit), plus `runtimeClassName: nvidia` where nvidia is not the node's default runtime; then check the pod lands on a node that advertises nvidia.com/gpu (`kubectl describe node`) and `kubectl exec <pod> -- nvidia-smi` lists the GPU".to_owned();
                    f = f.with_evidence(ev);
                }
                Some((true, why, ev)) => {
                    f.message = format!("a CUDA program in the container finds no GPU although the pod asks for one ({why}): the GPU was allocated but not injected into the container: the pod does not run with the NVIDIA runtime (no runtimeClassName: nvidia where nvidia is not the default), the image or env overrides NVIDIA_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES, or the node's driver fails");
                    f.remedy = "`kubectl exec <pod> -- env | grep -e NVIDIA_VISIBLE_DEVICES -e CUDA_VISIBLE_DEVICES` (a device list or all, not void or empty) and `kubectl exec <pod> -- nvidia-smi`: without GPUs inside, give the pod `runtimeClassName: nvidia` (or make nvidia the node's default runtime: `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default`), remove overrides of those variables from the image and pod env, and check `nvidia-smi` on the node itself".to_owned();
                    f = f.with_evidence(ev);
                }
                None => {
                    f.message = "a CUDA program in the container finds no usable NVIDIA GPU: either the pod asks for no GPU (then it gets none: the NVIDIA runtime exposes none to a container without a GPU limit), or the GPU it was given was not injected (runtime class, NVIDIA_VISIBLE_DEVICES overridden, a driver fault); the input does not show the pod's resources".to_owned();
                    f.remedy = crate::catalog::CUDA_APP_NO_GPU_REMEDY.to_owned();
                }
            }
            f
        })
        .collect()
}

/// True when a classified line is a warning by its own level: Python's warnings module
/// (`<file>:<line>: UserWarning: <message>`, as `torch.cuda.is_available()` reports a missing
/// driver, torch/cuda/__init__.py `_lazy_init`/`is_available`; any `<Category>Warning: `), a glog/absl `W` line of
/// TensorFlow (`W tensorflow/...` or `W0101 ...`), or a logfmt/JSON level `warn`/`warning`.
fn warning_level(text: &str) -> bool {
    let t = text.trim_start();
    let glog_w = t.starts_with("W ")
        || t.len() > 5 && t.starts_with('W') && t.as_bytes()[1..5].iter().all(u8::is_ascii_digit);
    let lower = t.to_ascii_lowercase();
    // a Python warning category (`UserWarning`, `RuntimeWarning`, a library's own such as
    // topaz's `CudaWarning: ... Falling back to CPU.`) before its message
    t.contains("Warning: ")
        || glog_w
        || lower.contains("level=warn")
        || lower.contains("\"level\":\"warn")
}

/// Whether the pod of `s` asks for a GPU, with what says so: the effective requests of a Pod
/// of the input (the signal's subject, or the only pod), else a pasted `resources:` excerpt of
/// the same text (`limits:` / `requests:` lines). `None` when the input shows neither.
fn gpu_requested(ctx: &Context<'_>, s: &Signal) -> Option<(bool, String, crate::Evidence)> {
    let snap = ctx.snapshot();
    let subject = signal_subject(s);
    let idx = (0..snap.pods.len())
        .find(|&i| crate::rules::pod_subject(&snap.pods[i]) == subject)
        .or_else(|| (snap.pods.len() == 1).then_some(0));
    if let Some(i) = idx {
        let p = &snap.pods[i];
        let o = crate::rules::obj("Pod", &p.metadata.namespace, &p.metadata.name);
        let gpus: Vec<String> = ctx
            .pod_requests(i)
            .iter()
            .filter(|(k, q)| crate::resources::is_gpu_resource(k.as_str()) && !q.is_zero())
            .map(|(k, q)| format!("{k}={q}"))
            .collect();
        return Some(if gpus.is_empty() {
            (
                false,
                format!("pod {} requests no GPU resource", p.metadata.name),
                crate::Evidence::field(&o, "effective requests (GPU)", "none"),
            )
        } else {
            (
                true,
                format!("pod {} requests {}", p.metadata.name, gpus.join(", ")),
                crate::Evidence::field(&o, "effective requests (GPU)", gpus.join(", ")),
            )
        });
    }
    let text: String = ctx
        .logs()
        .iter()
        .filter(|l| l.source == s.source)
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    let excerpt = lines
        .iter()
        .any(|(_, l)| matches!(l.trim(), "limits:" | "requests:" | "resources:"));
    if !excerpt {
        return None;
    }
    let gpu_line = lines.iter().find(|(_, l)| {
        let k = l.trim().split(':').next().unwrap_or("");
        crate::resources::is_gpu_resource(k.trim_matches('"'))
    });
    Some(match gpu_line {
        Some((i, l)) => (
            true,
            format!("its resources list {}", l.trim()),
            crate::Evidence::log(s.source.clone(), i + 1, l.trim()),
        ),
        None => {
            let (i, l) = lines
                .iter()
                .find(|(_, l)| matches!(l.trim(), "limits:" | "requests:" | "resources:"))
                .copied()
                .unwrap_or((0, ""));
            (
                false,
                "its resources list no nvidia.com/gpu (nor any other GPU resource)".to_owned(),
                crate::Evidence::log(s.source.clone(), i + 1, l.trim()),
            )
        }
    })
}

/// What a text says was applied as the cluster's CNI (`kubectl apply -f calico.yaml`, `When I
/// apply cni`, `installed flannel`): the CNI named, or "a CNI". `None` when the text says no
/// such thing.
fn cni_applied(text: &str) -> Option<String> {
    const CNIS: [&str; 10] = [
        "calico",
        "flannel",
        "cilium",
        "weave",
        "canal",
        "antrea",
        "kube-router",
        "kube-ovn",
        "multus",
        "cni",
    ];
    const APPLIED: [&str; 6] = [
        "apply",
        "applied",
        "install",
        "deployed",
        "helm upgrade",
        "started",
    ];
    text.lines().find_map(|l| {
        let lower = l.to_ascii_lowercase();
        // the runtime's own message names the CNI; the person's sentence or command applies it
        if lower.contains("cni plugin not initialized")
            || lower.contains("cni config uninitialized")
            || !APPLIED.iter().any(|a| lower.contains(a))
        {
            return None;
        }
        CNIS.iter().find(|c| lower.contains(*c)).map(|c| {
            if *c == "cni" {
                "a CNI".to_owned()
            } else {
                format!("the CNI ({c})")
            }
        })
    })
}

/// One warning per subject and resource for the error lines of a device plugin's log that no
/// catalog entry knows (`classify::accelerator`): the plugin is failing at something, and its
/// resource may not become allocatable.
fn plugin_error_findings(ctx: &Context<'_>) -> Vec<Finding> {
    let mut groups: BTreeMap<(Subject, String), Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::DevicePluginError]) {
        groups
            .entry((signal_subject(s), s.detail("resource").to_owned()))
            .or_default()
            .push(s);
    }
    groups
        .into_iter()
        .map(|((subject, resource), lines)| {
            let s = lines[0];
            Finding::new(
                GpuPluginLogError::ID,
                Severity::Warning,
                subject,
                format!(
                    "device-plugin: {} logs {} error line(s) no known message matches, first `{}`: the plugin is failing at this step, so {resource} may not become allocatable on the node",
                    s.detail("plugin"),
                    lines.len(),
                    s.detail("error")
                ),
            )
            .with_evidences(lines.iter().take(3).map(|s| s.evidence()))
            .with_remedy(format!(
                "read the plugin's error and the lines before it (`kubectl -n <namespace> logs <plugin pod>`), fix what it names, restart the plugin pod, then check `kubectl describe node <node>` for {resource} in capacity and allocatable"
            ))
        })
        .collect()
}
fn check_agent(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, AgentRegistrationFailed::ID);
    // a join agent in the member rejected with its own credential (classify::join_agent): one
    // finding per log and agent, every line of it counted
    let mut agents: BTreeMap<(String, String), Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Unauthorized, SignalKind::RbacForbidden])
        .filter(|s| s.detail("agent_side") == "member")
    {
        agents
            .entry((s.source.clone(), s.detail("agent").to_owned()))
            .or_default()
            .push(s);
    }
    for ((_, agent), lines) in agents {
        let s = lines[0];
        out.push(
            Finding::new(
                AgentRegistrationFailed::ID,
                Severity::Error,
                signal_subject(s),
                format!(
                    "{agent}: {}{}",
                    s.detail("agent_cause"),
                    if lines.len() > 1 {
                        format!(" ({} lines)", lines.len())
                    } else {
                        String::new()
                    }
                ),
            )
            .with_evidences(lines.iter().take(3).map(|s| s.evidence()))
            .with_remedy(s.detail("agent_remedy")),
        );
    }
    // a Rancher agent that reconnected after connection errors (classify::join_agent): history
    for s in signals(ctx, &[SignalKind::Known])
        .filter(|s| s.detail("entry") == "rancher.agent-reconnected")
    {
        out.push(
            Finding::new(
                AgentRegistrationFailed::ID,
                Severity::Info,
                signal_subject(s),
                format!(
                    "rancher: the agent's websocket to Rancher failed earlier (lines {}) and then connected (`Connected to proxy`, line {}) with no error after it: the agent reconnected, the earlier errors are history",
                    s.detail("earlier"),
                    s.line
                ),
            )
            .with_evidence(s.evidence())
            .with_remedy("nothing to do while the agent stays connected; if the errors come back, read the first line of the new failure"),
        );
    }
    out
}

declare_rule!(
    PodResourceClaimsDropped,
    "pod-resource-claims-dropped",
    Scheduling,
    Error,
    "A pod's Dynamic Resource Allocation (DRA) request never reaches the scheduler as written: the API server (or kubectl's schema) predates the fields (`unknown field \"spec.resourceClaims\"`, `unknown field \"claims\" in io.k8s.api.core.v1.ResourceRequirements`: Kubernetes before v1.26), the resource.k8s.io version of the driver's manifests is not served (`no matches for kind \"ResourceClaimTemplate\" in version \"resource.k8s.io/v1beta1\"`: the DRA API is off in runtime-config or the manifests are for another release), a container references a claim that pod.spec.resourceClaims no longer holds (`must be one of the names in pod.spec.resourceClaims which is empty`: a mutating webhook built against older API types re-wrote the pod and dropped the field; an API server with the DynamicResourceAllocation feature gate off drops both fields silently, so the pod runs without its device), or the kubelet has no DRA driver registered for the claim. The remedy names the component to upgrade or enable.",
    check_claims_dropped
);

fn check_claims_dropped(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings(ctx, PodResourceClaimsDropped::ID)
}

/// The subject an entry's subject template gives (`Node/{node}`, `Pod/{namespace}/{name}`),
/// when every placeholder has a value; else the signal's object or log source.
fn subject_of(e: &Entry, s: &Signal) -> Subject {
    if !e.subject.is_empty() {
        let filled = Entry::fill(e.subject, &s.captures());
        if !filled.contains('{') {
            let parts: Vec<&str> = filled.splitn(3, '/').collect();
            match parts.as_slice() {
                [kind, name] => return Subject::cluster_scoped(kind, name),
                [kind, ns, name] => return Subject::namespaced(kind, ns, name),
                _ => {}
            }
        }
    }
    signal_subject(s)
}

/// One finding per subject and catalog group (or entry, for entries without a group): the
/// first line's entry gives the cause and remedy, every line of the group is evidence (at
/// most three).
pub(crate) fn catalog_findings(ctx: &Context<'_>, rule: &str) -> Vec<Finding> {
    catalog_findings_of(ctx, rule, |_| true)
}

/// [`catalog_findings`] for the entries `keep` selects (a rule that reads some of its entries
/// in its own way).
pub(crate) fn catalog_findings_of(
    ctx: &Context<'_>,
    rule: &str,
    keep: impl Fn(&Entry) -> bool,
) -> Vec<Finding> {
    let mut groups: BTreeMap<(Subject, &'static str), Vec<(&Signal, &'static Entry)>> =
        BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        let Some(e) = catalog::entry(s.detail("entry")) else {
            continue;
        };
        if e.rule != rule || !keep(e) {
            continue;
        }
        // a `line:` group only orders the entries of one line: one finding per entry
        let key = if e.group.is_empty() || e.group.starts_with("line:") {
            e.id
        } else {
            e.group
        };
        groups
            .entry((subject_of(e, s), key))
            .or_default()
            .push((s, e));
    }
    groups
        .into_iter()
        .map(|((subject, _), lines)| {
            let (s, e) = lines[0];
            let (cause, remedy) = e.cause_and_remedy(s);
            // a context pass of the classifiers may set a line's severity (detail `severity`)
            let severity = lines
                .iter()
                .map(|(s, e)| match s.detail("severity") {
                    "info" => Severity::Info,
                    "warning" => Severity::Warning,
                    "error" => Severity::Error,
                    _ => e.severity,
                })
                .max()
                .unwrap_or(e.severity);
            Finding::new(
                rule,
                severity,
                subject,
                format!(
                    "{}: {}{}",
                    e.family.as_str(),
                    cause,
                    if lines.len() > 1 {
                        format!(" ({} lines)", lines.len())
                    } else {
                        String::new()
                    }
                ),
            )
            .with_evidences(lines.iter().take(3).map(|(s, _)| s.evidence()))
            .with_remedy(remedy)
        })
        .collect()
}

/// Per log source, one warning listing the lines that are errors by their own marking (klog
/// `E`/`F`, `level=error|fatal`, `ERROR`/`FATAL`, `panic:`, a systemd unit that failed:
/// [`catalog::marked_error`]) and match nothing: the diagnosis could not read them, so the
/// picture is incomplete (the engine then reports it incomplete, exit 3, never an all-clear);
/// and one info listing the lines that merely look like errors (error words) and match nothing.
fn check_unrecognised(ctx: &Context<'_>) -> Vec<Finding> {
    let mut by_source: BTreeMap<(&str, bool), Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Unrecognised]) {
        let marked = s.detail("marked") == "error";
        by_source.entry((&s.source, marked)).or_default().push(s);
    }
    by_source
        .into_iter()
        .map(|((source, marked), lines)| {
            // lines past classify::MAX_UNRECOGNISED_SIGNALS are counted in the last one kept
            let count: usize = lines
                .iter()
                .map(|s| 1 + s.detail("more_lines").parse::<usize>().unwrap_or(0))
                .sum();
            let closest: Vec<String> = lines
                .iter()
                .take(3)
                .map(|s| match s.detail("closest") {
                    "" => format!("line {}: no close template", s.line),
                    id => format!(
                        "line {}: closest known message {id} `{}` ({})",
                        s.line,
                        s.detail("closest_template"),
                        s.detail("score")
                    ),
                })
                .collect();
            let (severity, message, remedy) = if marked {
                (
                    Severity::Warning,
                    format!(
                        "{} line(s) are errors by their own marking (klog E/F level, level=error|fatal, ERROR/FATAL, panic, a failed systemd unit) but no message of the catalog matches them: what they mean was not diagnosed, so the picture is incomplete and the absence of other findings is not an all-clear: {}",
                        count,
                        closest.join("; ")
                    ),
                    "read these error lines yourself (they were not diagnosed) and look up the program that printed them; the closest known message shows what a similar line would mean",
                )
            } else {
                (
                    Severity::Info,
                    format!(
                        "{} line(s) look like errors but are not recognised (no message of the catalog matches): {}",
                        count,
                        closest.join("; ")
                    ),
                    "read these lines yourself: they were not diagnosed; the closest known message shows what a similar line would mean",
                )
            };
            Finding::new(LogLineUnrecognised::ID, severity, Subject::log(source), message)
                .with_evidences(lines.iter().take(5).map(|s| s.evidence()))
                .with_remedy(remedy)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    /// Red team 2 #03: a paste of many unrecognised error lines held one signal per line
    /// (about 1.4 KB each, three copies: 2.85 GB for 40 MB). Past
    /// `classify::MAX_UNRECOGNISED_SIGNALS` per text the lines are only counted; the finding
    /// still names every line in its count and shows the first ones, and the signals stay
    /// bounded.
    #[test]
    fn unrecognised_lines_past_the_bound_are_counted_not_kept() {
        use crate::classify::{MAX_UNRECOGNISED_SIGNALS, SignalKind, classify_all};
        let n = MAX_UNRECOGNISED_SIGNALS + 25;
        let text = "E1130 12:00:00.000000 1 x.go:1] boom\n".repeat(n)
            + &"the frobnicator failed badly\n".repeat(3);
        let signals = classify_all("test.log", &text);
        let unrecognised: Vec<_> = signals
            .iter()
            .filter(|s| s.kind == SignalKind::Unrecognised)
            .collect();
        // the marked lines up to the bound, and the 3 error-looking ones counted apart
        assert_eq!(unrecognised.len(), MAX_UNRECOGNISED_SIGNALS + 3);
        let more: Vec<&str> = unrecognised
            .iter()
            .map(|s| s.detail("more_lines"))
            .filter(|m| !m.is_empty())
            .collect();
        assert_eq!(more, ["25"]);
        let f = run_log("log-line-unrecognised", &text);
        assert!(
            f.iter()
                .any(|f| f.message.starts_with(&format!("{n} line(s) are errors"))),
            "{f:#?}"
        );
        assert!(
            f.iter()
                .any(|f| f.message.starts_with("3 line(s) look like errors")),
            "{f:#?}"
        );
    }

    #[test]
    fn preflight_errors_each_with_its_fix() {
        let f = run_log(
            "join-preflight-failed",
            "error execution phase preflight: [preflight] Some fatal errors occurred:\n\t[ERROR FileAvailable--etc-kubernetes-kubelet.conf]: /etc/kubernetes/kubelet.conf already exists\n\t[ERROR Port-10250]: Port 10250 is in use\n",
        );
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().any(|f| f.remedy.contains("kubeadm reset -f")));
        assert!(f.iter().any(|f| f.message.contains("port 10250")));
    }

    /// PyTorch's `UserWarning: CUDA initialization: Found no NVIDIA driver on your system` is a
    /// warning of a program that goes on on the CPU: from a pod that asks for no GPU it is an
    /// info, without the pod's resources a warning, and from a pod that asks for a GPU still an
    /// error (the GPU was not injected).
    #[test]
    fn a_cuda_warning_of_a_cpu_pod_is_not_an_error() {
        let log = "/usr/local/lib/python3.10/site-packages/torch/cuda/__init__.py:118: UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n  return torch._C._cuda_getDeviceCount() > 0\nINFO:     Application startup complete.\n";
        let pod = |limits: &str| {
            format!(
                r#"{{"kind":"Pod","metadata":{{"name":"infer-0","namespace":"ml"}},"spec":{{"nodeName":"cpu-01","containers":[{{"name":"app","image":"pytorch/pytorch:2.2.0-cuda12.1-cudnn8-runtime","resources":{{"requests":{{"cpu":"1","memory":"1Gi"}},"limits":{{{limits}}}}}}}]}},"status":{{"phase":"Running"}}}}"#
            )
        };
        let run = |pod: Option<String>| {
            let mut i = crate::Inputs::new();
            if let Some(p) = pod {
                i.add("pod.json", &p);
            }
            i.add("app.log", log);
            crate::rules::testutil::run_inputs("gpu-plugin-log-error", &i)
        };
        let cpu = run(Some(pod("\"cpu\":\"1\"")));
        assert_eq!(cpu.len(), 1, "{cpu:#?}");
        assert_eq!(cpu[0].severity, crate::Severity::Info);
        let bare = run(None);
        assert_eq!(bare[0].severity, crate::Severity::Warning);
        let gpu = run(Some(pod("\"nvidia.com/gpu\":\"1\"")));
        assert_eq!(gpu[0].severity, crate::Severity::Error);
        // the exception form (not a warning) stays an error
        let raised = run_log(
            "gpu-plugin-log-error",
            "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n",
        );
        assert_eq!(raised[0].severity, crate::Severity::Error);
    }

    #[test]
    fn kubelet_certificate_lines_give_one_cause() {
        let f = run_log(
            "node-kubelet-cert-expired",
            "Jun 12 08:55:47 node-03 kubelet[261533]: E0612 08:55:47.623225  261533 bootstrap.go:266] part of the existing bootstrap client certificate in /etc/kubernetes/kubelet.conf is expired: 2026-04-18 14:08:56 +0000 UTC\nJun 12 08:55:47 node-03 kubelet[261533]: E0612 08:55:47.623270  261533 run.go:74] \"command failed\" err=\"failed to run Kubelet: unable to load bootstrap kubeconfig: stat /etc/kubernetes/bootstrap-kubelet.conf: no such file or directory\"",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "node-03");
        assert!(f[0].message.contains("2026-04-18 14:08:56 +0000 UTC"));
        assert!(f[0].remedy.contains("kubeadm kubeconfig user"));
    }

    #[test]
    fn preflight_file_content_each_line_its_own_fix() {
        let text = "[preflight] Some fatal errors occurred:\n\t[ERROR FileContent--proc-sys-net-bridge-bridge-nf-call-iptables]: /proc/sys/net/bridge/bridge-nf-call-iptables does not exist\n\t[ERROR FileContent--proc-sys-net-ipv4-ip_forward]: /proc/sys/net/ipv4/ip_forward contents are not set to 1\n";
        let f = run_log("join-preflight-failed", text);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().any(|f| f.remedy.contains("modprobe br_netfilter")
            && f.message.contains("bridge-nf-call-iptables does not exist")));
        assert!(f.iter().any(|f| f.remedy.contains("net.ipv4.ip_forward=1")));
        assert!(run_log("log-line-unrecognised", text).is_empty());
    }

    #[test]
    fn kubelet_csr_rejected_however_wrapped() {
        let text = "2018-05-14T12:15:33+0100 node-05 kubelet[17678]: F0514 12:15:33.764119   17678 server.go:233] failed to run Kubelet: cannot create certificate signing request: Unauthorized\n2018-05-14T12:15:33+0100 node-05 kubelet[17678]: W0514 12:15:33.715964   17678 cni.go:171] Unable to update cni config: No networks found in /etc/cni/net.d\n2018-05-14T12:15:33+0100 node-05 systemd[1]: kubelet.service: Unit entered failed state.\n";
        let f = run_log("node-kubelet-cert-expired", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains("kubeadm token create"));
        assert!(run_log("cluster-unauthorized", text).is_empty());
        assert!(run_log("log-line-unrecognised", text).is_empty());
        let cni = run_log("node-runtime-unhealthy", text);
        assert_eq!(cni[0].severity, crate::Severity::Info);
        let forbidden = run_log(
            "node-kubelet-cert-expired",
            "cannot create certificate signing request: certificatesigningrequests.certificates.k8s.io is forbidden: User \"system:anonymous\" cannot create resource \"certificatesigningrequests\" in API group \"certificates.k8s.io\" at the cluster scope",
        );
        assert!(forbidden[0].message.contains("system:anonymous"));
    }

    #[test]
    fn rancher_server_waiting_and_loopback_server_url() {
        let f = run_log(
            "agent-registration-failed",
            "E0606 17:38:26.868733       1 generic_controller.go:204] ClusterController c-qvjq6 [cluster-agent-controller] failed with : could not contact server: Get https://10.0.0.162:6443/version: waiting for cluster agent to connect",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].remedy.contains("cattle-cluster-agent"));
        let l = run_log(
            "agent-registration-failed",
            "ERROR: https://localhost/ping is not accessible (Failed to connect to localhost port 443: Connection refused)",
        );
        assert!(
            l[0].message.contains("loopback") && l[0].remedy.contains("server-url"),
            "{l:#?}"
        );
        assert!(!l[0].remedy.contains("ss -ltnp"));
    }

    #[test]
    fn cni_applied_but_not_loaded_restarts_the_runtime() {
        // containerd/containerd#8419 (k8s 1.24, containerd 1.6.18), full-width punctuation
        let text = "k8s 1.24，containerd 1.6.18\nWhen I apply cni，ode is still not ready after starting cni\nERROR：NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n";
        let f = run_log("node-runtime-unhealthy", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("was applied and the condition persists")
        );
        assert!(
            f[0].remedy.contains("systemctl restart containerd")
                && f[0].remedy.contains("/opt/cni/bin")
        );
        // without the sentence the remedy installs the CNI first and restarts after
        let bare = run_log(
            "node-runtime-unhealthy",
            "E1201 10:00:00.000000 1 kubelet.go:2373] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n",
        );
        assert_eq!(bare.len(), 1, "{bare:#?}");
        assert!(!bare[0].message.contains("was applied"));
        assert!(
            bare[0].remedy.starts_with("install the cluster's CNI")
                && bare[0].remedy.contains("restart containerd")
        );
        // kubectl apply of a CNI manifest is "applied" too; containerd's init line is context
        let applied = run_log(
            "node-runtime-unhealthy",
            "$ kubectl apply -f https://raw.githubusercontent.com/projectcalico/calico/v3.26.1/manifests/calico.yaml\nlevel=error msg=\"failed to load cni during init, please check CRI plugin status before setting up network for pods\" error=\"cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config\"\nNetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n",
        );
        assert!(
            applied
                .iter()
                .any(|f| f.message.contains("the CNI (calico) was applied")),
            "{applied:#?}"
        );
        assert!(run_log("log-line-unrecognised", "level=error msg=\"failed to load cni during init, please check CRI plugin status before setting up network for pods\" error=\"cni config load failed\"\n").is_empty());
    }

    #[test]
    fn unknown_error_lines_are_listed_never_dropped() {
        let f = run_log(
            "log-line-unrecognised",
            "I0101 all good\nE0101 12:00:00.000000 1 x.go:1] something nobody has seen before failed\n",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("1 line(s)"));
        assert!(run_log("log-line-unrecognised", "I0101 all good\n").is_empty());
    }

    /// Hold-out case (karmada#5398): a healthy paste with a karmadactl usage error gave a
    /// log-line-unrecognised warning. A command line the CLI refused is read (info), in every
    /// cobra/pflag wording; alone it is no all-clear.
    #[test]
    fn cli_usage_errors_are_read_as_info_and_alone_are_incomplete() {
        for (line, needle) in [
            ("error: must specify a member cluster", "--cluster"),
            ("error: unknown flag: --all-namespace", "--all-namespace"),
            ("Error: unknown shorthand flag: 'z' in -z", "'z'"),
            ("error: unknown command \"nodez\" for \"kubectl\"", "nodez"),
            ("Error: accepts 1 arg(s), received 2", "1 argument"),
            (
                "Error: requires at least 1 arg(s), only received 0",
                "at least 1",
            ),
            ("Error: required flag(s) \"token\" not set", "token"),
            ("error: flag needs an argument: --namespace", "--namespace"),
        ] {
            let text = format!("$ kubectl do-something\n{line}\n");
            let f = crate::rules::testutil::run_rule("cli-usage-error", &text);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert_eq!(f[0].severity, crate::Severity::Info);
            assert!(f[0].message.contains(needle), "{line}: {}", f[0].message);
            assert!(
                crate::rules::testutil::run_rule("log-line-unrecognised", &text).is_empty(),
                "{line}"
            );
            let mut i = crate::Inputs::new();
            i.add("usage.txt", &text);
            assert!(
                i.input_problems().iter().any(|p| p
                    .message
                    .contains("only command lines the CLI itself refused")),
                "{line}: {:?}",
                i.input_problems()
            );
            assert!(i.logs.iter().any(|l| l.unrecognised), "{line}");
        }
    }

    /// Red-team round 3 (09, 10): a daemon's log quoting `unknown flag` is no refusal of the
    /// user's command line; a container's log of one is a warning about the container.
    #[test]
    fn usage_wordings_inside_daemon_and_container_logs() {
        let kubelet = "May 10 10:00:01 worker-1 kubelet[23145]: E0510 10:00:01.512345   23145 run.go:74] \"command failed\" err=\"failed to parse kubelet flag: unknown flag: --network-plugin\"\n";
        assert!(crate::rules::testutil::run_rule("cli-usage-error", kubelet).is_empty());
        let f = crate::rules::testutil::run_rule("node-not-ready", kubelet);
        assert!(
            f.iter()
                .any(|f| f.severity == crate::Severity::Error
                    && f.message.contains("--network-plugin)")),
            "{f:#?}"
        );
        let logs = "$ kubectl -n kube-system logs metrics-server-6d94bc8694-7xk2p\nError: unknown flag: --deprecated-kubelet-completely-insecure\n";
        let f = crate::rules::testutil::run_rule("cli-usage-error", logs);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Warning);
        assert!(
            f[0].message.contains("container's program"),
            "{}",
            f[0].message
        );
        let mut i = crate::Inputs::new();
        i.add("logs.txt", logs);
        assert!(
            i.input_problems()
                .iter()
                .all(|p| !p.message.contains("only command lines"))
        );
    }
}
