//! The role of a system pod (GPU stack, CNI, DNS, kube-proxy, control plane), by its owning
//! workload's name: what breaks when it does not run, and how severe a pod of that role
//! that fails is (fresh-user K2: a crash-looping NFD worker, GPU feature discovery, GPU
//! Operator controller or HAMi scheduler was a warning with exit 0).
//!
//! The GPU reporting chain itself (driver, container toolkit, validators, device plugin) is
//! reported by gpu-not-advertised / workload-unavailable ([`crate::gpu::chain_component`]);
//! this table names the other pods a GPU pool or any cluster depends on.
//!
//! Names, from the upstream manifests that create them: NVIDIA/gpu-operator
//! `deployments/gpu-operator/templates/operator.yaml` (Deployment `gpu-operator`),
//! `assets/state-dcgm-exporter`, `assets/state-mig-manager`, `assets/gpu-feature-discovery`;
//! kubernetes-sigs/node-feature-discovery `deployment/helm/node-feature-discovery/templates`
//! (`<release>-node-feature-discovery-master` / `-worker` / `-gc`, `nfd-master`, `nfd-worker`);
//! Project-HAMi/HAMi `charts/hami/templates/scheduler/deployment.yaml` (`<release>-scheduler`,
//! `hami-scheduler`; `vgpu-scheduler` before v2.0); kubernetes/kubernetes
//! `cluster/addons/dns/coredns` (`coredns`), `cluster/addons/kube-proxy`, kubeadm's static pod
//! names (`cmd/kubeadm/app/constants`: `kube-apiserver`, `kube-controller-manager`,
//! `kube-scheduler`, `etcd`, suffixed `-<node name>` by the kubelet); CNI DaemonSets
//! (projectcalico/calico `calico-node`, flannel-io/flannel `kube-flannel-ds`, cilium/cilium
//! `cilium`, weaveworks/weave `weave-net`, antrea-io/antrea `antrea-agent`, cloudnativelabs
//! kube-router `kube-router`, kubeovn/kube-ovn `kube-ovn-cni`).

use cube_model::gpu::GpuComponentRole;
use cube_model::objects::Pod;

use crate::Severity;

/// A system pod's role: what it is and what stops while it does not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PodRole {
    /// What the pod is (`the GPU Operator controller`).
    pub what: &'static str,
    /// What stops while it does not run.
    pub breaks: &'static str,
    /// How severe a failing pod of this role is.
    pub severity: Severity,
}

const fn role(what: &'static str, breaks: &'static str, severity: Severity) -> PodRole {
    PodRole {
        what,
        breaks,
        severity,
    }
}

/// The name that identifies a pod's workload: its controller owner's name, else its own name.
fn workload_name(p: &Pod) -> &str {
    p.metadata
        .owner_references
        .iter()
        .find(|o| {
            matches!(
                o.kind.as_str(),
                "DaemonSet" | "ReplicaSet" | "StatefulSet" | "Deployment"
            )
        })
        .map_or(p.metadata.name.as_str(), |o| o.name.as_str())
}

/// True when `name` is `base` or `base-<suffix>` (a generated or node-name suffix), possibly
/// behind a Helm release prefix (`<release>-base...`) when `prefixed`.
fn named(name: &str, base: &str, prefixed: bool) -> bool {
    let at = |i: usize| {
        name[i..].starts_with(base)
            && matches!(name.as_bytes().get(i + base.len()), None | Some(b'-'))
    };
    at(0) || (prefixed && name.match_indices('-').any(|(i, _)| at(i + 1)))
}

/// The role of `p` when it is a system pod this table knows, else `None`. GPU reporting chain
/// pods (driver, toolkit, validators, device plugin) are not in it: see the module docs.
pub(crate) fn system_role(p: &Pod) -> Option<PodRole> {
    if crate::gpu::chain_component(p) {
        return None;
    }
    let name = workload_name(p);
    let ns = p.metadata.namespace.as_str();
    let system_ns = matches!(ns, "kube-system" | "");
    // NFD's master (v0.10+ writes the labels the workers send) and garbage collector
    if named(name, "nfd-master", true) || named(name, "node-feature-discovery-master", true) {
        return Some(role(
            "the node feature discovery master",
            "the labels NFD workers report are not written to the nodes, and the GPU device plugin and GPU Operator select GPU nodes by them",
            Severity::Error,
        ));
    }
    if let Some((r, _)) = cube_model::gpu::classify_pod(p) {
        let found = match r {
            GpuComponentRole::NfdWorker => Some(role(
                "the node feature discovery worker",
                "the feature.node.kubernetes.io labels of its node are not written or refreshed, and the GPU device plugin and GPU Operator select GPU nodes by them",
                Severity::Error,
            )),
            GpuComponentRole::FeatureDiscovery => Some(role(
                "NVIDIA GPU feature discovery",
                "the nvidia.com/gpu.* labels (product, count, MIG strategy) of its node are not written or refreshed, and GPU workloads and the operator's operands select nodes by them",
                Severity::Error,
            )),
            _ if name.contains("dcgm") => Some(role(
                "the DCGM GPU metrics exporter",
                "GPU metrics and health for its node are not collected (monitoring only: the GPUs still work)",
                Severity::Warning,
            )),
            _ if name.contains("mig-manager") => Some(role(
                "the GPU Operator's MIG manager",
                "the MIG layout asked by the node's nvidia.com/mig.config label is not applied",
                Severity::Error,
            )),
            _ if name.contains("mps-control-daemon") => Some(role(
                "the NVIDIA MPS control daemon",
                "pods sharing the node's GPUs through MPS cannot start",
                Severity::Error,
            )),
            _ if named(name, "gpu-operator", true) => Some(role(
                "the GPU Operator controller",
                "the driver, container toolkit, device plugin and validators are not deployed or reconciled on new GPU nodes or after a ClusterPolicy change (the operands already running keep running)",
                Severity::Error,
            )),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    if named(name, "hami-scheduler", true) || named(name, "vgpu-scheduler", true) {
        return Some(role(
            "the HAMi scheduler (scheduler extender and admission webhook)",
            "pods asking for HAMi's shared GPU resources are not admitted or scheduled",
            Severity::Error,
        ));
    }
    if named(name, "volcano-scheduler", true) {
        return Some(role(
            "the Volcano scheduler",
            "pods with schedulerName volcano (gang-scheduled training jobs) stay Pending",
            Severity::Error,
        ));
    }
    // the CNI DaemonSets workload-unavailable knows (kube-proxy has its own role below)
    if !named(name, "kube-proxy", false)
        && !name.starts_with("cilium-operator")
        && crate::rules::workload_unavailable::cni_daemon_set(name).is_some()
    {
        return Some(role(
            "the node's CNI (pod network) agent",
            "its node gets no pod network: the node turns NotReady and new pods there stay in ContainerCreating",
            Severity::Error,
        ));
    }
    if named(name, "coredns", false) || named(name, "kube-dns", false) {
        return Some(role(
            "the cluster DNS",
            "service names do not resolve in pods while no DNS replica runs",
            Severity::Error,
        ));
    }
    if named(name, "kube-proxy", false) {
        return Some(role(
            "kube-proxy",
            "Service IPs on its node are not programmed: pods there cannot reach Services, the API server's kubernetes Service included",
            Severity::Error,
        ));
    }
    if system_ns {
        for (base, what) in [
            (
                "kube-apiserver",
                "the API server (a static control-plane pod)",
            ),
            ("etcd", "etcd (a static control-plane pod)"),
            (
                "kube-controller-manager",
                "the controller manager (a static control-plane pod)",
            ),
            (
                "kube-scheduler",
                "the scheduler (a static control-plane pod)",
            ),
        ] {
            if named(name, base, false) {
                return Some(role(
                    what,
                    "the control plane of this member is degraded: with a single control-plane node the cluster stops reconciling or scheduling",
                    Severity::Error,
                ));
            }
        }
    }
    if named(name, "metrics-server", true) {
        return Some(role(
            "metrics-server",
            "`kubectl top` and HorizontalPodAutoscalers get no resource metrics",
            Severity::Warning,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(ns: &str, name: &str) -> Pod {
        let mut p = Pod::default();
        p.metadata.namespace = ns.to_owned();
        p.metadata.name = name.to_owned();
        p
    }

    #[track_caller]
    fn check(ns: &str, name: &str, expected: Option<(&str, Severity)>) {
        let got = system_role(&pod(ns, name)).map(|r| (r.what, r.severity));
        match (got, expected) {
            (Some((what, sev)), Some((part, want))) => {
                assert!(what.contains(part), "{name}: {what}");
                assert_eq!(sev, want, "{name}");
            }
            (None, None) => {}
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn roles_by_name() {
        use Severity::{Error, Warning};
        check(
            "gpu-operator",
            "gpu-operator-node-feature-discovery-worker-7bq5r",
            Some(("feature discovery worker", Error)),
        );
        check(
            "gpu-operator",
            "gpu-operator-node-feature-discovery-master-6d4f8d9c8d-2kq4v",
            Some(("feature discovery master", Error)),
        );
        check(
            "gpu-operator",
            "gpu-feature-discovery-8kq2x",
            Some(("GPU feature discovery", Error)),
        );
        check(
            "gpu-operator",
            "gpu-operator-7bbf8bb6b7-xl5mg",
            Some(("GPU Operator controller", Error)),
        );
        check(
            "gpu-operator",
            "nvidia-dcgm-exporter-5x2kq",
            Some(("DCGM", Warning)),
        );
        check(
            "gpu-operator",
            "nvidia-mig-manager-x8k2c",
            Some(("MIG manager", Error)),
        );
        check(
            "kube-system",
            "hami-scheduler-7b8c9d-xyz12",
            Some(("HAMi scheduler", Error)),
        );
        check(
            "kube-system",
            "coredns-5d78c9869d-7xkzq",
            Some(("DNS", Error)),
        );
        check(
            "kube-flannel",
            "kube-flannel-ds-abcde",
            Some(("CNI", Error)),
        );
        check("kube-system", "calico-node-x2k8q", Some(("CNI", Error)));
        check(
            "kube-system",
            "kube-proxy-9zq4d",
            Some(("kube-proxy", Error)),
        );
        check("kube-system", "etcd-master-01", Some(("etcd", Error)));
        check(
            "kube-system",
            "metrics-server-6d94bc8694-abcde",
            Some(("metrics-server", Warning)),
        );
        // the chain is reported elsewhere; user pods have no role
        check("kube-system", "nvidia-device-plugin-daemonset-4xw9t", None);
        check("team-a", "train-job-0", None);
        check("team-a", "etcd-backup-0", None);
        check("team-a", "my-coredns-test", None);
    }
}
