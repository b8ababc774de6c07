//! The catalog table. Texts are copied from the upstream files named in each entry (format
//! verbs replaced by placeholders); versions are the releases that print that wording.
//! Entries of a group are ordered specific first.

use super::{Entry, Family as F};
use crate::Severity::{Error, Info, Warning};
use crate::classify::SignalKind as K;

const K8S: &str = "kubernetes/kubernetes";
const TOKEN_GO: &str = "cmd/kubeadm/app/discovery/token/token.go";
const CHECKS_GO: &str = "cmd/kubeadm/app/preflight/checks.go";
const K3S: &str = "k3s-io/k3s";
/// The Rancher agent's TLS refusal of Rancher's own certificate (rancher.proxy-tls, rancher.remotedialer-tls).
const RANCHER_TLS_CAUSE: &str = "the Rancher agent does not trust the certificate Rancher's server-url presents (x509: {reason}): Rancher serves a private or self-signed CA's certificate the agent was not given (the registration's CATTLE_CA_CHECKSUM, Rancher's `cacerts` setting), `agent-tls-mode` is strict (Rancher 2.9+) while the certificate comes from a public CA not in `cacerts`, or a proxy or load balancer in front of Rancher presents its own certificate; it is not the downstream cluster's API server certificate";
const RANCHER_TLS_REMEDY: &str = "see the certificate the agent gets: `openssl s_client -connect <server-url>:443 -showcerts` from a cluster node; with Rancher's own or a private CA, install Rancher with `privateCA=true` and the `tls-ca` secret (cacerts.pem) in cattle-system so the registration carries its checksum, then run the registration command again; with a publicly trusted certificate set the `agent-tls-mode` setting to `system-store`; with a TLS-terminating proxy pass TLS through to Rancher";
const NVDP: &str = "NVIDIA/k8s-device-plugin";
const GO: &str = "golang/go";
const KUBECTL_HELPERS: &str = "staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go";
// ServiceAccount token Secrets no longer created by Kubernetes 1.24+ (see the catalog section
// "ServiceAccount token Secrets" for the upstream files); a `{{`/`}}` is a literal brace
const SA_TOKEN_ARGOCD_CAUSE: &str = "`argocd cluster add` created its ServiceAccount in the member cluster (argocd-manager in kube-system unless --service-account / --system-namespace say otherwise) and then waited 30 s for a kubernetes.io/service-account-token Secret listed in that ServiceAccount; Kubernetes 1.24 and later no longer create such a Secret for a ServiceAccount (LegacyServiceAccountTokenNoAutoGeneration), so this argocd CLI (v2.3.6 or older, before the 1.24 token handling of v2.4.0 / v2.3.7 / v2.2.12) cannot register a 1.24+ cluster. The cluster is reachable and the CLI's RBAC steps worked; it is not a timeout of the network";
const SA_TOKEN_ARGOCD_REMEDY: &str = "upgrade the argocd CLI to v2.4 or later (it creates the token Secret itself) and run `argocd cluster add` again; to keep this CLI, create the Secret and list it in the ServiceAccount first: `echo '{{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{{\"name\":\"argocd-manager-token\",\"annotations\":{{\"kubernetes.io/service-account.name\":\"argocd-manager\"}}}},\"type\":\"kubernetes.io/service-account-token\"}}' | kubectl -n kube-system apply -f - && kubectl -n kube-system patch serviceaccount argocd-manager -p '{{\"secrets\":[{{\"name\":\"argocd-manager-token\"}}]}}'`";
const SA_TOKEN_KARMADA_CAUSE: &str = "karmadactl join (v1.2 or older) created its ServiceAccount in the member cluster's namespace {namespace} and looked for the kubernetes.io/service-account-token Secret listed in it; Kubernetes 1.24 and later no longer create such a Secret for a ServiceAccount (LegacyServiceAccountTokenNoAutoGeneration), so this karmadactl cannot join a 1.24+ member (karmadactl v1.3 creates the Secret itself). The member is reachable and the join's RBAC steps worked";
const SA_TOKEN_KARMADA_REMEDY: &str = "use karmadactl / kubectl-karmada v1.3 or later (the version of the Karmada control plane or newer) and join again; with this version, create the token Secret of each ServiceAccount the join made in {namespace} and list it in the ServiceAccount (`kubectl -n {namespace} get serviceaccounts` on the member; for each <sa>: a Secret of type kubernetes.io/service-account-token annotated kubernetes.io/service-account.name=<sa>, then `kubectl -n {namespace} patch serviceaccount <sa> -p '{{\"secrets\":[{{\"name\":\"<sa>-token\"}}]}}'`), or register the member in Pull mode (`karmadactl register`)";
const SA_TOKEN_RANCHER_CAUSE: &str = "Rancher's cattle-cluster-agent (Rancher v2.6.6 or older) reads its credentials from the token Secret of the ServiceAccount {namespace}/{sa}; Kubernetes 1.24 and later no longer create such a Secret for a ServiceAccount (LegacyServiceAccountTokenNoAutoGeneration), so the agent of this Rancher version cannot run on a 1.24+ cluster (Rancher supports 1.24 from v2.6.7, which creates the Secret itself)";
const SA_TOKEN_RANCHER_HOSTED_CAUSE: &str = "Rancher (v2.6.6 or older) created its ServiceAccount in the hosted cluster (EKS, GKE or AKS) and waited for the token Secret Kubernetes used to create for it; Kubernetes 1.24 and later no longer create it (LegacyServiceAccountTokenNoAutoGeneration), so this Rancher version cannot import or provision a 1.24+ hosted cluster";
const SA_TOKEN_RANCHER_REMEDY: &str = "upgrade Rancher to v2.6.7 or later (the first with Kubernetes 1.24 support, which creates the token Secret itself), then re-run the cluster's registration command; or keep the cluster on a Kubernetes version this Rancher supports";
const SA_TOKEN_NOT_FILLED_CAUSE: &str = "the join tool created the ServiceAccount token Secret itself (the Kubernetes 1.24+ way) and waited in vain for the member's token controller to write a token into it: kube-controller-manager's token controller is not running there (the controller-manager is down, or runs without --service-account-private-key-file, or the distribution disabled it), so no token Secret of the cluster is ever filled";
const SA_TOKEN_NOT_FILLED_CAUSE_KARMADA: &str = "karmadactl waited 30 s in vain for the token of its ServiceAccount's Secret in the member cluster: with karmadactl v1.3+ the Secret it created was not filled by the member's token controller (kube-controller-manager's token controller: the controller-manager is down or runs without --service-account-private-key-file); with an older karmadactl the ServiceAccount lists a Secret that does not exist";
const SA_TOKEN_NOT_FILLED_REMEDY: &str = "on the member check that kube-controller-manager runs and has --service-account-private-key-file (`kubectl -n kube-system get pods -l component=kube-controller-manager`, its flags in /etc/kubernetes/manifests/kube-controller-manager.yaml); `kubectl -n <namespace> get secrets --field-selector type=kubernetes.io/service-account-token` shows whether the Secret has a token (DATA 3), then join again";
const KARMADA_WRONG_API_CAUSE: &str = "the command reached an API server that does not serve Karmada's API (the *.karmada.io groups): its --kubeconfig (or --karmada-context) points at the host cluster Karmada is installed in, or at a member, instead of at karmada-apiserver, the Karmada control plane's own API server; Karmada's components can all be Running and this still fails (a NotFound, not the 503 of an unavailable karmada-aggregated-apiserver)";
const KARMADA_WRONG_API_REMEDY: &str = "run it against karmada-apiserver: `karmadactl init` wrote its kubeconfig to /etc/karmada/karmada-apiserver.config; a Helm install keeps it in the Secret of karmada-system on the host (`kubectl -n karmada-system get secrets | grep kubeconfig`, then `kubectl -n karmada-system get secret <name> -o jsonpath='{{.data.kubeconfig}}' | base64 -d > karmada-apiserver.config`); check it with `kubectl --kubeconfig karmada-apiserver.config api-resources --api-group=cluster.karmada.io` (lists clusters), then re-run the join/unjoin with --kubeconfig karmada-apiserver.config and the member's own kubeconfig in --cluster-kubeconfig (the Secret's kubeconfig names the in-cluster Service address: from outside the host cluster use karmada-apiserver's NodePort or LoadBalancer address, or `kubectl -n karmada-system port-forward svc/karmada-apiserver 5443`); if that file is karmada-apiserver's and the resource is still missing, the APIService v1alpha1.cluster.karmada.io or Karmada's CRDs were never installed (`kubectl --kubeconfig karmada-apiserver.config get apiservices | grep karmada`)";

/// The remedy of a plugin container without the NVIDIA driver library, for any runtime (the
/// same text as `plugin_runtime::default_runtime_remedy(None)`, which a test checks).
pub(crate) const NVML_LIBRARY_REMEDY: &str = "make nvidia the default runtime of the node's container runtime (Docker: \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json; containerd: default_runtime_name = \"nvidia\" in /etc/containerd/config.toml; CRI-O: default_runtime = \"nvidia\" under [crio.runtime]); `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` writes it for containerd (`--runtime=docker`, `--runtime=crio` for the others), then restart that runtime; or keep the default and give the plugin's DaemonSet `runtimeClassName: nvidia` (a RuntimeClass whose handler is the toolkit's nvidia runtime; the device plugin's Helm chart has a runtimeClassName value); then delete the plugin pod so it restarts, and check the driver with `nvidia-smi` on the node";

/// The one remedy of NVML's `Driver/library version mismatch` (NVML_ERROR_LIB_RM_VERSION_MISMATCH,
/// nvml.h) in every wording: the device plugin's `Failed to initialize NVML: ...`, the container
/// toolkit hook's `nvml error: driver/library version mismatch`, the host's `nvidia-smi`. The
/// user-space driver was upgraded while the old kernel module stays loaded
/// (NVIDIA/k8s-device-plugin#221, NVIDIA/nvidia-container-toolkit#394, NVIDIA/gpu-operator#898).
pub(crate) const NVML_VERSION_MISMATCH_REMEDY: &str = "drain the node and reboot it (or, with nothing using the GPU, unload and reload the nvidia modules: `sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia`) so the kernel module matches the user-space libraries, then check `nvidia-smi` on the node and restart the device-plugin pod; hold the driver packages (`sudo apt-mark hold 'nvidia-*' 'libnvidia-*'`, or the unattended-upgrades blacklist) so an upgrade does not replace the libraries under a running module again; the container runtime's configuration is not the cause";

/// What a CUDA program that finds no GPU needs (catalog `cuda-app.*`; rules::log_catalog
/// refines it with the pod's requests).
pub(crate) const CUDA_APP_NO_GPU_REMEDY: &str = "a container gets a GPU only when it asks for one: `nvidia.com/gpu: 1` under the container's resources.limits (and `runtimeClassName: nvidia` where nvidia is not the node's default runtime); `kubectl describe pod <pod>` shows its Limits; if it does ask, `kubectl exec <pod> -- nvidia-smi` and `kubectl exec <pod> -- env | grep NVIDIA_VISIBLE_DEVICES` show whether the runtime injected the GPU";
/// What a CUDA program whose driver is too old needs (catalog `cuda-app.*`).
pub(crate) const CUDA_APP_OLD_DRIVER_REMEDY: &str = "compare the node's driver (`nvidia-smi` header: Driver Version and the highest CUDA Version it supports) with the CUDA version of the image (its tag or `nvcc --version`, torch.version.cuda): use an image built for a CUDA the driver supports, or upgrade the node's driver (GPU operator: driver.version in the ClusterPolicy); on data-center GPUs the cuda-compat package in the image is the other way";

/// The remedy after an Xid critical error marked a GPU unhealthy.
const XID_REMEDY: &str = "check the GPU on the node (`nvidia-smi -q`, `dmesg | grep -i xid`: the NVIDIA Xid catalogue says whether a reset, a reboot or a replacement is needed), drain and reset or reboot the node, then restart the device-plugin pod so it re-registers the GPU; Xids that are only application errors can be skipped with the plugin's DP_DISABLE_HEALTHCHECKS (a comma-separated Xid list)";

/// What an MPS failure of the NVIDIA device plugin (v0.15+) needs: the control daemon the Helm
/// chart deploys next to the plugin (NVIDIA/k8s-device-plugin
/// deployments/helm/nvidia-device-plugin/templates/daemonset-mps-control-daemon.yml, scheduled
/// on nodes labelled `nvidia.com/mps.capable=true` by GPU feature discovery; values.yaml
/// `mps.root: /run/nvidia/mps`; README "With CUDA MPS").
const MPS_DAEMON_REMEDY: &str = "MPS sharing needs the MPS control daemon on the node: the Helm chart's `nvidia-device-plugin-mps-control-daemon` DaemonSet runs it only on nodes labelled `nvidia.com/mps.capable=true` (set by GPU feature discovery from the same sharing config): `kubectl get pods -A -o wide | grep mps-control-daemon` must show a Running pod on this node, and its log says why the daemon is not healthy; the plugin and the daemon must use the same MPS root (`--mps-root` / MPS_ROOT, chart value mps.root, default /run/nvidia/mps) and the same driver root (/run/nvidia/driver with the GPU operator's driver); MPS is not supported on MIG devices; then restart the plugin pod";
/// A MIG strategy selected on a GPU without MIG devices (catalog `nvidia.mig-strategy-*`,
/// `{evidence}` filled by classify::mig).
const MIG_NO_DEVICES_CAUSE: &str = "the MIG strategy {strategy} is selected, but the GPU has no MIG devices ({evidence}): MIG mode is not enabled or no GPU instances were created, so no nvidia.com/mig-<profile> resource is advertised (with the mixed strategy the plugin advertises MIG resources only for MIG devices that exist; with single, a MIG-enabled GPU without instances is advertised as nothing); the layout is applied from the node label nvidia.com/mig.config";
/// How a MIG layout is applied (NVIDIA/gpu-operator docs "GPU Operator with MIG";
/// NVIDIA/mig-parted deployments/gpu-operator, config profiles such as all-1g.10gb).
const MIG_LAYOUT_REMEDY: &str = "with the GPU operator, label the node with the layout you want: `kubectl label node <node> nvidia.com/mig.config=<profile> --overwrite` (a name from the MIG manager's config: all-1g.10gb, all-balanced, or your own entry such as 2g.12gb + 2x 1g.6gb in a custom mig-parted ConfigMap set as migManager.config.name); the MIG manager enables MIG mode, creates the instances and sets nvidia.com/mig.config.state=success, then the plugin advertises nvidia.com/mig-<profile>; without the operator enable MIG and create instances on the host (`nvidia-smi -i 0 -mig 1`, then `nvidia-smi mig -cgi <profiles> -C`; `nvidia-smi -L` lists the MIG devices) and restart the device plugin; if whole GPUs are wanted, use mig.strategy none";
const MIG_STATE_FAILED_CAUSE: &str = "the GPU operator's MIG manager reports nvidia.com/mig.config.state={state}: it could not apply the MIG layout named by the node's nvidia.com/mig.config label (a profile the GPU does not support or that is missing from its config, GPU clients that keep the GPU busy during the reset, or a MIG mode change that needs a reboot), so the node does not advertise the MIG devices of that layout";
const MIG_STATE_FAILED_REMEDY: &str = "read the MIG manager's log (`kubectl -n gpu-operator logs -l app=nvidia-mig-manager`); check the node's nvidia.com/mig.config value is a profile of the MIG manager's ConfigMap that fits this GPU (`kubectl -n gpu-operator get configmap default-mig-parted-config -o yaml`), stop the pods using the GPU (the MIG manager evicts operator components, not your workloads), then relabel the node (`kubectl label node <node> nvidia.com/mig.config=<profile> --overwrite`)";
pub(crate) const TOOLKIT_REMEDY: &str = "run `nvidia-smi` on the node: if it fails fix the driver first (GPU operator: `kubectl -n gpu-operator logs <nvidia-driver-daemonset pod> -c nvidia-driver-ctr`); if it works, check the toolkit's driver root (`root` in /etc/nvidia-container-runtime/config.toml; GPU operator `driver.enabled` and `hostPaths.driverInstallDir` must match where the driver is) and restart the container-toolkit pod";

const AMD_LABELLER_REMEDY: &str = "on the node check `lsmod | grep amdgpu` and `ls /sys/class/drm/card*/device/`: if no card is bound to amdgpu install or load the ROCm kernel driver; if only this attribute is absent for the GPU model (integrated GPUs have no product_name), turn that label off in the labeller's arguments";

const NFS_MOUNT_REMEDY: &str = "mount the export by hand from a node with the same options (`mount -t nfs -o <options of 'Mounting arguments'> <server>:<path> /mnt`) to see the server's answer; check the server exports the path to the nodes (`showmount -e <server>`) and offers the requested NFS version (`rpcinfo -p <server>`); a CSI driver's controller pod mounts the share too (to create volumes), so it must reach the server as well";

const RANCHER_LOOPBACK_REMEDY: &str = "set Rancher's server-url (Global Settings > server-url, or `kubectl edit settings.management.cattle.io server-url` in Rancher's cluster) to a DNS name or address of Rancher (or its load balancer) that the downstream nodes and pods reach, then re-run the registration command from the Rancher UI";

/// The dispatchers that log an admission webhook call failing open or closed.
const WEBHOOK_DISPATCHER: &str =
    "staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/{mutating,validating}/dispatcher.go";

const ETCD: &str = "etcd-io/etcd";
const ETCD_ERRORS: &str = "api/v3rpc/rpctypes/error.go";

/// The remedy of etcd's NOSPACE alarm (etcd's maintenance guide, "Space quota").
const ETCD_NOSPACE_REMEDY: &str = "on a control-plane node with etcdctl (kubeadm: `kubectl -n kube-system exec` into the etcd pod, with --cacert/--cert/--key of /etc/kubernetes/pki/etcd): read the current revision (`etcdctl endpoint status -w json`), compact up to it (`etcdctl compact <revision>`), defragment every member one at a time (`etcdctl defrag --endpoints=<member>`; the API server's own compaction does not return the space), then `etcdctl alarm disarm` and check `etcdctl alarm list` is empty; if the data really needs the space raise --quota-backend-bytes on every member (at most 8 GiB is the recommended size) and find what fills it (many Events, large ConfigMaps/Secrets, a controller writing in a loop)";

/// The remedy of an aggregated API the API server cannot reach.
const APISERVICE_REMEDY: &str = "`kubectl get apiservices | grep False` names the APIService and why (MissingEndpoints: its pods are not Ready; FailedDiscoveryCheck: the API server cannot reach them); check its pods (metrics-server: `kubectl -n kube-system get pods -l k8s-app=metrics-server` and their log, `--kubelet-insecure-tls` when they cannot verify the kubelets' certificates); if the pods run, open the path from the control plane to the pod network (hostNetwork: true for metrics-server on EKS with a custom CNI or Calico, a firewall rule from the control plane to the pod's port); an APIService left from an uninstalled component is deleted with `kubectl delete apiservice <name>`";

/// The remedy of etcd answering too slowly.
const ETCD_SLOW_REMEDY: &str = "check etcd's health and latency (`etcdctl endpoint status --cluster -w table`, `etcdctl check perf`; the etcd log's `slow fdatasync` / `apply request took too long` lines): give etcd a fast dedicated disk (SSD, WAL fsync p99 under 10 ms), keep members on a low-latency network, and lower the load (many Events or large objects); occasional lines during a leader election are harmless";

/// The remedy of a request the API server did not finish within its deadline.
const APISERVER_TIMEOUT_REMEDY: &str = "find what the API server waited for: admission webhooks first (`kubectl get mutatingwebhookconfigurations,validatingwebhookconfigurations -o custom-columns=NAME:.metadata.name,TIMEOUT:.webhooks[*].timeoutSeconds,POLICY:.webhooks[*].failurePolicy`: every webhook the request matches and the API server cannot reach waits its timeoutSeconds, even with failurePolicy Ignore; check their Services' endpoints), then etcd's latency (`etcdctl endpoint status --cluster -w table`, `etcdctl check perf`, the etcd log's `took too long` lines) and the API server's own log (`Timeout or abort while handling`, priority-and-fairness rejections in `kubectl get --raw /metrics | grep apiserver_flowcontrol_rejected_requests_total`); a very large LIST needs paging (--chunk-size) or a longer --request-timeout";

/// The remedy of an API server that cannot reach a node's kubelet.
const KUBELET_PATH_REMEDY: &str = "open TCP 10250 from the control plane to the nodes (firewall, cloud security group: EKS cluster security group, GKE private clusters' firewall rule from the control-plane range) and check the kubelet answers there (`curl -k https://<node address>:10250/healthz` from a control-plane node gives 401 or ok when it listens); the API server dials the node's first address of its preferred type (`kubectl get node <node> -o wide`, kube-apiserver --kubelet-preferred-address-types): a wrong InternalIP (a NAT or VirtualBox 10.0.2.15 address, the kubelet's --node-ip) must be fixed on the node; with konnectivity or a cloud tunnel, its agent pods must run; for an aggregated API check its APIService (`kubectl get apiservices | grep False`)";

/// The remedy of a node whose runtime reports no CNI plugin: install the CNI, check what it
/// wrote where the runtime reads it, then make the runtime and the kubelet read it again
/// (containerd's CRI plugin loads the config at start and reloads it only on fsnotify events
/// of conf_dir: containerd/containerd pkg/cri/server/cni_conf_syncer.go; its conf_dir and
/// bin_dir are set under [plugins."io.containerd.grpc.v1.cri".cni] in config.toml).
const CNI_NOT_READY_REMEDY: &str = "install the cluster's CNI if none is (its DaemonSet pod must be Running on this node: `kubectl -n kube-system get pods -o wide | grep <node>`); on the node check that /etc/cni/net.d holds its config (`ls /etc/cni/net.d`, a *.conflist) and /opt/cni/bin its plugin binaries (the conf_dir and bin_dir containerd reads, under [plugins.\"io.containerd.grpc.v1.cri\".cni] in /etc/containerd/config.toml; k3s, rke2 and microk8s use their own paths); if they are there and the node stays NotReady, restart the runtime and then the kubelet (`sudo systemctl restart containerd && sudo systemctl restart kubelet`): containerd loads the CNI config when it starts and reloads it only on file events in conf_dir, so a config written before the directory was watched (or a failed load) stays unseen until a restart; upgrade containerd if it recurs";

/// The remedy of a claim that waits for an external provisioner nothing shows working.
const WAITING_PROVISIONER_REMEDY: &str = "`kubectl get storageclass` shows the class's PROVISIONER; `kubectl get csidrivers` and `kubectl get pods -A | grep -i -e csi -e provisioner` show whether that driver's controller runs: install it (EKS: the aws-ebs-csi-driver add-on with its IAM role; a NFS or local-path provisioner for self-managed clusters) or fix its pods (`kubectl -n <namespace> logs <controller pod> -c csi-provisioner`); a provisioner that runs under another name needs the StorageClass's provisioner field to match it";

/// The remedy of a kubelet that refuses a flag of its own command line.
const KUBELET_FLAG_REMEDY: &str = "remove or rename the flag where the kubelet's command line is built (`/var/lib/kubelet/kubeadm-flags.env` KUBELET_KUBEADM_ARGS, `/etc/default/kubelet` or `/etc/sysconfig/kubelet` KUBELET_EXTRA_ARGS, the systemd drop-in under /etc/systemd/system/kubelet.service.d): flags removed in this version (`--network-plugin`, `--cni-bin-dir`, `--docker-endpoint` went with dockershim in v1.24) must go, settings that moved go to /var/lib/kubelet/config.yaml; then `systemctl daemon-reload && systemctl restart kubelet`";

const KUBELET_CERT_REMEDY: &str = "re-issue the node's client credentials (kubeadm's 'kubelet client certificate rotation failed' procedure): on a control-plane node `kubeadm kubeconfig user --org system:nodes --client-name system:node:<node> > kubelet.conf`, copy it to /etc/kubernetes/kubelet.conf on the node, `systemctl restart kubelet`, then point kubelet.conf at /var/lib/kubelet/pki/kubelet-client-current.pem so rotation takes over; `kubeadm certs renew` does not renew kubelet client certificates";

/// How a node client certificate request gets approved (kubeadm's bootstrap RBAC:
/// cmd/kubeadm/app/phases/bootstraptoken/node/tlsbootstrap.go `AutoApproveNodeBootstrapTokens`
/// and `AutoApproveNodeCertificateRotation`; the csrapproving and csrsigning controllers of
/// kube-controller-manager).
pub(crate) const CSR_APPROVAL_REMEDY: &str = "approve what is pending now: `kubectl get csr` lists it (CONDITION Pending, REQUESTOR system:bootstrap:<token id> or system:node:<node>), `kubectl certificate approve <name>` approves it; then restore auto-approval for the next nodes: kubeadm's ClusterRoleBindings `kubeadm:node-autoapprove-bootstrap` (ClusterRole system:certificates.k8s.io:certificatesigningrequests:nodeclient for the group system:bootstrappers:kubeadm:default-node-token) and `kubeadm:node-autoapprove-certificate-rotation` (ClusterRole system:certificates.k8s.io:certificatesigningrequests:selfnodeclient for the group system:nodes) must exist (`kubectl get clusterrolebinding | grep autoapprove`; `kubeadm init phase bootstrap-token` on a control-plane node re-creates them), and kube-controller-manager must run its csrapproving and csrsigning controllers (`--controllers` must not exclude them; --cluster-signing-cert-file and --cluster-signing-key-file must name the cluster CA)";

/// Every catalog entry./// Every catalog entry.
pub static ENTRIES: &[Entry] = &[
    // ------------------------------------------------------------------ kubeadm: token / discovery
    Entry::new("kubeadm.token.jws-missing-legacy", F::Kubeadm,
        "there is no JWS signed token in the {configmap:w} ConfigMap. This token id \"{token_id:w}\" is invalid for this cluster, can't connect",
        K8S, TOKEN_GO, "v1.8-v1.12")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the bootstrap token {token_id} is unknown to the cluster (expired, deleted, or not signed yet)", "on a control-plane node run `kubeadm token create --print-join-command` and use the printed command")
        .samples(&[("configmap", "cluster-info")]),
    Entry::new("kubeadm.token.invalid-or-expired-master", F::Kubeadm,
        "token id \"{token_id:w}\" is invalid for this cluster or it has expired. Use \"kubeadm token create\" on the master node to creating a new valid token",
        K8S, TOKEN_GO, "v1.13-v1.19")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the bootstrap token {token_id} is unknown to the cluster (expired, deleted, or not signed yet)", "on a control-plane node run `kubeadm token create --print-join-command` and use the printed command"),
    Entry::new("kubeadm.token.invalid-or-expired", F::Kubeadm,
        "token id \"{token_id:w}\" is invalid for this cluster or it has expired. Use \"kubeadm token create\" on the control-plane node to create a new valid token",
        K8S, TOKEN_GO, "v1.20-v1.25")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the bootstrap token {token_id} is unknown to the cluster (expired, deleted, or not signed yet)", "on a control-plane node run `kubeadm token create --print-join-command` and use the printed command"),
    Entry::new("karmada.register.token-invalid", F::Karmada,
        "token id \"{token_id:w}\" is invalid for this cluster or it has expired. Use \"{command}\" on the karmada-control-plane to create a new valid token",
        "karmada-io/karmada", "pkg/karmadactl/register/register.go", "v1.8+")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the Karmada bootstrap token {token_id} is unknown to the Karmada control plane (expired or deleted)", "on the Karmada control plane run `karmadactl token create --print-register-command` and register again with the printed command")
        .samples(&[("command", "karmadactl token create")]),
    Entry::new("kubeadm.token.jws-waiting", F::Kubeadm,
        "The cluster-info ConfigMap does not yet contain a JWS signature for token ID \"{token_id:w}\", will try again",
        K8S, TOKEN_GO, "v1.26+")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("cluster-info carries no signature for token {token_id} yet: the token is unknown, expired, or the bootstrap signer has not run", "on a control-plane node run `kubeadm token create --print-join-command` and check that kube-controller-manager (bootstrapsigner) runs"),
    Entry::new("kubeadm.token.jws-not-found", F::Kubeadm,
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"{token_id:w}\"",
        K8S, TOKEN_GO, "v1.26+")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("cluster-info carries no signature for token {token_id}: the token is unknown, expired, or the bootstrap signer has not run", "on a control-plane node run `kubeadm token create --print-join-command` and check that kube-controller-manager (bootstrapsigner) runs"),
    // The same texts with the token id cut off (a pager or terminal cut the line, a klog
    // header cut, a paste that dropped the quoted id, or a redacted id): the conclusion is the
    // same, only the id is unknown. Table order puts them after the entries with the id (one
    // match per group). Wordings of cmd/kubeadm/app/discovery/token/token.go by release:
    // v1.8-v1.12 `there is no JWS signed token in the %s ConfigMap. This token id %q is invalid
    // for this cluster, can't connect`; v1.13-v1.25 `token id %q is invalid for this cluster or
    // it has expired. Use "kubeadm token create" on the master node (control-plane node from
    // v1.20) to create a new valid token`; v1.26+ getClusterInfo's `could not find a JWS
    // signature in the cluster-info ConfigMap for token ID %q` (returned when the poll times
    // out, logged at V(1) as `[discovery] Retrying due to error: ...`), earlier v1.26-v1.28
    // `The cluster-info ConfigMap does not yet contain a JWS signature for token ID %q, will
    // try again`; validateClusterInfoToken keeps the v1.20 `token id %q is invalid ...` text.
    Entry::new("kubeadm.token.jws-not-found-no-id", F::Kubeadm,
        "could not find a JWS signature in the cluster-info ConfigMap",
        K8S, TOKEN_GO, "v1.26+ (the token id cut off)")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("cluster-info carries no signature for the join's token (its id is cut off in the text): the token is unknown, expired, or the bootstrap signer has not run", "on a control-plane node run `kubeadm token create --print-join-command` and check that kube-controller-manager (bootstrapsigner) runs"),
    Entry::new("kubeadm.token.jws-waiting-no-id", F::Kubeadm,
        "ConfigMap does not yet contain a JWS signature for token ID",
        K8S, TOKEN_GO, "v1.26-v1.28 (the token id cut off)")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("cluster-info carries no signature for the join's token yet (its id is cut off in the text): the token is unknown, expired, or the bootstrap signer has not run", "on a control-plane node run `kubeadm token create --print-join-command` and check that kube-controller-manager (bootstrapsigner) runs"),
    Entry::new("kubeadm.token.jws-missing-legacy-no-id", F::Kubeadm,
        "there is no JWS signed token in the {configmap:w} ConfigMap",
        K8S, TOKEN_GO, "v1.8-v1.12 (the token id cut off)")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the join's bootstrap token is unknown to the cluster (expired, deleted, or not signed yet; its id is cut off in the text)", "on a control-plane node run `kubeadm token create --print-join-command` and use the printed command")
        .samples(&[("configmap", "cluster-info")]),
    Entry::new("karmada.register.token-invalid-no-id", F::Karmada,
        "is invalid for this cluster or it has expired. Use \"{command}\" on the karmada-control-plane",
        "karmada-io/karmada", "pkg/karmadactl/register/register.go", "v1.8+ (the token id cut off)")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the Karmada bootstrap token is unknown to the Karmada control plane (expired or deleted; its id is cut off in the text)", "on the Karmada control plane run `karmadactl token create --print-register-command` and register again with the printed command")
        .samples(&[("command", "karmadactl token create")]),
    Entry::new("kubeadm.token.invalid-or-expired-no-id", F::Kubeadm,
        "is invalid for this cluster or it has expired",
        K8S, TOKEN_GO, "v1.13+ (the token id cut off)")
        .to(K::JoinTokenUnknown, "join-token-invalid", Error).group("token").join()
        .says("the join's bootstrap token is unknown to the cluster (expired, deleted, or not signed yet; its id is cut off in the text)", "on a control-plane node run `kubeadm token create --print-join-command` and use the printed command"),
    // v1.26+ discovery's V(1) lines while it polls cluster-info (token.go getClusterInfo)
    Entry::new("kubeadm.discovery.waiting-jws", F::Kubeadm,
        "[discovery] Waiting for the cluster-info ConfigMap to receive a JWS signature for token ID {token_id:w}",
        K8S, TOKEN_GO, "v1.26+").complete().join()
        .samples(&[("token_id", "\"abcdef\"")]),
    Entry::new("kubeadm.discovery.retrying", F::Kubeadm,
        "[discovery] Retrying due to error: {error}",
        K8S, TOKEN_GO, "v1.26+").join(),
    Entry::new("kubeadm.token.jws-verify-failed", F::Kubeadm,
        "failed to verify JWS signature of received cluster info object, can't trust this API Server",
        K8S, TOKEN_GO, "v1.8+")
        .to(K::JoinTokenSecretMismatch, "join-token-invalid", Error).group("token").join()
        .says("the token id is known but its secret part does not sign cluster-info: the token was mistyped or belongs to another cluster", "copy the whole `<id>.<secret>` token again, or print a fresh join command with `kubeadm token create --print-join-command`"),
    Entry::new("kubeadm.discovery.not-bootstrapping", F::Kubeadm,
        "there is no {key:w} key in the {configmap:w} ConfigMap. This API Server isn't set up for token bootstrapping, can't connect",
        K8S, TOKEN_GO, "v1.8+")
        .to(K::JoinClusterInfoMissing, "join-token-invalid", Error).group("token").join()
        .says("kube-public/cluster-info has no kubeconfig: the control plane was not set up for token bootstrapping", "on a control-plane node run `kubeadm init phase bootstrap-token`, then join again")
        .samples(&[("key", "kubeconfig"), ("configmap", "cluster-info")]),
    Entry::new("kubeadm.discovery.ca-pin", F::Kubeadm,
        "none of the public keys \"{ca_key_hash:w}\" are pinned",
        K8S, "cmd/kubeadm/app/util/pubkeypin/pubkeypin.go", "v1.8+")
        .to(K::JoinCaPinMismatch, "join-ca-hash-mismatch", Error).join()
        .says("the API server's cluster CA (hash {ca_key_hash}) is not the one pinned by --discovery-token-ca-cert-hash: the cluster was re-initialised or the address reaches another cluster", "print a fresh join command on the current control plane (`kubeadm token create --print-join-command`): it carries the current CA pin"),
    Entry::new("kubeadm.discovery.connect-failed", F::Kubeadm,
        "[discovery] Failed to connect to API Server \"{endpoint:w}\": {error}",
        K8S, TOKEN_GO, "v1.8-v1.15").join(),
    Entry::new("kubeadm.discovery.request-failed", F::Kubeadm,
        "[discovery] Failed to request cluster info, will try again: {error}",
        K8S, TOKEN_GO, "v1.8-v1.15").join(),
    Entry::new("kubeadm.discovery.identity", F::Kubeadm,
        "couldn't validate the identity of the API Server: {error}",
        K8S, "cmd/kubeadm/app/discovery/discovery.go", "v1.13+").join(),
    Entry::new("kubeadm.phase.error", F::Kubeadm,
        "error execution phase {phase:w}: {error}",
        K8S, "cmd/kubeadm/app/cmd/phases/workflow/runner.go", "v1.13+").join(),
    Entry::new("kubeadm.preflight.running", F::Kubeadm,
        "[preflight] Running pre-flight checks",
        K8S, "cmd/kubeadm/app/cmd/phases/join/preflight.go", "v1.8+").join(),
    Entry::new("kubeadm.preflight.fatal", F::Kubeadm,
        "[preflight] Some fatal errors occurred:",
        K8S, CHECKS_GO, "v1.8+").join(),
    Entry::new("kubeadm.preflight.ignore-hint", F::Kubeadm,
        "[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`",
        K8S, CHECKS_GO, "v1.8+").join(),
    Entry::new("kubeadm.stack-trace-hint", F::Kubeadm,
        "To see the stack trace of this error execute with --v=5 or higher",
        K8S, "cmd/kubeadm/app/util/error.go", "v1.13+"),
    // ------------------------------------------------------------------ kubeadm: progress lines
    // The lines a healthy `kubeadm join` / `init` prints, in every version's wording: each is
    // understood on its own (an input of only these was read, not unrecognised); none concludes
    // anything, so an error line after them is still judged as itself. The phase tag before the
    // text changed across versions (`[kubelet]` 1.11, `[kubelet-start]` 1.12+; `[tlsbootstrap]`
    // 1.11-1.13, `[kubelet-start]` 1.14+; `[join]` 1.13, `[preflight]` 1.14+), so the templates
    // start after it.
    Entry::new("kubeadm.discovery.trying", F::Kubeadm,
        "[discovery] Trying to connect to API Server {endpoint:w}",
        K8S, TOKEN_GO, "v1.8-v1.13").complete().join()
        .samples(&[("endpoint", "\"10.0.0.1:6443\"")]),
    Entry::new("kubeadm.discovery.client-created", F::Kubeadm,
        "[discovery] Created cluster-info discovery client, requesting info from {url:w}",
        K8S, TOKEN_GO, "v1.8-v1.13").complete().join()
        .samples(&[("url", "\"https://10.0.0.1:6443\"")]),
    Entry::new("kubeadm.discovery.requesting-again", F::Kubeadm,
        "[discovery] Requesting info from {url:w} again to validate TLS against the pinned public key",
        K8S, TOKEN_GO, "v1.8-v1.13").complete().join()
        .samples(&[("url", "\"https://10.0.0.1:6443\"")]),
    Entry::new("kubeadm.discovery.signature-valid", F::Kubeadm,
        "[discovery] Cluster info signature and contents are valid and TLS certificate validates against pinned roots, will use API Server {endpoint:w}",
        K8S, TOKEN_GO, "v1.8-v1.13").complete().join()
        .samples(&[("endpoint", "\"10.0.0.1:6443\"")]),
    Entry::new("kubeadm.discovery.established", F::Kubeadm,
        "[discovery] Successfully established connection with API Server {endpoint:w}",
        K8S, "cmd/kubeadm/app/discovery/discovery.go", "v1.8-v1.13").complete().join()
        .samples(&[("endpoint", "\"10.0.0.1:6443\"")]),
    Entry::new("kubeadm.bootstrap.server-version", F::Kubeadm,
        "[bootstrap] Detected server version: {version:w}",
        K8S, "cmd/kubeadm/app/node/csr.go", "v1.8-v1.9").complete().join()
        .samples(&[("version", "v1.8.2")]),
    Entry::new("kubeadm.bootstrap.certificates-api", F::Kubeadm,
        "[bootstrap] The server supports the Certificates API ({api:w})",
        K8S, "cmd/kubeadm/app/node/csr.go", "v1.8-v1.9").complete().join()
        .samples(&[("api", "certificates.k8s.io/v1beta1")]),
    // kubeadm v1.4-v1.8 requested the node's client certificate itself and waited for the
    // approval (cmd/kubeadm/app/node/csr.go; `<node/csr>` tags before v1.6): progress lines,
    // concluded over the whole text by classify::csr (a text that stops after the request)
    Entry::new("kubeadm.csr.created", F::Kubeadm,
        "reated API client to obtain unique certificate for this node, generating keys and certificate signing request",
        K8S, "cmd/kubeadm/app/node/csr.go (PerformTLSBootstrap)", "v1.4-v1.8").complete().join(),
    Entry::new("kubeadm.csr.received", F::Kubeadm,
        "eceived signed certificate from the API server",
        K8S, "cmd/kubeadm/app/node/csr.go (PerformTLSBootstrap)", "v1.4-v1.8").complete().join(),
    Entry::new("kubeadm.csr.request-failed", F::Kubeadm,
        "failed to request signed certificate from the API server [{error}]",
        K8S, "cmd/kubeadm/app/node/csr.go (PerformTLSBootstrap)", "v1.4-v1.7").join(),
    // kubeadm's explanation printed around a failed kubelet wait (cmd/kubeadm/app/cmd/phases/
    // join/kubelet.go kubeadmJoinFailMsg, init's wait-control-plane phase): text of its own,
    // the error it frames is on the next line and judged there
    Entry::new("kubeadm.fail-msg.header", F::Kubeadm,
        "Unfortunately, an error has occurred:",
        K8S, "cmd/kubeadm/app/cmd/phases/join/kubelet.go (kubeadmJoinFailMsg)", "v1.11+").complete().join(),
    Entry::new("kubeadm.fail-msg.likely-caused", F::Kubeadm,
        "This error is likely caused by:",
        K8S, "cmd/kubeadm/app/cmd/phases/join/kubelet.go (kubeadmJoinFailMsg)", "v1.11+").complete().join(),
    Entry::new("kubeadm.fail-msg.systemd", F::Kubeadm,
        "If you are on a systemd-powered system, you can try to troubleshoot the error with the following commands:",
        K8S, "cmd/kubeadm/app/cmd/phases/join/kubelet.go (kubeadmJoinFailMsg)", "v1.11+").complete().join(),
    Entry::new("kubeadm.config.reading", F::Kubeadm,
        "Reading configuration from the cluster...",
        K8S, "cmd/kubeadm/app/cmd/join.go (`[join]` v1.13, `[preflight]` v1.14+), cmd/kubeadm/app/cmd/upgrade/common.go (`[upgrade/config]`)", "v1.13+").complete().join(),
    Entry::new("kubeadm.config.fyi", F::Kubeadm,
        "FYI: You can look at this config file with '{command}'",
        K8S, "cmd/kubeadm/app/cmd/join.go, cmd/kubeadm/app/cmd/upgrade/common.go", "v1.13+").complete().join()
        .samples(&[("command", "kubectl -n kube-system get cm kubeadm-config -o yaml")]),
    Entry::new("kubeadm.kubelet.downloading-config", F::Kubeadm,
        "Downloading configuration for the kubelet from the {configmap:w} ConfigMap in the kube-system namespace",
        K8S, "cmd/kubeadm/app/phases/kubelet/config.go (DownloadConfig)", "v1.11-v1.13").complete().join()
        .samples(&[("configmap", "\"kubelet-config-1.13\"")]),
    Entry::new("kubeadm.kubelet.writing-config", F::Kubeadm,
        "Writing kubelet configuration to file {path:w}",
        K8S, "cmd/kubeadm/app/phases/kubelet/config.go (WriteConfigToDisk)", "v1.11+").complete().join()
        .samples(&[("path", "\"/var/lib/kubelet/config.yaml\"")]),
    Entry::new("kubeadm.kubelet.writing-env", F::Kubeadm,
        "Writing kubelet environment file with flags to file {path:w}",
        K8S, "cmd/kubeadm/app/phases/kubelet/flags.go (writeKubeletFlagBytesToDisk)", "v1.11+").complete().join()
        .samples(&[("path", "\"/var/lib/kubelet/kubeadm-flags.env\"")]),
    Entry::new("kubeadm.kubelet.activating", F::Kubeadm,
        "Activating the kubelet service",
        K8S, "cmd/kubeadm/app/phases/kubelet/kubelet.go (TryStartKubelet)", "v1.11-v1.16").complete().join(),
    Entry::new("kubeadm.kubelet.starting", F::Kubeadm,
        "] Starting the kubelet",
        K8S, "cmd/kubeadm/app/phases/kubelet/kubelet.go (TryStartKubelet; `[preflight] Starting the kubelet service` v1.9-v1.10)", "v1.9+").complete().join(),
    Entry::new("kubeadm.kubelet.tls-bootstrap-wait", F::Kubeadm,
        "Waiting for the kubelet to perform the TLS Bootstrap",
        K8S, "cmd/kubeadm/app/cmd/phases/join/kubelet.go", "v1.11+").complete().join(),
    Entry::new("kubeadm.kubelet-check.waiting", F::Kubeadm,
        "[kubelet-check] Waiting for a healthy kubelet at {url:w}. This can take up to {timeout:w}",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go (WaitForKubelet)", "v1.31+").complete().join()
        .samples(&[("url", "http://127.0.0.1:10248/healthz"), ("timeout", "4m0s")]),
    Entry::new("kubeadm.kubelet-check.healthy", F::Kubeadm,
        "[kubelet-check] The kubelet is healthy after {duration:w}",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go (WaitForKubelet)", "v1.30+").complete().join()
        .samples(&[("duration", "1.001s")]),
    Entry::new("kubeadm.patchnode.cri-socket", F::Kubeadm,
        "[patchnode] Uploading the CRI Socket information {socket:w} to the Node API object {node:w} as an annotation",
        K8S, "cmd/kubeadm/app/phases/patchnode/patchnode.go (AnnotateCRISocket)", "v1.11-v1.26").complete().join()
        .samples(&[("socket", "\"/var/run/dockershim.sock\""), ("node", "\"node-01\"")]),
    Entry::new("kubeadm.join.done", F::Kubeadm,
        "This node has joined the cluster:",
        K8S, "cmd/kubeadm/app/cmd/join.go (joinWorkerNodeDoneMsg)", "v1.11+").complete().join(),
    Entry::new("kubeadm.join.done-legacy", F::Kubeadm,
        "Node join complete:",
        K8S, "cmd/kubeadm/app/cmd/join.go (joinDoneMsgf)", "v1.8-v1.10").complete().join(),
    Entry::new("kubeadm.join.run-get-nodes", F::Kubeadm,
        "Run 'kubectl get nodes' on the {where:w} to see this {what:w} join the cluster.",
        K8S, "cmd/kubeadm/app/cmd/join.go (`master` before v1.14, `control-plane` v1.14+)", "v1.8+").complete().join()
        .samples(&[("where", "control-plane"), ("what", "node")]),
    Entry::new("kubeadm.init.done", F::Kubeadm,
        "Your Kubernetes {what:w} has initialized successfully!",
        K8S, "cmd/kubeadm/app/cmd/init.go (initDoneTempl: `master` before v1.14, `control-plane` v1.14+)", "v1.8+").complete()
        .samples(&[("what", "control-plane")]),
    Entry::new("kubeadm.init.version", F::Kubeadm,
        "[init] Using Kubernetes version: {version:w}",
        K8S, "cmd/kubeadm/app/cmd/init.go", "v1.8+").complete()
        .samples(&[("version", "v1.30.2")]),
    Entry::new("kubeadm.init.pulling-images", F::Kubeadm,
        "[preflight] Pulling images required for setting up a Kubernetes cluster",
        K8S, "cmd/kubeadm/app/cmd/phases/init/preflight.go", "v1.11+").complete(),
    Entry::new("kubeadm.init.generating-cert", F::Kubeadm,
        "[certs] Generating {cert:w} certificate and key",
        K8S, "cmd/kubeadm/app/phases/certs/certs.go", "v1.13+").complete()
        .samples(&[("cert", "\"apiserver\"")]),
    Entry::new("kubeadm.init.writing-kubeconfig", F::Kubeadm,
        "[kubeconfig] Writing {file:w} kubeconfig file",
        K8S, "cmd/kubeadm/app/phases/kubeconfig/kubeconfig.go", "v1.8+").complete()
        .samples(&[("file", "\"admin.conf\"")]),
    Entry::new("kubeadm.init.static-pod", F::Kubeadm,
        "[control-plane] Creating static Pod manifest for {component:w}",
        K8S, "cmd/kubeadm/app/phases/controlplane/manifests.go", "v1.13+").complete()
        .samples(&[("component", "\"kube-apiserver\"")]),
    Entry::new("kubeadm.init.addon-applied", F::Kubeadm,
        "[addons] Applied essential addon: {addon:w}",
        K8S, "cmd/kubeadm/app/phases/addons (dns/dns.go, proxy/proxy.go)", "v1.8+").complete()
        .samples(&[("addon", "CoreDNS")]),
    // kubeadm discovery reads the kubeconfig inside the cluster-info ConfigMap and its CA
    // (cmd/kubeadm/app/discovery/token/token.go: `failed to parse cluster CA from the %s
    // ConfigMap` in validateClusterCA, `couldn't parse the kubeconfig file in the %s ConfigMap`,
    // `malformed kubeconfig in the %s ConfigMap`, `there is no %s key in the %s ConfigMap. This
    // API Server isn't set up for token bootstrapping, can't connect`, `the second kubeconfig
    // from the %s ConfigMap (using validated TLS) was different from the first`; v1.13 spelled
    // it `configmap`). Not a token or pin problem: cluster-info itself is not what this kubeadm
    // can use.
    // Token discovery reads kube-public/cluster-info anonymously (kubeadm
    // cmd/kubeadm/app/discovery/token/token.go; karmadactl register's copy,
    // pkg/karmadactl/register/register.go discoveryBootstrapConfigAndClusterInfo, wraps it in
    // the same `couldn't validate the identity of the API Server: %w`). A bare `Forbidden`
    // answer is the API server refusing system:anonymous that read: the Role and RoleBinding
    // `kubeadm:bootstrap-signer-clusterinfo` (cmd/kubeadm/app/phases/bootstraptoken/clusterinfo/
    // clusterinfo.go CreateClusterInfoRBACRules, get on configmaps/cluster-info for user
    // system:anonymous) are missing. Anonymous auth switched off answers 401 instead.
    Entry::new("discovery.cluster-info-forbidden", F::Kubeadm,
        "kube-public/configmaps/cluster-info{query:w} Forbidden",
        K8S, "cmd/kubeadm/app/discovery/token/token.go; karmada-io/karmada pkg/karmadactl/register/register.go", "kubeadm v1.13+, karmadactl register v1.8+")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("the API server refuses the anonymous read of the kube-public/cluster-info ConfigMap that token discovery needs (403 Forbidden): the Role and RoleBinding that let system:anonymous get it (`kubeadm:bootstrap-signer-clusterinfo`) are missing; the token and CA pin are not the problem yet", "on the control plane being joined (for Karmada: with the karmada-apiserver kubeconfig) re-create the RBAC: `kubectl -n kube-public create role kubeadm:bootstrap-signer-clusterinfo --verb=get --resource=configmaps --resource-name=cluster-info && kubectl -n kube-public create rolebinding kubeadm:bootstrap-signer-clusterinfo --role=kubeadm:bootstrap-signer-clusterinfo --user=system:anonymous` (kubeadm: `kubeadm init phase bootstrap-token` does the same), then run the join or register command again")
        .samples(&[("query", "?timeout=10s\":")]),
    Entry::new("kubeadm.cluster-info.ca-trailing-pem", F::Kubeadm,
        "failed to parse cluster CA from the {configmap:w} {object:w}: trailing data after first PEM block",
        K8S, TOKEN_GO, "v1.11-v1.13")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("cluster-info's kubeconfig holds more than one CA certificate (a CA rotation in progress, or a bundle) and this kubeadm reads only one PEM block", "use a kubeadm of v1.14 or later on the joining node (it reads a CA bundle), or leave only the current CA in `kubectl -n kube-public get cm cluster-info -o yaml` (certificate-authority-data) until the join is done; `kubeadm join --discovery-file` with a kubeconfig holding the right CA also works")
        .samples(&[("configmap", "cluster-info"), ("object", "configmap")]),
    Entry::new("kubeadm.cluster-info.ca-unparsable", F::Kubeadm,
        "failed to parse cluster CA from the {configmap:w} {object:w}: {error}",
        K8S, TOKEN_GO, "v1.11+")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("the CA in cluster-info's kubeconfig is not a certificate kubeadm can parse ({error})", "compare certificate-authority-data in `kubectl -n kube-public get cm cluster-info -o yaml` with /etc/kubernetes/pki/ca.crt on a control-plane node and restore it (`kubeadm init phase bootstrap-token` rewrites cluster-info), or join with `--discovery-file`")
        .samples(&[("configmap", "cluster-info"), ("object", "ConfigMap"), ("error", "data does not contain any valid RSA or ECDSA certificates")]),
    Entry::new("kubeadm.cluster-info.kubeconfig-unparsable", F::Kubeadm,
        "couldn't parse the kubeconfig file in the {configmap:w} {object:w}: {error}",
        K8S, TOKEN_GO, "v1.11+")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("the kubeconfig stored in the cluster-info ConfigMap does not parse ({error})", "restore cluster-info from a control-plane node (`kubeadm init phase bootstrap-token` rewrites it) and check it with `kubectl -n kube-public get cm cluster-info -o yaml`")
        .samples(&[("configmap", "cluster-info"), ("object", "ConfigMap"), ("error", "yaml: line 3: mapping values are not allowed in this context")]),
    Entry::new("kubeadm.cluster-info.kubeconfig-malformed", F::Kubeadm,
        "malformed kubeconfig in the {configmap:w} {object:w}: {error}",
        K8S, TOKEN_GO, "v1.22+")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("the kubeconfig stored in the cluster-info ConfigMap has no usable cluster ({error})", "restore cluster-info from a control-plane node (`kubeadm init phase bootstrap-token` rewrites it)")
        .samples(&[("configmap", "cluster-info"), ("object", "ConfigMap"), ("error", "no clusters")]),
    Entry::new("kubeadm.cluster-info.no-kubeconfig-key", F::Kubeadm,
        "there is no {key:w} key in the {configmap:w} ConfigMap. This API Server isn't set up for token bootstrapping, can't connect",
        K8S, TOKEN_GO, "v1.8+")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("the cluster-info ConfigMap has no {key} key: this API server was not set up for token bootstrapping (not a kubeadm cluster, or cluster-info was overwritten)", "on a control-plane node run `kubeadm init phase bootstrap-token` (it writes cluster-info and its RBAC), or join with `--discovery-file`")
        .samples(&[("key", "kubeconfig"), ("configmap", "cluster-info")]),
    Entry::new("kubeadm.cluster-info.changed", F::Kubeadm,
        "the second kubeconfig from the {configmap:w} ConfigMap (using validated TLS) was different from the first",
        K8S, TOKEN_GO, "v1.8+")
        .to(K::Known, "join-cluster-info-invalid", Error).group("cluster-info").join()
        .says("cluster-info changed between kubeadm's insecure and its TLS-validated read: two API servers behind the endpoint answer with different cluster-info (a load balancer in front of two clusters), or it was being rewritten", "make the join endpoint reach one cluster only (check the load balancer's backends) and retry")
        .samples(&[("configmap", "cluster-info")]),
    // ------------------------------------------------------------------ kubeadm: join / kubelet-check
    Entry::new("kubeadm.join.node-exists", F::Kubeadm,
        "a Node with name \"{node:w}\" and status \"{status:w}\" already exists in the cluster. You must delete the existing Node or change the name of this new joining Node",
        K8S, "cmd/kubeadm/app/cmd/phases/join/kubelet.go", "v1.17+")
        .to(K::DuplicateNodeName, "node-duplicate-hostname", Error).subject("Node/{node}").join()
        .says("a Node named {node} is already registered: this machine has the hostname of another node", "join with `--node-name <unique>` (or `hostnamectl set-hostname`), or `kubectl delete node {node}` if that machine is gone"),
    Entry::new("kubeadm.kubelet-check.unhealthy", F::Kubeadm,
        "[kubelet-check] It seems like the kubelet isn't running or healthy.",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go", "v1.8-v1.29")
        .to(K::KubeletUnhealthy, "node-not-ready", Warning).group("kubelet-check").join()
        .says("the kubelet did not come up during the join", "`journalctl -u kubelet` on the node: the first error there is the cause (often the cgroup driver or swap)"),
    Entry::new("kubeadm.kubelet-check.http", F::Kubeadm,
        "[kubelet-check] The HTTP call equal to 'curl -sSL http://localhost:{port:w}/healthz' failed with error: {error}",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go", "v1.8-v1.29")
        .to(K::KubeletUnhealthy, "node-not-ready", Warning).group("kubelet-check").exclusive().join()
        .says("the kubelet's health endpoint does not answer", "`journalctl -u kubelet` on the node: the first error there is the cause")
        .samples(&[("port", "10248")]),
    Entry::new("kubeadm.kubelet-check.not-healthy-after", F::Kubeadm,
        "[kubelet-check] The kubelet is not healthy after {duration:w}",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go", "v1.30+")
        .to(K::KubeletUnhealthy, "node-not-ready", Warning).group("kubelet-check").join()
        .says("the kubelet did not become healthy", "`journalctl -u kubelet` on the node: the first error there is the cause"),
    Entry::new("kubeadm.kubelet-check.initial-timeout", F::Kubeadm,
        "[kubelet-check] Initial timeout of {duration:w} passed.",
        K8S, "cmd/kubeadm/app/util/apiclient/wait.go", "v1.8-v1.29").join(),
    // ------------------------------------------------------------------ kubeadm: preflight
    Entry::new("kubeadm.preflight.file-available", F::Kubeadm,
        "[ERROR FileAvailable--{key:w}]: {path:w} already exists",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("{path} already exists: this machine was joined or initialised before", "`kubeadm reset -f` on this machine (it removes {path} and the old kubelet state), then run the join command again")
        .samples(&[("key", "etc-kubernetes-kubelet.conf")]),
    Entry::new("kubeadm.preflight.port", F::Kubeadm,
        "[ERROR Port-{port:w}]: Port {port_again:w} is in use",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("port {port_again} is already in use: a previous kubelet or control plane still runs here", "find the owner with `ss -ltnp | grep :{port_again}`; if it is an earlier Kubernetes install run `kubeadm reset -f` first")
        .samples(&[("port_again", "10250")]),
    Entry::new("kubeadm.preflight.swap", F::Kubeadm,
        "[ERROR Swap]: running with swap on is not supported. Please disable swap",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("swap is on and the kubelet is configured to fail with swap", "`swapoff -a` and remove the swap entry from /etc/fstab (or configure the kubelet's failSwapOn: false with NodeSwap)"),
    Entry::new("kubeadm.preflight.cri", F::Kubeadm,
        "[ERROR CRI]: container runtime is not running: {error}",
        K8S, CHECKS_GO, "v1.20+")
        .to(K::Known, "join-preflight-failed", Error).group("cri").join()
        .says("the container runtime's CRI endpoint does not answer", "`systemctl enable --now containerd`; if containerd runs, enable its CRI plugin (remove \"cri\" from disabled_plugins in /etc/containerd/config.toml) and restart it"),
    Entry::new("kubeadm.preflight.bridge-nf", F::Kubeadm,
        "[ERROR FileContent--proc-sys-net-bridge-bridge-nf-call-iptables]: /proc/sys/net/bridge/bridge-nf-call-iptables contents are not set to 1",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).group("line:filecontent").join()
        .says("bridged traffic is not passed to iptables", "`modprobe br_netfilter && sysctl -w net.bridge.bridge-nf-call-iptables=1`, and persist both in /etc/modules-load.d and /etc/sysctl.d"),
    Entry::new("kubeadm.preflight.ip-forward", F::Kubeadm,
        "[ERROR FileContent--proc-sys-net-ipv4-ip_forward]: /proc/sys/net/ipv4/ip_forward contents are not set to 1",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).group("line:filecontent").join()
        .says("IP forwarding is off", "`sysctl -w net.ipv4.ip_forward=1` and persist it in /etc/sysctl.d"),
    // FileContentCheck (cmd/kubeadm/app/preflight/checks.go) prints `%s does not exist` when the
    // file cannot be opened (for /proc/sys/net/bridge/*: the br_netfilter module is not
    // loaded), `%s could not be read`, and `%s contents are not set to %s`; the check's label
    // is `FileContent-` + the path with `/` replaced by `-`. Group `line:...`: one entry per
    // line (specific first), one finding per line.
    Entry::new("kubeadm.preflight.bridge-nf-missing", F::Kubeadm,
        "[ERROR FileContent--proc-sys-net-bridge-{key:w}]: /proc/sys/net/bridge/{file:w} does not exist",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).group("line:filecontent").join()
        .says("/proc/sys/net/bridge/{file} does not exist: the br_netfilter kernel module is not loaded, so bridged pod traffic bypasses iptables", "`modprobe br_netfilter` and load it at boot (`echo br_netfilter > /etc/modules-load.d/k8s.conf`), then `sysctl -w net.bridge.bridge-nf-call-iptables=1 net.bridge.bridge-nf-call-ip6tables=1` and persist both in /etc/sysctl.d/k8s.conf")
        .samples(&[("key", "bridge-nf-call-iptables"), ("file", "bridge-nf-call-iptables")]),
    Entry::new("kubeadm.preflight.bridge-nf6", F::Kubeadm,
        "[ERROR FileContent--proc-sys-net-bridge-bridge-nf-call-ip6tables]: /proc/sys/net/bridge/bridge-nf-call-ip6tables contents are not set to 1",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).group("line:filecontent").join()
        .says("bridged IPv6 traffic is not passed to ip6tables", "`modprobe br_netfilter && sysctl -w net.bridge.bridge-nf-call-ip6tables=1`, and persist both in /etc/modules-load.d and /etc/sysctl.d"),
    Entry::new("kubeadm.preflight.file-content", F::Kubeadm,
        "[ERROR FileContent-{key:w}]: {path:w} contents are not set to {want:w}",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).group("line:filecontent").join()
        .says("{path} is not set to {want}", "`sysctl -w` the matching key to {want} (the path under /proc/sys with `/` as `.`) and persist it in /etc/sysctl.d")
        .samples(&[("key", "-proc-sys-net-ipv6-conf-default-forwarding"), ("path", "/proc/sys/net/ipv6/conf/default/forwarding"), ("want", "1")]),
    Entry::new("kubeadm.preflight.file-missing", F::Kubeadm,
        "[ERROR FileContent-{key:w}]: {path:w} does not exist",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).group("line:filecontent").join()
        .says("{path} does not exist: the kernel feature behind it is not loaded or not built in", "load the kernel module that provides {path} (for /proc/sys/net/bridge: `modprobe br_netfilter`; for IPv6 paths: IPv6 must not be disabled on the kernel command line) and persist it in /etc/modules-load.d")
        .samples(&[("key", "-proc-sys-net-ipv4-ip_forward"), ("path", "/proc/sys/net/ipv4/ip_forward")]),
    Entry::new("kubeadm.preflight.num-cpu", F::Kubeadm,
        "[ERROR NumCPU]: the number of available CPUs {have:w} is less than the required {need:w}",
        K8S, CHECKS_GO, "v1.10+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("the machine has {have} CPUs, kubeadm needs {need} for a control plane", "give the machine {need} CPUs (for a throw-away test only: `--ignore-preflight-errors=NumCPU`)")
        .samples(&[("have", "1"), ("need", "2")]),
    Entry::new("kubeadm.preflight.mem", F::Kubeadm,
        "[ERROR Mem]: the system RAM ({have:w} MB) is less than the minimum {need:w} MB",
        K8S, CHECKS_GO, "v1.17+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("the machine has {have} MB of RAM, kubeadm needs {need} MB", "give the machine at least {need} MB of memory")
        .samples(&[("have", "1024"), ("need", "1700")]),
    Entry::new("kubeadm.preflight.dir-available", F::Kubeadm,
        "[ERROR DirAvailable--{key:w}]: {path:w} is not empty",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("{path} is not empty: left over from an earlier install", "`kubeadm reset -f` (or empty {path} after checking nothing needs it), then run kubeadm again")
        .samples(&[("key", "var-lib-etcd"), ("path", "/var/lib/etcd")]),
    Entry::new("kubeadm.preflight.root", F::Kubeadm,
        "[ERROR IsPrivilegedUser]: user is not running as root",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("kubeadm was not run as root", "run the command with sudo"),
    Entry::new("kubeadm.preflight.file-existing", F::Kubeadm,
        "[ERROR FileExisting-{binary:w}]: {binary_again:w} not found in system path",
        K8S, CHECKS_GO, "v1.8+")
        .to(K::Known, "join-preflight-failed", Error).join()
        .says("{binary_again} is not installed", "install {binary_again} (conntrack, socat, ... come with the distribution's package of the same name)")
        .samples(&[("binary", "conntrack"), ("binary_again", "conntrack")]),
    // the kubelet's pod sync error while a container is in its restart back-off: v1.19 and
    // older `Error syncing pod %s (%q), skipping: %v` (pkg/kubelet/pod_workers.go, with
    // format.Pod's `<name>_<namespace>(<uid>)`), v1.20+ `"Error syncing pod, skipping" err=...
    // pod="<ns>/<name>"`; the error itself is kuberuntime_manager.go doBackOff's `failed to
    // "StartContainer" for "<c>" with CrashLoopBackOff: "back-off <d> restarting failed
    // container=<c> pod=<name>_<namespace>(<uid>)"` (the same text the waiting state's message
    // holds)
    Entry::new("kubelet.crashloop-sync-error", F::Kubelet,
        "back-off {delay:w} restarting failed container={container:w} pod={pod}_{namespace}({uid})",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), pkg/kubelet/pod_workers.go", "v1.8+")
        .to(K::Known, "pod-crashlooping", Warning).subject("Pod/{namespace}/{pod}").group("crashloop").exclusive()
        .says("the kubelet restarts container {container} of pod {namespace}/{pod} with a growing back-off ({delay}): it keeps failing (CrashLoopBackOff)", "`kubectl logs -n {namespace} {pod} -c {container} --previous` shows the failed run's output; `kubectl describe pod -n {namespace} {pod}` its Last State (reason, exit code)")
        .samples(&[("delay", "5m0s"), ("container", "nvidia-driver-ctr"), ("pod", "nvidia-driver-daemonset-6d97v"), ("namespace", "gpu-operator-resources"), ("uid", "ac11cbf1-b3b4-48f3-9de8-752db6bf2f35")]),
    Entry::new("kubeadm.preflight.warning", F::Kubeadm,
        "[WARNING {check:w}]: {detail}",
        K8S, CHECKS_GO, "v1.8+").join(),
    // ------------------------------------------------------------------ kubelet
    Entry::new("kubelet.cgroup-driver-mismatch", F::Kubelet,
        "misconfiguration: kubelet cgroup driver: \"{kubelet_driver:w}\" is different from {runtime:w} cgroup driver: \"{runtime_driver:w}\"",
        K8S, "pkg/kubelet/dockershim/docker_service.go", "v1.8-v1.23")
        .to(K::CgroupDriverMismatch, "node-drift", Error)
        .says("the kubelet uses the {kubelet_driver} cgroup driver, {runtime} uses {runtime_driver}", "set the kubelet's cgroupDriver to {runtime_driver} (/var/lib/kubelet/config.yaml) or the runtime's to match, then restart the kubelet")
        .samples(&[("kubelet_driver", "cgroupfs"), ("runtime", "docker"), ("runtime_driver", "systemd")]),
    // The kubelet refuses to start with swap on (failSwapOn true, the default): kubernetes
    // pkg/kubelet/cm/container_manager_linux.go (NewContainerManager) `Running with swap on is
    // not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps
    // contained: %v` (v1.8-v1.21), lower-case `running ...` from v1.22, and `running with swap
    // on is not supported, please disable swap or set --fail-swap-on flag to false` once the
    // check moved next to the NodeSwap support (pkg/kubelet/cm/swap_util.go era, v1.28+); the
    // kubelet then exits (`failed to run Kubelet: ...`, structured `"command failed"
    // err="failed to run Kubelet: ..."`).
    Entry::new("kubelet.swap-on-legacy", F::Kubelet,
        "Running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false",
        K8S, "pkg/kubelet/cm/container_manager_linux.go (NewContainerManager)", "v1.8-v1.21")
        .to(K::Known, "node-runtime-unhealthy", Error).group("swap")
        .says("the kubelet does not start: swap is on and failSwapOn is true (the default)", "`swapoff -a` and comment out the swap line in /etc/fstab (check `swapon --show` is empty after a reboot), then `systemctl restart kubelet`; only with the NodeSwap feature set failSwapOn: false instead"),
    Entry::new("kubelet.swap-on", F::Kubelet,
        "running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false",
        K8S, "pkg/kubelet/cm/container_manager_linux.go (NewContainerManager)", "v1.22-v1.27")
        .to(K::Known, "node-runtime-unhealthy", Error).group("swap")
        .says("the kubelet does not start: swap is on and failSwapOn is true (the default)", "`swapoff -a` and comment out the swap line in /etc/fstab (check `swapon --show` is empty after a reboot), then `systemctl restart kubelet`; only with the NodeSwap feature set failSwapOn: false instead"),
    Entry::new("kubelet.swap-on-nodeswap", F::Kubelet,
        "running with swap on is not supported, please disable swap or set --fail-swap-on flag to false",
        K8S, "pkg/kubelet/cm/container_manager_linux.go (NewContainerManager)", "v1.28+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("swap")
        .says("the kubelet does not start: swap is on and failSwapOn is true (the default)", "`swapoff -a` and comment out the swap line in /etc/fstab (check `swapon --show` is empty after a reboot), then `systemctl restart kubelet`; to run with swap instead set failSwapOn: false and memorySwap.swapBehavior in the kubelet configuration (NodeSwap)"),
    Entry::new("kubelet.mirror-pod-outdated", F::Kubelet,
        "Deleting mirror pod \"{mirror_pod}\" because it is outdated",
        K8S, "pkg/kubelet/kubelet.go", "v1.8-v1.20")
        .to(K::MirrorPodOutdated, "node-duplicate-hostname", Error).group("mirror")
        .says("the kubelet keeps replacing static-pod mirror pods: two machines register as one Node", "find the second machine with the same hostname, `kubeadm reset` it, set a unique hostname and join again"),
    Entry::new("kubelet.mirror-pod-outdated-structured", F::Kubelet,
        "Deleting mirror pod because it is outdated{sep}pod=\"{mirror_pod:w}\"",
        K8S, "pkg/kubelet/kubelet.go", "v1.21+")
        .to(K::MirrorPodOutdated, "node-duplicate-hostname", Error).group("mirror")
        .says("the kubelet keeps replacing static-pod mirror pods: two machines register as one Node", "find the second machine with the same hostname, `kubeadm reset` it, set a unique hostname and join again")
        .samples(&[("sep", "\" "), ("mirror_pod", "kube-system/etcd-node-01")]),
    Entry::new("systemd.unit-exited", F::Kubelet,
        "{unit:w}: Main process exited, code={code:w}, status={status:w}",
        "systemd/systemd", "src/core/service.c", "systemd 2xx")
        .samples(&[("unit", "kubelet.service"), ("code", "exited"), ("status", "1/FAILURE")]),
    Entry::new("systemd.unit-failed", F::Kubelet,
        "{unit:w}: Failed with result '{result}'.",
        "systemd/systemd", "src/core/unit.c", "systemd 2xx")
        .samples(&[("unit", "kubelet.service"), ("result", "exit-code")]),
    Entry::new("systemd.unit-entered-failed", F::Kubelet,
        "{unit:w}: Unit entered failed state.",
        "systemd/systemd", "src/core/unit.c (unit_notify, before v236)", "systemd 2xx-235")
        .samples(&[("unit", "kubelet.service")]),
    Entry::new("systemd.unit-entered-failed-legacy", F::Kubelet,
        "Unit {unit:w} entered failed state.",
        "systemd/systemd", "src/core/unit.c (unit_notify)", "systemd 1xx-2xx")
        .samples(&[("unit", "kubelet.service")]),
    Entry::new("kubelet.mirror-pod-delete-failed", F::Kubelet,
        "Failed deleting a mirror pod \"{mirror_pod}\": {error}",
        K8S, "pkg/kubelet/pod/mirror_client.go", "v1.8+")
        .samples(&[("error", "pods \"Unknown\" is forbidden: pods \"kube-apiserver-node-01\" not found")]),
    Entry::new("kubelet.client-cert-expired-unresponsive", F::Kubelet,
        "The currently active client certificate has expired, but the server is not responsive. A restart may be necessary to retrieve new initial credentials.",
        K8S, "pkg/kubelet/certificate/transport.go", "v1.8+")
        .to(K::KubeletCertExpired, "node-clock-skew", Warning).group("kubelet-cert")
        .says("the kubelet's client certificate is expired from the node's clock and rotation cannot reach the API server", "compare the node's clock with the control plane, then the certificate's NotAfter"),
    Entry::new("kubelet.client-cert-expired-exiting", F::Kubelet,
        "The currently active client certificate has expired and the server is not responsive, exiting.",
        K8S, "pkg/kubelet/certificate/transport.go", "v1.8+")
        .to(K::KubeletCertExpired, "node-clock-skew", Warning).group("kubelet-cert")
        .says("the kubelet's client certificate is expired from the node's clock and rotation cannot reach the API server", "compare the node's clock with the control plane, then the certificate's NotAfter"),
    Entry::new("kubelet.bootstrap-cert-expired-file", F::Kubelet,
        "part of the existing bootstrap client certificate in {file:w} is expired: {not_after}",
        K8S, "pkg/kubelet/certificate/bootstrap/bootstrap.go", "v1.22+")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert")
        .says("the kubelet's client certificate in {file} expired on {not_after}: the kubelet cannot authenticate and falls back to a bootstrap kubeconfig", KUBELET_CERT_REMEDY)
        .samples(&[("not_after", "2024-09-12 09:18:55 +0000 UTC")]),
    Entry::new("kubelet.bootstrap-cert-expired", F::Kubelet,
        "part of the existing bootstrap client certificate is expired: {not_after}",
        K8S, "pkg/kubelet/certificate/bootstrap/bootstrap.go", "v1.19-v1.21")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert")
        .says("the kubelet's client certificate expired on {not_after}: the kubelet cannot authenticate and falls back to a bootstrap kubeconfig", KUBELET_CERT_REMEDY)
        .samples(&[("not_after", "2020-06-11 20:11:55 +0000 UTC")]),
    Entry::new("kubelet.bootstrap-cert-expired-legacy", F::Kubelet,
        "Part of the existing bootstrap client certificate is expired: {not_after}",
        K8S, "pkg/kubelet/certificate/bootstrap/bootstrap.go", "v1.8-v1.18")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert")
        .says("the kubelet's client certificate expired on {not_after}: the kubelet cannot authenticate and falls back to a bootstrap kubeconfig", KUBELET_CERT_REMEDY)
        .samples(&[("not_after", "2019-08-22 11:29:48 +0000 UTC")]),
    Entry::new("kubelet.bootstrap-kubeconfig-missing", F::Kubelet,
        "unable to load bootstrap kubeconfig: stat {file:w}: no such file or directory",
        K8S, "cmd/kubelet/app/server.go", "v1.8+")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert")
        .says("the kubelet has no valid client certificate and no bootstrap kubeconfig ({file}) to get a new one: it cannot start", KUBELET_CERT_REMEDY)
        .samples(&[("file", "/etc/kubernetes/bootstrap-kubelet.conf")]),
    // Nobody approves the kubelet's client certificate request: kube-controller-manager's
    // csrapproving controller recognises a node client CSR but the SubjectAccessReview for its
    // requester is denied, because the ClusterRoleBinding that grants the `nodeclient` (or
    // `selfnodeclient`) subresource is missing (kubernetes/kubernetes
    // pkg/controller/certificates/approver/sarapprove.go `recognized csr %q as %v but subject
    // access review was not approved`, logged by certificate_controller.go as `Sync %v failed
    // with : %v`); or a person / policy denied it (client-go util/certificate/csr/csr.go
    // WaitForCertificate `certificate signing request is denied, reason: %v, message: %v`).
    Entry::new("kcm.csr-sar-not-approved", F::Kubelet,
        "recognized csr {csr:w} as {kinds} but subject access review was not approved",
        K8S, "pkg/controller/certificates/approver/sarapprove.go (sarApprover.handle)", "v1.8+")
        .to(K::Known, "join-csr-not-approved", Error).group("csr")
        .says("kube-controller-manager's csrapproving controller recognises the node certificate request {csr} as {kinds} but will not approve it: the requester may not create certificatesigningrequests/{kinds} (the auto-approval ClusterRoleBinding kubeadm creates is missing), so the CSR stays Pending and the node gets no client certificate", CSR_APPROVAL_REMEDY)
        .samples(&[("csr", "\"csr-6zgzk\""), ("kinds", "[nodeclient]")]),
    // the same line cut after the request's name (a pager, a terminal that soft-wrapped it
    // before `[nodeclient]`): only sarapprove.go prints `recognized csr %q as`
    Entry::new("kcm.csr-sar-not-approved-cut", F::Kubelet,
        "recognized csr {csr:w} as",
        K8S, "pkg/controller/certificates/approver/sarapprove.go (sarApprover.handle)", "v1.8+")
        .to(K::Known, "join-csr-not-approved", Error).group("csr")
        .says("kube-controller-manager's csrapproving controller recognises the node certificate request {csr} but will not approve it (`subject access review was not approved`): the requester may not create certificatesigningrequests/nodeclient (the auto-approval ClusterRoleBinding kubeadm creates is missing), so the CSR stays Pending and the node gets no client certificate", CSR_APPROVAL_REMEDY)
        .samples(&[("csr", "\"csr-6zgzk\"")]),
    Entry::new("client.csr-denied", F::Kubelet,
        "certificate signing request is denied, reason: {reason}, message: {message}",
        "kubernetes/client-go", "util/certificate/csr/csr.go (WaitForCertificate)", "v1.8+")
        .to(K::Known, "join-csr-not-approved", Error).group("csr")
        .says("the node's certificate signing request was denied ({reason}: {message}): a person, a policy or an approver other than kube-controller-manager's refused it, so the kubelet gets no client certificate", "find who denied it (`kubectl get csr` shows Denied; `kubectl describe csr <name>` the condition's reason and message), fix that approver or policy, then let the kubelet request again (`systemctl restart kubelet` on the node) and approve the new request (`kubectl certificate approve <name>`)")
        .samples(&[("reason", "AdminDenied"), ("message", "denied by policy")]),
    Entry::new("kubelet.csr-waiting", F::Kubelet,
        "Waiting for client certificate to be issued",
        K8S, "pkg/kubelet/certificate/bootstrap/bootstrap.go (requestNodeCertificate, V(2))", "v1.19+").complete().join(),
    Entry::new("client.csr-approved-waiting", F::Kubelet,
        "certificate signing request {csr:w} is approved, waiting to be issued",
        "kubernetes/client-go", "util/certificate/csr/csr.go (WaitForCertificate, V(2))", "v1.8+").complete().join(),
    Entry::new("kubelet.csr-unauthorized", F::Kubelet,
        "Failed while requesting a signed certificate from the control plane: cannot create certificate signing request: Unauthorized",
        "kubernetes/client-go", "util/certificate/certificate_manager.go", "v1.8+")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert").exclusive()
        .says("the API server rejects the kubelet's certificate request (Unauthorized): its bootstrap token expired or its client certificate is no longer valid", KUBELET_CERT_REMEDY),
    // client-go util/certificate/csr/csr.go: `cannot create certificate signing request: %v`,
    // wrapped by the bootstrap (pkg/kubelet/certificate/bootstrap/bootstrap.go, shown as
    // `failed to run Kubelet: ...` by cmd/kubelet/app/server.go) or by the certificate manager
    // (the entry above).
    Entry::new("kubelet.csr-create-unauthorized", F::Kubelet,
        "cannot create certificate signing request: Unauthorized",
        "kubernetes/client-go", "util/certificate/csr/csr.go (RequestCertificate)", "v1.8+")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert").exclusive()
        .says("the API server rejects the credentials the kubelet requests its client certificate with (401 Unauthorized): while the node bootstraps (`Using bootstrap kubeconfig`) the bootstrap token in bootstrap-kubelet.conf expired (kubeadm tokens live 24 h) or was deleted; on a node that ran before, its client certificate expired", "on a control-plane node `kubeadm token create --print-join-command`; a node still joining: `kubeadm reset -f` and join again with the printed command (or put the new token into /etc/kubernetes/bootstrap-kubelet.conf and restart the kubelet); a node that ran before: re-issue its client credentials (`kubeadm kubeconfig user --org system:nodes --client-name system:node:<node>` into /etc/kubernetes/kubelet.conf, then restart the kubelet)"),
    Entry::new("kubelet.csr-create-forbidden", F::Kubelet,
        "cannot create certificate signing request: certificatesigningrequests.certificates.k8s.io is forbidden: User \"{user}\" cannot create {what}",
        "kubernetes/client-go", "util/certificate/csr/csr.go (RequestCertificate)", "v1.8+")
        .to(K::Known, "node-kubelet-cert-expired", Error).group("kubelet-cert").exclusive()
        .says("the API server authenticates the kubelet's certificate request as {user}, which may not create certificate signing requests: as system:anonymous the bootstrap token was not accepted (expired or deleted); as system:bootstrap:<id> the binding of group system:bootstrappers to the system:node-bootstrapper ClusterRole is missing", "on a control-plane node `kubeadm token create --print-join-command` and join again with it; if the user is system:bootstrap:<id>, restore kubeadm's bootstrap RBAC with `kubeadm init phase bootstrap-token`")
        .samples(&[("user", "system:anonymous"), ("what", "resource \"certificatesigningrequests\" in API group \"certificates.k8s.io\" at the cluster scope")]),
    // the kubelet cannot find its own Node (not registered yet, or registration refused: the
    // registration's own error carries the cause): `klog.ErrorS(err, "Error getting node")`
    // with GetNode's `node %q not found` (pkg/kubelet/kubelet.go, kubelet_getters.go), before
    // v1.21 the bare error (`kubelet.go:2267] node "x" not found`)
    Entry::new("kubelet.error-getting-node", F::Kubelet,
        "\"Error getting node\" err=\"node {node:w} not found\"",
        K8S, "pkg/kubelet/kubelet.go (GetNode from kubelet_getters.go)", "v1.21+").complete()
        .samples(&[("node", "\\\"node-01\\\"")]),
    Entry::new("kubelet.error-getting-node-reduced", F::Kubelet,
        "Error getting node err=\"node {node:w} not found\"",
        K8S, "pkg/kubelet/kubelet.go (as the paste reader reduces klog's structured form)", "v1.21+").complete()
        .samples(&[("node", "\\\"node-01\\\"")]),
    Entry::new("kubelet.node-not-found-legacy", F::Kubelet,
        "] node {node:w} not found",
        K8S, "pkg/kubelet/kubelet.go (GetNode from kubelet_getters.go)", "v1.13-v1.20").complete().at_end()
        .samples(&[("node", "\"node-01\"")]),
    Entry::new("kubelet.register-failed", F::Kubelet,
        "Unable to register node with API server",
        K8S, "pkg/kubelet/kubelet_node_status.go", "v1.21+"),
    Entry::new("kubelet.register-failed-legacy", F::Kubelet,
        "Unable to register node \"{node:w}\" with API server: {error}",
        K8S, "pkg/kubelet/kubelet_node_status.go", "v1.8-v1.20"),
    Entry::new("kubelet.pleg-unhealthy", F::Kubelet,
        "PLEG is not healthy: pleg was last seen active {ago:w} ago; threshold is {threshold:w}",
        K8S, "pkg/kubelet/pleg/generic.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the kubelet's pod lifecycle event generator has not relisted containers for {ago} (threshold {threshold}): the container runtime is hung or overloaded", "check the runtime on the node (`crictl ps`, `systemctl status containerd`, `journalctl -u containerd`); restart it if hung, and lower pod density or disk I/O pressure")
        .samples(&[("ago", "3m24.1s"), ("threshold", "3m0s")]),
    // the kubelet refuses a flag of its own command line and exits (cmd/kubelet/app/server.go
    // NewKubeletCommand: `failed to parse kubelet flag: %w` around pflag's error; printed by
    // component-base/cli run.go `"command failed" err=...`); systemd restarts it in a loop. Most
    // often a flag removed in the installed version still in /var/lib/kubelet/kubeadm-flags.env
    // or a drop-in (`--network-plugin`, `--cni-*`, `--docker*` went with dockershim in v1.24)
    Entry::new("kubelet.flag-parse-failed-structured", F::Kubelet,
        "err=\"failed to parse kubelet flag: {error}\"",
        K8S, "cmd/kubelet/app/server.go (NewKubeletCommand), component-base/cli/run.go", "v1.21+")
        .to(K::Known, "node-not-ready", Error).group("startup-not-ready").exclusive().at_end()
        .says("the kubelet does not start: it refuses its own command line ({error}); systemd restarts it in a loop and the node stays NotReady", KUBELET_FLAG_REMEDY)
        .samples(&[("error", "unknown flag: --network-plugin")]),
    Entry::new("kubelet.flag-parse-failed", F::Kubelet,
        "failed to parse kubelet flag: {error}",
        K8S, "cmd/kubelet/app/server.go (NewKubeletCommand)", "v1.10+")
        .to(K::Known, "node-not-ready", Error).group("startup-not-ready").exclusive()
        .says("the kubelet does not start: it refuses its own command line ({error}); systemd restarts it in a loop and the node stays NotReady", KUBELET_FLAG_REMEDY)
        .samples(&[("error", "unknown flag: --network-plugin")]),
    // kubelet v1.27+ (kubernetes#112618): at start-up it updates the node status fast until the
    // node is Ready, and gives up after nodeReadyGracePeriod (120 s) with this line
    // (pkg/kubelet/kubelet_node_status.go `fastNodeStatusUpdate`): the node is not Ready, the Ready
    // condition's message (and the lines around this one) says why
    Entry::new("kubelet.node-not-ready-after-startup", F::Kubelet,
        "Node not becoming ready in time after startup",
        K8S, "pkg/kubelet/kubelet_node_status.go (fastNodeStatusUpdate)", "v1.27+")
        .to(K::Known, "node-not-ready", Error).group("startup-not-ready")
        .says("the node did not become Ready within two minutes of the kubelet's start (the kubelet's fast status updates gave up): the node stays NotReady until what its Ready condition names is fixed (most often the CNI plugin not initialised, the container runtime down, or PLEG not healthy)", "`kubectl describe node <node>` (Conditions: the Ready message) and the kubelet's log before this line (`journalctl -u kubelet -b | grep -e 'network not ready' -e 'runtime is down' -e PLEG`): fix what they name, then the kubelet marks the node Ready by itself"),
    // the healthy counterparts of the same start-up (routine, no finding): the registration
    // (pkg/kubelet/kubelet_node_status.go `registerWithAPIServer`: `Attempting to register node`,
    // `Successfully registered node`) and the fast status update that saw the node turn Ready
    // (`fastNodeStatusUpdate`, v1.27+: `Fast updating node status as it just became ready`)
    Entry::new("kubelet.registering-node", F::Kubelet,
        "\"Attempting to register node\"",
        K8S, "pkg/kubelet/kubelet_node_status.go (registerWithAPIServer)", "v1.21+").complete(),
    Entry::new("kubelet.registered-node", F::Kubelet,
        "\"Successfully registered node\"",
        K8S, "pkg/kubelet/kubelet_node_status.go (registerWithAPIServer)", "v1.21+").complete(),
    // The kubelet's own Ready condition turning False (pkg/kubelet/nodestatus/setters.go
    // ReadyCondition): v1.12-v1.20 `klog.Infof("Node became not ready: %+v", condition)` (Go's
    // %+v of the NodeCondition: `{Type:Ready Status:False ... Reason:KubeletNotReady
    // Message:...}`); v1.21+ `klog.InfoS("Node became not ready", "node", klog.KObj(node),
    // "condition", condition)`, the condition as %+v up to v1.29 and as JSON once NodeCondition
    // gained its MarshalLog-free JSON form in the text logger (v1.30+,
    // `condition={"type":"Ready","status":"False",...,"message":"..."}`). The message is the
    // kubelet's runtime/network/PLEG error (classify::refine reads reason and message out of the
    // condition); `node is shutting down` is the graceful node shutdown manager's
    // (pkg/kubelet/nodeshutdown, nodeShutdownNotReadyReason), a planned reboot: info.
    Entry::new("kubelet.node-became-not-ready", F::Kubelet,
        "\"Node became not ready\" node={node:w} condition={condition}",
        K8S, "pkg/kubelet/nodestatus/setters.go (ReadyCondition)", "v1.21+")
        .to(K::Known, "node-not-ready", Error).group("node-became-not-ready").subject("Node/{node}")
        .says("the kubelet set its node's Ready condition to False ({reason}: {message}): the node takes no new pods and its pods are evicted after the toleration period", "fix what the Ready message names on the node (`journalctl -u kubelet` around this line; for the runtime `systemctl status containerd`, for the network the CNI's pod on the node, for PLEG the runtime's health), then watch `kubectl get node {node} -w` turn Ready")
        .samples(&[("node", "\"gpu-1\""), ("condition", "{Type:Ready Status:False LastHeartbeatTime:2023-09-07 21:49:17 +0000 UTC LastTransitionTime:2023-09-07 21:49:17 +0000 UTC Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m1.1s ago; threshold is 3m0s}")]),
    Entry::new("kubelet.node-became-not-ready-reduced", F::Kubelet,
        "Node became not ready node={node:w} condition={condition}",
        K8S, "pkg/kubelet/nodestatus/setters.go (ReadyCondition), as the paste reader reduces klog's structured form", "v1.21+")
        .to(K::Known, "node-not-ready", Error).group("node-became-not-ready").subject("Node/{node}")
        .says("the kubelet set its node's Ready condition to False ({reason}: {message}): the node takes no new pods and its pods are evicted after the toleration period", "fix what the Ready message names on the node (`journalctl -u kubelet` around this line; for the runtime `systemctl status containerd`, for the network the CNI's pod on the node, for PLEG the runtime's health), then watch `kubectl get node {node} -w` turn Ready")
        .samples(&[("node", "\"gpu-1\""), ("condition", "{Type:Ready Status:False LastHeartbeatTime:2023-09-07 21:49:17 +0000 UTC LastTransitionTime:2023-09-07 21:49:17 +0000 UTC Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m1.1s ago; threshold is 3m0s}")]),
    Entry::new("kubelet.node-became-not-ready-legacy", F::Kubelet,
        "Node became not ready: {condition}",
        K8S, "pkg/kubelet/nodestatus/setters.go (ReadyCondition); kubelet_node_status.go before v1.12", "v1.8-v1.20")
        .to(K::Known, "node-not-ready", Error).group("node-became-not-ready")
        .says("the kubelet set its node's Ready condition to False ({reason}: {message}): the node takes no new pods and its pods are evicted after the toleration period", "fix what the Ready message names on the node (`journalctl -u kubelet` around this line; for the runtime `systemctl status containerd`, for the network the CNI's pod on the node, for PLEG the runtime's health), then watch `kubectl get nodes -w` turn Ready")
        .samples(&[("condition", "{Type:Ready Status:False LastHeartbeatTime:2019-09-07 21:49:17 +0000 UTC LastTransitionTime:2019-09-07 21:49:17 +0000 UTC Reason:KubeletNotReady Message:container runtime is down}")]),
    Entry::new("kubelet.node-became-ready", F::Kubelet,
        "Fast updating node status as it just became ready",
        K8S, "pkg/kubelet/kubelet_node_status.go (fastNodeStatusUpdate)", "v1.27+").complete(),
    // pkg/kubelet/runtime.go `runtimeErrors` (v1.8+): no successful runtime status for longer
    // than the threshold; printed inside the Ready condition's message and `Skipping pod
    // synchronization` err="[container runtime is down, ...]"
    Entry::new("kubelet.container-runtime-down", F::Kubelet,
        "container runtime is down",
        K8S, "pkg/kubelet/runtime.go (runtimeErrors)", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the kubelet has had no answer from the container runtime for longer than its threshold: the node is NotReady and runs no new pods", "check the runtime on the node (`systemctl status containerd` or crio/docker, `journalctl -u containerd -n 200`; `crictl ps` hanging is the sign): restart it if it hangs and look for what overloads it (disk I/O, a full disk, too many containers)"),
    Entry::new("kubelet.cni-not-initialized", F::Kubelet,
        "Network plugin returns error: cni plugin not initialized",
        K8S, "pkg/kubelet/kubelet.go (runtime network status)", "v1.24+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("no CNI network plugin is initialised on the node: the node is NotReady and pods get no IP", CNI_NOT_READY_REMEDY),
    Entry::new("kubelet.cni-config-uninitialized", F::Kubelet,
        "network plugin is not ready: cni config uninitialized",
        K8S, "pkg/kubelet/dockershim/network/cni/cni.go", "v1.8-v1.23")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("no CNI network plugin is configured on the node: the node is NotReady and pods get no IP", CNI_NOT_READY_REMEDY),
    // dockershim's cni.go (and its copies) `No networks found in %s` (`no networks found in %s`
    // in later releases, `No valid networks found in %s`), printed behind `Unable to update cni
    // config: ` at every sync while /etc/cni/net.d is empty: routine during installation, the
    // cause of NotReady when it persists.
    Entry::new("kubelet.cni-no-networks", F::Kubelet,
        "networks found in {dir:w}",
        K8S, "pkg/kubelet/dockershim/network/cni/cni.go (getDefaultCNINetwork)", "v1.8-v1.23")
        .to(K::Known, "node-runtime-unhealthy", Info).group("runtime")
        .says("no CNI network configuration in {dir} yet: if the node stays NotReady, no CNI plugin is installed", "install the cluster's CNI (its DaemonSet writes the config to {dir}); the kubelet picks it up without a restart")
        .samples(&[("dir", "/etc/cni/net.d")]),
    Entry::new("crio.cni-no-config", F::Kubelet,
        "No CNI configuration file in {dir:w}. Has your network provider started?",
        "cri-o/ocicni", "pkg/ocicni/ocicni.go (errMissingDefaultNetwork)", "CRI-O 1.x")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the runtime finds no CNI configuration in {dir}: the node is NotReady and pods get no IP", "install or repair the cluster's CNI: its DaemonSet pod must run on this node and write its config to {dir}")
        .samples(&[("dir", "/etc/cni/net.d/")]),
    // containerd's CRI plugin loads the CNI config when it starts (pkg/cri/server/
    // cni_conf_syncer.go in 1.5-1.7, internal/cri/server in 2.x: `failed to load cni during
    // init, please check CRI plugin status before setting up network for pods`, with go-cni's
    // `cni config load failed: no network config found in <dir>: cni plugin not initialized:
    // failed to load cni config`) and reloads it on fsnotify events of conf_dir only: routine
    // before the CNI is installed, the cause of NotReady when the config appeared and no reload
    // followed
    Entry::new("containerd.cni-load-failed-init", F::ContainerRuntime,
        "failed to load cni during init, please check CRI plugin status before setting up network for pods",
        "containerd/containerd", "pkg/cri/server/cni_conf_syncer.go (newCNINetConfSyncer)", "containerd 1.5+")
        .to(K::Known, "node-runtime-unhealthy", Info).group("runtime")
        .says("containerd started without a CNI configuration (its CRI plugin found none in its conf_dir at start): routine before the CNI is installed; if the node stays NotReady after the CNI was applied, containerd did not reload it", CNI_NOT_READY_REMEDY),
    Entry::new("containerd.cni-no-config", F::Kubelet,
        "no network config found in {dir:w}",
        "containerd/go-cni", "errors.go / cni.go (ErrCNINotInitialized wrapping)", "containerd 1.x-2.x")
        .to(K::Known, "node-runtime-unhealthy", Info).group("runtime")
        .says("containerd finds no CNI configuration in {dir} yet: if the node stays NotReady, no CNI plugin is installed", CNI_NOT_READY_REMEDY)
        .samples(&[("dir", "/etc/cni/net.d:")]),
    // the v1.26 wording of the same check (`validate CRI v1 runtime API for endpoint %q: %w`,
    // crictl too), with the runtime answering but not serving CRI v1 (Unimplemented): the
    // quotes of %q are escaped inside the kubelet's structured err="..." value, so the
    // endpoint is read as one word either way
    Entry::new("kubelet.cri-v1-unimplemented-v126", F::Kubelet,
        "validate CRI v1 runtime API for endpoint {endpoint:w}: rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService",
        K8S, "pkg/kubelet/cri/remote/remote_runtime.go", "v1.26-v1.30")
        .to(K::Known, "node-runtime-unhealthy", Error).group("cri").exclusive()
        .says("the container runtime at {endpoint} answers but does not serve the CRI v1 API: containerd's CRI plugin is disabled (`disabled_plugins = [\"cri\"]` in /etc/containerd/config.toml, as Docker's containerd.io package ships it), or the runtime is too old (containerd before 1.6, cri-dockerd before 0.3)", "enable the CRI plugin: `containerd config default | sudo tee /etc/containerd/config.toml` (then set `SystemdCgroup = true` under the runc options), `sudo systemctl restart containerd`; upgrade containerd to 1.6+ (or cri-dockerd to 0.3+); check with `sudo crictl --runtime-endpoint <endpoint> info`")
        .samples(&[("endpoint", "\\\"unix:///var/run/cri-dockerd.sock\\\"")]),
    Entry::new("kubelet.cri-unreachable", F::Kubelet,
        "validate CRI v1 runtime API for endpoint {endpoint:w}: {error}",
        K8S, "pkg/kubelet/cri/remote/remote_runtime.go", "v1.26+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("cri").exclusive()
        .says("the kubelet cannot reach the container runtime at {endpoint}", "`systemctl enable --now containerd` (or the runtime the kubelet is configured for) and check that its CRI plugin is enabled")
        .samples(&[("endpoint", "unix:///run/containerd/containerd.sock")]),
    Entry::new("kubelet.eviction-reclaim", F::Kubelet,
        "Eviction manager: attempting to reclaim{sep}resourceName=\"{resource:w}\"",
        K8S, "pkg/kubelet/eviction/eviction_manager.go", "v1.21+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the node is under {resource} pressure and the kubelet evicts pods to reclaim it", "free {resource} on the node (images, logs, emptyDir) or lower the pods' usage; set requests/limits so the scheduler stops over-packing the node")
        .samples(&[("sep", "\" "), ("resource", "ephemeral-storage")]),
    Entry::new("kubelet.evicted-low-resource", F::Kubelet,
        "The node was low on resource: {resource:w}.",
        K8S, "pkg/kubelet/eviction/helpers.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the pod was evicted because the node ran low on {resource}", "free {resource} on the node or set the pod's requests/limits for {resource}")
        .samples(&[("resource", "memory")]),
    // ------------------------------------------------------------------ kubelet: eviction manager (sweep)
    // pkg/kubelet/eviction/eviction_manager.go: the structured wording (v1.21+, klog.InfoS /
    // ErrorS) and the printf wording before it (v1.8-v1.20, `eviction manager: ...`); the
    // node event EvictionThresholdMet `Attempting to reclaim %s` (same file, v1.8+)
    Entry::new("kubelet.eviction-must-evict", F::Kubelet,
        "Eviction manager: must evict pod(s) to reclaim{sep}resourceName=\"{resource:w}\"",
        K8S, "pkg/kubelet/eviction/eviction_manager.go", "v1.21+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the node is under {resource} pressure: the kubelet evicts pods to reclaim it", "free {resource} on the node (`df -h /var/lib/kubelet /var/lib/containerd` for disk: unused images `crictl rmi --prune`, container logs, emptyDir data; `free -m` for memory) or move pods elsewhere; give pods requests/limits for {resource} so the scheduler stops over-packing the node")
        .samples(&[("sep", "\" "), ("resource", "memory")]),
    Entry::new("kubelet.eviction-reclaim-legacy", F::Kubelet,
        "eviction manager: attempting to reclaim {resource:w}",
        K8S, "pkg/kubelet/eviction/eviction_manager.go", "v1.8-v1.20")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the node is under {resource} pressure: the kubelet evicts pods to reclaim it", "free {resource} on the node (`df -h /var/lib/kubelet /var/lib/docker` for nodefs/imagefs: unused images, container logs, emptyDir data; `free -m` for memory) or move pods elsewhere; give pods requests/limits so the scheduler stops over-packing the node")
        .samples(&[("resource", "nodefs")]),
    Entry::new("kubelet.eviction-must-evict-legacy", F::Kubelet,
        "eviction manager: must evict pod(s) to reclaim {resource:w}",
        K8S, "pkg/kubelet/eviction/eviction_manager.go", "v1.8-v1.20")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the node is under {resource} pressure: the kubelet evicts pods to reclaim it", "free {resource} on the node (`df -h /var/lib/kubelet /var/lib/docker` for nodefs/imagefs: unused images, container logs, emptyDir data; `free -m` for memory) or move pods elsewhere; give pods requests/limits so the scheduler stops over-packing the node")
        .samples(&[("resource", "memory")]),
    Entry::new("kubelet.eviction-unable", F::Kubelet,
        "Eviction manager: unable to evict any pods from the node",
        K8S, "pkg/kubelet/eviction/eviction_manager.go", "v1.21+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the node is under resource pressure and the kubelet finds no pod it may evict (only critical or static pods are left): the pressure stays and the node takes no new pods", "free the resource on the node by hand (disk: `crictl rmi --prune`, old container logs under /var/log/pods, data outside Kubernetes; memory: processes outside pods), then check the node's conditions with `kubectl describe node <node>`"),
    Entry::new("kubelet.eviction-unable-legacy", F::Kubelet,
        "eviction manager: unable to evict any pods from the node",
        K8S, "pkg/kubelet/eviction/eviction_manager.go", "v1.8-v1.20")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the node is under resource pressure and the kubelet finds no pod it may evict (only critical or static pods are left): the pressure stays and the node takes no new pods", "free the resource on the node by hand (disk: `docker system prune` / `crictl rmi --prune`, old container logs, data outside Kubernetes; memory: processes outside pods), then check the node's conditions with `kubectl describe node <node>`"),
    Entry::new("kubelet.eviction-threshold-met", F::Kubelet,
        "Attempting to reclaim {resource:w}",
        K8S, "pkg/kubelet/eviction/eviction_manager.go (event EvictionThresholdMet)", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the node crossed an eviction threshold for {resource}: the kubelet evicts pods to reclaim it", "free {resource} on the node (`df -h` for disk: unused images `crictl rmi --prune`, container logs, emptyDir data; `free -m` for memory) or move pods elsewhere; give pods requests/limits so the scheduler stops over-packing the node")
        .samples(&[("resource", "ephemeral-storage")]),
    // a pod rejected or evicted because of a node condition (helpers.go nodeConditionMessageFmt
    // `The node had condition: %v. `, v1.8+), and pods evicted for their own limits
    // (podEphemeralStorageMessageFmt, containerEphemeralStorageMessageFmt, emptyDirMessageFmt,
    // v1.8+): the pod's own limit, the node is not short
    Entry::new("kubelet.evicted-node-condition", F::Kubelet,
        "The node had condition: [{conditions}]",
        K8S, "pkg/kubelet/eviction/helpers.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("runtime")
        .says("the kubelet rejected or evicted the pod because the node reports {conditions}", "free what the condition names on the node (DiskPressure: `df -h` on /var/lib/kubelet and the runtime's directory, `crictl rmi --prune`, old logs; MemoryPressure: `free -m`; PIDPressure: `ps -e | wc -l`), then delete the failed pods (`kubectl get pods -A --field-selector=status.phase=Failed`)")
        .samples(&[("conditions", "DiskPressure")]),
    Entry::new("kubelet.evicted-pod-ephemeral-limit", F::Kubelet,
        "Pod ephemeral local storage usage exceeds the total limit of containers {limit:w}",
        K8S, "pkg/kubelet/eviction/helpers.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("pod-eviction")
        .says("the kubelet evicted the pod because it wrote more local storage (writable layers, logs, emptyDir) than its containers' ephemeral-storage limits ({limit}): the pod's own limit, the node is not short", "raise the containers' resources.limits.ephemeral-storage, or write less to the container filesystem (logs to stdout with rotation, large data to a PersistentVolume)")
        .samples(&[("limit", "1Gi")]),
    Entry::new("kubelet.evicted-container-ephemeral-limit", F::Kubelet,
        "Container {container:w} exceeded its local ephemeral storage limit \"{limit}\"",
        K8S, "pkg/kubelet/eviction/helpers.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("pod-eviction")
        .says("the kubelet evicted the pod because container {container} wrote more local storage than its ephemeral-storage limit {limit}: the pod's own limit, the node is not short", "raise the container's resources.limits.ephemeral-storage, or write less to its filesystem (logs to stdout with rotation, large data to a PersistentVolume)")
        .samples(&[("container", "app"), ("limit", "500Mi")]),
    Entry::new("kubelet.evicted-emptydir-limit", F::Kubelet,
        "Usage of EmptyDir volume \"{volume}\" exceeds the limit \"{limit}\"",
        K8S, "pkg/kubelet/eviction/helpers.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("pod-eviction")
        .says("the kubelet evicted the pod because its emptyDir volume {volume} holds more than its sizeLimit {limit}: the pod's own limit, the node is not short", "raise the emptyDir's sizeLimit or clean the volume from the application; data that must grow belongs on a PersistentVolume")
        .samples(&[("volume", "cache"), ("limit", "1Gi")]),
    // ------------------------------------------------------------------ kubelet: image garbage collection
    // pkg/kubelet/kubelet.go StartGarbageCollection: the first failure after start is expected
    // (stats not collected yet: `Image garbage collection failed once. Stats initialization
    // may not have completed yet`, logged at error level, v1.8+), repeated failures are not;
    // pkg/kubelet/images/image_gc_manager.go names what it could not free (`Wanted to free %d
    // bytes, but freed %d bytes` v1.8-v1.24, `Attempted to free %d bytes, but only found %d
    // bytes eligible to free` v1.25+)
    Entry::new("kubelet.image-gc-first-failure", F::Kubelet,
        "Image garbage collection failed once. Stats initialization may not have completed yet",
        K8S, "pkg/kubelet/kubelet.go", "v1.8+").complete(),
    Entry::new("kubelet.image-gc-cannot-free", F::Kubelet,
        "failed to garbage collect required amount of images. Attempted to free {want:w} bytes, but only found {found:w} bytes eligible to free",
        K8S, "pkg/kubelet/images/image_gc_manager.go", "v1.25+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("image-gc")
        .says("the image filesystem is over the kubelet's high threshold and image garbage collection cannot free enough ({want} bytes wanted, {found} bytes of unused images): the disk is filled by something else (images in use, container logs, emptyDir data, files outside Kubernetes); DiskPressure and evictions follow", "find what fills the disk on the node (`df -h`, `du -xsh /var/lib/containerd /var/lib/docker /var/lib/kubelet /var/log | sort -h`): delete data outside Kubernetes, old container logs, or unused images of another runtime; grow the disk if the images in use need it")
        .samples(&[("want", "5000000000"), ("found", "0")]),
    Entry::new("kubelet.image-gc-cannot-free-legacy", F::Kubelet,
        "failed to garbage collect required amount of images. Wanted to free {want:w} bytes, but freed {found:w} bytes",
        K8S, "pkg/kubelet/images/image_gc_manager.go", "v1.8-v1.24")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("image-gc")
        .says("the image filesystem is over the kubelet's high threshold and image garbage collection cannot free enough ({want} bytes wanted, {found} freed): the disk is filled by something else (images in use, container logs, emptyDir data, files outside Kubernetes); DiskPressure and evictions follow", "find what fills the disk on the node (`df -h`, `du -xsh /var/lib/docker /var/lib/containerd /var/lib/kubelet /var/log | sort -h`): delete data outside Kubernetes, old container logs, or unused images of another runtime; grow the disk if the images in use need it")
        .samples(&[("want", "966184140"), ("found", "0")]),
    Entry::new("kubelet.image-gc-failed-repeatedly", F::Kubelet,
        "Image garbage collection failed multiple times in a row",
        K8S, "pkg/kubelet/kubelet.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("image-gc")
        .says("the kubelet's image garbage collection keeps failing: the image filesystem stays above its high threshold; DiskPressure and evictions follow", "read the error after `failed multiple times in a row`; find what fills the disk on the node (`df -h`, `du -xsh /var/lib/containerd /var/lib/docker /var/lib/kubelet /var/log | sort -h`) and free it"),
    // ------------------------------------------------------------------ kubelet: start-up
    // cmd/kubelet/app/server.go `failed to load Kubelet config file %s, error %v` around
    // pkg/kubelet/kubeletconfig/configfiles/configfiles.go `failed to read kubelet config file
    // %q, error: %v` (v1.10+): the kubelet of a kubeadm node before `kubeadm init`/`join` wrote
    // /var/lib/kubelet/config.yaml restarts in a loop
    Entry::new("kubelet.config-file-missing", F::Kubelet,
        "failed to load Kubelet config file {path:w}, error {error}",
        K8S, "cmd/kubelet/app/server.go (with pkg/kubelet/kubeletconfig/configfiles/configfiles.go)", "v1.10+")
        .to(K::Known, "node-not-ready", Warning).group("kubelet-start")
        .says("the kubelet cannot load its configuration file {path} ({error}): when the file does not exist, `kubeadm init` or `kubeadm join` has not written it yet on this node (or stopped before it did), so the kubelet exits and systemd restarts it in a loop, which is expected before init/join; when it exists, the error names what in it is invalid", "run `kubeadm init` (control plane) or the `kubeadm join ...` command on this node and read its output: it writes {path} and starts the kubelet; if init/join already failed, fix the error it printed (the kubelet's loop is a consequence) and run `kubeadm reset -f` before trying again; an existing but invalid file is fixed in place (or rewritten by `kubeadm join phase kubelet-start`)")
        .samples(&[("path", "/var/lib/kubelet/config.yaml"), ("error", "failed to read kubelet config file \"/var/lib/kubelet/config.yaml\", error: open /var/lib/kubelet/config.yaml: no such file or directory")]),
    // the CRI endpoint answers but serves no CRI v1 API: containerd with its CRI plugin
    // disabled (`disabled_plugins = ["cri"]`, as Docker's containerd.io package ships
    // config.toml) or older than 1.6 (k8s.io/cri-client pkg/remote_runtime.go and
    // remote_image.go `CRI v1 runtime API is not implemented for endpoint %q: %w`, v1.27+;
    // crictl prints the same through kubeadm's preflight)
    Entry::new("kubelet.cri-v1-not-implemented", F::Kubelet,
        "CRI v1 {api:w} API is not implemented for endpoint {endpoint:w}: {error}",
        K8S, "staging/src/k8s.io/cri-client/pkg/remote_runtime.go (pkg/kubelet/cri/remote before v1.31); kubernetes-sigs/cri-tools (crictl)", "v1.27+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("cri").exclusive()
        .says("the container runtime at {endpoint} does not serve the CRI v1 {api} API: containerd's CRI plugin is disabled (`disabled_plugins = [\"cri\"]` in /etc/containerd/config.toml, as Docker's containerd.io package ships it) or the runtime is too old (containerd before 1.6)", "enable the CRI plugin: `containerd config default | sudo tee /etc/containerd/config.toml` (then set `SystemdCgroup = true` under the runc options), `sudo systemctl restart containerd`, and check with `sudo crictl --runtime-endpoint unix:///run/containerd/containerd.sock info`; upgrade containerd to 1.6 or newer if it is older")
        .samples(&[("api", "runtime"), ("endpoint", "\"unix:///run/containerd/containerd.sock\""), ("error", "rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService")]),
    // kubelet <= v1.25 (and crictl) asking for the v1alpha2 CRI of a runtime that dropped it
    // (containerd 2.0) or whose CRI plugin is disabled: `unknown service
    // runtime.v1alpha2.RuntimeService` (grpc's status for an unregistered service)
    Entry::new("kubelet.cri-v1alpha2-unknown", F::Kubelet,
        "get remote runtime typed version failed: rpc error: code = Unimplemented desc = unknown service runtime.v1alpha2.RuntimeService",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_manager.go", "v1.23-v1.25")
        .to(K::Known, "node-runtime-unhealthy", Error).group("cri").exclusive()
        .says("the kubelet speaks the v1alpha2 CRI and the container runtime does not serve it: containerd's CRI plugin is disabled (`disabled_plugins = [\"cri\"]`), or the runtime is containerd 2.0, which removed v1alpha2", "enable containerd's CRI plugin (`containerd config default | sudo tee /etc/containerd/config.toml`, `sudo systemctl restart containerd`); with containerd 2.x upgrade the kubelet to v1.26 or newer (or use containerd 1.7)"),
    Entry::new("kubelet.cri-version-failed", F::Kubelet,
        "Version from runtime service failed{sep}err=\"rpc error: code = Unimplemented desc = unknown service runtime.{api:w}.RuntimeService",
        K8S, "pkg/kubelet/cri/remote/remote_runtime.go", "v1.20+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("cri").exclusive()
        .says("the container runtime does not serve the CRI API {api} the kubelet asks for: containerd's CRI plugin is disabled (`disabled_plugins = [\"cri\"]` in /etc/containerd/config.toml), or the runtime is too old (v1) or too new (v1alpha2, removed in containerd 2.0) for this kubelet", "enable containerd's CRI plugin (`containerd config default | sudo tee /etc/containerd/config.toml`, then `SystemdCgroup = true` under the runc options, `sudo systemctl restart containerd`); keep containerd and the kubelet within each other's supported versions (containerd 1.6/1.7 for kubelet 1.24-1.30, containerd 2.x needs kubelet 1.26+)")
        .samples(&[("sep", "\" "), ("api", "v1alpha2")]),
    // cgroups: the kubelet refuses cgroup v1 (cmd/kubelet/app/server.go, failCgroupV1: opt-in
    // v1.31-v1.34, default v1.35+), and a cgroup controller the kernel does not mount
    // (pkg/kubelet/cm/container_manager_linux.go validateSystemRequirements, v1.8+)
    Entry::new("kubelet.cgroup-v1-refused", F::Kubelet,
        "kubelet is configured to not run on a host using cgroup v1",
        K8S, "cmd/kubelet/app/server.go", "v1.31+ (failCgroupV1 default true since v1.35)")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the host runs cgroup v1 and the kubelet refuses it (failCgroupV1, the default from Kubernetes v1.35; k3s, rke2, kind and Docker Desktop nodes of those versions too), so the kubelet exits and the node never becomes Ready", "boot the host with cgroup v2: add `systemd.unified_cgroup_hierarchy=1` to the kernel command line (`sudo grubby --update-kernel=ALL --args=systemd.unified_cgroup_hierarchy=1`, or GRUB_CMDLINE_LINUX then `update-grub`; WSL2: update the WSL kernel) and reboot, `stat -fc %T /sys/fs/cgroup` must print cgroup2fs; or, for now, set `failCgroupV1: false` in the KubeletConfiguration (k3s/rke2: `--kubelet-arg=fail-cgroupv1=false`)"),
    Entry::new("kubelet.cgroup-subsystem-not-mounted", F::Kubelet,
        "Following Cgroup subsystem not mounted: [{subsystems}]",
        K8S, "pkg/kubelet/cm/container_manager_linux.go", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the kernel does not mount the cgroup controller(s) {subsystems}, so the kubelet's container manager cannot start and the node runs no pods (Raspberry Pi and some ARM or minimal kernels disable the memory controller)", "enable the controller on the kernel command line (memory: append `cgroup_enable=memory cgroup_memory=1`, plus `swapaccount=1` on old Debian kernels; Raspberry Pi OS: /boot/firmware/cmdline.txt, elsewhere GRUB_CMDLINE_LINUX then `update-grub`) and reboot; `cat /proc/cgroups` shows which controllers are enabled")
        .samples(&[("subsystems", "memory")]),
    Entry::new("kubelet.qos-cgroups-missing", F::Kubelet,
        "failed to initialize top level QOS containers: {error}",
        K8S, "pkg/kubelet/cm/container_manager_linux.go (setupNode / qos_container_manager_linux.go)", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the kubelet cannot create its QoS cgroups ({error}): the kubelet's cgroup driver or --cgroup-root does not match the cgroup tree (a driver changed from cgroupfs to systemd without a reboot, or a kubepods cgroup removed), so it runs no pods", "make the kubelet's cgroupDriver match the runtime's (containerd SystemdCgroup, Docker exec-opts native.cgroupdriver) and reboot the node after changing it, so the kubepods cgroups are created afresh")
        .samples(&[("error", "root container [kubepods] doesn't exist")]),
    // Docker's client when dockerd does not run (docker/cli, moby client `Cannot connect to
    // the Docker daemon at %s. Is the docker daemon running?`): dockershim kubelets (v1.23 and
    // before), cri-dockerd and kubeadm's preflight print it
    Entry::new("docker.daemon-not-running", F::ContainerRuntime,
        "Cannot connect to the Docker daemon at {socket:w} Is the docker daemon running?",
        "moby/moby", "client/errors.go (ErrorConnectionFailed)", "Docker 1.13+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("docker")
        .says("Docker's daemon does not run on the node (nothing listens at {socket}), so no container can start there", "`sudo systemctl enable --now docker` and read `journalctl -u docker -n 50` if it does not start (a bad /etc/docker/daemon.json is the usual cause); with Kubernetes 1.24+ the kubelet needs cri-dockerd (or containerd) as well")
        .samples(&[("socket", "unix:///var/run/docker.sock.")]),
    // kubelet v1.24-v1.25 before its runtime check (pkg/kubelet/cri/remote/remote_runtime.go
    // `unable to determine runtime API version: %w`): nothing answers at the CRI socket
    Entry::new("kubelet.runtime-api-version-unknown", F::Kubelet,
        "unable to determine runtime API version: {error}",
        K8S, "pkg/kubelet/cri/remote/remote_runtime.go", "v1.24-v1.25")
        .to(K::Known, "node-runtime-unhealthy", Error).group("cri").exclusive()
        .says("the kubelet cannot talk to the container runtime at its CRI endpoint ({error}): the runtime is not running, or the kubelet's --container-runtime-endpoint names another socket", "`sudo systemctl enable --now containerd` (or cri-dockerd / CRI-O), check that the socket exists (`ls -l /run/containerd/containerd.sock`) and that the kubelet's containerRuntimeEndpoint names it, then restart the kubelet")
        .samples(&[("error", "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial unix /var/run/containerd/containerd.sock: connect: no such file or directory\"")]),
    // the runtime reports itself not ready (pkg/kubelet/kubelet.go `Container runtime not
    // ready`, the RuntimeReady=false condition of the CRI status, v1.8+)
    Entry::new("kubelet.runtime-not-ready", F::Kubelet,
        "RuntimeReady=false reason:{reason:w} message:{message}",
        K8S, "pkg/kubelet/kubelet.go (CRI RuntimeCondition)", "v1.8+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime").exclusive()
        .says("the container runtime reports itself not ready ({reason}: {message}): the node runs no pods", "check the runtime on the node (`systemctl status containerd` or docker/crio, `journalctl -u containerd -n 100`, `crictl info`); start or restart it and fix what its log says")
        .samples(&[("reason", "DockerDaemonNotReady"), ("message", "docker: failed to get docker version")]),
    // the kubelet's start-up before its first runtime status and PLEG relist (pkg/kubelet/
    // kubelet.go, pkg/kubelet/pleg/generic.go `pleg has yet to be successful`): seconds after
    // a (re)start these are expected
    Entry::new("kubelet.runtime-status-not-yet", F::Kubelet,
        "container runtime status check may not have completed yet",
        K8S, "pkg/kubelet/kubelet.go", "v1.8+").complete(),
    Entry::new("kubelet.pleg-not-yet", F::Kubelet,
        "PLEG is not healthy: pleg has yet to be successful",
        K8S, "pkg/kubelet/pleg/generic.go", "v1.8+").complete(),
    // a node-lease update lost to a concurrent writer (optimistic concurrency): retried, harmless
    // (k8s.io/component-helpers apimachinery/lease/controller.go `Failed to update lease`)
    Entry::new("kubelet.lease-update-conflict", F::Kubelet,
        "Failed to update lease{sep}err=\"Operation cannot be fulfilled on leases.coordination.k8s.io",
        K8S, "staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go", "v1.17+").complete()
        .samples(&[("sep", "\" ")]),
    Entry::new("kubelet.lease-update-conflict-legacy", F::Kubelet,
        "failed to update lease, error: Operation cannot be fulfilled on leases.coordination.k8s.io",
        K8S, "pkg/kubelet/nodelease/controller.go", "v1.14-v1.20").complete(),
    // error-level noise of a healthy kubelet: stats of a system cgroup it was told to watch
    // but cannot find (pkg/kubelet/server/stats/summary_sys_containers.go `Failed to get
    // system container stats for %q`, summary.go before v1.11: the --kubelet-cgroups /
    // --runtime-cgroups of old kubeadm drop-ins on CentOS 7), the static-pod directory of a
    // worker (pkg/kubelet/config/file.go `Unable to read config path`, `path does not exist,
    // ignoring`), and cAdvisor's first scrape (`unable to find data in memory cache`)
    Entry::new("kubelet.system-container-stats", F::Kubelet,
        "Failed to get system container stats",
        K8S, "pkg/kubelet/server/stats/summary_sys_containers.go (summary.go before v1.11)", "v1.8+").complete(),
    Entry::new("kubelet.static-pod-path-missing", F::Kubelet,
        "Unable to read config path{detail}path does not exist, ignoring",
        K8S, "pkg/kubelet/config/file.go", "v1.8+").complete()
        .samples(&[("detail", "\" err=\"")]),
    Entry::new("kubelet.fs-info-not-cached", F::Kubelet,
        "Failed to get the info of the filesystem with mountpoint{detail}unable to find data in memory cache",
        K8S, "pkg/kubelet/stats/cri_stats_provider.go", "v1.19+").complete()
        .samples(&[("detail", "\" err=\"")]),
    // ------------------------------------------------------------------ kubelet: image pulls
    // The kubelet's image manager (pkg/kubelet/images/image_manager.go): event reason `Failed`
    // `Failed to pull image %q: %v` (the runtime's error), reason `BackOff` `Back-off pulling
    // image %q` (v1.31+ appends `: <reason>: <message>`), `Container image %q is not present with
    // pull policy of Never` (ErrImageNeverPull), `Failed to apply default image tag %q: %v`
    // (InvalidImageName); the container's waiting reasons (pkg/kubelet/images/types.go:
    // ErrImagePull, ImagePullBackOff, ErrImageNeverPull, InvalidImageName, RegistryUnavailable)
    // reach events as `Error: <reason>` (pkg/kubelet/kuberuntime/kuberuntime_container.go). The
    // kubelet's CRI client logs `PullImage from image service failed` (v1.21+ structured,
    // pkg/kubelet/cri/remote/remote_image.go; `PullImage %q from image service failed: %v`
    // before), containerd's CRI plugin `PullImage %q failed` (pkg/cri/server/
    // instrumented_service.go) and `failed to pull and unpack image %q: %w` (pkg/cri/server/
    // image_pull.go), Docker `pull access denied for %s, repository does not exist or may
    // require 'docker login'` (moby distribution/errors.go), CRI-O / containers/image `reading
    // manifest %s in %s: %w` (docker/docker_image_src.go). Registry traffic runs from the node's
    // container runtime: its DNS, TLS and connection errors are the node's path to the registry,
    // never the API server's (rules::image_pull reads the cause from the error).
    Entry::new("kubelet.image.pull-failed", F::Kubelet,
        "Failed to pull image {image:w}: {error}",
        K8S, "pkg/kubelet/images/image_manager.go", "v1.0+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the kubelet cannot pull the image {image} ({error})", "`kubectl describe pod` shows the registry's answer; pull it by hand on the node (`sudo crictl pull {image}`)")
        .samples(&[("image", "\"docker.io/library/python:3.11\""), ("error", "rpc error: code = Unknown desc = failed to pull and unpack image \"docker.io/library/python:3.11\": 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.")]),
    Entry::new("kubelet.image.backoff", F::Kubelet,
        "Back-off pulling image {image:w}",
        K8S, "pkg/kubelet/images/image_manager.go", "v1.0+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the kubelet backs off pulling the image {image} after failed pulls (ImagePullBackOff)", "`kubectl describe pod` shows the `Failed to pull image` event with the registry's answer")
        .samples(&[("image", "\"ghcr.io/org/img:v1\"")]),
    Entry::new("kubelet.image.never-pull", F::Kubelet,
        "Container image {image:w} is not present with pull policy of Never",
        K8S, "pkg/kubelet/images/image_manager.go", "v1.0+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the image {image} is not on the node and the pod's imagePullPolicy is Never (ErrImageNeverPull)", "load the image on the node or set imagePullPolicy: IfNotPresent")
        .samples(&[("image", "\"local/model:dev\"")]),
    Entry::new("kubelet.image.invalid-name", F::Kubelet,
        "Failed to apply default image tag {image:w}: {error}",
        K8S, "pkg/kubelet/images/image_manager.go", "v1.4+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the image reference {image} does not parse ({error}) (InvalidImageName)", "fix the image reference in the pod spec")
        .samples(&[("image", "\"Docker.io/Org/Img:v1\""), ("error", "couldn't parse image reference \"Docker.io/Org/Img:v1\": invalid reference format: repository name must be lowercase")]),
    Entry::new("kubelet.image.error-err-image-pull", F::Kubelet,
        "Error: ErrImagePull",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: `Error: %v`), reason in pkg/kubelet/images/types.go", "v1.5+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive().at_end()
        .says("the container cannot start: ErrImagePull", "`kubectl describe pod` shows the `Failed to pull image` event with the registry's answer"),
    Entry::new("kubelet.image.error-image-pull-backoff", F::Kubelet,
        "Error: ImagePullBackOff",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: `Error: %v`), reason in pkg/kubelet/images/types.go", "v1.5+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive().at_end()
        .says("the container cannot start: ImagePullBackOff", "`kubectl describe pod` shows the `Failed to pull image` event with the registry's answer"),
    Entry::new("kubelet.image.error-err-image-never-pull", F::Kubelet,
        "Error: ErrImageNeverPull",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: `Error: %v`), reason in pkg/kubelet/images/types.go", "v1.5+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive().at_end()
        .says("the container cannot start: ErrImageNeverPull", "`kubectl describe pod` shows the `Failed to pull image` event with the registry's answer"),
    Entry::new("kubelet.image.error-invalid-image-name", F::Kubelet,
        "Error: InvalidImageName",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: `Error: %v`), reason in pkg/kubelet/images/types.go", "v1.5+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive().at_end()
        .says("the container cannot start: InvalidImageName", "`kubectl describe pod` shows the `Failed to pull image` event with the registry's answer"),
    Entry::new("kubelet.image.error-registry-unavailable", F::Kubelet,
        "Error: RegistryUnavailable",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer: `Error: %v`), reason in pkg/kubelet/images/types.go", "v1.5+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive().at_end()
        .says("the container cannot start: RegistryUnavailable", "`kubectl describe pod` shows the `Failed to pull image` event with the registry's answer"),
    Entry::new("kubelet.cri.pull-image-failed", F::Kubelet,
        "\"PullImage from image service failed\"",
        K8S, "pkg/kubelet/cri/remote/remote_image.go (staging/src/k8s.io/cri-client in v1.31+)", "v1.21+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the kubelet's image pull fails in the container runtime", "pull the image by hand on the node (`sudo crictl pull <image>`) to see the registry's answer"),
    Entry::new("kubelet.cri.pull-image-failed-legacy", F::Kubelet,
        "PullImage {image:w} from image service failed: {error}",
        K8S, "pkg/kubelet/remote/remote_image.go", "v1.5-v1.20")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the kubelet cannot pull the image {image} ({error})", "pull the image by hand on the node (`sudo crictl pull {image}`)")
        .samples(&[("image", "\"nginx:latst\""), ("error", "rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:latst not found")]),
    Entry::new("containerd.cri.pull-image-failed", F::ContainerRuntime,
        "PullImage {image:w} failed",
        "containerd/containerd", "pkg/cri/server/instrumented_service.go (internal/cri/instrument in 2.x)", "v1.1+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("containerd cannot pull the image {image}", "read the error of the same line; pull the image by hand on the node (`sudo crictl pull {image}`)")
        .samples(&[("image", "\\\"ghcr.io/org/img:v1\\\"")]),
    Entry::new("containerd.cri.pull-and-unpack", F::ContainerRuntime,
        "failed to pull and unpack image {image:w}: {error}",
        "containerd/containerd", "pkg/cri/server/image_pull.go (internal/cri/server/images in 2.x)", "v1.4+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("containerd cannot pull the image {image} ({error})", "pull the image by hand on the node (`sudo crictl pull {image}`)")
        .samples(&[("image", "\"quay.io/org/img:v1\""), ("error", "failed to resolve reference \"quay.io/org/img:v1\": unexpected status from HEAD request to https://quay.io/v2/org/img/manifests/v1: 401 Unauthorized")]),
    Entry::new("docker.pull-access-denied", F::ContainerRuntime,
        "pull access denied for {repo}, repository does not exist or may require 'docker login'",
        "moby/moby", "distribution/errors.go", "Docker 17.06+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the registry refuses the pull of {repo}: the repository does not exist or needs credentials", "check the image name; give the pod an imagePullSecret for the registry")
        .samples(&[("repo", "private/model")]),
    Entry::new("containers-image.reading-manifest", F::ContainerRuntime,
        "reading manifest {reference:w} in {repo:w}: {error}",
        "containers/image", "docker/docker_image_src.go (CRI-O, podman)", "v5+")
        .to(K::Known, "image-pull-failed", Error).group("image-pull").exclusive()
        .says("the runtime cannot read the manifest {reference} of {repo} ({error})", "pull it by hand on the node (`sudo crictl pull <image>`) and read the registry's answer")
        .samples(&[("reference", "v1"), ("repo", "docker.io/org/img"), ("error", "manifest unknown")]),
    // kubelet probes (pkg/kubelet/prober/prober.go): event reason Unhealthy `%s probe failed:
    // %s` (Liveness, Readiness, Startup; the output of the HTTP/TCP/exec/gRPC check, e.g. Go's
    // `dial tcp <pod IP>:<port>: connect: connection refused`), `%s probe errored: %v`; kubelet
    // log v1.20+ `"Probe failed" probeType=...`, before `%s probe for %q failed (%v): %s`. The
    // kubelet dials the pod's own IP and port: its connection errors are the container's, never
    // the API server's (rules::image_pull `pod-probe-failed`).
    Entry::new("kubelet.probe.failed", F::Kubelet,
        "{probe:w} probe failed: {output}",
        K8S, "pkg/kubelet/prober/prober.go", "v1.0+")
        .to(K::Known, "pod-probe-failed", Info).group("probe").exclusive()
        .says("the kubelet's {probe} probe of the container fails ({output})", "check the probe's port and path against what the container listens on")
        .samples(&[("probe", "Liveness"), ("output", "Get \"http://10.244.2.15:8080/healthz\": dial tcp 10.244.2.15:8080: connect: connection refused")]),
    Entry::new("kubelet.probe.errored", F::Kubelet,
        "{probe:w} probe errored: {error}",
        K8S, "pkg/kubelet/prober/prober.go", "v1.12+")
        .to(K::Known, "pod-probe-failed", Info).group("probe").exclusive()
        .says("the kubelet could not run the {probe} probe of the container ({error})", "check the probe's definition")
        .samples(&[("probe", "Readiness"), ("error", "rpc error: code = Unknown desc = container not running")]),
    Entry::new("kubelet.probe.failed-structured", F::Kubelet,
        "\"Probe failed\" probeType={probe:w}",
        K8S, "pkg/kubelet/prober/prober.go", "v1.20+")
        .to(K::Known, "pod-probe-failed", Info).group("probe").exclusive()
        .says("the kubelet's {probe} probe of the container fails", "check the probe's port and path against what the container listens on")
        .samples(&[("probe", "\"Readiness\"")]),
    Entry::new("kubelet.probe.failed-legacy", F::Kubelet,
        "{probe:w} probe for {container:w} failed ({result:w}): {output}",
        K8S, "pkg/kubelet/prober/prober.go", "v1.0-v1.19")
        .to(K::Known, "pod-probe-failed", Info).group("probe").exclusive()
        .says("the kubelet's {probe} probe of {container} fails ({output})", "check the probe's port and path against what the container listens on")
        .samples(&[("probe", "Readiness"), ("container", "\"web-1_default(0a1b):web\""), ("result", "failure"), ("output", "Get http://10.244.1.7:80/: dial tcp 10.244.1.7:80: getsockopt: connection refused")]),
    // ------------------------------------------------------------------ kubelet: pod sandbox network
    // the runtime cannot set up the pod's network through the CNI plugin: containerd
    // `failed to setup network for sandbox %q: %w` (pkg/cri/server/sandbox_run.go, v1.5+;
    // internal/cri/server/sandbox_run.go in 2.x), dockershim `NetworkPlugin cni failed to set
    // up pod %q network: %v` (pkg/kubelet/dockershim/network/cni/cni.go, v1.8-v1.23), CRI-O
    // `error adding pod %s to CNI network %q: %w` (server/sandbox_network.go)
    Entry::new("containerd.sandbox-network-failed", F::ContainerRuntime,
        "failed to setup network for sandbox {sandbox:w}: {error}",
        "containerd/containerd", "pkg/cri/server/sandbox_run.go (internal/cri/server in 2.x)", "v1.5+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("cni-sandbox").exclusive()
        .says("the node's CNI plugin fails to set up pod networking ({error}): pods on the node stay in ContainerCreating", "read the CNI's own pods on this node (`kubectl -n kube-system get pods -o wide | grep <node>` for calico-node, kube-flannel, cilium... and their logs): a missing /run/flannel/subnet.env means flannel's pod has not run on the node (or the cluster's pod CIDR was not set: `kubeadm init --pod-network-cidr`), a calico `connection is unauthorized` means calico-node's token or RBAC is stale (restart calico-node), a plugin `not found in path` means /opt/cni/bin lacks the CNI binaries")
        .samples(&[("sandbox", "\"0000\""), ("error", "plugin type=\"flannel\" failed (add): loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory")]),
    // the CNI library (containernetworking/cni libcni/api.go, pkg/invoke/find.go `failed to find
    // plugin %q in path %s`): a plugin binary the network config names is not in /opt/cni/bin
    // (flannel's or the reference plugins' binaries not installed on the node)
    Entry::new("cni.plugin-binary-missing", F::ContainerRuntime,
        "failed to find plugin {plugin} in path [{path}]",
        "containernetworking/cni", "pkg/invoke/find.go", "v0.6+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("cni-plugin")
        .says("the node's CNI configuration names the plugin {plugin}, whose binary is not in the CNI bin directory ({path}): pods on the node get no network and it may stay NotReady", "install the CNI binaries on the node: the reference plugins (`containernetworking-plugins` package, or the release tarball unpacked into /opt/cni/bin) and the network's own binary (flannel: its DaemonSet's install-cni init container copies it; check that pod on this node); the directory must be the runtime's bin_dir")
        .samples(&[("plugin", "\"flannel\""), ("path", "/opt/cni/bin")]),
    Entry::new("dockershim.cni-setup-failed", F::Kubelet,
        "NetworkPlugin cni failed to set up pod {pod:w} network: {error}",
        K8S, "pkg/kubelet/dockershim/network/cni/cni.go", "v1.8-v1.23")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("cni-sandbox").exclusive()
        .says("the node's CNI plugin fails to set up pod networking ({error}): pods on the node stay in ContainerCreating", "read the CNI's own pods on this node (`kubectl -n kube-system get pods -o wide | grep <node>` and their logs): a missing /run/flannel/subnet.env means flannel's pod has not run on the node (or the pod CIDR was not set: `kubeadm init --pod-network-cidr`); a plugin `not found in path` means /opt/cni/bin lacks the CNI binaries")
        .samples(&[("pod", "\"web-1_default\""), ("error", "open /run/flannel/subnet.env: no such file or directory")]),
    Entry::new("crio.cni-add-failed", F::ContainerRuntime,
        "error adding pod {pod:w} to CNI network {network:w}: {error}",
        "cri-o/cri-o", "server/sandbox_network.go", "v1.13+")
        .to(K::Known, "node-runtime-unhealthy", Warning).group("cni-sandbox").exclusive()
        .says("the node's CNI plugin fails to set up pod networking ({error}): pods on the node stay in ContainerCreating", "read the CNI's own pods on this node (`kubectl -n kube-system get pods -o wide | grep <node>` and their logs) and check /etc/cni/net.d and /opt/cni/bin on the node")
        .samples(&[("pod", "default_web-1"), ("network", "\"k8s-pod-network\""), ("error", "plugin type=\"calico\" failed (add): connection is unauthorized: Unauthorized")]),
    // the runtime cannot pull the pod sandbox (pause) image: containerd `failed to get sandbox
    // image %q: %w` (pkg/cri/server/sandbox_run.go): no pod starts on the node
    Entry::new("containerd.sandbox-image", F::ContainerRuntime,
        "failed to get sandbox image {image:w}: {error}",
        "containerd/containerd", "pkg/cri/server/sandbox_run.go (internal/cri/server/podsandbox in 2.x)", "v1.3+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime").exclusive()
        .says("the container runtime cannot pull the pod sandbox image {image} ({error}): no pod can start on the node", "make the image pullable from the node (`sudo crictl pull <image>` shows the error): behind a proxy set HTTP(S)_PROXY for containerd's systemd unit, offline or in a restricted region point `sandbox_image` (containerd 1.x, [plugins.\"io.containerd.grpc.v1.cri\"]) or `sandbox` (2.x) in /etc/containerd/config.toml at a reachable mirror of the version kubeadm expects (`kubeadm config images list`), then `sudo systemctl restart containerd`")
        .samples(&[("image", "\"registry.k8s.io/pause:3.8\""), ("error", "failed to pull image \"registry.k8s.io/pause:3.8\": dial tcp 10.0.0.9:443: i/o timeout")]),
    // kubeadm preflight: the client's proxy would carry the API server's or the cluster
    // ranges' traffic (cmd/kubeadm/app/preflight/checks.go HTTPProxyCheck,
    // HTTPProxyCIDRCheck); warnings, read as context: classify::proxy names the proxy in a
    // connection failure of the same text
    Entry::new("kubeadm.preflight.http-proxy", F::Kubeadm,
        "Connection to \"{url}\" uses proxy \"{proxy}\". If that is not intended, adjust your proxy settings",
        K8S, CHECKS_GO, "v1.8+").complete().join()
        .samples(&[("url", "https://10.0.0.10:6443"), ("proxy", "http://10.0.0.1:3128")]),
    Entry::new("kubeadm.preflight.http-proxy-cidr", F::Kubeadm,
        "connection to \"{cidr}\" uses proxy \"{proxy}\". This may lead to malfunctional cluster setup. Make sure that Pod and Services IP ranges specified correctly as exceptions in proxy configuration",
        K8S, CHECKS_GO, "v1.8+").complete().join()
        .samples(&[("cidr", "10.96.0.0/12"), ("proxy", "http://10.0.0.1:3128")]),
    // ------------------------------------------------------------------ k3s / rke2
    Entry::new("k3s.agent.node-password-rejected", F::K3s,
        "Node password rejected, duplicate hostname or contents of '{file:w}' may not match server node-passwd entry, try enabling a unique node name with the --with-node-id flag",
        K3S, "pkg/agent/config/config.go", "v1.19+")
        .to(K::NodePasswordRejected, "node-duplicate-hostname", Error).group("k3s-node-password").join()
        .says("the server rejects this agent's node password: another node already registered this hostname, or this machine was re-installed and its password file no longer matches the server's <node>.node-password secret", "if the hostname is taken, give this machine a unique name (`--node-name`, or `--with-node-id`); if it is the same machine re-installed, delete its old password secret on the server (`kubectl -n kube-system delete secret <node>.node-password.k3s`, `.rke2` for rke2) and restart the agent")
        .samples(&[("file", "/etc/rancher/node/password")]),
    Entry::new("k3s.agent.node-password-rejected-legacy", F::K3s,
        "Node password rejected, contents of '{file:w}' may not match server",
        K3S, "pkg/agent/config/config.go", "v0.5-v1.18")
        .to(K::NodePasswordRejected, "node-duplicate-hostname", Error).group("k3s-node-password").join()
        .says("the server rejects this agent's node password: another node registered this hostname, or this machine was re-installed", "give this machine a unique hostname, or remove its old entry from the server's node-passwd file (/var/lib/rancher/k3s/server/cred/node-passwd) and restart the agent")
        .samples(&[("file", "/var/lib/rancher/k3s/agent/node-password.txt")]),
    // The same refusal in the other wordings of k3s-io/k3s: the path in the agent's text
    // quoted or not (pasted through a shell or a wiki, `contents of /etc/rancher/node/password
    // may not match`), the v0.5 agent that printed the supervisor's bare answer for its node
    // certificate (`https://<server>:6443/v1-k3s/node.crt: 403 Forbidden`,
    // pkg/agent/config/config.go getNodeNamedCrt before the 403 got its own message; later
    // releases ask for serving-kubelet.crt / client-kubelet.crt), and the server's side:
    // pkg/server/router.go `Node password validation failed for [%s]` (v0.5, passwd file),
    // `Node password validation failed for '%s', using passwd file '%s'` (v0.6-v1.19,
    // server/cred/node-passwd), pkg/nodepassword/nodepassword.go `unable to verify hash for
    // node '%s'` (v1.20+, the kube-system <node>.node-password.<program> secret).
    Entry::new("k3s.agent.node-password-rejected-unquoted", F::K3s,
        "Node password rejected, duplicate hostname or contents of {file} may not match server",
        K3S, "pkg/agent/config/config.go", "v1.19+")
        .to(K::NodePasswordRejected, "node-duplicate-hostname", Error).group("k3s-node-password").join()
        .says("the server rejects this agent's node password: another node already registered this hostname, or this machine was re-installed and its password file no longer matches the server's <node>.node-password secret", "if the hostname is taken, give this machine a unique name (`--node-name`, or `--with-node-id`); if it is the same machine re-installed, delete its old password secret on the server (`kubectl -n kube-system delete secret <node>.node-password.k3s`, `.rke2` for rke2) and restart the agent")
        .samples(&[("file", "/etc/rancher/node/password")]),
    Entry::new("k3s.agent.node-password-rejected-legacy-unquoted", F::K3s,
        "Node password rejected, contents of {file} may not match server",
        K3S, "pkg/agent/config/config.go", "v0.6-v1.18")
        .to(K::NodePasswordRejected, "node-duplicate-hostname", Error).group("k3s-node-password").join()
        .says("the server rejects this agent's node password: another node registered this hostname, or this machine was re-installed", "give this machine a unique hostname, or remove its old entry from the server's node-passwd file (/var/lib/rancher/k3s/server/cred/node-passwd) and restart the agent")
        .samples(&[("file", "/var/lib/rancher/k3s/agent/node-password.txt")]),
    Entry::new("k3s.agent.node-crt-forbidden", F::K3s,
        "/v1-k3s/node.crt: 403 Forbidden",
        K3S, "pkg/agent/config/config.go (getNodeNamedCrt: the supervisor's status)", "v0.5")
        .to(K::NodePasswordRejected, "node-duplicate-hostname", Error).group("k3s-node-password").join()
        .says("the k3s server answers 403 Forbidden for this agent's node certificate: k3s v0.5 refuses it when the agent's node password does not match the server's entry for this hostname (another node registered the name, or this machine was re-installed and made a new password)", "give this machine a unique hostname, or on the server remove this node's line from the node-passwd file (/var/lib/rancher/k3s/server/node-passwd in v0.5, server/cred/node-passwd later) and restart the agent; upgrade k3s, whose later agents say `Node password rejected`"),
    Entry::new("k3s.agent.kubelet-crt-forbidden", F::K3s,
        "kubelet.crt: 403 Forbidden",
        K3S, "pkg/agent/config/config.go (getNodeNamedCrt: serving-kubelet.crt / client-kubelet.crt)", "v0.6+")
        .to(K::NodePasswordRejected, "node-duplicate-hostname", Error).group("k3s-node-password").join()
        .says("the server answers 403 Forbidden for this agent's kubelet certificate: the supervisor refuses a node password that does not match the one it holds for this hostname (another node registered the name, or this machine was re-installed)", "if the hostname is taken, give this machine a unique name (`--node-name`, or `--with-node-id`); if it is the same machine re-installed, delete its old password on the server (v1.20+: `kubectl -n kube-system delete secret <node>.node-password.k3s`, `.rke2` for rke2; older: its line in /var/lib/rancher/k3s/server/cred/node-passwd) and restart the agent"),
    Entry::new("k3s.server.node-password-validation-failed-legacy", F::K3s,
        "Node password validation failed for [{node:w}]",
        K3S, "pkg/server/router.go (ensureNodePassword)", "v0.5")
        .to(K::Known, "node-duplicate-hostname", Error).group("k3s-node-password").subject("Node/{node}").join()
        .says("the k3s server refuses node {node}: the password its agent sent does not match the one the server's passwd file holds for that name (another machine registered it first, or the agent was re-installed)", "give the new machine a unique hostname, or if it is the same machine remove the `node:{node}` line from /var/lib/rancher/k3s/server/node-passwd on the server and restart the agent"),
    Entry::new("k3s.server.node-password-validation-failed", F::K3s,
        "Node password validation failed for '{node:w}', using passwd file '{file:w}'",
        K3S, "pkg/server/router.go (ensureNodePassword)", "v0.6-v1.19")
        .to(K::Known, "node-duplicate-hostname", Error).group("k3s-node-password").subject("Node/{node}").join()
        .says("the k3s server refuses node {node}: the password its agent sent does not match the entry in {file} (another machine registered that name first, or the agent was re-installed and made a new password)", "give the new machine a unique hostname (`--node-name`), or if it is the same machine remove the line of {node} from {file} on the server and restart the agent")
        .samples(&[("file", "/var/lib/rancher/k3s/server/cred/node-passwd")]),
    Entry::new("k3s.server.node-password-hash-mismatch", F::K3s,
        "unable to verify hash for node '{node:w}': hash does not match",
        K3S, "pkg/nodepassword/nodepassword.go (verifyHash)", "v1.20+")
        .to(K::Known, "node-duplicate-hostname", Error).group("k3s-node-password").subject("Node/{node}").join()
        .says("the server refuses node {node}: the node password its agent sent does not match the hash in the kube-system secret {node}.node-password.<k3s|rke2> (another machine registered that name first, or the agent was re-installed and made a new /etc/rancher/node/password)", "if another machine owns the name, give the new one a unique name (`--node-name`, or `--with-node-id`); if it is the same machine re-installed: `kubectl -n kube-system delete secret {node}.node-password.k3s` (`.rke2` for rke2) on the server, then restart the agent"),
    Entry::new("k3s.etcd.duplicate-node-name", F::K3s,
        "duplicate node name found, please use a unique name for this node",
        K3S, "pkg/etcd/etcd.go (join: a member of this name exists)", "v1.19+")
        .to(K::Known, "node-duplicate-hostname", Error).join()
        .says("this server cannot join the embedded etcd cluster: an etcd member with its node name already exists (the machine was re-installed and its old member was never removed, or another server has the same hostname)", "if another server has this hostname, give this one a unique name (`--node-name`); if it is the same machine re-installed, remove its old member from a healthy server (`kubectl delete node <node>` lets k3s remove the member; or `etcdctl member list` / `etcdctl member remove <id>` with the certificates in /var/lib/rancher/k3s/server/tls/etcd), delete /var/lib/rancher/k3s/server/db on this machine, and start it again"),
    // The supervisor's certificate endpoints refuse a request without a node password (k3s
    // pkg/server/router.go getNodeInfo: `node password not set`, answered 500 before v1.20 and
    // 400 later; the agent shows the status on `.../v1-k3s/serving-kubelet.crt` /
    // `client-kubelet.crt`): the agent read an empty password file (a torn write after a power
    // cut leaves /etc/rancher/node/password 0 bytes)
    Entry::new("k3s.server.node-password-not-set", F::K3s,
        "node password not set",
        K3S, "pkg/server/router.go (getNodeInfo)", "v0.6+")
        .to(K::Known, "node-not-ready", Error).group("k3s-agent-cert").join()
        .says("the k3s/rke2 server refuses an agent's certificate request that carries no node password: the agent's password file is empty (/etc/rancher/node/password, /var/lib/rancher/k3s/agent/node-password.txt before v1.19; a 0-byte file after a power cut or a full disk), so the node never gets its kubelet certificates", "on the agent delete the empty password file (`sudo rm /etc/rancher/node/password`) and restart the agent, which makes a new one; if the server still holds the node's old password, delete it there too (`kubectl -n kube-system delete secret <node>.node-password.k3s`, `.rke2` for rke2)"),
    Entry::new("k3s.agent.kubelet-crt-server-error", F::K3s,
        "kubelet.crt: 500 Internal Server Error",
        K3S, "pkg/agent/config/config.go (getNodeNamedCrt: the supervisor's status)", "v0.6+")
        .to(K::Known, "node-not-ready", Error).group("k3s-agent-cert").join()
        .says("the k3s/rke2 server failed this agent's kubelet certificate request (500): the server's log says why at the same time (most often `node password not set`: the agent's password file is empty; or the server cannot read its own CA files)", "read the server's log around this time (`journalctl -u k3s | grep -e 'node password' -e kubelet.crt`); for an empty agent password file delete /etc/rancher/node/password on the agent and restart it"),
    Entry::new("k3s.agent.kubelet-crt-bad-request", F::K3s,
        "kubelet.crt: 400 Bad Request",
        K3S, "pkg/agent/config/config.go (getNodeNamedCrt: the supervisor's status)", "v1.20+")
        .to(K::Known, "node-not-ready", Error).group("k3s-agent-cert").join()
        .says("the k3s/rke2 server refused this agent's kubelet certificate request as malformed (400): it carried no node name or no node password (`node name not set` / `node password not set` in the server's log): the agent's password file or hostname is empty", "on the agent delete an empty /etc/rancher/node/password and restart the agent; give a machine with an empty hostname a name (`--node-name`)"),
    // k3s server: its own node's name is empty (pkg/server/server.go `Waiting for master node
    // %s startup: %v`, the API server answering `resource name may not be empty`)
    Entry::new("k3s.server.node-name-empty", F::K3s,
        "startup: resource name may not be empty",
        K3S, "pkg/server/server.go (setNodeLabelsAndAnnotations / waiting for the server's node)", "v0.5+")
        .to(K::Known, "node-not-ready", Error).join()
        .says("the k3s server waits for its own node under an empty name (`Waiting for master node  startup`: the API server answers `resource name may not be empty`): the machine's hostname is empty or could not be read, so the node never registers", "give the machine a hostname (`hostnamectl set-hostname <name>`) or start k3s with `--node-name <name>`, then restart it"),
    // The node's address chosen from its default route (k8s.io/apimachinery pkg/util/net
    // interface.go ChooseHostInterface -> getAllDefaultRoutes: `no default routes found in %q or
    // %q`; `No default routes ...` in older releases): k3s / rke2 (node IP), the kubelet
    // (node IP), kube-apiserver (`Unable to find suitable network address.error='...'. Try to
    // set the AdvertiseAddress directly`) exit on a machine without a default gateway
    Entry::new("apimachinery.no-default-routes", F::Kubelet,
        "o default routes found in {files}",
        "kubernetes/apimachinery", "pkg/util/net/interface.go (getAllDefaultRoutes)", "v1.6+")
        .to(K::Known, "node-not-ready", Error).group("no-default-route").exclusive().join()
        .says("the node has no default route, so the component cannot choose the node's address (it picks the address of the default route's interface) and exits: k3s / rke2 agents and servers, the kubelet and kube-apiserver all do this on an air-gapped or host-only network without a gateway", "give the machine a default route (`ip route add default via <gateway>` and make it permanent in the network configuration; on an isolated network a route via the node's own interface is enough), or set the address explicitly: `--node-ip <ip>` for k3s / rke2 and the kubelet, `--advertise-address <ip>` for kube-apiserver (kubeadm: `localAPIEndpoint.advertiseAddress`)")
        .samples(&[("files", "\"/proc/net/route\" or \"/proc/net/ipv6_route\"")]),
    // A k3s server started with a token that does not open the bootstrap data an earlier
    // server left in the datastore (pkg/cluster/storage.go: `bootstrap data already found and
    // encrypted with different token`, v1.19-v1.21 `Bootstrap data already found and encrypted
    // with different token`; shown as `starting kubernetes: preparing server: ...`, `failed to
    // reconcile with local datastore: ...`, `failed to save bootstrap data: ...`); the
    // template starts after the first letter, whose case changed)
    Entry::new("k3s.server.bootstrap-token-mismatch", F::K3s,
        "ootstrap data already found and encrypted with different token",
        K3S, "pkg/cluster/storage.go (getBootstrapKeyFromStorage)", "v1.19+")
        .to(K::Known, "join-token-invalid", Error).join()
        .says("token mismatch: this k3s server's datastore already holds bootstrap data (certificates, keys) of a cluster that was started with another token, and the token this server is given cannot decrypt it: the server was re-installed or re-configured with a new token over an old datastore (the embedded etcd or SQLite in /var/lib/rancher/k3s/server/db, or an external MySQL/PostgreSQL/etcd datastore shared with an earlier cluster), or a joining server has a token that is not the cluster's", "to keep that cluster: start this server with the original token (the content of /var/lib/rancher/k3s/server/token of the first install, `token:` in /etc/rancher/k3s/config.yaml or K3S_TOKEN); to start fresh instead: stop k3s and wipe the old state (`k3s-killall.sh`, then `rm -rf /var/lib/rancher/k3s/server`, rke2: /var/lib/rancher/rke2/server; for an external datastore drop its database or delete the `/bootstrap` key in etcd) and start again; a server joining an existing cluster needs that cluster's token"),
    Entry::new("k3s.token.ca-hash-mismatch", F::K3s,
        "token CA hash does not match the Cluster CA certificate hash: {token_hash:w} != {server_hash:w}",
        K3S, "pkg/clientaccess/token.go", "v1.17+")
        .to(K::JoinTokenCaMismatch, "join-ca-hash-mismatch", Error).join()
        .says("the join token's CA hash ({token_hash}) is not the server's CA ({server_hash}): the server was re-installed (new CA) or the token is from another cluster", "use the current full token from the server (/var/lib/rancher/k3s/server/token, or .../rke2/server/token) in the agent's config, clear the agent's cached CA (/var/lib/rancher/k3s/agent) and restart it")
        .samples(&[("token_hash", "b7cedbb6a03cca9a"), ("server_hash", "38319ba9bd62abc5")]),
    Entry::new("k3s.agent.ca-certs", F::K3s,
        "failed to get CA certs: {error}",
        K3S, "pkg/clientaccess/token.go", "v1.17+").join(),
    // getCACerts' second fetch of /cacerts, trusting only the bundle the first one returned
    // (pkg/clientaccess/token.go `errors.Wrap(err, "CA cert validation failed")`): its inner
    // x509 error is judged by cluster-tls-untrusted (a TLS-terminating load balancer)
    Entry::new("k3s.agent.ca-cert-validation", F::K3s,
        "CA cert validation failed: {error}",
        K3S, "pkg/clientaccess/token.go (getCACerts)", "v1.20+").join(),
    Entry::new("k3s.agent.ca-certs-at", F::K3s,
        "failed to get CA certs at {url:w}: {error}",
        K3S, "pkg/clientaccess/clientaccess.go", "v0.x-v1.18").join(),
    Entry::new("k3s.agent.validate-connection", F::K3s,
        "Failed to validate connection to cluster at {url:w}: {error}",
        K3S, "pkg/agent/run.go", "v1.19+").join(),
    Entry::new("k3s.agent.waiting-config", F::K3s,
        "Waiting to retrieve agent configuration; server is not ready: {error}",
        K3S, "pkg/agent/config/config.go", "v1.21+").join(),
    Entry::new("k3s.agent.retrieve-config", F::K3s,
        "Failed to retrieve agent config: {error}",
        K3S, "pkg/agent/config/config.go", "v1.17-v1.20").join(),
    // a k3s/rke2 server joining an existing cluster compares its critical configuration with
    // the cluster's first: `errors.Wrap(err, "failed to validate server configuration")`
    // (k3s-io/k3s pkg/cluster/bootstrap.go `bootstrap` around `compareConfig`, which GETs
    // `/v1-<program>/config` from the join URL with the token: an HTTP error answer prints as
    // `<url>: <code> <status>`, read by classify's supervisor status; v1.26+ skip the
    // comparison on a GET error and only warn `Skipping cluster configuration validation`)
    Entry::new("k3s.server.validate-config", F::K3s,
        "failed to validate server configuration: {error}",
        K3S, "pkg/cluster/bootstrap.go (bootstrap / compareConfig)", "v1.19+").join()
        .samples(&[("error", "https://10.0.0.10:9345/v1-rke2/config: 401 Unauthorized")]),
    Entry::new("k3s.server.critical-config-mismatch", F::K3s,
        "critical configuration value mismatch",
        K3S, "pkg/cluster/bootstrap.go (compareConfig)", "v1.19+")
        .to(K::Known, "join-preflight-failed", Error).group("k3s-server").join()
        .says("this server's critical configuration differs from the cluster's (cluster-cidr, service-cidr, cluster-dns, cluster-domain, disable, flannel-backend, egress-selector-mode, secrets-encryption must be identical on every server), so it refuses to join", "copy these settings from an existing server's config.yaml (/etc/rancher/k3s/config.yaml, rke2: /etc/rancher/rke2/config.yaml) to this server's, then restart its service"),
    // The server's startup wrapper around everything that prepares it, joining included
    // (k3s-io/k3s pkg/daemons/control/server.go `Server`: `errors.Wrap(err, "preparing
    // server")`, shown as `starting kubernetes: preparing server: <error>`): a server joining
    // with a token the supervisor refuses prints the supervisor's answer inside it
    // (`https://<server>:9345/v1-rke2/server-bootstrap: 401 Unauthorized`, read by classify's
    // supervisor status like the agent's wrappers)
    Entry::new("k3s.server.preparing", F::K3s,
        "preparing server: {error}",
        K3S, "pkg/daemons/control/server.go (Server: `preparing server`)", "v1.0+").join()
        .samples(&[("error", "https://10.0.0.10:9345/v1-rke2/server-bootstrap: 401 Unauthorized")]),
    // A token the agent or server cannot even parse (k3s-io/k3s pkg/clientaccess/token.go
    // parseToken: `invalid token CA hash length` for a K10 token whose hash part is not 64 hex
    // characters, `invalid token format` for credentials that are neither a bootstrap token nor
    // `user:password`, returned through the agent's `Failed to validate connection to cluster at
    // %s: %v`, pkg/agent/run.go), and a server token that is not in a format the server can
    // store (pkg/util/token.go NormalizeToken / pkg/cluster/storage.go `failed to normalize
    // server token; must be in format K10<CA-HASH>::<USERNAME>:<PASSWORD> or <PASSWORD>`,
    // v1.26.5+, k3s-io/k3s#7313: an agent bootstrap token `<id>.<secret>` given as the server
    // token): the token is mistyped or cut, never the server's fault.
    Entry::new("k3s.token.ca-hash-length", F::K3s,
        "invalid token CA hash length",
        K3S, "pkg/clientaccess/token.go (parseToken)", "v1.17+")
        .to(K::Known, "join-token-invalid", Error).group("k3s-token-format").join()
        .says("the join token is malformed: its CA hash part (between `K10` and `::`) is not the 64 hex characters of a SHA-256, so it was cut or mistyped when copied", "copy the whole token again from a server (`cat /var/lib/rancher/k3s/server/token`, rke2: /var/lib/rancher/rke2/server/token; one line `K10<64 hex>::server:<password>`) into `token:` of the node's config.yaml (or K3S_TOKEN / RKE2_TOKEN), then restart the service"),
    Entry::new("k3s.token.invalid-format", F::K3s,
        "Failed to validate connection to cluster at {url:w}: invalid token format",
        K3S, "pkg/agent/run.go (createProxyAndValidateToken) around pkg/clientaccess/token.go parseToken", "v1.17+")
        .to(K::Known, "join-token-invalid", Error).group("k3s-token-format").join()
        .says("the agent's join token for {url} is malformed: its credentials part is neither a bootstrap token (`<6 chars>.<16 chars>`) nor `<user>:<password>`, so it was cut or mistyped when copied", "copy the whole token again from a server (`cat /var/lib/rancher/k3s/server/token`, rke2: /var/lib/rancher/rke2/server/token) into `token:` of /etc/rancher/k3s/config.yaml (rke2: /etc/rancher/rke2/config.yaml, or K3S_TOKEN / RKE2_TOKEN), then restart the agent")
        .samples(&[("url", "https://10.0.0.10:6443")]),
    Entry::new("k3s.token.normalize-server-token", F::K3s,
        "failed to normalize server token; must be in format K10<CA-HASH>::<USERNAME>:<PASSWORD> or <PASSWORD>",
        K3S, "pkg/util/token.go (NormalizeToken), pkg/cluster/storage.go", "v1.26.5+")
        .to(K::Known, "join-token-invalid", Error).group("k3s-token-format").join()
        .says("the server token is not in a form a server can use: a server token must be the full `K10<CA hash>::server:<password>` token or a bare password; an agent bootstrap token (`<id>.<secret>`, from `k3s token create`) only joins agents", "give the server the cluster's server token (`cat /var/lib/rancher/k3s/server/token` on an existing server, rke2: /var/lib/rancher/rke2/server/token) or, for a new cluster, any password as the `token` value of config.yaml; keep bootstrap tokens for `agent` nodes"),
    // validateCAHash's warnings (pkg/clientaccess/token.go): context, no failure
    Entry::new("k3s.token.no-ca-hash", F::K3s,
        "Cluster CA certificate is not trusted by the host CA bundle, but the token does not include a CA hash",
        K3S, "pkg/clientaccess/token.go (validateCAHash)", "v1.20+").complete().join(),
    Entry::new("k3s.token.ca-trusted", F::K3s,
        "Cluster CA certificate is trusted by the host CA bundle. Token CA hash will not be validated",
        K3S, "pkg/clientaccess/token.go (validateCAHash)", "v1.20+").complete().join(),
    // configureNode's retry while the kubelet updates the same Node (k3s-io/k3s pkg/agent/
    // run.go: `logrus.Infof("Failed to set annotations and labels on node %s: %v", ...)` and
    // `return false, nil`, the watch retries): context; a conflict (`the object has been
    // modified`) passes on the next event, and any other inner error is read on its own
    Entry::new("k3s.agent.set-node-labels-retry", F::K3s,
        "Failed to set annotations and labels on node {node:w}: {error}",
        K3S, "pkg/agent/run.go (configureNode)", "v1.19+").complete()
        .samples(&[("error", "Operation cannot be fulfilled on nodes \"node-01\": the object has been modified; please apply your changes to the latest version and try again")]),
    Entry::new("k3s.memory-cgroup", F::K3s,
        "failed to find memory cgroup, you may need to add \"cgroup_memory=1 cgroup_enable=memory\" to your linux cmdline",
        K3S, "pkg/cgroups/cgroups_linux.go", "v1.17+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime")
        .says("the kernel has the memory cgroup disabled, so the k3s agent cannot start", "append `cgroup_memory=1 cgroup_enable=memory` to the kernel command line (/boot/firmware/cmdline.txt on Raspberry Pi OS) and reboot"),
    // ------------------------------------------------------------------ container runtime: handler not found
    // The CRI runtime has no handler of the pod's RuntimeClass (`handler:`), so the pod sandbox is
    // never created: containerd's CRI plugin `getSandboxRuntime` returns `no runtime for %q is
    // configured` (containerd/containerd pkg/cri/server/helpers.go, wrapped as `failed to get
    // sandbox runtime: %w` by pkg/cri/server/sandbox_run.go, 1.3-1.7; internal/cri/server/
    // podsandbox/helpers.go in 2.x), CRI-O's `ValidateRuntimeHandler` returns `failed to find
    // runtime handler %s from runtime list %v` (cri-o/cri-o internal/oci/oci.go), dockershim and
    // cri-dockerd answer `RuntimeHandler %q not supported` (kubernetes pkg/kubelet/dockershim/
    // docker_sandbox.go up to v1.23, Mirantis/cri-dockerd core/sandbox_helpers.go), and Docker
    // itself (`--runtime nvidia`, compose `runtime: nvidia`) `Unknown runtime specified %s`
    // (moby daemon/daemon_unix.go, up to v20.10) and `unknown or invalid runtime name: %s`
    // (moby v23+). The kubelet wraps the CRI error in the `FailedCreatePodSandBox` event
    // (`Failed to create pod sandbox: %v`). For the `nvidia` handlers (the GPU operator's
    // RuntimeClasses nvidia, nvidia-cdi, nvidia-legacy) the NVIDIA container toolkit did not
    // configure the runtime config the runtime actually loads (or the runtime was not
    // restarted), so the device plugin, GFD and validator pods never start.
    Entry::new("runtime.containerd.no-nvidia-handler", F::NvidiaContainerToolkit,
        "no runtime for {q:w}nvidia{handler_tail} is configured",
        "containerd/containerd", "pkg/cri/server/helpers.go (getSandboxRuntime); 2.x internal/cri/server/podsandbox", "containerd 1.3+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("runtime-handler")
        .says("containerd has no `nvidia` runtime handler although the pod's RuntimeClass asks for it: the NVIDIA container toolkit did not write the runtime into the containerd config that containerd loads (or containerd was not restarted after it), so the device plugin, GPU feature discovery and validator pods never get a sandbox and the node advertises no GPU", "on the node check `containerd config dump | grep -A3 'runtimes.nvidia'`: if absent, run `nvidia-ctk runtime configure --runtime=containerd` against the config containerd really loads (k3s/rke2: /var/lib/rancher/*/agent/etc/containerd/config.toml.tmpl; microk8s: its own containerd-template.toml; GPU operator: set toolkit.env CONTAINERD_CONFIG and CONTAINERD_SOCKET to those paths) and restart containerd")
        .samples(&[("q", "\""), ("handler_tail", "\"")]),
    // The RuntimeClass object itself is missing: the API server's RuntimeClass admission plugin
    // refuses the pod (kubernetes plugin/pkg/admission/runtimeclass/admission.go: `pod
    // rejected: RuntimeClass %q not found`, Forbidden), so the DaemonSet or ReplicaSet shows
    // FailedCreate and no pod exists at all.
    Entry::new("runtime.runtimeclass-nvidia-missing", F::NvidiaContainerToolkit,
        "pod rejected: RuntimeClass {q:w}nvidia{handler_tail} not found",
        K8S, "plugin/pkg/admission/runtimeclass/admission.go (prepareObjects)", "v1.16+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("runtime-handler").exclusive()
        .says("the API server refuses the GPU pods: their RuntimeClass `nvidia` does not exist (the GPU operator creates it with its ClusterPolicy, and the NVIDIA device plugin's chart expects it), so the DaemonSet or Deployment creates no pod at all", "install or repair the GPU operator (its ClusterPolicy creates RuntimeClass nvidia), or create it yourself once the container toolkit is configured (`kind: RuntimeClass`, `metadata.name: nvidia`, `handler: nvidia`); without the toolkit drop runtimeClassName from the pod spec")
        .samples(&[("q", "\""), ("handler_tail", "\"")]),
    // runc's prestart-hook error (opencontainers/runc libcontainer/configs/config.go: `error
    // running hook #%d: %w` around `error running hook: %w, stdout: %s, stderr: %s`): the hook's
    // own stderr, on the lines after it (the NVIDIA container CLI's error), says why; the line
    // is understood as context
    Entry::new("runtime.runc.hook-failed", F::ContainerRuntime,
        "error running hook #{n:w} error running hook: {status}, stdout: {stdout}, stderr: {stderr}",
        "opencontainers/runc", "libcontainer/configs/config.go (Hooks.Run, Command.Run)", "runc 1.1+").complete()
        .samples(&[("n", "0:"), ("status", "exit status 1"), ("stdout", ""), ("stderr", "Auto-detected mode as 'legacy'")]),
    // runc 1.2+ names the hook's stage (`error running %s hook #%d: %w`, libcontainer/configs/
    // config.go Hooks.Run: prestart, createRuntime, createContainer, startContainer,
    // poststart): the wrapper of the hook's own error (the toolkit's, on the next line)
    Entry::new("runtime.runc.stage-hook-failed", F::ContainerRuntime,
        "error running {stage:w} hook #{n:w} {status}, stdout: {stdout}, stderr: {stderr}",
        "opencontainers/runc", "libcontainer/configs/config.go (Hooks.Run)", "runc 1.2+").complete()
        .samples(&[("stage", "prestart"), ("n", "0:"), ("status", "exit status 1"), ("stdout", ""), ("stderr", "Auto-detected mode as 'legacy'")]),
    Entry::new("runtime.containerd.no-handler", F::ContainerRuntime,
        "no runtime for {handler:w} is configured",
        "containerd/containerd", "pkg/cri/server/helpers.go (getSandboxRuntime); 2.x internal/cri/server/podsandbox", "containerd 1.3+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime-handler")
        .says("containerd has no runtime handler {handler}, which the pod's RuntimeClass names: no pod of that RuntimeClass can start on this node", "add the handler to the containerd config containerd loads (`[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.<handler>]`) and restart containerd, or schedule these pods only on nodes that have it (the RuntimeClass's scheduling.nodeSelector)")
        .samples(&[("handler", "\"kata\"")]),
    Entry::new("runtime.crio.no-nvidia-handler", F::NvidiaContainerToolkit,
        "failed to find runtime handler nvidia{handler_tail:w} from runtime list {list}",
        "cri-o/cri-o", "internal/oci/oci.go (ValidateRuntimeHandler)", "CRI-O 1.14+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("runtime-handler")
        .says("CRI-O has no `nvidia` runtime handler (its runtimes: {list}) although the pod's RuntimeClass asks for it: the NVIDIA container toolkit did not configure CRI-O, so the device plugin and validator pods never start and the node advertises no GPU", "run `nvidia-ctk runtime configure --runtime=crio` (it writes /etc/crio/crio.conf.d/99-nvidia.conf) and restart CRI-O; with the GPU operator set `operator.defaultRuntime=crio` so its toolkit configures CRI-O")
        .samples(&[("handler_tail", "-cdi"), ("list", "map[crun:{} runc:{}]")]),
    Entry::new("runtime.crio.no-nvidia-handler-exact", F::NvidiaContainerToolkit,
        "failed to find runtime handler nvidia from runtime list {list}",
        "cri-o/cri-o", "internal/oci/oci.go (ValidateRuntimeHandler)", "CRI-O 1.14+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("runtime-handler")
        .says("CRI-O has no `nvidia` runtime handler (its runtimes: {list}) although the pod's RuntimeClass asks for it: the NVIDIA container toolkit did not configure CRI-O, so the device plugin and validator pods never start and the node advertises no GPU", "run `nvidia-ctk runtime configure --runtime=crio` (it writes /etc/crio/crio.conf.d/99-nvidia.conf) and restart CRI-O")
        .samples(&[("list", "map[crun:{} runc:{}]")]),
    Entry::new("runtime.crio.no-handler", F::ContainerRuntime,
        "failed to find runtime handler {handler:w} from runtime list {list}",
        "cri-o/cri-o", "internal/oci/oci.go (ValidateRuntimeHandler)", "CRI-O 1.14+")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime-handler")
        .says("CRI-O has no runtime handler {handler} (its runtimes: {list}), which the pod's RuntimeClass names: no pod of that RuntimeClass can start on this node", "add `[crio.runtime.runtimes.{handler}]` in /etc/crio/crio.conf.d/ and restart CRI-O, or schedule these pods only on nodes that have it (the RuntimeClass's scheduling.nodeSelector)")
        .samples(&[("handler", "runsc"), ("list", "map[crun:{} runc:{}]")]),
    Entry::new("runtime.dockershim.handler-not-supported", F::ContainerRuntime,
        "RuntimeHandler {handler:w} not supported",
        K8S, "pkg/kubelet/dockershim/docker_sandbox.go (v1.12-v1.23); Mirantis/cri-dockerd core/sandbox_helpers.go", "v1.12-v1.23, cri-dockerd")
        .to(K::Known, "node-runtime-unhealthy", Error).group("runtime-handler")
        .says("the node runs Docker through dockershim/cri-dockerd, which supports no RuntimeClass handler ({handler}): pods with a runtimeClassName cannot start here", "drop runtimeClassName for Docker nodes (for GPUs make nvidia Docker's default runtime: `nvidia-ctk runtime configure --runtime=docker --set-as-default`, restart docker), or move the node to containerd/CRI-O")
        .samples(&[("handler", "\"nvidia\"")]),
    Entry::new("runtime.docker.unknown-nvidia", F::NvidiaContainerToolkit,
        "Unknown runtime specified nvidia",
        "moby/moby", "daemon/daemon_unix.go (verifyPlatformContainerSettings)", "Docker 17.x-20.10")
        .to(K::Known, "gpu-plugin-log-error", Error).group("runtime-handler")
        .says("Docker has no `nvidia` runtime registered: the NVIDIA container toolkit is not installed or not configured for Docker", "install the NVIDIA container toolkit and run `nvidia-ctk runtime configure --runtime=docker` (it edits /etc/docker/daemon.json), then `systemctl restart docker`"),
    Entry::new("runtime.docker.invalid-nvidia", F::NvidiaContainerToolkit,
        "unknown or invalid runtime name: nvidia",
        "moby/moby", "daemon/runtime_unix.go (getRuntime)", "Docker 23+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("runtime-handler")
        .says("Docker has no `nvidia` runtime registered: the NVIDIA container toolkit is not installed or not configured for Docker", "install the NVIDIA container toolkit and run `nvidia-ctk runtime configure --runtime=docker` (it edits /etc/docker/daemon.json), then `systemctl restart docker`"),
    // ------------------------------------------------------------------ NVIDIA device plugin
    // Where each text is printed, by release (NVIDIA/k8s-device-plugin): v0.7-v0.12
    // cmd/nvidia-device-plugin/main.go; v0.13 internal/rm/rm.go (platform detection) and
    // internal/rm/nvml_manager.go; v0.14-v0.16 internal/plugin/manager/factory.go (`resolveMode`,
    // NVML init); v0.17+ internal/plugin/factory.go (`getResourceManagers`). The reason after
    // `Detected non-NVML platform:` comes from go-nvlib `pkg/nvlib/info`: `could not load NVML: %v`
    // (gitlab go-nvlib vendored by v0.13) and `could not load NVML library: %v`
    // (github.com/NVIDIA/go-nvlib property-extractor.go, v0.14+). Every line of this group is
    // printed only when the plugin cannot use NVML, so each one concludes.
    Entry::new("nvidia.non-nvml-platform-library", F::NvidiaDevicePlugin,
        "Detected non-NVML platform: could not load NVML library: {error}",
        "NVIDIA/go-nvlib", "pkg/nvlib/info/property-extractor.go (HasNvml), logged by internal/plugin/manager/factory.go", "k8s-device-plugin v0.14-v0.16")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin's container has no NVIDIA driver library ({error}): the NVIDIA container toolkit does not inject the driver into it", NVML_LIBRARY_REMEDY)
        .samples(&[("error", "libnvidia-ml.so.1: cannot open shared object file: No such file or directory")]),
    Entry::new("nvidia.non-nvml-platform", F::NvidiaDevicePlugin,
        "Detected non-NVML platform: could not load NVML: {error}",
        "NVIDIA/go-nvlib", "pkg/nvlib/info/info.go (HasNvml), logged by internal/rm/rm.go", "k8s-device-plugin v0.13")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin's container has no NVIDIA driver library ({error}): the NVIDIA container toolkit does not inject the driver into it", NVML_LIBRARY_REMEDY)
        .samples(&[("error", "libnvidia-ml.so.1: cannot open shared object file: No such file or directory")]),
    Entry::new("nvidia.non-nvml-platform-init", F::NvidiaDevicePlugin,
        "Detected non-NVML platform: failed to initialize nvml: {error}",
        "NVIDIA/go-nvlib", "pkg/nvlib/info/property-extractor.go (HasNvml)", "k8s-device-plugin v0.14-v0.16")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin loads the NVIDIA library but NVML does not initialise ({error}): the kernel driver is not loaded or does not match the library", "run `nvidia-smi` on the node: fix or reinstall the driver (the kernel module must match the user-space library), then restart the plugin pod")
        .samples(&[("error", "ERROR_DRIVER_NOT_LOADED")]),
    Entry::new("nvidia.detected-platform", F::NvidiaDevicePlugin,
        "Detected {platform:w} platform: {reason}",
        NVDP, "internal/plugin/manager/factory.go (resolveMode)", "v0.13-v0.16")
        .samples(&[("platform", "non-Tegra"), ("reason", "/sys/devices/soc0/family file not found")]),
    Entry::new("nvidia.incompatible-platform", F::NvidiaDevicePlugin,
        "Incompatible platform detected",
        NVDP, "internal/plugin/manager/factory.go (resolveMode); v0.13 internal/rm/rm.go", "v0.13-v0.16")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin finds neither NVML nor a Tegra system in its container: the NVIDIA container toolkit does not inject the driver, or the node has no NVIDIA GPU", NVML_LIBRARY_REMEDY),
    Entry::new("nvidia.incompatible-strategy", F::NvidiaDevicePlugin,
        "Incompatible strategy detected {strategy:w}",
        NVDP, "internal/plugin/factory.go (getResourceManagers); v0.16 internal/plugin/manager/factory.go", "v0.16+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin could not resolve a device discovery strategy ({strategy}): it finds neither NVML nor a Tegra system in its container, so the NVIDIA container toolkit does not inject the driver, or the node has no NVIDIA GPU", NVML_LIBRARY_REMEDY)
        .samples(&[("strategy", "auto")]),
    Entry::new("nvidia.platform-detection-failed", F::NvidiaDevicePlugin,
        "platform detection failed",
        NVDP, "internal/plugin/manager/factory.go (resolveMode, failOnInitError); v0.13 internal/rm/rm.go", "v0.13-v0.16")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin exits (failOnInitError): it finds neither NVML nor a Tegra system in its container, so the NVIDIA container toolkit does not inject the driver, or the node has no NVIDIA GPU", NVML_LIBRARY_REMEDY),
    Entry::new("nvidia.invalid-discovery-strategy", F::NvidiaDevicePlugin,
        "invalid device discovery strategy",
        NVDP, "internal/plugin/factory.go (getResourceManagers, failOnInitError); v0.16 internal/plugin/manager/factory.go", "v0.16+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin exits (failOnInitError): it finds neither NVML nor a Tegra system in its container, so the NVIDIA container toolkit does not inject the driver, or the node has no NVIDIA GPU", NVML_LIBRARY_REMEDY),
    // v0.18+ (cmd/nvidia-device-plugin/plugin-manager.go resolveStrategy): go-nvlib's
    // ResolvePlatform names the platform (`nvml`, `tegra`, `wsl`, or `unknown` when neither NVML
    // nor a Tegra system is found in the container, pkg/nvlib/info/resolver.go PlatformUnknown);
    // for `unknown` the plugin warns and falls back to the NVML strategy, whose
    // `Failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND.` follows.
    Entry::new("nvidia.platform-unknown", F::NvidiaDevicePlugin,
        "Detected platform: unknown",
        NVDP, "cmd/nvidia-device-plugin/plugin-manager.go (resolveStrategy); go-nvlib pkg/nvlib/info/resolver.go", "v0.18+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin finds neither the NVIDIA driver library (NVML) nor a Tegra system in its container: the NVIDIA container toolkit does not inject the driver into it, or the node has no NVIDIA GPU", NVML_LIBRARY_REMEDY),
    Entry::new("nvidia.platform-unsupported", F::NvidiaDevicePlugin,
        "Unsupported platform detected; defaulting to nvml",
        NVDP, "cmd/nvidia-device-plugin/plugin-manager.go (resolveStrategy)", "v0.18+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin finds neither the NVIDIA driver library (NVML) nor a Tegra system in its container and falls back to NVML, which cannot start: the NVIDIA container toolkit does not inject the driver into it, or the node has no NVIDIA GPU", NVML_LIBRARY_REMEDY),
    // internal/rm/rm.go (AddDefaultResourcesToConfig, migStrategy mixed): go-nvlib's HasNvml
    // reason (`could not load NVML library: %v`) after `NVML not detected: `.
    Entry::new("nvidia.nvml-not-detected", F::NvidiaDevicePlugin,
        "NVML not detected: {error}",
        NVDP, "internal/rm/rm.go (AddDefaultResourcesToConfig)", "v0.15+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin's container has no usable NVIDIA driver library ({error}): the NVIDIA container toolkit does not inject the driver into it", NVML_LIBRARY_REMEDY)
        .samples(&[("error", "could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file or directory")]),
    Entry::new("nvidia.mixed-needs-nvml", F::NvidiaDevicePlugin,
        "mig-strategy=\"mixed\" is only supported with NVML",
        NVDP, "internal/rm/rm.go (AddDefaultResourcesToConfig)", "v0.15+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin runs with migStrategy mixed but finds no NVIDIA driver library (NVML) in its container: the NVIDIA container toolkit does not inject the driver into it", NVML_LIBRARY_REMEDY),
    Entry::new("nvidia.nvml-init-failed", F::NvidiaDevicePlugin,
        "Failed to initialize NVML: {error}.",
        NVDP, "cmd/nvidia-device-plugin/main.go (v0.7-v0.12), internal/rm/nvml_manager.go (v0.13), internal/plugin/manager/factory.go (v0.14-v0.16), internal/plugin/factory.go (v0.17+)", "v0.7+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot initialise NVML ({error}), so it advertises no GPU", "make the NVIDIA runtime the plugin's runtime (runtimeClassName: nvidia, or containerd's default_runtime_name) and check the driver with `nvidia-smi` on the node")
        .samples(&[("error", "could not load NVML library")]),
    Entry::new("nvidia.nvml-init-failed-error", F::NvidiaDevicePlugin,
        "failed to initialize NVML: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go (returned with failOnInitError); forks such as the volcano-sh/devices vGPU plugin print it with klog.Fatal", "v0.9-v0.12")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot initialise NVML ({error}) and exits, so it advertises no GPU", "make the NVIDIA runtime the plugin's runtime (runtimeClassName: nvidia, or containerd's default_runtime_name) and check the driver with `nvidia-smi` on the node")
        .samples(&[("error", "could not load NVML library")]),
    Entry::new("nvidia.nvml-start-failed", F::NvidiaDevicePlugin,
        "Failed to start nvml with error: {error}.",
        NVDP, "main.go", "v1.0.0-beta")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot initialise NVML ({error}), so it advertises no GPU", "set the container runtime of the plugin to nvidia and check the driver with `nvidia-smi`")
        .samples(&[("error", "could not load NVML library")]),
    // the 1.8/1.9-era branches' main.go: `log.Println("Failed to start nvml with error:", err)`
    // (no period; Println's space, sometimes two as pasted)
    Entry::new("nvidia.nvml-start-failed-println", F::NvidiaDevicePlugin,
        "Failed to start nvml with error: {error}",
        NVDP, "main.go (log.Println form of the 1.8-1.9 branches)", "1.8-1.9")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot initialise NVML ({error}), so it advertises no GPU", "set the container runtime of the plugin to nvidia (Docker's default-runtime, or the plugin's runtimeClassName) and check the driver with `nvidia-smi`")
        .samples(&[("error", "could not load NVML library")]),
    Entry::new("nvidia.nvml-init-failed-rm", F::NvidiaDevicePlugin,
        "nvml init failed: {error}",
        NVDP, "internal/plugin/manager/factory.go (v0.14-v0.16), internal/plugin/factory.go (v0.17+)", "v0.14+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot initialise NVML ({error}), so it advertises no GPU", "check the driver on the node (`nvidia-smi`) and the container toolkit configuration of the runtime")
        .samples(&[("error", "ERROR_LIBRARY_NOT_FOUND")]),
    // nvidia-smi's own NVML failures, as printed on a host or in a container (no trailing
    // period, unlike the plugin's `Failed to initialize NVML: %v.`): the kernel module and the
    // user-space library of different driver versions (an upgrade without reboot), and `Unknown
    // Error` in a container that lost its GPU device access after `systemctl daemon-reload`
    // (runc's cgroup device rules rewritten by systemd: NVIDIA/nvidia-container-toolkit#48)
    Entry::new("nvidia-smi.version-mismatch", F::GpuOperator,
        "Failed to initialize NVML: Driver/library version mismatch",
        "NVIDIA/open-gpu-kernel-modules", "nvidia-smi (driver package)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvml")
        .says("the NVIDIA kernel module loaded is another version than the user-space driver libraries: the driver was upgraded (often by unattended upgrades) and the old module is still loaded, so nothing on the node can use the GPU", NVML_VERSION_MISMATCH_REMEDY),
    Entry::new("nvidia-smi.unknown-error", F::GpuOperator,
        "Failed to initialize NVML: Unknown Error",
        "NVIDIA/nvidia-container-toolkit", "issue #48 (containers lose GPU access after systemctl daemon-reload)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvml")
        .says("NVML cannot open the GPU devices: in a container this is the container that lost its access to /dev/nvidia* after a `systemctl daemon-reload` on the host (systemd rewrote the cgroup device rules runc set), on the host a driver fault", "restart the affected pods (their containers get the device rules again); for good, let containerd/runc use the systemd cgroup driver with the NVIDIA symlinks in /dev/char (`sudo nvidia-ctk system create-dev-char-symlinks --create-all`) or upgrade the container toolkit; on the host check `dmesg | grep -i -e nvrm -e xid`"),
    Entry::new("nvidia.hint-runtime", F::NvidiaDevicePlugin,
        "If this is a GPU node, did you {advice}?",
        NVDP, "internal/plugin/factory.go (and the files above, by release)", "v0.7+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot use the NVIDIA driver in its container (it prints this hint only then)", NVML_LIBRARY_REMEDY)
        .samples(&[("advice", "configure the NVIDIA Container Toolkit")]),
    Entry::new("nvidia.hint-prerequisites", F::NvidiaDevicePlugin,
        "You can check the prerequisites at: {url:w}",
        NVDP, "internal/plugin/factory.go (and the files above, by release)", "v0.7+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot use the NVIDIA driver in its container (it prints this hint only then)", NVML_LIBRARY_REMEDY)
        .samples(&[("url", "https://github.com/NVIDIA/k8s-device-plugin#prerequisites")]),
    Entry::new("nvidia.hint-quick-start", F::NvidiaDevicePlugin,
        "You can learn how to set the runtime at: {url:w}",
        NVDP, "internal/plugin/factory.go (and the files above, by release)", "v0.7+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot use the NVIDIA driver in its container (it prints this hint only then)", NVML_LIBRARY_REMEDY)
        .samples(&[("url", "https://github.com/NVIDIA/k8s-device-plugin#quick-start")]),
    Entry::new("nvidia.hint-not-gpu-node", F::NvidiaDevicePlugin,
        "If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes",
        NVDP, "internal/plugin/factory.go (and the files above, by release)", "v0.7+")
        .to(K::NvmlInitFailed, "gpu-not-advertised", Error).group("nvml")
        .says("the device plugin cannot use the NVIDIA driver in its container (it prints this hint only then)", NVML_LIBRARY_REMEDY),
    Entry::new("nvidia.error-starting-plugins", F::NvidiaDevicePlugin,
        "error starting plugins: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go", "v0.13+"),
    Entry::new("nvidia.error-creating-plugin-manager", F::NvidiaDevicePlugin,
        "error creating plugin manager: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go", "v0.13-v0.16"),
    Entry::new("nvidia.unable-to-create-plugin-manager", F::NvidiaDevicePlugin,
        "unable to create plugin manager: {error}",
        NVDP, "cmd/nvidia-device-plugin/plugin-manager.go", "v0.14-v0.16"),
    Entry::new("nvidia.error-getting-plugins", F::NvidiaDevicePlugin,
        "error getting plugins: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go", "v0.17+"),
    Entry::new("nvidia.unable-to-create-plugins", F::NvidiaDevicePlugin,
        "unable to create plugins: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go (GetPlugins)", "v0.17.1+"),
    Entry::new("nvidia.construct-resource-managers", F::NvidiaDevicePlugin,
        "failed to construct resource managers: {error}",
        NVDP, "internal/plugin/factory.go", "v0.17+"),
    // MPS sharing (v0.15+): the plugin waits for the control daemon of its resource
    // (internal/plugin/server.go Start `error waiting for MPS daemon: %w`; internal/plugin/mps.go
    // waitForDaemon `error checking MPS daemon health: %w`; cmd/mps-control-daemon/mps/daemon.go
    // EchoPipeToControl `failed to start NVIDIA MPS command` / `failed to write message to pipe`
    // / `failed to send command to MPS daemon`), validates its flags
    // (cmd/nvidia-device-plugin/main.go validateFlags) and refuses MIG devices
    // (internal/plugin/mps.go getMPSOptions). The control daemon's own texts
    // (cmd/mps-control-daemon/main.go, mps/manager.go, mps/device.go) follow.
    Entry::new("nvidia.mps-daemon-wait", F::NvidiaDevicePlugin,
        "error waiting for MPS daemon: {error}",
        NVDP, "internal/plugin/server.go (Start), internal/plugin/mps.go (waitForDaemon), cmd/mps-control-daemon/mps/daemon.go (AssertHealthy)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps")
        .says("the NVIDIA device plugin is configured for MPS sharing but finds no healthy MPS control daemon for its resource ({error}): it does not start and retries every 30s, so the shared GPU resource is not advertised", MPS_DAEMON_REMEDY)
        .samples(&[("error", "error checking MPS daemon health: failed to send command to MPS daemon: exit status 1")]),
    Entry::new("nvidia.mps-daemon-health", F::NvidiaDevicePlugin,
        "error checking MPS daemon health: {error}",
        NVDP, "internal/plugin/mps.go (waitForDaemon)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps")
        .says("the NVIDIA device plugin is configured for MPS sharing but finds no healthy MPS control daemon for its resource ({error}): it does not start and retries every 30s, so the shared GPU resource is not advertised", MPS_DAEMON_REMEDY)
        .samples(&[("error", "failed to send command to MPS daemon: exit status 1")]),
    Entry::new("nvidia.mps-requires-root", F::NvidiaDevicePlugin,
        "using MPS requires --mps-root to be specified",
        NVDP, "cmd/nvidia-device-plugin/main.go (validateFlags), cmd/mps-control-daemon/main.go", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps")
        .says("the NVIDIA device plugin's config enables MPS sharing but the plugin has no --mps-root (MPS_ROOT): it refuses to start, so the node advertises no nvidia.com/gpu; a static DaemonSet does not set it, and it does not run the MPS control daemon either", "deploy the plugin with its Helm chart with the MPS config (it sets mps.root, default /run/nvidia/mps, and runs the nvidia-device-plugin-mps-control-daemon DaemonSet on nodes labelled nvidia.com/mps.capable=true), or set --mps-root / MPS_ROOT on the plugin and run the MPS control daemon with the same root yourself; then restart the plugin pod"),
    Entry::new("nvidia.mps-mig-mixed", F::NvidiaDevicePlugin,
        "using --mig-strategy=mixed is not supported with MPS",
        NVDP, "cmd/nvidia-device-plugin/main.go (validateFlags)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps")
        .says("the NVIDIA device plugin's config combines MPS sharing with mig-strategy=mixed, which it refuses: it does not start, so the node advertises no GPU", "MPS control daemons serve whole GPUs only: set migStrategy none (or single) for the MPS config, or keep MIG mixed and drop sharing.mps from this node's config (a per-node config with the nvidia.com/device-plugin.config label); then restart the plugin pod"),
    Entry::new("nvidia.mps-mig-devices", F::NvidiaDevicePlugin,
        "sharing using MPS is not supported for MIG devices",
        NVDP, "internal/plugin/mps.go (getMPSOptions)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps")
        .says("the NVIDIA device plugin's config enables MPS sharing on a resource backed by MIG devices, which MPS does not support: that plugin does not start", "give MIG nodes a config without sharing.mps (a per-node config selected with the nvidia.com/device-plugin.config label), or disable MIG on the GPUs that are shared with MPS; then restart the plugin pod"),
    Entry::new("nvidia.mps-daemons-retry", F::NvidiaDevicePlugin,
        "Failed to start one or more MPS deamons. Retrying in 30s...",
        NVDP, "cmd/mps-control-daemon/main.go (start; the word is misspelt upstream)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps-daemon")
        .says("the MPS control daemon cannot start the MPS daemon of one or more resources and retries every 30s: the device plugin waits for it (`error waiting for MPS daemon`) and the shared GPU resource is not advertised", "read the `Failed to start MPS daemon:` line before it for the reason (compute mode, pipe or log directory under the MPS root, SELinux context, replicas); then restart the mps-control-daemon pod and the plugin pod"),
    Entry::new("nvidia.mps-daemon-start-failed", F::NvidiaDevicePlugin,
        "Failed to start MPS daemon: {error}",
        NVDP, "cmd/mps-control-daemon/main.go (startDaemons), mps/daemon.go (Start)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps-daemon")
        .says("the MPS control daemon cannot start the MPS daemon ({error}): the device plugin finds no healthy MPS daemon and the shared GPU resource is not advertised", "`error setting compute mode`: the GPU is in use or nvidia-smi fails in the daemon's container (stop other GPU processes, check the driver root); `error creating directory` / `SELinux`: the MPS root (mps.root, /run/nvidia/mps) must be a writable host path; then restart the mps-control-daemon pod and the plugin pod")
        .samples(&[("error", "error setting compute mode EXCLUSIVE_PROCESS: error running nvidia-smi: exit status 1")]),
    Entry::new("nvidia.mps-replicas-exceeded", F::NvidiaDevicePlugin,
        "maximum allowed replicas exceeded: {replicas:w} > {max:w}",
        NVDP, "cmd/mps-control-daemon/mps/device.go (assertReplicas)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-mps-daemon")
        .says("the MPS sharing config asks for {replicas} replicas of a GPU, more than the MPS clients a GPU allows ({max}): the MPS control daemon refuses the config and the plugin does not start", "lower sharing.mps.resources[].replicas to at most {max} in the device plugin's config, then restart the mps-control-daemon and plugin pods")
        .samples(&[("replicas", "64"), ("max", "48")]),
    Entry::new("nvidia.mps-no-devices", F::NvidiaDevicePlugin,
        "No devices are configured for MPS sharing; Waiting indefinitely.",
        NVDP, "cmd/mps-control-daemon/main.go (startDaemons)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("nvidia-mps-daemon")
        .says("the MPS control daemon runs on a node whose device-plugin config shares no GPU with MPS: it idles, and a plugin configured for MPS on this node waits for a daemon that never starts", "give the node the same MPS config as the plugin (the nvidia.com/device-plugin.config label selects it for both), or remove the node's nvidia.com/mps.capable=true label if it should not share with MPS"),
    Entry::new("nvidia.mps-mig-skipped", F::NvidiaDevicePlugin,
        "MPS sharing is not supported for MIG devices; skipping daemon creation",
        NVDP, "cmd/mps-control-daemon/mps/manager.go (NewDaemons)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("nvidia-mps-daemon")
        .says("the MPS control daemon skips MIG devices: no MPS daemon runs for them, so a plugin configured to share them with MPS never starts", "give MIG nodes a device-plugin config without sharing.mps (per-node config with the nvidia.com/device-plugin.config label), or disable MIG on the GPUs shared with MPS"),
    // Printed whenever no plugin started: NVML found no GPU, every GPU is in MIG mode with
    // migStrategy none, or (failOnInitError false) the null manager after an NVML failure; a
    // preceding NVML failure line decides (classify::device_plugin drops this conclusion then).
    // cmd/nvidia-device-plugin/main.go (start): the plugin watches the kubelet's device-plugins
    // directory with inotify (`Starting FS watcher.`); urfave/cli prints the returned error as
    // `Error: ...`
    Entry::new("nvidia.fs-watcher", F::NvidiaDevicePlugin,
        "failed to create FS watcher: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go (start)", "v0.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-watch")
        .says("{plugin} cannot watch the kubelet's device-plugins directory and exits ({error}){hint}", "{fix}")
        .samples(&[("error", "too many open files")]),
    // The legacy wording of v1.0.0-beta (main.go: `log.Println("Failed to created FS watcher.")`
    // then os.Exit(1); the typo is upstream's), still printed by forks of that main.go.
    Entry::new("nvidia.fs-watcher-legacy", F::NvidiaDevicePlugin,
        "Failed to created FS watcher.",
        NVDP, "main.go (v1.0.0-beta; forks of it)", "v1.0.0-beta")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-watch")
        .says("{plugin} cannot watch the kubelet's device-plugins directory and exits (this version prints no reason; most often the node's inotify instances are used up){hint}", "{fix}"),
    Entry::new("nvidia.no-devices", F::NvidiaDevicePlugin,
        "No devices found. Waiting indefinitely.",
        NVDP, "cmd/nvidia-device-plugin/main.go", "v0.7+")
        .to(K::Known, "gpu-plugin-log-error", Warning)
        .says("the NVIDIA device plugin started no plugin and idles: it has no GPU to serve (none visible in its container, or every GPU is in MIG mode with migStrategy none); no NVML failure precedes this line in the input", "`kubectl exec` into the plugin pod and run `nvidia-smi -L`: if it lists nothing fix the container toolkit or runtime class of the plugin; with MIG enabled set migStrategy to single or mixed; read the plugin's log from its start (`kubectl logs --previous`) for an earlier NVML error"),
    Entry::new("nvidia.mig-invalid", F::NvidiaDevicePlugin,
        "at least one device with migEnabled=true was not configured correctly: {error}",
        NVDP, "internal/rm/device_map.go", "v0.14+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("mig")
        .says("MIG is enabled on a GPU but its MIG devices do not suit the plugin's migStrategy ({error}): the plugin exits and advertises nothing", "create the MIG layout before the plugin starts (gpu-operator mig-manager with a nvidia.com/mig.config label, or nvidia-mig-parted), or disable MIG on that GPU; migStrategy single needs one identical profile on every GPU")
        .samples(&[("error", "error visiting device: device 0 has an invalid MIG configuration")]),
    Entry::new("nvidia.mig-invalid-legacy", F::NvidiaDevicePlugin,
        "At least one device with migEnabled=true was not configured correctly: {error}",
        NVDP, "cmd/nvidia-device-plugin/mig-strategy.go", "v0.7-v0.13")
        .to(K::Known, "gpu-plugin-log-error", Error).group("mig")
        .says("MIG is enabled on a GPU but its MIG devices do not suit the plugin's migStrategy ({error}): the plugin exits and advertises nothing", "create the MIG layout before the plugin starts (nvidia-mig-parted), or disable MIG on that GPU; migStrategy single needs one identical profile on every GPU")
        .samples(&[("error", "device 0 has an invalid MIG configuration")]),
    // A MIG strategy chosen where the GPU has no MIG devices. The strategy is set by the GPU
    // operator's Helm value `mig.strategy` (NVIDIA/gpu-operator deployments/gpu-operator/
    // values.yaml, default single), the plugin's `--mig-strategy` flag / `migStrategy` config
    // field (NVIDIA/k8s-device-plugin api/config/v1/flags.go) and shows as GPU feature
    // discovery's label `nvidia.com/mig.strategy` (internal/lm). With `mixed` the plugin
    // advertises one nvidia.com/mig-<profile> per MIG device and nothing MIG until instances
    // exist (docs: "MIG Support in Kubernetes", mig-strategies); the layout is applied by the
    // operator's MIG manager from the node label `nvidia.com/mig.config` (NVIDIA/mig-parted
    // deployments/gpu-operator, cmd/nvidia-mig-manager). classify::mig keeps these conclusions
    // only when the same text shows the GPU without MIG devices (`nvidia-smi -L` without `MIG`
    // lines, the `MIG M.` column `Disabled`, `No MIG devices found`).
    Entry::new("nvidia.mig-strategy-no-devices", F::NvidiaDevicePlugin,
        "mig.strategy={strategy:w}",
        "NVIDIA/gpu-operator", "deployments/gpu-operator/values.yaml (mig.strategy); NVIDIA/k8s-device-plugin internal/lm (label nvidia.com/mig.strategy)", "gpu-operator v1.x+")
        .to(K::Known, "gpu-mig-misconfigured", Warning).group("mig-layout")
        .says(MIG_NO_DEVICES_CAUSE, MIG_LAYOUT_REMEDY)
        .samples(&[("strategy", "mixed")]),
    Entry::new("nvidia.mig-strategy-flag-no-devices", F::NvidiaDevicePlugin,
        "--mig-strategy={strategy:w}",
        NVDP, "api/config/v1/flags.go (--mig-strategy, MIG_STRATEGY)", "v0.7+")
        .to(K::Known, "gpu-mig-misconfigured", Warning).group("mig-layout")
        .says(MIG_NO_DEVICES_CAUSE, MIG_LAYOUT_REMEDY)
        .samples(&[("strategy", "mixed")]),
    Entry::new("nvidia.mig-strategy-config-no-devices", F::NvidiaDevicePlugin,
        "migStrategy: {strategy:w}",
        NVDP, "api/config/v1/config.go (flags.migStrategy of the config file)", "v0.12+")
        .to(K::Known, "gpu-mig-misconfigured", Warning).group("mig-layout")
        .says(MIG_NO_DEVICES_CAUSE, MIG_LAYOUT_REMEDY)
        .samples(&[("strategy", "mixed")]),
    // the MIG manager's result label (NVIDIA/mig-parted deployments/gpu-operator/reconfigure-mig.sh
    // and cmd/nvidia-mig-manager: `nvidia.com/mig.config.state` = pending, rebooting, success,
    // failed), as `kubectl get node --show-labels`, `describe node` or YAML shows it
    Entry::new("nvidia.mig-config-state-failed", F::GpuOperator,
        "nvidia.com/mig.config.state={state:w}",
        "NVIDIA/mig-parted", "deployments/gpu-operator/reconfigure-mig.sh (set_state_label), cmd/nvidia-mig-manager/main.go", "gpu-operator v1.7+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-state")
        .says(MIG_STATE_FAILED_CAUSE, MIG_STATE_FAILED_REMEDY)
        .samples(&[("state", "failed")]),
    Entry::new("nvidia.mig-config-state-failed-yaml", F::GpuOperator,
        "nvidia.com/mig.config.state: {state:w}",
        "NVIDIA/mig-parted", "deployments/gpu-operator/reconfigure-mig.sh (set_state_label)", "gpu-operator v1.7+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-state")
        .says(MIG_STATE_FAILED_CAUSE, MIG_STATE_FAILED_REMEDY)
        .samples(&[("state", "failed")]),
    // The MIG manager applying the layout of the node's nvidia.com/mig.config label
    // (NVIDIA/mig-parted pkg/mig/reconfigure/reconfigure.go and, before it,
    // deployments/container/reconfigure-mig.sh; the nvidia-mig-parted CLI's errors from
    // cmd/nvidia-mig-parted/apply and assert)
    Entry::new("mig-manager.config-not-present", F::GpuOperator,
        "selected mig-config not present: {config:w}",
        "NVIDIA/mig-parted", "cmd/nvidia-mig-parted/assert/assert.go (and apply), run by the MIG manager", "v0.1+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-manager")
        .says("the node's nvidia.com/mig.config label names the layout {config}, which the MIG manager's config does not define: nothing is applied and nvidia.com/mig.config.state becomes failed", "label the node with a layout of the MIG manager's ConfigMap (`kubectl -n gpu-operator get configmap default-mig-parted-config -o yaml` lists them; a custom layout goes into your own ConfigMap named by the ClusterPolicy's migManager.config.name): `kubectl label node <node> nvidia.com/mig.config=<layout> --overwrite`")
        .samples(&[("config", "all-2g.12gb")]),
    Entry::new("mig-manager.not-mig-capable", F::GpuOperator,
        "cannot set MIG mode on non MIG-capable GPU",
        "NVIDIA/mig-parted", "cmd/nvidia-mig-parted/apply/mode.go", "v0.1+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-manager")
        .says("the MIG layout selected for the node enables MIG on a GPU that does not support MIG (only A30, A100, H100/H200, B200 and similar data-center GPUs do): the MIG manager fails and the node's nvidia.com/mig.config.state becomes failed", "select a layout that leaves this GPU's MIG mode disabled (a config entry with `devices` limited to the MIG-capable GPUs, or all-disabled on this node: `kubectl label node <node> nvidia.com/mig.config=all-disabled --overwrite`), and use mig.strategy none or mixed for nodes without MIG-capable GPUs"),
    Entry::new("mig-manager.reset-failed", F::GpuOperator,
        "error resetting all GPUs: {error}",
        "NVIDIA/mig-parted", "cmd/nvidia-mig-parted/apply/mode.go (a MIG mode change needs a GPU reset)", "v0.1+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-manager")
        .says("the MIG manager changed the GPUs' MIG mode but cannot reset them ({error}): processes still hold the GPU (a host service such as nvidia-persistenced, DCGM or a monitoring agent, or pods the MIG manager does not stop), or the platform needs a reboot for a MIG mode change (some cloud VMs)", "stop what uses the GPUs (`nvidia-smi` lists the processes; the ClusterPolicy's migManager.gpuClientsConfig names host services to stop) or reboot the node (the MIG manager's WITH_REBOOT=true does it); then relabel the node to re-apply the layout")
        .samples(&[("error", "exit status 255")]),
    Entry::new("mig-manager.apply-failed", F::GpuOperator,
        "failed to apply MIG configuration: {error}",
        "NVIDIA/mig-parted", "pkg/mig/reconfigure/reconfigure.go (Reconfigure)", "v0.10+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-manager")
        .says("the MIG manager could not apply the MIG layout of the node's nvidia.com/mig.config label ({error}): nvidia.com/mig.config.state becomes failed and the node does not advertise the layout's MIG devices", MIG_STATE_FAILED_REMEDY)
        .samples(&[("error", "exit status 1")]),
    Entry::new("mig-manager.state-failed", F::GpuOperator,
        "node label to 'failed'",
        "NVIDIA/mig-parted", "deployments/container/reconfigure-mig.sh (`Changing the 'nvidia.com/mig.config.state' node label to '${state}'`), pkg/mig/reconfigure/reconfigure.go", "v0.1+")
        .to(K::Known, "gpu-mig-misconfigured", Error).group("mig-manager")
        .says("the MIG manager marks the node's MIG reconfiguration failed (nvidia.com/mig.config.state=failed): the layout of its nvidia.com/mig.config label is not applied, so the node does not advertise that layout's MIG devices", MIG_STATE_FAILED_REMEDY),
    // Registration with the kubelet (NVIDIA/k8s-device-plugin v1.8-v1.11 main.go/server.go:
    // `Could not register device plugin: %s`, then `Could not contact Kubelet, retrying. Did
    // you enable the device plugin feature gate?` and the prerequisite / runtime hints; later
    // releases internal/plugin/server.go). NVML loaded and devices were fetched; what fails is
    // the kubelet's Registration service at /var/lib/kubelet/device-plugins/kubelet.sock.
    // The service name says which side is older: the v1alpha API's proto package is
    // `deviceplugin` (pkg/kubelet/apis/deviceplugin/v1alpha, plugin releases 1.8-1.9), which
    // kubelets from Kubernetes 1.10 on no longer serve (kubernetes e64517cd, v1alpha replaced by
    // v1beta1; NVIDIA/k8s-device-plugin#30); v1beta1's is `v1beta1`, which a kubelet older than
    // 1.10 (or one with the DevicePlugins gate off) does not serve.
    Entry::new("nvidia.register-unimplemented-v1alpha", F::NvidiaDevicePlugin,
        "Could not register device plugin: rpc error: code = Unimplemented desc = unknown service deviceplugin.Registration",
        NVDP, "main.go / server.go (v1.8-v1.9, device plugin API v1alpha)", "v1.8-v1.9")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-register")
        .says("the device plugin speaks the v1alpha device-plugin API (its Registration service is deviceplugin.Registration), which kubelets from Kubernetes 1.10 on no longer serve: the plugin image is older than the kubelet, so no GPU is advertised", "deploy the device-plugin release whose version matches the cluster's Kubernetes version (1.10+: the v1beta1 releases, e.g. nvcr.io/nvidia/k8s-device-plugin v0.x built for the kubelet's API); this is neither a feature gate nor a runtime problem"),
    Entry::new("nvidia.register-unimplemented", F::NvidiaDevicePlugin,
        "Could not register device plugin: rpc error: code = Unimplemented desc = unknown service {service:w}",
        NVDP, "main.go / server.go (v1.8-v1.11); internal/plugin/server.go (later)", "v1.8+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-register")
        .says("the device plugin initialised NVML and found its GPUs, but the kubelet does not serve the device-plugin Registration API it speaks ({service}): the kubelet is older than this plugin release (v1beta1.Registration needs Kubernetes 1.10+), or its DevicePlugins feature gate is off (Kubernetes 1.8-1.9), so no GPU is advertised", "deploy the device-plugin release built for this kubelet (the plugin's README lists them: v1.9 for Kubernetes 1.9, v1.10 for 1.10), or upgrade the kubelet; on 1.8-1.9 start the kubelet with `--feature-gates=DevicePlugins=true`")
        .samples(&[("service", "v1beta1.Registration")]),
    Entry::new("nvidia.register-failed", F::NvidiaDevicePlugin,
        "Could not register device plugin: {error}",
        NVDP, "main.go / server.go (v1.8-v1.11); internal/plugin/server.go (later)", "v1.8+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-register").exclusive()
        .says("the device plugin cannot register with the kubelet ({error}), so no GPU is advertised", "check that the plugin mounts the kubelet's device-plugins directory (default /var/lib/kubelet/device-plugins; k3s/rke2/microk8s may use another kubelet root dir) and that kubelet.sock exists there; restart the plugin pod after the kubelet restarts"),
    Entry::new("nvidia.kubelet-not-contacted", F::NvidiaDevicePlugin,
        "Could not contact Kubelet, retrying. Did you enable the device plugin feature gate?",
        NVDP, "main.go (v1.8-v1.11)", "v1.8-v1.11")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-register")
        .says("the device plugin cannot register with the kubelet (it prints this after a failed registration), so no GPU is advertised", "read the `Could not register device plugin:` line before it for the kubelet's answer; on Kubernetes 1.8-1.9 start the kubelet with `--feature-gates=DevicePlugins=true`, and deploy the plugin release built for the kubelet's version"),
    // ------------------------------------------------------------------ NVIDIA device plugin (sweep)
    // internal/plugin/server.go Start (server.go before v0.7): the plugin could not start its
    // gRPC server for a resource, or the server keeps crashing; v0.12's registration retry
    // drops the `, retrying` of the older sentence (main.go)
    Entry::new("nvidia.start-plugin-failed", F::NvidiaDevicePlugin,
        "Could not start device plugin for '{resource:w}': {error}",
        NVDP, "internal/plugin/server.go (Start); server.go before v0.7", "v0.7+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-start")
        .says("the device plugin could not start serving {resource} ({error}), so that resource is not advertised on the node", "read the error: a socket `address already in use` means a second plugin (a GPU operator's and a Helm-installed one) runs on the node, so remove one; an MPS error needs the MPS control daemon; then restart the plugin pod")
        .samples(&[("error", "listen unix /var/lib/kubelet/device-plugins/nvidia-gpu.sock: bind: address already in use")]),
    Entry::new("nvidia.start-plugin-failed-legacy", F::NvidiaDevicePlugin,
        "Could not start device plugin: {error}",
        NVDP, "main.go (v1.0.0-beta)", "v1.0.0-beta")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-start").exclusive()
        .says("the device plugin could not start serving ({error}), so no GPU is advertised on the node", "read the error: a socket `address already in use` means a second plugin runs on the node, so remove one; then restart the plugin pod")
        .samples(&[("error", "listen unix /var/lib/kubelet/device-plugins/nvidia.sock: bind: address already in use")]),
    Entry::new("nvidia.start-plugin-failed-main", F::NvidiaDevicePlugin,
        "Failed to start plugin: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go (startPlugins)", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-start")
        .says("the device plugin could not start one of its resource servers ({error}); it retries every 30s and that resource is not advertised meanwhile", "read the error; an MPS error needs the MPS control daemon on the node (`kubectl get pods -A -o wide | grep mps-control-daemon`), a socket error a second plugin on the node; then restart the plugin pod")
        .samples(&[("error", "error waiting for MPS daemon: error checking MPS daemon health: failed to send command to MPS daemon: exit status 1")]),
    Entry::new("nvidia.grpc-crashed-quitting", F::NvidiaDevicePlugin,
        "GRPC server for '{resource:w}' has repeatedly crashed recently. Quitting",
        NVDP, "internal/plugin/server.go (serve)", "v0.7+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-start")
        .says("the device plugin's gRPC server for {resource} crashed repeatedly and the plugin exits, so the resource is not advertised until the pod restarts", "read the `GRPC server for ... crashed with error` lines before it; check the kubelet's device-plugins directory is writable and not shared with a second plugin, then restart the plugin pod"),
    Entry::new("nvidia.grpc-crashed", F::NvidiaDevicePlugin,
        "GRPC server for '{resource:w}' crashed with error: {error}",
        NVDP, "internal/plugin/server.go (serve)", "v0.7+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("nvidia-start").exclusive()
        .says("the device plugin's gRPC server for {resource} crashed ({error}); the plugin restarts it a few times before it gives up", "check the kubelet's device-plugins directory is writable and not shared with a second plugin; restart the plugin pod if it recurs")
        .samples(&[("error", "accept unix /var/lib/kubelet/device-plugins/nvidia-gpu.sock: use of closed network connection")]),
    Entry::new("nvidia.kubelet-not-contacted-v012", F::NvidiaDevicePlugin,
        "Could not contact Kubelet. Did you enable the device plugin feature gate?",
        NVDP, "cmd/nvidia-device-plugin/main.go (v0.12)", "v0.12")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-register")
        .says("the device plugin cannot register with the kubelet (it prints this after a failed registration), so no GPU is advertised", "read the `Could not register device plugin:` line before it for the kubelet's answer; check that the plugin mounts the kubelet's device-plugins directory (k3s/rke2/microk8s may use another kubelet root dir) and restart the plugin pod after the kubelet"),
    Entry::new("nvidia.healthcheck-too-old", F::NvidiaDevicePlugin,
        "is too old to support healthchecking: {error}. Marking it unhealthy.",
        NVDP, "nvidia.go (v0.7-v0.12)", "v0.7-v0.12")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("the device plugin marks a GPU unhealthy because the driver cannot register health events for it ({error}), so the GPU is not allocatable", "upgrade the NVIDIA driver, or disable the plugin's health checks with DP_DISABLE_HEALTHCHECKS=all; then restart the plugin pod")
        .samples(&[("error", "Not Supported")]),
    Entry::new("nvidia.healthcheck-disabled", F::NvidiaDevicePlugin,
        "Failed to start health check: {error}; continuing with health checks disabled",
        NVDP, "internal/plugin/server.go (Start)", "v0.15+").complete(),
    // internal/rm/device_map.go (v0.12+): the resource configuration does not fit the GPUs
    Entry::new("nvidia.name-matches-no-pattern", F::NvidiaDevicePlugin,
        "GPU name '{name}' does not match any resource patterns",
        NVDP, "internal/rm/device_map.go", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-config")
        .says("the plugin's config renames resources by pattern (resources.gpus) and no pattern matches the GPU {name}, so the plugin fails to start and advertises nothing", "add a pattern that matches '{name}' (or `*`) under resources.gpus of the plugin's config, or remove the custom resources section")
        .samples(&[("name", "NVIDIA A100-SXM4-40GB")]),
    Entry::new("nvidia.mig-profile-matches-no-pattern", F::NvidiaDevicePlugin,
        "MIG profile '{profile}' does not match any resource patterns",
        NVDP, "internal/rm/device_map.go", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-config")
        .says("the plugin's config renames MIG resources by pattern (resources.mig) and none matches the profile {profile}, so the plugin fails to start and advertises nothing", "add a pattern that matches '{profile}' under resources.mig of the plugin's config, or remove the custom resources section")
        .samples(&[("profile", "1g.10gb")]),
    Entry::new("nvidia.replicas-exceed-devices", F::NvidiaDevicePlugin,
        "requested {want:w} devices to be replicated, but only {have:w} devices available",
        NVDP, "internal/rm/device_map.go", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-config")
        .says("the time-slicing/MPS config asks to replicate {want} devices but the node has {have}, so the plugin fails to start and advertises nothing", "set sharing.timeSlicing.resources[].devices to `all` (or to at most {have}) in the plugin's config for this node, then restart the plugin pod")
        .samples(&[("want", "4"), ("have", "2")]),
    Entry::new("nvidia.mig-enabled-mixed", F::NvidiaDevicePlugin,
        "all devices on the node must be configured with the same migEnabled value",
        NVDP, "internal/rm/device_map.go", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-config")
        .says("the MIG single strategy needs every GPU of the node in the same MIG mode, but some GPUs have MIG enabled and others not, so the plugin fails to start and advertises nothing", "enable MIG on all GPUs of the node (GPU operator: one nvidia.com/mig.config profile for the node) or use the mixed strategy (`migStrategy: mixed`)"),
    Entry::new("nvidia.mig-single-several-types", F::NvidiaDevicePlugin,
        "more than one MIG device type present on node",
        NVDP, "internal/rm/device_map.go", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-config")
        .says("the MIG single strategy needs one MIG profile on every GPU of the node, but the node has several, so the plugin fails to start and advertises nothing", "apply a single-profile layout (`nvidia.com/mig.config=all-1g.10gb` and the like) or use the mixed strategy (`migStrategy: mixed`), then restart the plugin pod"),
    Entry::new("nvidia.config-unparsable", F::NvidiaDevicePlugin,
        "unable to load config: {error}",
        NVDP, "cmd/nvidia-device-plugin/main.go (loadConfig)", "v0.12+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-config")
        .says("the device plugin cannot read its configuration ({error}), so it does not start and advertises nothing", "fix the plugin's config file (the ConfigMap given as config.name / CONFIG_FILE): `version: v1` at the top, sharing.timeSlicing or sharing.mps under `sharing:`, valid YAML; `kubectl -n <ns> get configmap <name> -o yaml` shows it")
        .samples(&[("error", "unable to parse config file: error parsing config file: unmarshal error: error unmarshaling JSON: while decoding JSON: json: unknown field \"sharing\"")]),
    // CDI (v0.15+, --device-list-strategy=cdi-* or the GPU operator's CDI mode)
    Entry::new("nvidia.cdi-handler-failed", F::NvidiaDevicePlugin,
        "unable to create cdi {what}: {error}",
        NVDP, "cmd/nvidia-device-plugin/plugin-manager.go", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-cdi")
        .says("the device plugin cannot generate the CDI specification for the GPUs ({error}), so it does not start and advertises nothing: the driver's libraries are not where it looks (driver root)", "check the plugin's driver root: with a host driver it is / (`nvidiaDriverRoot: /`), with the GPU operator's driver container /run/nvidia/driver; `nvidia-smi` must work on the node; or use the envvar device-list strategy")
        .samples(&[("what", "spec file"), ("error", "failed to get CDI spec: failed to create discoverer for common entities: failed to locate driver libraries: error locating \"libcuda.so\": not found")]),
    Entry::new("nvidia.cdi-needs-nvml", F::NvidiaDevicePlugin,
        "CDI --device-list-strategy options are only supported on NVML-based systems",
        NVDP, "cmd/nvidia-device-plugin/main.go (validateFlags)", "v0.15+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvidia-cdi")
        .says("the plugin is configured for CDI device lists but does not see NVML (a Tegra/Jetson platform, or NVML not loadable in its container), so it does not start", "use the envvar device-list strategy on this node, or make NVML available to the plugin (the nvidia runtime or runtimeClassName: nvidia)"),
    // ------------------------------------------------------------------ NVIDIA driver / toolkit on the node
    // nvidia-smi's own failure (NVIDIA driver, printed by nvidia-smi in the validator's
    // driver-validation container and on hosts), Docker's `--gpus` without the toolkit
    // (moby/moby daemon/devices.go `could not select device driver %q with capabilities: %v`),
    // and the toolkit's CDI mode naming devices no spec defines (container-device-interface
    // pkg/cdi/cache.go `unresolvable CDI devices %s`)
    Entry::new("nvidia-smi.driver-unreachable", F::GpuOperator,
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver",
        "NVIDIA/open-gpu-kernel-modules", "nvidia-smi (driver package)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("nvidia-smi cannot talk to the NVIDIA kernel driver: the driver is not loaded (not installed for the running kernel after a kernel update, Secure Boot refusing the module, nouveau holding the GPU) or the GPU fell off the bus", "on the node: `lsmod | grep nvidia` and `dmesg | grep -i -e nvrm -e nvidia -e xid`; reinstall or rebuild the driver for the running kernel (DKMS) or boot the kernel it was built for, blacklist nouveau, enrol the module key or disable Secure Boot; with the GPU operator read the nvidia-driver-daemonset pod's log"),
    // the GPU operator's driver-validation init container runs `chroot /run/nvidia/driver
    // nvidia-smi` (cmd/nvidia-validator/main.go, `running command chroot with args`): the
    // driver root holds no nvidia-smi yet (the driver container has not finished, or the
    // host driver is elsewhere: driver.enabled=false with hostPaths.driverInstallDir)
    Entry::new("gpu-operator.driver-root-no-nvidia-smi", F::GpuOperator,
        "chroot: failed to run command 'nvidia-smi': No such file or directory",
        "NVIDIA/gpu-operator", "cmd/nvidia-validator/main.go (driver validation through chroot; coreutils chroot's message)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("operator-validation")
        .says("the GPU operator's driver validation finds no nvidia-smi under the driver root: the driver container has not installed the driver yet (its pod is still building or crash-looping), or the driver is installed on the host while the operator looks in /run/nvidia/driver", "read the driver pod's log (`kubectl -n gpu-operator logs <nvidia-driver-daemonset pod> -c nvidia-driver-ctr`); with a host-installed driver set `driver.enabled=false` in the ClusterPolicy (and hostPaths.driverInstallDir if it is not under /)"),
    // the GPU operator's container-toolkit pod writes the nvidia runtime into the node's
    // containerd (or Docker) config and signals the runtime to reload it through the socket it
    // mounts at /runtime/sock-dir (NVIDIA/nvidia-container-toolkit
    // cmd/nvidia-ctk-installer/container/runtime/containerd and docker: `Error signaling
    // containerd, attempt %v/%v: %v`, then `unable to restart containerd: %v`; the
    // tools/container/containerd package before v1.17): on k3s, rke2, k0s and microk8s the
    // socket and the config are elsewhere (NVIDIA/gpu-operator#406, #522)
    Entry::new("toolkit.restart-runtime-failed", F::NvidiaContainerToolkit,
        "unable to restart {runtime:w}: {error}",
        "NVIDIA/nvidia-container-toolkit", "cmd/nvidia-ctk-installer/container/runtime (tools/container before v1.17)", "v1.4+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("toolkit-runtime")
        .says("the GPU operator's container toolkit cannot make {runtime} reload the nvidia runtime it configured ({error}): the socket it was given is not the node's (k3s, rke2, k0s and microk8s run their own containerd with its socket and config elsewhere), so GPU pods get no GPU runtime and the operator's validators wait", "point the toolkit at the node's containerd in the ClusterPolicy (`toolkit.env`): k3s and rke2 `CONTAINERD_SOCKET=/run/k3s/containerd/containerd.sock` with `CONTAINERD_CONFIG=/var/lib/rancher/k3s/agent/etc/containerd/config.toml.tmpl` (rke2: /var/lib/rancher/rke2/agent/etc/containerd/config.toml.tmpl), microk8s `/var/snap/microk8s/common/run/containerd.sock` and `/var/snap/microk8s/current/args/containerd-template.toml`, k0s `/run/k0s/containerd.sock`; then delete the toolkit pod")
        .samples(&[("runtime", "containerd"), ("error", "unable to dial: dial unix /runtime/sock-dir/containerd.sock: connect: no such file or directory")]),
    Entry::new("toolkit.signal-runtime-retry", F::NvidiaContainerToolkit,
        "Error signaling {runtime:w}, attempt {attempt:w}: {error}",
        "NVIDIA/nvidia-container-toolkit", "cmd/nvidia-ctk-installer/container/runtime (tools/container before v1.17)", "v1.4+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("toolkit-runtime")
        .says("the GPU operator's container toolkit cannot signal {runtime} to reload its configuration ({error}): the socket it was given is not the node's (k3s, rke2, k0s and microk8s run their own containerd)", "point the toolkit at the node's containerd socket and config in the ClusterPolicy (`toolkit.env` CONTAINERD_SOCKET and CONTAINERD_CONFIG; k3s/rke2: /run/k3s/containerd/containerd.sock), then delete the toolkit pod")
        .samples(&[("runtime", "containerd"), ("attempt", "1/6"), ("error", "unable to dial: dial unix /runtime/sock-dir/containerd.sock: connect: connection refused")]),
    Entry::new("toolkit.run-failed", F::NvidiaContainerToolkit,
        "error running nvidia-toolkit: {error}",
        "NVIDIA/nvidia-container-toolkit", "cmd/nvidia-ctk-installer/main.go (tools/container/nvidia-toolkit before v1.17)", "v1.4+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("toolkit-runtime")
        .says("the GPU operator's container toolkit failed to install or configure the NVIDIA runtime ({error}) and restarts, so GPU pods get no GPU runtime and the operator's validators wait", "read the toolkit pod's lines before this one (`kubectl -n gpu-operator logs <nvidia-container-toolkit-daemonset pod>`): a socket error means the toolkit must be pointed at the node's containerd (`toolkit.env` CONTAINERD_SOCKET and CONTAINERD_CONFIG on k3s, rke2, k0s, microk8s)")
        .samples(&[("error", "unable to setup runtime: error running containerd command: exit status 1")]),
    Entry::new("docker.gpus-no-driver", F::NvidiaContainerToolkit,
        "could not select device driver \"{driver}\" with capabilities: [[{caps}]]",
        "moby/moby", "daemon/devices.go", "Docker 19.03+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvcli")
        .says("Docker has no GPU device driver: the NVIDIA container toolkit is not installed or Docker was not restarted after it, so `--gpus` (and a GPU container started by Docker) fails", "install the NVIDIA container toolkit (`nvidia-container-toolkit` package), run `sudo nvidia-ctk runtime configure --runtime=docker` and `sudo systemctl restart docker`; check with `docker run --rm --gpus all ubuntu nvidia-smi`")
        .samples(&[("driver", ""), ("caps", "gpu")]),
    Entry::new("cdi.unresolvable-devices", F::NvidiaContainerToolkit,
        "unresolvable CDI devices {devices:w}",
        "cncf-tags/container-device-interface", "pkg/cdi/cache.go", "CDI v0.5+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvcli")
        .says("the runtime is asked for the CDI devices {devices} but no CDI specification defines them (no /etc/cdi/nvidia.yaml or /var/run/cdi/*, or one generated for other devices), so the GPU container does not start", "generate the specification on the node: `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml` (the GPU operator's toolkit does it when CDI is enabled) and check `nvidia-ctk cdi list` shows the devices; regenerate after a driver upgrade")
        .samples(&[("devices", "nvidia.com/gpu=all")]),
    // gpu-operator validator (cmd/nvidia-validator/main.go, validator/main.go before v24):
    // the plugin validation waits for the node to advertise the GPU resource
    Entry::new("gpu-operator.gpu-not-discovered-retry", F::GpuOperator,
        "GPU resources are not yet discovered by the node, retry: {retry:w}",
        "NVIDIA/gpu-operator", "cmd/nvidia-validator/main.go (validator/main.go before v24)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("operator-validation")
        .says("the GPU operator's plugin validation waits for the node to advertise the GPU resource and it does not appear: the device plugin on the node is not running or advertises nothing", "read the device plugin's log on that node (`kubectl -n gpu-operator logs <nvidia-device-plugin-daemonset pod>`) and the node's allocatable (`kubectl get node <node> -o jsonpath='{.status.allocatable}'`)")
        .samples(&[("retry", "5")]),
    Entry::new("gpu-operator.gpu-not-discovered", F::GpuOperator,
        "GPU resources are not discovered by the node",
        "NVIDIA/gpu-operator", "cmd/nvidia-validator/main.go (validator/main.go before v24)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-validation")
        .says("the GPU operator's plugin validation gave up: the node never advertised the GPU resource, so the device plugin on the node is not running or advertises nothing", "read the device plugin's log on that node (`kubectl -n gpu-operator logs <nvidia-device-plugin-daemonset pod>`) and the node's allocatable (`kubectl get node <node> -o jsonpath='{.status.allocatable}'`)"),
    // NVIDIA/gpu-driver-container (ubuntu22.04/nvidia-driver and the other distributions):
    // the driver container cannot reach its package repositories, or cannot find the kernel
    Entry::new("gpu-driver.package-cache", F::GpuOperator,
        "ERROR: Failed to update package cache.",
        "NVIDIA/gpu-driver-container", "ubuntu22.04/nvidia-driver (_update_package_cache)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the GPU operator's driver container cannot update its package lists (no network, DNS or proxy from the pod to the distribution's mirrors), so it cannot fetch kernel headers, the driver is never built and the toolkit, device plugin and validator wait behind it", "give the driver pods access to the package mirrors (proxy: the ClusterPolicy's driver.env HTTPS_PROXY/NO_PROXY; a private mirror: driver.repoConfig), or use precompiled drivers (`driver.usePrecompiled=true`) or a host-installed driver (`driver.enabled=false`)"),
    Entry::new("gpu-driver.kernel-string-missing", F::GpuOperator,
        "Could not locate Linux kernel version string",
        "NVIDIA/gpu-driver-container", "ubuntu22.04/nvidia-driver (_install_prerequisites)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the GPU operator's driver container could not install the kernel image package of the node's running kernel, so the driver is never built", "run a kernel the distribution's repositories carry, or use precompiled drivers (`driver.usePrecompiled=true`) or a host-installed driver (`driver.enabled=false`)"),
    Entry::new("apt.no-kernel-headers", F::GpuOperator,
        "Unable to locate package linux-headers-{kernel:w}",
        "Debian/apt", "apt-pkg (E: Unable to locate package), in gpu-driver-container's _install_prerequisites", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the package repositories carry no headers for the running kernel {kernel} (a kernel newer or older than the repositories, or a cloud kernel flavour they lack), so the NVIDIA driver cannot be built for it", "boot a kernel whose headers the repositories carry (`apt-cache policy linux-headers-$(uname -r)`), pin the kernel, or use precompiled drivers (`driver.usePrecompiled=true`) or a host-installed driver")
        .samples(&[("kernel", "5.15.0-1041-azure")]),
    // the plugin's progress lines (also printed by HAMi's NVIDIA plugin, a fork of it):
    // understood on their own, no conclusion (cmd/nvidia-device-plugin/main.go, and
    // internal/plugin/server.go Start/Stop)
    Entry::new("nvidia.starting-to-serve", F::NvidiaDevicePlugin,
        "Starting to serve '{resource:w}' on {socket:w}",
        NVDP, "internal/plugin/server.go (Start); server.go before v0.7", "v1.0.0-beta+").complete()
        .samples(&[("resource", "nvidia.com/gpu"), ("socket", "/var/lib/kubelet/device-plugins/nvidia-gpu.sock")]),
    Entry::new("nvidia.stopping-to-serve", F::NvidiaDevicePlugin,
        "Stopping to serve '{resource:w}' on {socket:w}",
        NVDP, "internal/plugin/server.go (Stop)", "v1.0.0-beta+").complete()
        .samples(&[("resource", "nvidia.com/gpu"), ("socket", "/var/lib/kubelet/device-plugins/nvidia-gpu.sock")]),
    Entry::new("nvidia.main-watchers", F::NvidiaDevicePlugin,
        "Starting {what:w} watcher.",
        NVDP, "cmd/nvidia-device-plugin/main.go (start)", "v0.7+").complete()
        .samples(&[("what", "FS")]),
    Entry::new("nvidia.main-starting-plugins", F::NvidiaDevicePlugin,
        "Starting Plugins.",
        NVDP, "cmd/nvidia-device-plugin/main.go (startPlugins)", "v0.7+").complete(),
    Entry::new("nvidia.main-loading-config", F::NvidiaDevicePlugin,
        "Loading configuration.",
        NVDP, "cmd/nvidia-device-plugin/main.go (startPlugins)", "v0.12+").complete(),
    Entry::new("nvidia.main-retrieving-plugins", F::NvidiaDevicePlugin,
        "Retrieving plugins.",
        NVDP, "cmd/nvidia-device-plugin/main.go (startPlugins)", "v0.12+").complete(),
    Entry::new("nvidia.main-default-patterns", F::NvidiaDevicePlugin,
        "Updating config with default resource matching patterns.",
        NVDP, "cmd/nvidia-device-plugin/main.go (loadConfig)", "v0.12+").complete(),
    // Health checks: an Xid critical error marks a GPU unhealthy; the kubelet then counts it
    // out of allocatable (capacity stays). Wordings by release: NVIDIA/k8s-device-plugin
    // nvidia.go (v1.x-v0.7: `... on Device=%s, the device will go unhealthy.`, `... on GPU=%s
    // ...`, `XidCriticalError: Xid=%d, All devices will go unhealthy.`), internal/rm/health.go
    // (v0.8+: `XidCriticalError: Xid=%d on Device=%s; marking device as unhealthy.`); HAMi's
    // fork adds `uuid=%s`; server.go / internal/plugin/server.go prints the marking. Xids the
    // plugin ignores (13, 31, 43, 45, 68, 109: application errors) never reach these lines;
    // DP_DISABLE_HEALTHCHECKS lists more to skip.
    Entry::new("nvidia.xid-device-unhealthy", F::NvidiaDevicePlugin,
        "XidCriticalError: Xid={xid:w} on Device={device}, the device will go unhealthy.",
        NVDP, "nvidia.go (checkHealth, v1.x-v0.7)", "v1.0.0-beta-v0.7")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("the device plugin's health check saw Xid {xid} (a critical GPU error) on {device} and marks that GPU unhealthy: the kubelet removes it from allocatable nvidia.com/gpu (capacity stays), so the node offers one GPU fewer until it is recovered", XID_REMEDY)
        .samples(&[("xid", "69"), ("device", "GPU-00000000-0000-0000-0000-000000000000")]),
    Entry::new("nvidia.xid-gpu-unhealthy", F::NvidiaDevicePlugin,
        "XidCriticalError: Xid={xid:w} on GPU={device}, the device will go unhealthy.",
        NVDP, "nvidia.go (checkHealth, MIG-aware releases)", "v0.7")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("the device plugin's health check saw Xid {xid} (a critical GPU error) on {device} and marks that GPU unhealthy: the kubelet removes it from allocatable nvidia.com/gpu (capacity stays), so the node offers one GPU fewer until it is recovered", XID_REMEDY)
        .samples(&[("xid", "79"), ("device", "GPU-00000000-0000-0000-0000-000000000000")]),
    Entry::new("nvidia.xid-marking-unhealthy", F::NvidiaDevicePlugin,
        "XidCriticalError: Xid={xid:w} on Device={device}; marking device as unhealthy.",
        NVDP, "internal/rm/health.go", "v0.8+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("the device plugin's health check saw Xid {xid} (a critical GPU error) on {device} and marks that GPU unhealthy: the kubelet removes it from allocatable nvidia.com/gpu (capacity stays), so the node offers one GPU fewer until it is recovered", XID_REMEDY)
        .samples(&[("xid", "79"), ("device", "GPU-00000000-0000-0000-0000-000000000000")]),
    Entry::new("nvidia.xid-all-unhealthy", F::NvidiaDevicePlugin,
        "XidCriticalError: Xid={xid}, All devices will go unhealthy.",
        NVDP, "nvidia.go (checkHealth: an event without a device)", "v1.0.0-beta-v0.7")
        .to(K::Known, "gpu-plugin-log-error", Error).group("xid")
        .says("the device plugin's health check saw Xid {xid} without a device and marks every GPU of the node unhealthy: allocatable nvidia.com/gpu drops to 0 while capacity stays", XID_REMEDY)
        .samples(&[("xid", "79")]),
    // the health checker's other ways of marking a device (or all) unhealthy
    // (NVIDIA/k8s-device-plugin internal/rm/health.go v0.8+, and HAMi's fork
    // Project-HAMi/HAMi pkg/device-plugin/nvidiadevice/nvinternal/rm/health.go)
    Entry::new("nvidia.marking-all-unhealthy-wait", F::NvidiaDevicePlugin,
        "Error waiting for event: {error}; Marking all devices as unhealthy",
        NVDP, "internal/rm/health.go (checkHealth)", "v0.8+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("xid")
        .says("the device plugin's health check cannot read NVML events ({error}) and marks every GPU of the node unhealthy: allocatable nvidia.com/gpu drops to 0 while capacity stays", XID_REMEDY)
        .samples(&[("error", "Unknown Error")]),
    Entry::new("nvidia.marking-all-unhealthy-uuid", F::NvidiaDevicePlugin,
        "Failed to determine uuid for event {event}; Marking all devices as unhealthy.",
        NVDP, "internal/rm/health.go (checkHealth)", "v0.8+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("xid")
        .says("the device plugin's health check got a critical event it cannot tie to one GPU and marks every GPU of the node unhealthy: allocatable nvidia.com/gpu drops to 0 while capacity stays", XID_REMEDY)
        .samples(&[("event", "{0x0 8 79 0 0}: ERROR_UNKNOWN")]),
    Entry::new("nvidia.marking-device-unhealthy", F::NvidiaDevicePlugin,
        "Marking device {device:w} as unhealthy: {error}",
        NVDP, "internal/rm/health.go (checkHealth: registering the device for events failed)", "v0.8+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("the device plugin cannot watch GPU {device} for errors ({error}) and marks it unhealthy: allocatable nvidia.com/gpu drops by one (capacity stays)", XID_REMEDY)
        .samples(&[("device", "GPU-00000000-0000-0000-0000-000000000000"), ("error", "Unknown Error")]),
    Entry::new("nvidia.device-handle-unhealthy", F::NvidiaDevicePlugin,
        "unable to get device handle from UUID: {error}; marking it as unhealthy",
        NVDP, "internal/rm/health.go (checkHealth)", "v0.8+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("NVML cannot open a GPU the device plugin lists ({error}), so the plugin marks it unhealthy: allocatable nvidia.com/gpu drops by one (capacity stays); a GPU that fell off the bus reads like this", XID_REMEDY)
        .samples(&[("error", "ERROR_GPU_IS_LOST")]),
    Entry::new("nvidia.device-marked-unhealthy", F::NvidiaDevicePlugin,
        "'{resource:w}' device marked unhealthy: {device:w}",
        NVDP, "server.go / internal/plugin/server.go (ListAndWatch)", "v0.7+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("xid")
        .says("the device plugin reported GPU {device} as unhealthy to the kubelet: allocatable {resource} drops by one (capacity stays) until the GPU recovers and the plugin restarts", XID_REMEDY)
        .samples(&[("resource", "nvidia.com/gpu"), ("device", "GPU-00000000-0000-0000-0000-000000000000")]),
    Entry::new("nvidia.registered", F::NvidiaDevicePlugin,
        "Registered device plugin for '{resource:w}' with Kubelet",
        NVDP, "internal/plugin/server.go", "v0.7+")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("the device plugin registered {resource} with the kubelet", ""),
    Entry::new("nvidia.registered-legacy", F::NvidiaDevicePlugin,
        "Registered device plugin with Kubelet",
        NVDP, "server.go", "v1.0.0-beta-v0.6")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("the device plugin registered with the kubelet", ""),
    // ------------------------------------------------------------------ GPU operator and NFD
    // The operator finds GPU nodes and their kernels through node feature discovery's labels
    // (feature.node.kubernetes.io/pci-10de.present -> nvidia.com/gpu.present,
    // feature.node.kubernetes.io/kernel-version.full and system-os_release.* for the driver
    // DaemonSets): without NFD's labels it deploys nothing on the node.
    Entry::new("gpu-operator.no-kernel-version", F::GpuOperator,
        "Couldn't get kernelVersion, did you run the node feature discovery?",
        "NVIDIA/gpu-operator", "controllers/object_controls.go (kernelFullVersion, removed 2026-02)", "v1.0-v25.10")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("the GPU operator finds no GPU node with node feature discovery's kernel label (feature.node.kubernetes.io/kernel-version.full): NFD has not labelled the GPU nodes (not installed, the chart's nfd.enabled=false with no NFD of its own, or its worker does not run on them: a taint it does not tolerate), so the operator cannot build the driver DaemonSet and labels no node nvidia.com/gpu.present", "check NFD: `kubectl get pods -A -o wide | grep -i node-feature-discovery` (a worker Running on every GPU node) and `kubectl get nodes -L feature.node.kubernetes.io/kernel-version.full,feature.node.kubernetes.io/pci-10de.present`; install it (`helm upgrade gpu-operator nvidia/gpu-operator -n gpu-operator --reuse-values --set nfd.enabled=true`) or give nfd-worker tolerations for the GPU nodes' taints"),
    Entry::new("gpu-operator.no-gpu-present-nodes", F::GpuOperator,
        "Could not get any nodes to match nvidia.com/gpu.present label",
        "NVIDIA/gpu-operator", "controllers/object_controls.go (kernelFullVersion, removed 2026-02)", "v1.0-v25.10")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("operator-nfd")
        .says("the GPU operator finds no node labelled nvidia.com/gpu.present: it sets that label only on nodes node feature discovery labelled with an NVIDIA PCI device (feature.node.kubernetes.io/pci-10de.present), so either no node has an NVIDIA GPU or NFD has not labelled them", "`kubectl get nodes -L feature.node.kubernetes.io/pci-10de.present,nvidia.com/gpu.present`; if the GPU nodes lack the pci-10de label, check NFD's worker pods on them (`kubectl get pods -A -o wide | grep -i node-feature-discovery`) and its tolerations for the GPU nodes' taints"),
    Entry::new("gpu-operator.no-kernel-full-version", F::GpuOperator,
        "ERROR: Could not find kernel full version: ('{kernel}', '{os}')",
        "NVIDIA/gpu-operator", "controllers/object_controls.go (TransformDriver / getDriverImagePath, removed 2026-02)", "v1.0-v25.10")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("the GPU operator cannot build the driver DaemonSet: it found no kernel version ('{kernel}') and OS ('{os}') in node feature discovery's labels of the GPU nodes (feature.node.kubernetes.io/kernel-version.full, system-os_release.*), so NFD has not labelled them", "check NFD's worker pods on the GPU nodes (`kubectl get pods -A -o wide | grep -i node-feature-discovery`) and `kubectl get nodes -L feature.node.kubernetes.io/kernel-version.full,feature.node.kubernetes.io/pci-10de.present`; with the driver pre-installed on the hosts set driver.enabled=false")
        .samples(&[("kernel", "5.15.0-86-generic"), ("os", "ubuntu22.04")]),
    Entry::new("gpu-operator.nfd-label-missing", F::GpuOperator,
        "WARNING: Could not find NFD label for node. Is NFD installed?",
        "NVIDIA/gpu-operator", "internal/state/nodepool.go (getNodePools)", "v23.6+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("the GPU operator's driver controller skips a GPU node that has no node feature discovery OS label (feature.node.kubernetes.io/system-os_release.ID / VERSION_ID): no driver DaemonSet is built for it, so the driver, toolkit and device plugin never run there", "the log line's Node= names the node: `kubectl get node <node> --show-labels | tr , '\\n' | grep feature.node.kubernetes.io`; if NFD has not labelled it, check NFD's worker pod on that node and its tolerations (`kubectl get pods -A -o wide | grep -i node-feature-discovery`)"),
    Entry::new("gpu-operator.nfd-labels-missing", F::GpuOperator,
        "WARNING: Could not find NFD labels for node. Is NFD installed?",
        "NVIDIA/gpu-operator", "internal/state/nodepool.go (getNodePools: precompiled kernel / OpenShift OSTREE_VERSION)", "v23.6+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("the GPU operator's driver controller skips a GPU node without node feature discovery's kernel label (feature.node.kubernetes.io/kernel-version.full, needed for precompiled drivers) or OpenShift's OSTREE_VERSION label: no driver DaemonSet is built for it", "the log line's Node= names the node: check NFD's labels on it (`kubectl get node <node> --show-labels | tr , '\\n' | grep feature.node.kubernetes.io`) and NFD's worker pod there"),
    Entry::new("gpu-operator.nfd-kernel-label-missing", F::GpuOperator,
        "Failed to get kernel version of GPU node using Node Feature Discovery (NFD) labels. Is NFD installed in the cluster?",
        "NVIDIA/gpu-operator", "controllers/object_controls.go (getKernelVersionsMap)", "v23.3+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("a GPU node (nvidia.com/gpu.present=true) has no feature.node.kubernetes.io/kernel-version.full label, so the GPU operator cannot choose a driver for its kernel and builds no driver DaemonSet: NFD is not installed or its worker does not label that node", "`kubectl get nodes -l nvidia.com/gpu.present=true -L feature.node.kubernetes.io/kernel-version.full`; install NFD (`--set nfd.enabled=true`) or fix its worker on the node (tolerations for the node's taints)"),
    Entry::new("gpu-operator.nfd-missing-in-cluster", F::GpuOperator,
        "WARNING: NFD labels missing in the cluster, GPU nodes cannot be discovered.",
        "NVIDIA/gpu-operator", "controllers/clusterpolicy_controller.go (Reconcile)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("no node of the cluster carries node feature discovery's labels, so the GPU operator cannot tell which nodes have NVIDIA GPUs and deploys none of its components (driver, toolkit, device plugin, validators)", "install node feature discovery: `helm upgrade gpu-operator nvidia/gpu-operator -n gpu-operator --reuse-values --set nfd.enabled=true` (or NFD's own chart), then `kubectl get nodes -L feature.node.kubernetes.io/pci-10de.present`"),
    Entry::new("gpu-operator.os-from-nfd", F::GpuOperator,
        "unable to determine GPU node OS from NFD labels, is NFD installed?",
        "NVIDIA/gpu-operator", "controllers/state_manager.go (getGPUNodeOSTag, removed 2026-02)", "v23.9-v25.10")
        .to(K::Known, "gpu-plugin-log-error", Error).group("operator-nfd")
        .says("the GPU operator reads the GPU nodes' OS from node feature discovery's labels (feature.node.kubernetes.io/system-os_release.ID, VERSION_ID) and finds none: NFD has not labelled the GPU nodes, so no driver image can be chosen", "check NFD's worker pods on the GPU nodes (`kubectl get pods -A -o wide | grep -i node-feature-discovery`) and their tolerations; `kubectl get nodes -L feature.node.kubernetes.io/system-os_release.ID`"),
    // the device plugin's and toolkit's entrypoints wait for the driver validation's file
    // (assets/state-device-plugin/0400_configmap.yaml, assets/state-container-toolkit/
    // 0400_configmap.yaml, v23.3+)
    Entry::new("gpu-operator.driver-validations-waiting", F::GpuOperator,
        "waiting for the driver validations to be ready...",
        "NVIDIA/gpu-operator", "assets/state-device-plugin/0400_configmap.yaml, assets/state-container-toolkit/0400_configmap.yaml (entrypoint.sh)", "v23.3+")
        .to(K::Known, "gpu-plugin-log-error", Warning)
        .says("the GPU operator's device plugin (or container toolkit) waits for /run/nvidia/validations/driver-ready, which the operator validator's driver-validation writes once a working driver is found: the driver is not installed or not validated on the node", "read the operator validator's driver-validation log (`kubectl -n gpu-operator logs <nvidia-operator-validator pod> -c driver-validation`) and the driver pod's (`kubectl -n gpu-operator get pods -o wide | grep nvidia-driver`); no driver pod on the node: check that the driver DaemonSet selects it (`kubectl -n gpu-operator get ds -o wide`: a precompiled driver's DaemonSet pins feature.node.kubernetes.io/kernel-version.full)"),
    // a shell in a GPU container runs nvidia-smi that is not there: the driver container's
    // startup probe (assets/state-driver/0400_configmap.yaml `if ! nvidia-smi`), the older
    // validators' and users' `sh -c nvidia-smi` (dash: `sh: 1: nvidia-smi: not found`,
    // busybox: `sh: nvidia-smi: not found`)
    Entry::new("gpu-operator.nvidia-smi-not-found", F::GpuOperator,
        "nvidia-smi: not found",
        "NVIDIA/gpu-operator", "assets/state-driver/0400_configmap.yaml (startup probe), the shell's command-not-found message", "all")
        .to(K::Known, "gpu-plugin-log-error", Warning)
        .says("a shell in a GPU container ran nvidia-smi and it is not there: the NVIDIA driver's user-space tools are not installed in the driver root the container sees (the driver container has not finished installing, or the host has no driver while the GPU operator's driver.enabled=false says it has), or the container was not started with the nvidia runtime that mounts them", "on the node run `nvidia-smi` (a host driver) or read the driver pod's log (`kubectl -n gpu-operator logs <nvidia-driver-daemonset pod> -c nvidia-driver-ctr`); the operator's driver-validation log says which driver root it checked"),
    // ------------------------------------------------------------------ GPU operator validators
    Entry::new("gpu-operator.driver-validation-retry", F::GpuOperator,
        "failed to validate the driver, retrying after {seconds:w} seconds",
        "NVIDIA/gpu-operator", "cmd/nvidia-validator/main.go", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning)
        .says("the GPU operator's driver validation keeps failing: no working driver (host or driver container) is found at the configured driver root, so the toolkit, device plugin and validator wait", "read the driver pod's log (`kubectl -n gpu-operator logs <nvidia-driver-daemonset pod> -c nvidia-driver-ctr`); if the driver is preinstalled on the host set driver.enabled=false, and on managed node images keep hostPaths.driverInstallDir consistent with that choice")
        .samples(&[("seconds", "5")]),
    Entry::new("gpu-operator.toolkit-waiting", F::GpuOperator,
        "waiting for nvidia container stack to be setup",
        "NVIDIA/gpu-operator", "assets/state-device-plugin/0500_daemonset.yaml (toolkit-validation)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning)
        .says("the NVIDIA container toolkit is not set up on the node yet, so the device plugin waits in its init container", "read the container-toolkit pod's log (`kubectl -n gpu-operator logs <nvidia-container-toolkit-daemonset pod>`) and its driver-validation init container"),
    // `all validations are successful`: the healthy catalog (catalog::healthy)
    Entry::new("gpu-operator.validation-failed", F::GpuOperator,
        "error validating {component} installation: {error}",
        "NVIDIA/gpu-operator", "validator/main.go (v1.9-v24.x), cmd/nvidia-validator/main.go (later)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("operator-validation")
        .says("the GPU operator's {component} validation fails ({error}): the operator keeps the components after it (toolkit, device plugin) waiting, so the node advertises no GPU", "read the log of the failing validator init container (`kubectl -n gpu-operator logs <nvidia-operator-validator pod> -c {component}-validation`) and of the component it validates")
        .samples(&[("component", "driver")]),
    Entry::new("gpu-operator.cuda-validation-failed", F::GpuOperator,
        "error validating cuda workload: {error}",
        "NVIDIA/gpu-operator", "validator/main.go (v1.9-v24.x), cmd/nvidia-validator/main.go (later)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("operator-validation")
        .says("the GPU operator's CUDA workload validation fails ({error}): the node is not marked ready for GPU workloads", "read the nvidia-cuda-validator pod's log (`kubectl -n gpu-operator logs <nvidia-cuda-validator pod> -c cuda-validation`): its vectorAdd error names the cause"),
    Entry::new("gpu-operator.driver-not-ready", F::GpuOperator,
        "driver is not ready",
        "NVIDIA/gpu-operator", "validator/main.go (v1.9-v24.x), cmd/nvidia-validator/main.go (later)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("operator-validation")
        .says("the GPU operator's driver validation finds no ready driver: no working driver (host or driver container) at the configured driver root, so the toolkit, device plugin and validator wait", "read the driver pod's log (`kubectl -n gpu-operator logs <nvidia-driver-daemonset pod> -c nvidia-driver-ctr`); if the driver is preinstalled on the host set driver.enabled=false"),
    // The CUDA validation workload is cuda-samples' vectorAdd (gpu-operator
    // validator/manifests/cuda-workload-validation.yaml: args ["vectorAdd"]); it prints
    // `Failed to <step> (error code %s)!` with cudaGetErrorString's text (NVIDIA/cuda-samples
    // Samples/0_Introduction/vectorAdd/vectorAdd.cu; the texts are the CUDA runtime's
    // cudaError_t descriptions).
    Entry::new("cuda.insufficient-driver", F::GpuOperator,
        "Failed to {step} (error code CUDA driver version is insufficient for CUDA runtime version)!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu (cudaErrorInsufficientDriver), run by gpu-operator validator/manifests/cuda-workload-validation.yaml", "CUDA 10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload cannot {step}: the node's NVIDIA driver is older than the CUDA runtime of the validator image (cudaErrorInsufficientDriver)", "install a driver that supports the validator's CUDA version (gpu-operator `driver.version`, or the host driver; `nvidia-smi` prints the highest CUDA version the driver supports), or use an operator release whose validator matches the installed driver")
        .samples(&[("step", "allocate device vector A")]),
    Entry::new("cuda.system-not-initialized", F::GpuOperator,
        "Failed to {step} (error code system not yet initialized)!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu (cudaErrorSystemNotReady)", "CUDA 11+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload cannot {step}: CUDA reports the system not yet initialized, which on NVSwitch systems (HGX/DGX A100/H100) means the NVIDIA fabric manager is not running", "run nvidia-fabricmanager of exactly the driver's version (host install: `systemctl enable --now nvidia-fabricmanager`; the gpu-operator driver container starts it on NVSwitch systems), then let the validator retry")
        .samples(&[("step", "allocate device vector A")]),
    // CUDA's deviceQuery sample (NVIDIA/cuda-samples Samples/1_Utilities/deviceQuery/
    // deviceQuery.cpp, copied into many images and tests): `cudaGetDeviceCount returned %d\n->
    // %s` then `Result = FAIL`, or `There are no available device(s) that support CUDA`. A
    // passing run (`Result = PASS`) is host facts (cube_model::hostfacts).
    Entry::new("cuda.device-count-failed", F::GpuOperator,
        "cudaGetDeviceCount returned {code:w}",
        "NVIDIA/cuda-samples", "Samples/1_Utilities/deviceQuery/deviceQuery.cpp (main)", "CUDA 5+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("a CUDA program (deviceQuery) cannot use any GPU: cudaGetDeviceCount returned {code} (100 cudaErrorNoDevice: no GPU visible in its container, so the pod got no GPU from the device plugin or does not run with the NVIDIA runtime; 35 cudaErrorInsufficientDriver: the node's driver is older than the image's CUDA runtime; 3 or 999: the driver cannot initialise the GPU)", "give the pod a GPU (`resources.limits: nvidia.com/gpu: 1`, and `runtimeClassName: nvidia` where nvidia is not the node's default runtime) and check that the node advertises nvidia.com/gpu (`kubectl describe node`); on the node `nvidia-smi` must work; for 35 use an image built for the node's CUDA version or upgrade the driver")
        .samples(&[("code", "100")]),
    Entry::new("cuda.no-device-supports-cuda", F::GpuOperator,
        "There are no available device(s) that support CUDA",
        "NVIDIA/cuda-samples", "Samples/1_Utilities/deviceQuery/deviceQuery.cpp (main)", "CUDA 5+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("a CUDA program (deviceQuery) sees no GPU in its container: the pod got no GPU from the device plugin or does not run with the NVIDIA runtime", "give the pod a GPU (`resources.limits: nvidia.com/gpu: 1`, and `runtimeClassName: nvidia` where nvidia is not the node's default runtime) and check that the node advertises nvidia.com/gpu (`kubectl describe node`)"),
    // Huawei's npu-smi when the driver's DCMI interface does not initialise (the Ascend
    // MindCluster docs: after a driver/firmware upgrade without a reboot, ret -8005; also a
    // non-root user or a container without the davinci device nodes)
    Entry::new("ascend.npu-smi-dcmi-init-failed", F::AcceleratorCheck,
        "dcmi module initialize failed. ret is {code:w}",
        "Huawei Ascend driver (npu-smi, closed source)", "npu-smi info; the text as quoted in Ascend MindCluster's troubleshooting docs", "Ascend driver 21+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("ascend-npu-smi")
        .says("npu-smi cannot initialise the Ascend driver's DCMI interface (ret {code}): the driver is not loaded or does not match the firmware (-8005 after a driver or firmware upgrade without a reboot), npu-smi runs as a user without access, or the container lacks the davinci device nodes; the NPUs are not usable and the Ascend device plugin reports none", "on the host `lsmod | grep drv_davinci` and the driver/firmware versions (`cat /usr/local/Ascend/driver/version.info`, /var/log/ascend_seclog/ascend_install.log): reboot after a driver or firmware upgrade, run npu-smi as root; in a container mount /dev/davinci*, /dev/davinci_manager, /dev/devmm_svm and /dev/hisi_hdc (the Ascend device plugin does this for pods asking huawei.com/Ascend*)")
        .samples(&[("code", "-8005")]),
    // PaddlePaddle's self-check (PaddlePaddle/Paddle python/paddle/utils/install_check.py
    // run_check: `PaddlePaddle meets some problem with {n} {device}s. This may be caused by:`
    // with the three causes it lists, then `Original Error is:` and `... installed
    // successfully ONLY for single {device}!`); a passing run is host facts
    Entry::new("paddle.run-check-problem", F::AcceleratorCheck,
        "PaddlePaddle meets some problem with {count:w} {device:w}s.",
        "PaddlePaddle/Paddle", "python/paddle/utils/install_check.py (run_check)", "2.0+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("paddle-check")
        .says("PaddlePaddle works on one {device} but fails on {count}: not all of them are visible to the container (the pod asked for fewer devices than the job uses, or CUDA_VISIBLE_DEVICES / ASCEND_VISIBLE_DEVICES limits them), some are held by other processes, or the collective library (NCCL for GPUs, HCCL for Ascend NPUs) is not installed correctly", "request as many devices as the job uses (`resources.limits: nvidia.com/gpu: <n>` or `huawei.com/Ascend910: <n>`), check that no other process holds them (`nvidia-smi`, `npu-smi info`), and test the collective library (NVIDIA nccl-tests); the `Original Error is:` line names the failing call")
        .samples(&[("count", "4"), ("device", "GPU")]),
    Entry::new("paddle.run-check-single-only", F::AcceleratorCheck,
        "PaddlePaddle is installed successfully ONLY for single {device:w}!",
        "PaddlePaddle/Paddle", "python/paddle/utils/install_check.py (run_check)", "2.0+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("paddle-check")
        .says("PaddlePaddle works on one {device} only: its multi-device check failed (not all devices visible to the container, devices held by other processes, or a broken NCCL/HCCL)", "request as many devices as the job uses, check that no other process holds them (`nvidia-smi`, `npu-smi info`), and test the collective library (NVIDIA nccl-tests)")
        .samples(&[("device", "GPU")]),
    Entry::new("cuda.no-device", F::GpuOperator,
        "Failed to {step} (error code no CUDA-capable device is detected)!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu (cudaErrorNoDevice)", "CUDA 10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload sees no GPU: the container toolkit did not inject the GPU devices into it (or the driver sees no GPU)", "check `nvidia-smi` on the node, then the container toolkit (runtime class nvidia / default runtime) that the validator pod runs with")
        .samples(&[("step", "allocate device vector A")]),
    Entry::new("cuda.devices-unavailable", F::GpuOperator,
        "Failed to {step} (error code all CUDA-capable devices are busy or unavailable)!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu (cudaErrorDevicesUnavailable)", "CUDA 10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload finds every GPU busy or unavailable: compute mode Exclusive_Process with another process holding the GPU, or a GPU in an error state", "`nvidia-smi -q | grep -i 'compute mode'` (set Default with `nvidia-smi -c 0`) and `dmesg | grep -i xid` for GPU errors; reset or drain the GPU")
        .samples(&[("step", "allocate device vector A")]),
    Entry::new("cuda.devices-busy", F::GpuOperator,
        "Failed to {step} (error code CUDA-capable device(s) is/are busy or unavailable)!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu (cudaErrorDevicesUnavailable, newer CUDA wording)", "CUDA 11.x+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload finds the GPU busy or unavailable: compute mode Exclusive_Process with another process holding the GPU, a GPU in an error state, or a GPU architecture the validator image's CUDA no longer supports", "`nvidia-smi -q | grep -i 'compute mode'` (set Default with `nvidia-smi -c 0`), `dmesg | grep -i xid` for GPU errors, and check that the operator release still supports this GPU generation")
        .samples(&[("step", "allocate device vector A")]),
    // ML frameworks and CUDA programs in a pod that find no GPU or a driver too old: PyTorch
    // torch/cuda/__init__.py `_check_driver` (`Found no NVIDIA driver on your system. ...`,
    // `The NVIDIA driver on your system is too old (found version %d)`), c10/cuda/
    // CUDAFunctions.cpp (`No CUDA GPUs are available`), TensorFlow / XLA stream_executor
    // cuda_driver.cc (`failed call to cuInit: %s`), the CUDA runtime's error strings
    // (cudaGetErrorString: cudaErrorNoDevice `no CUDA-capable device is detected`,
    // cudaErrorInsufficientDriver `CUDA driver version is insufficient for CUDA runtime
    // version`). Whether the pod asked for a GPU decides the cause (rules::log_catalog
    // `cuda_app_findings`): without a GPU limit the device plugin allocates none and the NVIDIA
    // runtime exposes none (NVIDIA_VISIBLE_DEVICES=void).
    Entry::new("cuda-app.torch-no-driver", F::AcceleratorCheck,
        "Found no NVIDIA driver on your system.",
        "pytorch/pytorch", "torch/cuda/__init__.py (_check_driver)", "0.4+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("a CUDA program in a container finds no usable NVIDIA GPU", CUDA_APP_NO_GPU_REMEDY),
    Entry::new("cuda-app.torch-no-gpus", F::AcceleratorCheck,
        "No CUDA GPUs are available",
        "pytorch/pytorch", "c10/cuda/CUDAFunctions.cpp (device_count_ensure_non_zero)", "1.5+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("a CUDA program in a container finds no usable NVIDIA GPU", CUDA_APP_NO_GPU_REMEDY),
    Entry::new("cuda-app.torch-driver-too-old", F::AcceleratorCheck,
        "The NVIDIA driver on your system is too old (found version {version:w}",
        "pytorch/pytorch", "torch/cuda/__init__.py (_check_driver)", "0.4+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the NVIDIA driver on the node is older than the CUDA version the container's program was built for", CUDA_APP_OLD_DRIVER_REMEDY)
        .samples(&[("version", "10010")]),
    Entry::new("cuda-app.cuinit-failed", F::AcceleratorCheck,
        "failed call to cuInit: {error}",
        "tensorflow/tensorflow", "tensorflow/stream_executor/cuda/cuda_driver.cc (third_party/xla/xla/stream_executor/cuda/cuda_driver.cc later)", "TF 1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("a CUDA program in a container finds no usable NVIDIA GPU", CUDA_APP_NO_GPU_REMEDY)
        .samples(&[("error", "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")]),
    Entry::new("cuda-app.insufficient-driver", F::AcceleratorCheck,
        "CUDA driver version is insufficient for CUDA runtime version",
        "NVIDIA CUDA runtime", "cudaGetErrorString(cudaErrorInsufficientDriver)", "CUDA 2+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the NVIDIA driver on the node is older than the CUDA version the container's program was built for", CUDA_APP_OLD_DRIVER_REMEDY),
    Entry::new("cuda-app.no-device", F::AcceleratorCheck,
        "no CUDA-capable device is detected",
        "NVIDIA CUDA runtime", "cudaGetErrorString(cudaErrorNoDevice)", "CUDA 2+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("a CUDA program in a container finds no usable NVIDIA GPU", CUDA_APP_NO_GPU_REMEDY),
    Entry::new("cuda.forward-compat", F::GpuOperator,
        "Failed to {step} (error code forward compatibility was attempted on non supported HW)!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu (cudaErrorCompatNotSupportedOnDevice)", "CUDA 11+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload needs a newer CUDA than the node's driver and tried CUDA forward compatibility, which this GPU does not support (forward compatibility is for data-center GPUs only): the driver is too old for the validator image", "install a driver whose CUDA version (the `CUDA Version` in `nvidia-smi`) is at least the validator image's, or use an operator release whose validator matches the installed driver")
        .samples(&[("step", "allocate device vector A")]),
    Entry::new("cuda.failed", F::GpuOperator,
        "Failed to {step} (error code {error})!",
        "NVIDIA/cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu", "CUDA 10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cuda")
        .says("the CUDA validation workload cannot {step}: {error}", "run `nvidia-smi` on the node and read the driver and container-toolkit logs; the CUDA error names the failing layer")
        .samples(&[("step", "launch vectorAdd kernel"), ("error", "unknown error")]),
    // ------------------------------------------------------------------ GPU operator driver container
    // The driver container's entrypoint (NVIDIA/gpu-driver-container, `<distro>/nvidia-driver`:
    // `_resolve_kernel_version` prints `Could not resolve Linux kernel version` when the
    // distribution's repositories carry no headers/packages for the running kernel; the
    // banner `Starting installation of NVIDIA driver version %s for Linux kernel version %s`;
    // `_unload_driver`'s `Could not unload NVIDIA driver kernel modules, driver is in use`),
    // the kernel's module post-processing (torvalds/linux scripts/mod/modpost.c:
    // `GPL-incompatible module %s uses GPL-only symbol '%s'`) while it compiles the driver for
    // the node's kernel, and kmod's `could not insert '%s': %s` (kmod tools/modprobe.c) with
    // EKEYREJECTED when Secure Boot refuses the unsigned module. The driver pod then
    // crash-loops and everything after it (toolkit, device plugin, GFD, validator, DCGM)
    // waits in `Init:`, so the node advertises no GPU: the driver is the first failing link.
    Entry::new("gpu-driver.installing", F::GpuOperator,
        "Starting installation of NVIDIA driver version {version:w} for Linux kernel version {kernel:w}",
        "NVIDIA/gpu-driver-container", "ubuntu22.04/nvidia-driver (and the other distributions' nvidia-driver)", "all")
        .complete()
        .samples(&[("version", "535.104.05"), ("kernel", "6.5.0-41-generic")]),
    Entry::new("gpu-driver.kernel-unresolved", F::GpuOperator,
        "Could not resolve Linux kernel version",
        "NVIDIA/gpu-driver-container", "ubuntu22.04/nvidia-driver, rhel8/nvidia-driver (_resolve_kernel_version)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the GPU operator's driver container finds no kernel headers or packages for the node's running kernel in its package repositories (the kernel is newer or older than what the repositories carry, or the pod cannot reach them), so the driver is never built, the driver pod crash-loops and the toolkit, device plugin, GFD and validator wait behind it", "read the lines before it in the driver log (`kubectl -n gpu-operator logs <nvidia-driver-daemonset pod> -c nvidia-driver-ctr`: apt/dnf errors mean DNS or proxy); then run a kernel the distribution's repositories carry (or point driver.repoConfig at a mirror that has its headers), use precompiled drivers (`driver.usePrecompiled=true`), or install the driver on the host and set `driver.enabled=false`"),
    Entry::new("gpu-driver.modpost-gpl-symbol", F::GpuOperator,
        "modpost: GPL-incompatible module {module:w} uses GPL-only symbol '{symbol:w}'",
        "torvalds/linux", "scripts/mod/modpost.c (check_exports), while gpu-driver-container compiles the module", "Linux 4.x+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the NVIDIA driver's kernel module ({module}) does not build on this node's kernel: it uses '{symbol}', which this kernel exports only to GPL modules, so this driver release is older than the kernel; the driver pod crash-loops and the toolkit, device plugin, GFD and validator wait behind it", "use a driver release that supports this kernel (a later point release of the branch; for 'rcu_read_unlock_strict' on 6.x kernels 535.183.08 or later) through the ClusterPolicy's driver.version, or boot a kernel this driver release supports")
        .samples(&[("module", "nvidia.ko"), ("symbol", "rcu_read_unlock_strict")]),
    Entry::new("gpu-driver.key-rejected", F::GpuOperator,
        "could not insert '{module:w}': Key was rejected by service",
        "kmod-project/kmod", "tools/modprobe.c (EKEYREJECTED)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the kernel refuses to load the NVIDIA module '{module}': Secure Boot is on and the module is not signed with a key the kernel trusts", "disable Secure Boot on the node, or sign the driver modules and enrol the key (MOK), or use the precompiled signed drivers of your distribution")
        .samples(&[("module", "nvidia")]),
    Entry::new("gpu-driver.in-use", F::GpuOperator,
        "Could not unload NVIDIA driver kernel modules, driver is in use",
        "NVIDIA/gpu-driver-container", "ubuntu22.04/nvidia-driver (_unload_driver)", "all")
        .to(K::Known, "gpu-plugin-log-error", Error).group("gpu-driver")
        .says("the GPU operator's driver container cannot replace the loaded NVIDIA kernel modules: a driver installed on the host, or processes still using the GPU, hold them", "if the driver is installed on the host set `driver.enabled=false` in the ClusterPolicy (the operator then uses it); otherwise stop what uses the GPU (`lsof /dev/nvidia*`, nvidia-persistenced, DCGM) and restart the driver pod"),
    // ------------------------------------------------------------------ NVIDIA container toolkit
    // libnvidia-container's CLI, run as the OCI prestart hook, reports each stage as
    // `warnx("<stage> error: %s", ...)` (src/cli/configure.c: initialization, container,
    // detection, device, requirement, mount, ldcache, permission); the GPU operator's toolkit
    // installs it as nvidia-container-cli.real behind a wrapper.
    Entry::new("toolkit.cli-error", F::NvidiaContainerToolkit,
        "nvidia-container-cli: {stage:w} error: {error}",
        "NVIDIA/libnvidia-container", "src/cli/configure.c", "v1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvcli")
        .says("the NVIDIA container toolkit's hook fails ({stage} error: {error}){hint}, so no GPU container can start on the node", "{fix}")
        .samples(&[("stage", "initialization"), ("error", "driver error: failed to process request")]),
    Entry::new("toolkit.cli-real-error", F::NvidiaContainerToolkit,
        "nvidia-container-cli.real: {stage:w} error: {error}",
        "NVIDIA/libnvidia-container", "src/cli/configure.c (installed as nvidia-container-cli.real by the gpu-operator toolkit)", "v1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("nvcli")
        .says("the NVIDIA container toolkit's hook fails ({stage} error: {error}){hint}, so no GPU container can start on the node", "{fix}")
        .samples(&[("stage", "initialization"), ("error", "nvml error: driver not loaded")]),
    Entry::new("kubelet.back-off-restarting", F::Kubelet,
        "Back-off restarting failed container",
        K8S, "pkg/kubelet/kuberuntime/kuberuntime_manager.go", "v1.8+"),
    // ------------------------------------------------------------------ AMD
    Entry::new("amd.kfd-missing", F::AmdDevicePlugin,
        "open /dev/kfd: no such file or directory",
        "ROCm/k8s-device-plugin", "internal/pkg/amdgpu/amdgpu.go", "v1.10+")
        .to(K::AmdKfdMissing, "gpu-not-advertised", Error).group("amd")
        .says("/dev/kfd is missing: the ROCm kernel driver (amdgpu with KFD) is not loaded", "load the amdgpu driver on the host (install the ROCm kernel driver, `modprobe amdgpu`) and restart the device plugin"),
    Entry::new("amd.glob-topology", F::AmdDevicePlugin,
        "Fail to glob topology properties",
        "ROCm/k8s-device-plugin", "cmd/k8s-node-labeller/main.go", "v1.10+")
        .to(K::AmdKfdMissing, "gpu-not-advertised", Error).group("amd")
        .says("the AMD labeller finds no KFD topology: the ROCm kernel driver is not loaded", "load the amdgpu driver on the host (install the ROCm kernel driver) and restart the labeller and device plugin"),
    // controller-runtime zap JSON (`log.Error(err, msg)`): the labeller logs the sysfs path or
    // a short text as msg and the error as `error` (ROCm/k8s-device-plugin
    // cmd/k8s-node-labeller/main.go, logger name `amdgpu-node-labeller`). Severity follows the
    // labeller's own level (error): the label it cannot compute is missing for every selector
    // and operator config that reads it.
    Entry::new("amd.labeller-error-json", F::AmdDevicePlugin,
        "\"logger\":\"amdgpu-node-labeller{sub}\",\"msg\":\"{msg}\",\"error\":\"{error}\"",
        "ROCm/k8s-device-plugin", "cmd/k8s-node-labeller/main.go", "v1.10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd")
        .says("the AMD node labeller cannot read {msg} ({error}): the node labels derived from it are missing; an absent sysfs file means the amdgpu driver does not expose it for this GPU or no card is bound to amdgpu", AMD_LABELLER_REMEDY)
        .samples(&[("sub", ".entrypoint"), ("msg", "/sys/class/drm/card0/device/product_name"), ("error", "open /sys/class/drm/card0/device/product_name: no such file or directory")]),
    // the same record as the paste reader reduces JSON logging (cube_model::paste: message
    // first, then the other fields in key order, `logger` dropped): the sysfs path the
    // labeller reads stays the message
    Entry::new("amd.labeller-error-reduced", F::AmdDevicePlugin,
        "/sys/class/{attr:w} error=\"{error}\" level=\"error\"",
        "ROCm/k8s-device-plugin", "cmd/k8s-node-labeller/main.go (zap JSON record, reduced)", "v1.10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd")
        .says("the AMD node labeller cannot read /sys/class/{attr} ({error}): the node labels derived from it are missing; an absent sysfs file means the amdgpu driver does not expose it for this GPU or no card is bound to amdgpu", AMD_LABELLER_REMEDY)
        .samples(&[("attr", "drm/card0/device/product_name"), ("error", "open /sys/class/drm/card0/device/product_name: no such file or directory")]),
    Entry::new("amd.labeller-error-console", F::AmdDevicePlugin,
        "ERROR\tamdgpu-node-labeller{sub}\t{msg}\t{{\"error\": \"{error}\"}}",
        "ROCm/k8s-device-plugin", "cmd/k8s-node-labeller/main.go (zap console encoder)", "v1.10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd")
        .says("the AMD node labeller cannot read {msg} ({error}): the node labels derived from it are missing; an absent sysfs file means the amdgpu driver does not expose it for this GPU or no card is bound to amdgpu", AMD_LABELLER_REMEDY)
        .samples(&[("sub", ""), ("msg", "/sys/class/drm/card0/device/device"), ("error", "open /sys/class/drm/card0/device/device: no such file or directory")]),
    // ------------------------------------------------------------------ AMD device plugin
    // ROCm/k8s-device-plugin: ListAndWatch (internal/pkg/plugin/plugin.go; cmd/k8s-device-plugin/
    // main.go before v1.25) lists every GPU with its NUMA node; from v1.18 (commit "Add topology
    // support", 2021) to the move to sysfs `numa_node` it asked hwloc (internal/pkg/hwloc/
    // hwloc.go GetNUMANodes), logging hwloc's error with glog.Error and skipping the device's
    // topology. classify::accelerator names the plugin and its resource (`plugin`, `resource`).
    Entry::new("amd.no-numa-node", F::AmdDevicePlugin,
        "No NUMA node found with bus ID: {bus:w}",
        "ROCm/k8s-device-plugin", "internal/pkg/hwloc/hwloc.go (GetNUMANodes), logged by cmd/k8s-device-plugin/main.go ListAndWatch", "v1.18-v1.2x (hwloc topology)")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd-topology")
        .says("{plugin} fails while enumerating the GPU at PCI bus {bus}: hwloc finds no NUMA node for it (a desktop or single-socket board, a VM, or a kernel that exposes no NUMA topology for the device), so the device is listed without topology at best and {resource} may never become allocatable on this node", "`kubectl describe node <node>` shows whether {resource} is in capacity and allocatable; on the host `cat /sys/bus/pci/devices/{bus}/numa_node` (-1: no NUMA information); update the AMD device plugin to a current release, which reads the NUMA node from sysfs and tolerates -1 (ROCm/k8s-device-plugin internal/pkg/amdgpu/amdgpu.go), then restart the plugin pod")
        .samples(&[("bus", "0000:28:00.0")]),
    Entry::new("amd.gpu-not-found-hwloc", F::AmdDevicePlugin,
        "Fail to find GPU with bus ID: {bus:w}",
        "ROCm/k8s-device-plugin", "internal/pkg/hwloc/hwloc.go (GetNUMANodes)", "v1.18+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd-topology")
        .says("{plugin} cannot find the GPU at PCI bus {bus} in hwloc's topology (the plugin's container does not see the host's PCI tree, or the device went away), so {resource} may not become allocatable", "run the plugin with the host's /sys mounted (the upstream DaemonSet mounts /sys and /dev), check `lspci -D | grep -i amd` on the host, then restart the plugin pod")
        .samples(&[("bus", "0000:28:00.0")]),
    Entry::new("amd.no-numa-for-gpu", F::AmdDevicePlugin,
        "No NUMA for GPU ID: {bus:w}",
        "ROCm/k8s-device-plugin", "cmd/k8s-device-plugin/main.go (ListAndWatch)", "v1.18-v1.2x")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("amd-topology")
        .says("{plugin} lists the GPU at PCI bus {bus} without a NUMA node: the kubelet's Topology Manager cannot align it (policies single-numa-node / restricted reject pods asking for it)", "on the host `cat /sys/bus/pci/devices/{bus}/numa_node`; use the Topology Manager policy none or best-effort on this node, or update the AMD device plugin")
        .samples(&[("bus", "0000:28:00.0")]),
    Entry::new("amd.watching-gpu", F::AmdDevicePlugin,
        "Watching GPU with bus ID: {bus:w} NUMA Node: {numa}",
        "ROCm/k8s-device-plugin", "internal/pkg/plugin/plugin.go (ListAndWatch)", "v1.18+").complete()
        .samples(&[("bus", "0000:28:00.0"), ("numa", "[0]")]),
    Entry::new("amd.found-no-gpus", F::AmdDevicePlugin,
        "Found 0 AMDGPUs",
        "ROCm/k8s-device-plugin", "internal/pkg/plugin/plugin.go (ListAndWatch)", "v1.25+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("amd-found")
        .says("{plugin} lists no GPU (`Found 0 AMDGPUs`): no card is bound to the amdgpu driver in the plugin's view of /sys (driver not loaded, or /sys not mounted into the plugin), so {resource} stays at 0", "on the node `ls /sys/module/amdgpu/drivers/pci:amdgpu/` must list the GPUs' PCI addresses and `ls /sys/class/kfd/kfd/topology/nodes/` the KFD nodes: load the amdgpu driver (ROCm / amdgpu-dkms), check the plugin DaemonSet mounts /sys and /dev, then restart the plugin pod"),
    Entry::new("amd.found-gpus", F::AmdDevicePlugin,
        "Found {count:w} AMDGPUs",
        "ROCm/k8s-device-plugin", "internal/pkg/plugin/plugin.go (ListAndWatch)", "v1.25+").complete().group("amd-found")
        .samples(&[("count", "8")]),
    Entry::new("amd.driver-unavailable-fatal", F::AmdDevicePlugin,
        "amdgpu driver unavailable. exiting with exit code 2. error: {error}",
        "ROCm/k8s-device-plugin", "internal/pkg/amdgpu/amdgpu.go (GetAMDGPUs, FatalOnDriverUnavailable)", "v1.31+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd-driver")
        .says("{plugin} finds no usable amdgpu driver on the node ({error}) and exits: {resource} is not advertised", "load the amdgpu kernel driver on the host (install the ROCm / amdgpu-dkms driver, `modprobe amdgpu`; `ls /sys/module/amdgpu/drivers/` must list the GPUs), then restart the plugin pod")
        .samples(&[("error", "open /sys/module/amdgpu/drivers/: no such file or directory")]),
    Entry::new("amd.driver-unavailable", F::AmdDevicePlugin,
        "amdgpu driver unavailable: {error}",
        "ROCm/k8s-device-plugin", "internal/pkg/amdgpu/amdgpu.go (GetAMDGPUs)", "v1.31+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd-driver")
        .says("{plugin} finds no usable amdgpu driver on the node ({error}): it lists no GPU and {resource} stays at 0", "load the amdgpu kernel driver on the host (install the ROCm / amdgpu-dkms driver, `modprobe amdgpu`; `ls /sys/module/amdgpu/drivers/` must list the GPUs), then restart the plugin pod")
        .samples(&[("error", "open /sys/module/amdgpu/drivers/: no such file or directory")]),
    Entry::new("amd.health-no-gpu", F::AmdDevicePlugin,
        "No GPU nodes found via properties",
        "ROCm/k8s-device-plugin", "internal/pkg/plugin/plugin.go (simpleHealthCheck)", "v1.31+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("amd-health")
        .says("{plugin}'s health check finds no GPU in the KFD topology (/sys/class/kfd/kfd/topology/nodes/*/properties): the GPUs are reported unhealthy and {resource} drops out of allocatable", "on the host check `ls /sys/class/kfd/kfd/topology/nodes/` and `dmesg | grep -i kfd` (the amdgpu driver with KFD must be loaded), then restart the plugin pod"),
    Entry::new("amd.allocator-fallback", F::AmdDevicePlugin,
        "allocator init failed. Falling back to kubelet default allocation. Error {error}",
        "ROCm/k8s-device-plugin", "internal/pkg/plugin/plugin.go (Start)", "v1.25+").complete(),
    // The plugin's start-up banner (cmd/k8s-device-plugin/main.go: `versions` printed with
    // glog.Infof before dpm.NewManager(...).Run()). Its lister sends the resource list only when
    // `/sys/class/kfd` exists ("only exists if ROCm kernel/driver is installed") and
    // getResourceList finds a GPU; otherwise the log stops after the device-plugin-manager's
    // start-up lines (kubevirt/device-plugin-manager pkg/dpm/manager.go: `Starting device plugin
    // manager` ... `Handling incoming signals`) and never shows `Received new list of plugins`.
    // classify::device_plugin keeps this conclusion only when nothing later in the same log
    // shows the list, a registration or another explained error (ROCm/k8s-device-plugin#40).
    Entry::new("amd.plugin-never-lists", F::AmdDevicePlugin,
        "AMD GPU device plugin for Kubernetes",
        "ROCm/k8s-device-plugin", "cmd/k8s-device-plugin/main.go (main: banner, then the lister's /sys/class/kfd check)", "v1.10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("amd-never-lists")
        .says("{plugin} starts its plugin manager but never receives a resource list (no `Received new list of plugins: [gpu]`, no registration): it sends the list only when /sys/class/kfd exists and it finds a GPU, so in its view the ROCm KFD interface is absent: the amdgpu kernel driver is not loaded, is loaded without KFD (a kernel built without CONFIG_HSA_AMD, or the graphics-only AMDGPU-PRO driver), or the DaemonSet does not mount the host's /sys; {resource} is never advertised", "on the node `ls /sys/class/kfd/kfd/topology/nodes/` must list KFD nodes and `lsmod | grep amdgpu` (or `dmesg | grep -i -e kfd -e amdgpu`) show the driver: install or load the ROCm amdgpu driver (amdgpu-dkms; on Talos the amdgpu system extension together with its firmware, in the machine config's install extensions, then upgrade the node), check the plugin's DaemonSet mounts /sys and /dev from the host, then restart the plugin pod"),
    // ------------------------------------------------------------------ device-plugin manager
    // kubevirt/device-plugin-manager pkg/dpm/manager.go and plugin.go (vendored by
    // ROCm/k8s-device-plugin): the library serving each plugin `<name>` of a vendor's resource
    // namespace on the socket `<namespace>_<name>`; `Registration for endpoint` names that
    // socket, so the resource (classify::accelerator). The start-up lines are V(3) info.
    Entry::new("dpm.plugins-list", F::DevicePlugin,
        "Received new list of plugins: {list}",
        "kubevirt/device-plugin-manager", "pkg/dpm/manager.go (handleSignals)", "v1.9+").complete()
        .samples(&[("list", "[gpu]")]),
    Entry::new("dpm.adding-plugin", F::DevicePlugin,
        "Adding a new plugin \"{name}\"",
        "kubevirt/device-plugin-manager", "pkg/dpm/manager.go (handleNewPlugins)", "v1.9+").complete()
        .samples(&[("name", "gpu")]),
    Entry::new("dpm.starting-server", F::DevicePlugin,
        "{name:w}: Starting plugin server",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (StartServer)", "v1.9+").complete()
        .samples(&[("name", "gpu")]),
    Entry::new("dpm.starting-grpc", F::DevicePlugin,
        "{name:w}: Starting the DPI gRPC server",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (serve)", "v1.9+").complete()
        .samples(&[("name", "gpu")]),
    Entry::new("dpm.serving", F::DevicePlugin,
        "{name:w}: Serving requests...",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (serve)", "v1.9+").complete()
        .samples(&[("name", "gpu")]),
    Entry::new("dpm.registering", F::DevicePlugin,
        "{name:w}: Registering the DPI with Kubelet",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (register)", "v1.9+").complete()
        .samples(&[("name", "gpu")]),
    Entry::new("dpm.registered", F::DevicePlugin,
        "{name:w}: Registration for endpoint {endpoint:w}",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (register)", "v1.9+")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("{plugin} registered {resource} with the kubelet (socket {endpoint})", "")
        .samples(&[("name", "gpu"), ("endpoint", "amd.com_gpu")]),
    Entry::new("dpm.registration-failed", F::DevicePlugin,
        "{name:w}: Registration failed: {error}",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (register)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("dpm-register")
        .says("{plugin} cannot register {resource} with the kubelet ({error}): the node does not advertise it{hint}", "{fix}")
        .samples(&[("name", "gpu"), ("error", "rpc error: code = Unavailable desc = connection error")]),
    Entry::new("dpm.feature-gate-hint", F::DevicePlugin,
        "{name:w}: Make sure that the DevicePlugins feature gate is enabled and kubelet running",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (register)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("dpm-register")
        .says("{plugin} cannot register {resource} with the kubelet: the kubelet's registration socket does not answer", "check that the plugin pod mounts the kubelet's device-plugins directory (/var/lib/kubelet/device-plugins; another path under a kubelet --root-dir, k3s/rke2 and MicroK8s) and that kubelet.sock exists there; restart the plugin pod after the kubelet restarts")
        .samples(&[("name", "gpu")]),
    Entry::new("dpm.dial-failed", F::DevicePlugin,
        "{name:w}: Could not dial gRPC: {error}",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (register)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("dpm-register")
        .says("{plugin} cannot reach the kubelet's registration socket ({error}): {resource} is not advertised{hint}", "{fix}")
        .samples(&[("name", "gpu"), ("error", "context deadline exceeded")]),
    Entry::new("dpm.grpc-setup-failed", F::DevicePlugin,
        "{name:w}: Failed to setup a DPI gRPC server: {error}",
        "kubevirt/device-plugin-manager", "pkg/dpm/plugin.go (serve)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("dpm-serve")
        .says("{plugin} cannot serve its gRPC socket ({error}): {resource} is not advertised{hint}", "{fix}")
        .samples(&[("name", "gpu"), ("error", "listen unix /var/lib/kubelet/device-plugins/amd.com_gpu: bind: address already in use")]),
    Entry::new("dpm.start-failed", F::DevicePlugin,
        "Failed to start plugin \"{name}\": {error}",
        "kubevirt/device-plugin-manager", "pkg/dpm/manager.go (startPlugin)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("dpm-serve")
        .says("{plugin} fails to start ({error}): {resource} is not advertised", "read the error and the plugin's lines before it; restart the plugin pod once fixed")
        .samples(&[("name", "gpu"), ("error", "no devices")]),
    // ------------------------------------------------------------------ kubelet device manager
    // the kubelet's side of a device plugin's registration (any vendor): Infof before v1.20
    // (pkg/kubelet/cm/devicemanager/manager.go), InfoS since (plugin/v1beta1/server.go from
    // v1.26); classify::accelerator reads the resource.
    Entry::new("kubelet.device-plugin-registration", F::Kubelet,
        "Got registration request from device plugin with resource name \"{resource}\"",
        K8S, "pkg/kubelet/cm/devicemanager/manager.go (Register)", "v1.10-v1.19").complete()
        .samples(&[("resource", "amd.com/gpu")]),
    Entry::new("kubelet.device-plugin-registration-structured", F::Kubelet,
        "Got registration request from device plugin with resource{sep}resourceName=\"{resource}\"",
        K8S, "pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go (Register)", "v1.20+").complete()
        .samples(&[("sep", "\" "), ("resource", "amd.com/gpu")]),
    // the kubelet refusing a registration (plugin/v1beta1/server.go Register, InfoS with the
    // error; errUnsupportedVersion / errInvalidResourceName of constants.go) or unable to dial
    // the plugin back, and its registration server down (Check, the kubelet's healthz)
    Entry::new("kubelet.device-plugin-bad-version", F::Kubelet,
        "Bad registration request from device plugin with resource{sep}resourceName=\"{resource}\"",
        K8S, "pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go (Register)", "v1.26+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("kubelet-dp-register")
        .says("the kubelet refuses the registration of {plugin}: the plugin speaks a device-plugin API version this kubelet does not support, so {resource} is not advertised", "deploy the plugin release built for this cluster's Kubernetes version (its release notes name the device-plugin API, v1beta1 since Kubernetes 1.10), then restart the plugin pod")
        .samples(&[("sep", "\" "), ("resource", "amd.com/gpu")]),
    Entry::new("kubelet.device-plugin-bad-name", F::Kubelet,
        "Bad registration request from device plugin{sep}err=\"{error}\"",
        K8S, "pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go (Register)", "v1.26+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("kubelet-dp-register")
        .says("the kubelet refuses a device plugin's registration ({error}): the resource name it registers is not a valid extended resource name (`<domain>/<name>`, not under kubernetes.io)", "fix the resource name in the plugin's configuration (its `resourceName` / resource namespace), then restart the plugin pod")
        .samples(&[("sep", "\" "), ("error", "invalid name of device plugin resource")]),
    Entry::new("kubelet.device-plugin-dial-back", F::Kubelet,
        "Error connecting to device plugin client",
        K8S, "pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go (Register)", "v1.26+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("kubelet-dp-register")
        .says("the kubelet got a device plugin's registration request but cannot connect back to the plugin's socket: the plugin serves its socket outside this kubelet's device-plugins directory (another kubelet --root-dir: k3s/rke2, MicroK8s) or exited right after registering", "mount the kubelet's actual device-plugins directory into the plugin pod (the kubelet's --root-dir followed by /device-plugins) and read the plugin's log for an exit after registration; restart the plugin pod"),
    Entry::new("kubelet.device-plugin-registry-down", F::Kubelet,
        "device plugin registration gRPC server failed and no device plugins can register",
        K8S, "pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go (Check)", "v1.33+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("kubelet-dp-register")
        .says("the kubelet's device-plugin registration server keeps failing: no device plugin (GPU or other) can register on this node", "on the node check /var/lib/kubelet/device-plugins (exists, writable, not a full disk, SELinux label) and `journalctl -u kubelet | grep -i 'device plugin registr'` for the serve error; restart the kubelet"),
    Entry::new("kubelet.device-plugin-connected", F::Kubelet,
        "Device plugin connected{sep}resourceName=\"{resource}\"",
        K8S, "pkg/kubelet/cm/devicemanager/manager.go (PluginConnected)", "v1.26+").complete()
        .samples(&[("sep", "\" "), ("resource", "amd.com/gpu")]),
    // ------------------------------------------------------------------ Intel GPU plugin
    // intel/intel-device-plugins-for-kubernetes cmd/gpu_plugin/gpu_plugin.go: newDevicePlugin
    // warns when /dev/dri/by-path cannot be read; isCompatibleDevice logs every /sys/class/drm
    // entry that is not a card at V(4) (`Not compatible device: version` is normal noise on its
    // own); a found card shows as `Adding /dev/dri/... to GPU cardN` (V(4)) and
    // `GPU scan update: 0->N` (V(1)). classify::device_plugin weighs them together.
    Entry::new("intel.bypath-missing", F::IntelDevicePlugin,
        "failed to read by-path dir: {error}",
        "intel/intel-device-plugins-for-kubernetes", "cmd/gpu_plugin/gpu_plugin.go (newDevicePlugin)", "v0.26+")
        .to(K::Known, "gpu-plugin-log-error", Info)
        .says("the Intel GPU plugin cannot read /dev/dri/by-path ({error}){note}", "on the node `ls -l /dev/dri /sys/class/drm` must show card* and renderD* entries and `lspci -k | grep -EA3 'VGA|Display'` an Intel GPU bound to i915 or xe; load the driver (`modprobe i915`, or xe), or enable the GPU in firmware, then restart the plugin pod")
        .samples(&[("error", "open /dev/dri/by-path: no such file or directory")]),
    Entry::new("intel.not-compatible", F::IntelDevicePlugin,
        "Not compatible device: {name:w}",
        "intel/intel-device-plugins-for-kubernetes", "cmd/gpu_plugin/gpu_plugin.go (isCompatibleDevice, V(4))", "v0.18+")
        .samples(&[("name", "version")]),
    Entry::new("intel.non-intel", F::IntelDevicePlugin,
        "Non-Intel GPU: {name:w}",
        "intel/intel-device-plugins-for-kubernetes", "cmd/gpu_plugin/gpu_plugin.go (isCompatibleDevice, V(4))", "v0.18+")
        .samples(&[("name", "card0")]),
    Entry::new("intel.scan-update", F::IntelDevicePlugin,
        "GPU scan update: {from:w}->{to:w} '{resource}' resources found",
        "intel/intel-device-plugins-for-kubernetes", "cmd/gpu_plugin/gpu_plugin.go (Scan, V(1))", "v0.26+")
        .samples(&[("from", "0"), ("to", "1"), ("resource", "i915")]),
    Entry::new("intel.vendor-file", F::IntelDevicePlugin,
        "Skipping. Can't read vendor file: {error}",
        "intel/intel-device-plugins-for-kubernetes", "cmd/gpu_plugin/gpu_plugin.go (isCompatibleDevice)", "v0.18+"),
    Entry::new("intel.sysfs-unreadable", F::IntelDevicePlugin,
        "Can't read sysfs folder: {error}",
        "intel/intel-device-plugins-for-kubernetes", "cmd/gpu_plugin/gpu_plugin.go (scan)", "v0.18+")
        .to(K::Known, "gpu-plugin-log-error", Warning)
        .says("the Intel GPU plugin cannot read /sys/class/drm ({error}): it finds no GPU and advertises nothing", "check the plugin pod's hostPath mounts of /sys/class/drm and /dev/dri, and that the node has a DRM driver loaded (`ls /sys/class/drm`)")
        .samples(&[("error", "open /sys/class/drm: no such file or directory")]),
    // intel/intel-device-plugins-for-kubernetes pkg/deviceplugin (server.go setupAndServe,
    // manager.go Run / handleUpdate): the library every Intel plugin (GPU, QAT, SGX, DSA, FPGA)
    // is built on; it serves `<namespace>-<type>.sock` and registers `<namespace>/<type>`.
    Entry::new("intel.start-server", F::IntelDevicePlugin,
        "Start server for {type:w} at: {socket:w}",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (setupAndServe, V(1))", "v0.18+").complete()
        .samples(&[("type", "i915"), ("socket", "/var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock")]),
    Entry::new("intel.registered", F::IntelDevicePlugin,
        "Device plugin for {type:w} registered",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (setupAndServe, V(1))", "v0.18+")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("{plugin} registered {resource} with the kubelet", "")
        .samples(&[("type", "i915")]),
    Entry::new("intel.socket-restart", F::IntelDevicePlugin,
        "Socket {socket:w} removed, restarting",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (setupAndServe, V(1))", "v0.18+").complete()
        .samples(&[("socket", "/var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock")]),
    Entry::new("intel.serve-failed", F::IntelDevicePlugin,
        "Failed to serve {resource:w}: {error}",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/manager.go (handleUpdate)", "v0.18+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("intel-serve")
        .says("{plugin} cannot serve {resource} and exits ({error}){hint}", "{fix}")
        .samples(&[("resource", "gpu.intel.com/i915"), ("error", "Cannot register to kubelet service: rpc error: code = Unavailable desc = connection error")]),
    // the wrapping messages pkg/errors prints under `Failed to serve ...: <cause>` with %+v
    // (pkg/deviceplugin/server.go registerWithKubelet, watchFile, setupAndServe)
    Entry::new("intel.wrap-register", F::IntelDevicePlugin,
        "Cannot register to kubelet service",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (registerWithKubelet)", "v0.18+").complete(),
    Entry::new("intel.wrap-connect", F::IntelDevicePlugin,
        "Cannot connect to kubelet service",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (registerWithKubelet)", "v0.18+").complete(),
    Entry::new("intel.wrap-watcher", F::IntelDevicePlugin,
        "Failed to create watcher for {path:w}",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (watchFile)", "v0.18+").complete()
        .samples(&[("path", "/var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock")]),
    Entry::new("intel.wrap-listen", F::IntelDevicePlugin,
        "Failed to listen to plugin socket",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (setupAndServe)", "v0.18+").complete(),
    Entry::new("intel.wrap-in-use", F::IntelDevicePlugin,
        "Socket {socket:w} is already in use",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (setupAndServe)", "v0.18+").complete()
        .samples(&[("socket", "/var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock")]),
    Entry::new("intel.scan-failed", F::IntelDevicePlugin,
        "Device scan failed: {error}",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/manager.go (Run)", "v0.18+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("intel-serve")
        .says("{plugin}'s device scan fails and the plugin exits ({error}): nothing is advertised", "read the error: a sysfs or /dev path the plugin cannot read means its hostPath mounts or the node's driver are missing; fix it and restart the plugin pod")
        .samples(&[("error", "open /sys/class/drm: no such file or directory")]),
    Entry::new("intel.grpc-start-failed", F::IntelDevicePlugin,
        "unable to start gRPC server: {error}",
        "intel/intel-device-plugins-for-kubernetes", "pkg/deviceplugin/server.go (setupAndServe)", "v0.18+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("intel-serve")
        .says("{plugin} cannot start its gRPC server ({error}): {resource} is not advertised", "check that the plugin pod mounts /var/lib/kubelet/device-plugins read-write; restart the plugin pod")
        .samples(&[("error", "listen unix: address already in use")]),
    // ------------------------------------------------------------------ Cambricon MLU plugin
    // Cambricon/cambricon-k8s-device-plugin device-plugin/cmd/main.go and pkg/mlu/server.go
    // (logrus); it also prints the NVIDIA plugin's `No devices found. Waiting indefinitely.`
    // (classify::accelerator reads that line as the Cambricon plugin's in its log).
    Entry::new("cambricon.registered", F::DevicePlugin,
        "Registered resource {resource:w}",
        "Cambricon/cambricon-k8s-device-plugin", "device-plugin/pkg/mlu/server.go (Register)", "v1.0+")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("{plugin} registered {resource} with the kubelet", "")
        .samples(&[("resource", "cambricon.com/mlu")]),
    Entry::new("cambricon.serving", F::DevicePlugin,
        "Starting to serve on socket {socket:w}",
        "Cambricon/cambricon-k8s-device-plugin", "device-plugin/pkg/mlu/server.go (Serve)", "v1.0+").complete()
        .samples(&[("socket", "/var/lib/kubelet/device-plugins/cambricon.sock")]),
    Entry::new("cambricon.cndev-failed", F::DevicePlugin,
        "Failed to ensure CNDEV lib {error}",
        "Cambricon/cambricon-k8s-device-plugin", "device-plugin/cmd/main.go", "v1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cambricon-cndev")
        .says("the Cambricon MLU device plugin cannot load the driver library libcndev ({error}) and stops: cambricon.com/mlu is not advertised", "install the Cambricon driver (Neuware) on the node and check it with `cnmon`; the plugin's DaemonSet must mount the driver's libraries (libcndev.so) from the host; then restart the plugin pod")
        .samples(&[("error", "libcndev.so: cannot open shared object file: No such file or directory")]),
    Entry::new("cambricon.libcndev-open", F::DevicePlugin,
        "Open libcndev with err:{error}",
        "Cambricon/cambricon-k8s-device-plugin", "device-plugin/pkg/cndev/cndev_dl.go", "v1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cambricon-cndev")
        .says("the Cambricon MLU device plugin cannot open the driver library libcndev ({error}): cambricon.com/mlu is not advertised", "install the Cambricon driver (Neuware) on the node and check it with `cnmon`; the plugin's DaemonSet must mount the driver's libraries (libcndev.so) from the host; then restart the plugin pod")
        .samples(&[("error", "libcndev.so: cannot open shared object file: No such file or directory")]),
    Entry::new("cambricon.serve-retry", F::DevicePlugin,
        "Serve device plugin {profile:w}, err: {error}, restarting.",
        "Cambricon/cambricon-k8s-device-plugin", "device-plugin/cmd/main.go", "v1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("cambricon-serve")
        .says("the Cambricon MLU device plugin cannot serve or register {profile} ({error}) and keeps restarting it: it is not advertised", "check that the plugin pod mounts /var/lib/kubelet/device-plugins (another path under a kubelet --root-dir) and that kubelet.sock exists there; restart the plugin pod")
        .samples(&[("profile", "mlu"), ("error", "register resource cambricon.com/mlu err: rpc error: code = Unavailable desc = connection error")]),
    // The retry wording is NVIDIA's (NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go,
    // `Failed to start one or more plugins. Retrying in 30s...`), kept verbatim by the plugins
    // derived from it (Cambricon's device-plugin/cmd/main.go and others): it names no vendor,
    // so the finding does not either; the plugin is told by the other lines of the same log.
    Entry::new("plugin.start-retry", F::DevicePlugin,
        "Failed to start one or more plugins. Retrying in 30s...",
        "NVIDIA/k8s-device-plugin", "cmd/nvidia-device-plugin/main.go (also Cambricon/cambricon-k8s-device-plugin device-plugin/cmd/main.go)", "v1.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("plugin-start-retry")
        .says("the device plugin fails to start one or more of its plugins and retries every 30s: their resource is not advertised until a retry succeeds", "read the error line the plugin logs just before it (`Failed to start plugin: ...`, `Serve device plugin ... err:`, `error waiting for MPS daemon`) for the reason; check the kubelet's device-plugins directory mount and restart the plugin pod"),
    // ------------------------------------------------------------------ Habana (Intel Gaudi)
    // HabanaAI/habanalabs-k8s-device-plugin main.go (run) and server.go (Start, Register), slog
    // JSON records (`"service":"habana-device-plugin"`); `failed to create FS watcher` is worded
    // as NVIDIA's (nvidia.fs-watcher names the plugin of the log).
    Entry::new("habana.hlml-init-failed", F::DevicePlugin,
        "failed to initialize HLML: {error}",
        "HabanaAI/habanalabs-k8s-device-plugin", "main.go (run)", "v1.x")
        .to(K::Known, "gpu-plugin-log-error", Error).group("habana-init")
        .says("the Habana device plugin cannot initialise HLML, the Gaudi management library ({error}): habana.ai/gaudi is not advertised", "on the node `hl-smi` must list the Gaudi devices: install or load the habanalabs driver (`lsmod | grep habanalabs`) and the Habana container runtime, then restart the plugin pod")
        .samples(&[("error", "hlml: not initialized")]),
    Entry::new("habana.detect-failed", F::DevicePlugin,
        "failed detecting Habana's devices on the system: {error}",
        "HabanaAI/habanalabs-k8s-device-plugin", "main.go (run)", "v1.x")
        .to(K::Known, "gpu-plugin-log-error", Error).group("habana-init")
        .says("the Habana device plugin finds no Gaudi device on the node ({error}): habana.ai/gaudi is not advertised", "on the node `hl-smi` must list the Gaudi devices: check the habanalabs driver (`dmesg | grep -i habanalabs`), then restart the plugin pod")
        .samples(&[("error", "hlml: not found")]),
    Entry::new("habana.start-failed", F::DevicePlugin,
        "could not start device plugln: {error}",
        "HabanaAI/habanalabs-k8s-device-plugin", "server.go (Start; the typo is upstream's)", "v1.x")
        .to(K::Known, "gpu-plugin-log-error", Error).group("habana-register")
        .says("the Habana device plugin cannot serve its socket ({error}): habana.ai/gaudi is not advertised", "check that the plugin pod mounts /var/lib/kubelet/device-plugins read-write; restart the plugin pod")
        .samples(&[("error", "listen unix /var/lib/kubelet/device-plugins/gaudi_habanalabs.sock: bind: address already in use")]),
    Entry::new("habana.register-failed", F::DevicePlugin,
        "could not register device plugin: {error}",
        "HabanaAI/habanalabs-k8s-device-plugin", "server.go (Start)", "v1.x")
        .to(K::Known, "gpu-plugin-log-error", Error).group("habana-register")
        .says("the Habana device plugin cannot register habana.ai/gaudi with the kubelet ({error})", "check that the plugin pod mounts the kubelet's device-plugins directory (/var/lib/kubelet/device-plugins; another path under a kubelet --root-dir) and that kubelet.sock exists there; restart the plugin pod after the kubelet restarts")
        .samples(&[("error", "rpc error: code = Unavailable desc = connection error")]),
    Entry::new("habana.xid-all", F::DevicePlugin,
        "XidCriticalError: All devices will go unhealthy",
        "HabanaAI/habanalabs-k8s-device-plugin", "server.go (healthcheck)", "v1.x")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("habana-health")
        .says("the Habana device plugin got a critical event from HLML and marks every Gaudi device unhealthy: habana.ai/gaudi drops out of allocatable", "on the node `hl-smi -q` and `dmesg | grep -i habanalabs` name the error; reset or reboot the node per Habana's guidance, then restart the plugin pod"),
    Entry::new("habana.xid-device", F::DevicePlugin,
        "XidCriticalError: the device will go unhealthy",
        "HabanaAI/habanalabs-k8s-device-plugin", "server.go (healthcheck)", "v1.x")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("habana-health")
        .says("the Habana device plugin got a critical event for a Gaudi device and marks it unhealthy: it drops out of habana.ai/gaudi allocatable", "on the node `hl-smi -q` and `dmesg | grep -i habanalabs` name the error; reset the device or reboot the node, then restart the plugin pod"),
    Entry::new("habana.started", F::DevicePlugin,
        "Started Habana device plugin manager",
        "HabanaAI/habanalabs-k8s-device-plugin", "main.go (run)", "v1.x").complete(),
    // ------------------------------------------------------------------ HAMi
    Entry::new("hami.registered-annotation", F::Hami,
        "Successfully registered annotation. Next check in {interval:w} seconds...",
        "Project-HAMi/HAMi", "pkg/device-plugin/nvidiadevice/register.go", "v2.0+")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("the HAMi device plugin registered the node's GPUs in its annotation", "")
        .samples(&[("interval", "30s")]),
    // HAMi's device plugin logs each device it registers in the node's
    // hami.io/node-nvidia-register annotation with its health (v2.9+; earlier `nvml registered
    // device id=..., memory=..., type=..., numa=...` without it), and the annotations it patches
    // (`patch node with the following annos map[...]`, whose register value classify::hami
    // decodes: an unhealthy device there is concluded as this entry); hami-scheduler skips a
    // device whose health is false (pkg/device/nvidia/device.go Fit: CardNotHealth)
    Entry::new("hami.registered-device-unhealthy", F::Hami,
        "Registered device id={id:w}, memory={memory:w}MB, type={type}, numa={numa:w}, health=false",
        "Project-HAMi/HAMi", "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go (getAPIDevices)", "v2.9+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("hami-register")
        .says("HAMi's device plugin registers GPU {id} ({type}) with health=false in the node's hami.io/node-nvidia-register annotation: hami-scheduler skips an unhealthy device (CardNotHealth), so pods asking HAMi for GPUs get one GPU fewer on the node, whatever allocatable nvidia.com/gpu shows", XID_REMEDY)
        .samples(&[("id", "1"), ("memory", "23028"), ("type", "NVIDIA A10"), ("numa", "0")]),
    Entry::new("hami.registered-device", F::Hami,
        "Registered device id={id:w}, memory={memory:w}MB, type={type}, numa={numa:w}, health=true",
        "Project-HAMi/HAMi", "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go (getAPIDevices)", "v2.9+")
        .group("hami-register").complete()
        .samples(&[("id", "1"), ("memory", "23028"), ("type", "NVIDIA A10"), ("numa", "0")]),
    Entry::new("hami.nvml-registered-device", F::Hami,
        "nvml registered device id={id:w}, memory={memory:w}, type={type}, numa={numa:w}",
        "Project-HAMi/HAMi", "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go (getAPIDevices)", "v2.4-v2.8")
        .group("hami-register").complete()
        .samples(&[("id", "6"), ("memory", "143771"), ("type", "NVIDIA H20-3e"), ("numa", "1")]),
    Entry::new("hami.patch-node-annos", F::Hami,
        "patch node with the following annos map[{annos}]",
        "Project-HAMi/HAMi", "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go (RegisterInAnnotation)", "v2.3+")
        .group("hami-register").complete()
        .samples(&[("annos", "hami.io/node-handshake:Reported 2024-08-14 11:19:02.953065957 +0000 UTC m=+1419719.766207749 hami.io/node-nvidia-register:GPU-00000000-0000-0000-0000-000000000001,10,11264,100,NVIDIA-NVIDIA GeForce RTX 2080 Ti,0,true:")]),
    // hami-scheduler drops a node's devices when CheckHealth fails: the device plugin has not
    // answered the handshake (hami.io/node-handshake Requesting_<time>) for 60 s
    // (pkg/device/devices.go CheckHealth; pkg/scheduler/scheduler.go: klog.Warning with
    // key/value arguments run together in v2.5-v2.9, klog.ErrorS later)
    Entry::new("hami.scheduler-device-unhealthy", F::Hami,
        "Device is unhealthy, cleaning up node{rest}",
        "Project-HAMi/HAMi", "pkg/scheduler/scheduler.go (register), pkg/device/devices.go (CheckHealth)", "v2.5+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("hami-register")
        .says("hami-scheduler removed a node's HAMi devices ({rest}): the HAMi device plugin there has not answered the scheduler's handshake for more than 60 s (the node's hami.io/node-handshake annotation stays Requesting_<time>), so hami-scheduler places no HAMi GPU pod on that node (HAMi v2.6-v2.9 also prints this on every pass for Metax-GPU, Metax-SGPU and GCU on any node without such cards, and for a vendor whose removal leaves the node's other devices healthy: then it is information only)", "check the HAMi device-plugin pod on the node (`kubectl get pods -A -o wide | grep -i hami-device-plugin`, then its log) and `kubectl get node <node> -o jsonpath='{{.metadata.annotations}}'` (hami.io/node-handshake should read Reported <time>); restart the plugin pod once the driver works (`nvidia-smi` on the node)")
        .samples(&[("rest", "\" nodeName=\"node-01\" deviceVendor=\"NVIDIA\"")]),
    // the summary FilteringFailed event of HAMi's extender after the per-code events
    // (pkg/scheduler/scheduler.go Filter); the codes themselves are read by classify::hami
    Entry::new("hami.no-available-node", F::Hami,
        "no available node, {count:w} nodes do not meet",
        "Project-HAMi/HAMi", "pkg/scheduler/scheduler.go (Filter)", "v2.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning)
        .says("HAMi's scheduler extender found no node whose devices fit the pod (no available node, {count} nodes do not meet); this summary does not say why", "read the pod's other FilteringFailed events (one per reason code: `N nodes CardInsufficientMemory(...)`, NumaNotFit, CardTypeMismatch, ...) or the extender's log (`kubectl -n kube-system logs deploy/hami-scheduler -c vgpu-scheduler-extender | grep NodeUnfitPod`)")
        .samples(&[("count", "2")]),
    Entry::new("hami.no-available-node-legacy", F::Hami,
        "no available node, all node scores do not meet",
        "Project-HAMi/HAMi", "pkg/scheduler/scheduler.go (Filter)", "v2.0-v2.3")
        .to(K::QueueAdmission, "pod-unschedulable", Warning)
        .says("HAMi's scheduler extender found no node whose devices fit the pod (no available node, all node scores do not meet); this summary does not say why", "read the pod's other FilteringFailed events (one per reason code: `N nodes CardInsufficientMemory(...)`, NumaNotFit, CardTypeMismatch, ...) or the extender's log (`kubectl -n kube-system logs deploy/hami-scheduler -c vgpu-scheduler-extender | grep NodeUnfitPod`)"),
    Entry::new("hami.node-unregistered", F::Hami,
        "node unregistered",
        "Project-HAMi/HAMi", "pkg/scheduler/scheduler.go (getNodesUsage)", "v2.4+")
        .to(K::HamiNodeUnregistered, "gpu-not-advertised", Error)
        .says("the HAMi scheduler has no device registration for the node: the HAMi device plugin does not run or report there", "check the HAMi device-plugin pod on the node and that the node carries the label HAMi selects (`gpu=on`)"),
    // the same reason as HAMi v1.0-v2.3 printed it, misspelt upstream (`failedNodes[nodeID] =
    // "node unregisterd"`, pkg/scheduler/scheduler.go until commit b42b2087, 2024-07-25)
    Entry::new("hami.node-unregistered-misspelt", F::Hami,
        "node unregisterd",
        "Project-HAMi/HAMi", "pkg/scheduler/scheduler.go (misspelt upstream)", "v1.0-v2.3")
        .to(K::HamiNodeUnregistered, "gpu-not-advertised", Error)
        .says("the HAMi scheduler has no device registration for the node: the HAMi device plugin does not run or report there", "check the HAMi device-plugin pod on the node and that the node carries the label HAMi selects (`gpu=on`)"),
    // ------------------------------------------------------------------ device allocation
    // The kubelet asks the device plugin to Allocate the pod's devices at admission; an error
    // fails the pod with reason UnexpectedAdmissionError and this message (kubernetes
    // pkg/kubelet/lifecycle/predicate.go, the device manager's error from
    // pkg/kubelet/cm/devicemanager/manager.go). The plugin's own error is inside it; a known
    // one (first in this group) says why.
    Entry::new("ascend.npu-smi-not-found", F::AscendDevicePlugin,
        "npu-smi not found in {paths} or PATH",
        "Project-HAMi/ascend-device-plugin", "internal/server/device_share.go (resolveNpuSmi)", "hami-vnpu-core releases")
        .to(K::Known, "gpu-plugin-log-error", Error).group("allocate")
        .says("the Ascend device plugin cannot run npu-smi inside its container (not in {paths} nor on its PATH): it needs the host's npu-smi to set device-share for virtual NPUs, so every Allocate fails and pods asking for vNPUs fail at admission; the NPUs themselves are fine", "mount the host's npu-smi into the device-plugin DaemonSet (a hostPath volume of the driver tools directory /usr/local/Ascend/driver/tools, or of /usr/local/sbin/npu-smi, at the same path in the container), roll the DaemonSet, then recreate the failed pods")
        .samples(&[("paths", "[/usr/local/Ascend/driver/tools/npu-smi /usr/local/sbin/npu-smi /usr/local/bin/npu-smi]")]),
    Entry::new("kubelet.devices-unavailable", F::Kubelet,
        "requested number of devices unavailable for {resource:w}. Requested: {requested:w}, Available: {available:w}, which is unexpected",
        K8S, "pkg/kubelet/cm/devicemanager/manager.go (devicesToAllocate)", "v1.10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("allocate")
        .says("the pod was placed on the node for {requested} {resource} but the kubelet's device manager has only {available} healthy device(s) free: the device plugin has not (re-)registered since the kubelet restarted, reported devices unhealthy, or the scheduler counted allocatable the plugin no longer serves; the pod fails with UnexpectedAdmissionError and is not retried on that node", "check the device-plugin pod on the node and `kubectl describe node <node>` (Capacity/Allocatable of {resource}); once the plugin has registered its devices, delete the failed pods (`kubectl get pods -A --field-selector=status.phase=Failed`) so their controllers create new ones")
        .samples(&[("resource", "nvidia.com/gpu"), ("requested", "1"), ("available", "0")]),
    Entry::new("kubelet.update-plugin-resources-failed", F::Kubelet,
        "Update plugin resources failed due to {error}, which is unexpected",
        K8S, "pkg/kubelet/lifecycle/predicate.go (pluginResourceUpdateFunc)", "v1.9+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("allocate")
        .says("the kubelet admitted the pod but could not reserve its device-plugin resources ({error}): the pod fails with UnexpectedAdmissionError and is not retried on that node", "read the device plugin's log on the node and `kubectl describe node <node>` (Allocatable); then delete the failed pod so its controller creates a new one")
        .samples(&[("error", "rpc error: code = Unknown desc = device not found")]),
    Entry::new("kubelet.allocate-failed", F::Kubelet,
        "Allocate failed due to {error}, which is unexpected",
        K8S, "pkg/kubelet/lifecycle/predicate.go (UnexpectedAdmissionError)", "v1.10+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("allocate")
        .says("the kubelet admitted the pod but the device plugin's Allocate call failed ({error}): the pod fails with UnexpectedAdmissionError and is not retried on that node", "read the device plugin's log on the node for this Allocate error and fix what it names; then delete the failed pod so its controller creates a new one")
        .samples(&[("error", "rpc error: code = Unknown desc = device not found")]),
    // ------------------------------------------------------------------ Ascend device plugin
    // Huawei's Ascend device plugin (Ascend/mind-cluster component/ascend-device-plugin,
    // pkg/server/server.go Start/serve/register, pkg/server/plugin.go ListAndWatch and
    // responseToKubelet), logged through hwlog (its prefix is removed by the paste cleaner).
    Entry::new("ascend.prepare-start", F::AscendDevicePlugin,
        "prepare start plugin server, restartTime={count:w}",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/server.go (Start)", "v5.0+").complete()
        .samples(&[("count", "0")]),
    Entry::new("ascend.start-serving", F::AscendDevicePlugin,
        "device plugin ({device:w}) start serving.",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/server.go (serve)", "v5.0+").complete()
        .samples(&[("device", "Ascend910")]),
    Entry::new("ascend.start-serving-legacy", F::AscendDevicePlugin,
        "device plugin start serving.",
        "Ascend/ascend-device-plugin", "pkg/server/server.go (Start)", "v2.0-v3.0").complete(),
    Entry::new("ascend.registered", F::AscendDevicePlugin,
        "register {device:w} to kubelet success.",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/server.go (Start)", "v5.0+")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("the Ascend device plugin registered huawei.com/{device} with the kubelet", "")
        .samples(&[("device", "Ascend910")]),
    Entry::new("ascend.registered-legacy", F::AscendDevicePlugin,
        "register to kubelet success.",
        "Ascend/ascend-device-plugin", "pkg/server/server.go (Start)", "v2.0-v3.0")
        .to(K::DevicePluginRegistered, "", Info).group("registered")
        .says("the Ascend device plugin registered with the kubelet", ""),
    Entry::new("ascend.register-failed", F::AscendDevicePlugin,
        "register to kubelet failed, err: {error}",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/server.go (Start)", "v2.0+")
        .to(K::Known, "gpu-plugin-log-error", Error).group("ascend-register")
        .says("the Ascend device plugin cannot register with the kubelet ({error}), so the node advertises no huawei.com/Ascend* resource", "check that the plugin mounts the kubelet's device-plugins directory (/var/lib/kubelet/device-plugins; another kubelet root dir on k3s/rke2) and that kubelet.sock exists there; restart the plugin pod after the kubelet restarts"),
    Entry::new("ascend.receive-list-and-watch", F::AscendDevicePlugin,
        "receive ListAndWatch from kubelet, {detail}",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/plugin.go (ListAndWatch)", "v5.0+").complete()
        .samples(&[("detail", "deviceType=Ascend910, server restartTimes=0")]),
    Entry::new("ascend.device-unhealthy", F::AscendDevicePlugin,
        "ListAndWatch resp devices: {detail} Unhealthy",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/plugin.go (responseToKubelet)", "v2.0+")
        .to(K::Known, "gpu-plugin-log-error", Warning).group("ascend-devices")
        .says("the Ascend device plugin reports an NPU to the kubelet as Unhealthy ({detail}): the kubelet takes it out of allocatable", "on the node run `npu-smi info` and read the chip's health and error codes (the plugin's fault handling and the device-info ConfigMap `kubectl -n kube-system get cm mindx-dl-deviceinfo-<node> -o yaml` name the fault); reset or replace the chip")
        .samples(&[("detail", "Ascend910-3")]),
    Entry::new("ascend.device-list", F::AscendDevicePlugin,
        "ListAndWatch resp devices: {detail}",
        "Ascend/mind-cluster", "component/ascend-device-plugin/pkg/server/plugin.go (responseToKubelet)", "v2.0+")
        .complete().group("ascend-devices")
        .samples(&[("detail", "Ascend910-0 Healthy")]),
    // ------------------------------------------------------------------ storage
    Entry::new("nfs.access-denied", F::Storage,
        "mount.nfs: access denied by server while mounting {export:w}",
        "nfs-utils (linux-nfs.org)", "utils/mount/stropts.c", "nfs-utils 1.x-2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the NFS server refuses the export {export} to this node: the node's address is not allowed in /etc/exports (or the path is wrong)", "on the NFS server allow the nodes' addresses for that export in /etc/exports (`exportfs -ra`), and check the path with `showmount -e <server>`"),
    Entry::new("nfs.reason-given", F::Storage,
        "mount.nfs: mounting {export:w} failed, reason given by server: {reason}",
        "nfs-utils (linux-nfs.org)", "utils/mount/stropts.c", "nfs-utils 1.x-2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the NFS server refuses {export}: {reason}", "check the export path on the server (`showmount -e <server>`) and the PersistentVolume's path")
        .samples(&[("reason", "No such file or directory")]),
    Entry::new("nfs.timed-out", F::Storage,
        "mount.nfs: Connection timed out",
        "nfs-utils (linux-nfs.org)", "utils/mount/error.c", "nfs-utils 1.x-2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the node cannot reach the NFS server (mount timed out)", "from the node: `rpcinfo -p <server>` and `showmount -e <server>`; open TCP 2049 (and 111 for NFSv3) between the nodes and the server"),
    // nfs-utils utils/mount/error.c mount_error: EOPNOTSUPP (storage_mount_failed weighs the
    // mount options: an explicit vers= the server does not offer, or no NFS service answering)
    Entry::new("nfs.version-unsupported", F::Storage,
        "{prog:w}: requested NFS version or transport protocol is not supported",
        "nfs-utils (linux-nfs.org)", "utils/mount/error.c (mount_error, EOPNOTSUPP)", "nfs-utils 1.1+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the NFS server offers none of the NFS versions / transports the client asks for", "`rpcinfo -p <server>` lists the versions the server's nfs (100003) and mountd (100005) services offer; pin one of them with `mountOptions: [nfsvers=<version>]` on the PersistentVolume or StorageClass, or enable the version on the server")
        .samples(&[("prog", "mount.nfs")]),
    // util-linux libmount (src/context_mount.c, mnt_context_get_mount_excode) for a kernel
    // mount(2) EINVAL without a helper
    Entry::new("mount.wrong-fs-type", F::Storage,
        "wrong fs type, bad option, bad superblock on {device:w}",
        "util-linux/util-linux", "libmount/src/context_mount.c", "util-linux 2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the kernel refuses to mount {device}: wrong filesystem type, a bad mount option, a damaged filesystem, or (for nfs/cifs) no mount helper on the node", "read `dmesg | tail` on the node right after the failure: it names the cause")
        .samples(&[("device", "/dev/sdb")]),
    // the rest of mount(8)'s EINVAL text in util-linux before libmount (mount/mount.c
    // `wrong fs type, bad option, bad superblock on %s,\n       missing codepage or helper
    // program, or other error`): a continuation of the line above, read with it
    Entry::new("mount.wrong-fs-type-continued", F::Storage,
        "missing codepage or helper program, or other error",
        "util-linux/util-linux", "mount/mount.c (util-linux < 2.21)", "util-linux 2.x").complete(),
    // cifs-utils mount.cifs.c: `mount error(%d): %s` after the kernel's mount(2) error, then
    // `Refer to the mount.cifs(8) manual page (e.g. man mount.cifs)`
    Entry::new("cifs.mount-error", F::Storage,
        "mount error({code:w}): {reason}",
        "cifs-utils (samba.org)", "mount.cifs.c (main)", "cifs-utils 4.x-7.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the SMB/CIFS mount fails: mount.cifs reports error {code} ({reason})", "read `dmesg | grep -i cifs` on the node right after the failure (it names the status the server returned); check the credentials Secret and the SMB version (`vers=` in mountOptions)")
        .samples(&[("code", "13"), ("reason", "Permission denied")]),
    Entry::new("cifs.manual-page", F::Storage,
        "Refer to the mount.cifs(8) manual page",
        "cifs-utils (samba.org)", "mount.cifs.c (main)", "cifs-utils 4.x-7.x").complete(),
    // nfs-utils prints every other failure as `mount.nfs: <strerror or reason>` (mount.nfs4 for
    // the nfs4 type); the specific texts above come first.
    Entry::new("nfs.failed", F::Storage,
        "mount.nfs: {reason}",
        "nfs-utils (linux-nfs.org)", "utils/mount/error.c (mount_error)", "nfs-utils 1.x-2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the NFS mount fails: mount.nfs reports `{reason}`", NFS_MOUNT_REMEDY)
        .samples(&[("reason", "Resource temporarily unavailable")]),
    Entry::new("nfs4.failed", F::Storage,
        "mount.nfs4: {reason}",
        "nfs-utils (linux-nfs.org)", "utils/mount/error.c (mount_error)", "nfs-utils 1.x-2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the NFS mount fails: mount.nfs4 reports `{reason}`", NFS_MOUNT_REMEDY)
        .samples(&[("reason", "Protocol not supported")]),
    Entry::new("mount.helper-missing", F::Storage,
        "bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.",
        "util-linux/util-linux", "libmount/src/context_mount.c", "util-linux 2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the node has no mount helper for the volume's filesystem (no NFS/CIFS client installed)", "install the client on every node that may run the pod (`apt-get install nfs-common` or `yum install nfs-utils`; cifs-utils for SMB)"),
    // util-linux mount(8) when the kernel knows no such filesystem and no helper exists
    // (libmount/src/context_mount.c `unknown filesystem type '%s'`): the node lacks the
    // filesystem's client (nfs-common / nfs-utils, cifs-utils, ceph-common)
    Entry::new("mount.unknown-fs-type", F::Storage,
        "unknown filesystem type '{fstype}'",
        "util-linux/util-linux", "libmount/src/context_mount.c", "util-linux 2.x")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the node cannot mount a {fstype} filesystem: its kernel module or mount helper is not installed", "install the filesystem's client on every node that may run the pod (nfs: `apt-get install nfs-common` or `yum install nfs-utils`; cifs: cifs-utils; ceph: ceph-common) or load its kernel module (`modprobe {fstype}`)")
        .samples(&[("fstype", "nfs")]),
    Entry::new("csi.driver-not-registered", F::Storage,
        "driver name {driver:w} not found in the list of registered CSI drivers",
        K8S, "pkg/volume/csi/csi_plugin.go", "v1.14+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the CSI driver {driver} is not registered with this node's kubelet: its node plugin does not run here, or registers under another kubelet directory (storage-mount-failed reads which)", "check the CSI driver's node DaemonSet has a ready pod on this node and that it was installed with this kubelet's directory (`kubectl get csinode <node> -o yaml` lists the registered drivers)")
        .samples(&[("driver", "nfs.csi.k8s.io")]),
    // the kubelet's CSI attacher wraps the lookup of the driver's client (kubernetes
    // pkg/volume/csi/csi_attacher.go MountDevice, `log("attacher.MountDevice failed to create
    // newCsiDriverClient: %v", err)`); the wrapped error is an entry of its own, the wrapper alone
    // (an issue title) says the same fact without the driver's name
    Entry::new("csi.attacher-client-failed", F::Storage,
        "attacher.MountDevice failed to create newCsiDriverClient",
        K8S, "pkg/volume/csi/csi_attacher.go (MountDevice)", "v1.14+")
        .complete(),
    Entry::new("attach.multi-attach", F::Storage,
        "Multi-Attach error for volume \"{volume}\" Volume is already exclusively attached to one node and can't be attached to another",
        K8S, "pkg/controller/volume/attachdetach/reconciler/reconciler.go", "v1.9+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the ReadWriteOnce volume {volume} is still attached to another node", "wait for or force the detach from the old node (delete the old pod, then its VolumeAttachment), or use a ReadWriteMany class for shared use"),
    Entry::new("attach.multi-attach-used-by", F::Storage,
        "Multi-Attach error for volume \"{volume}\" Volume is already used by pod(s) {pods}",
        K8S, "pkg/controller/volume/attachdetach/reconciler/reconciler.go", "v1.12+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the ReadWriteOnce volume {volume} is still used by {pods} on another node", "stop the other pod (or scale it down) before starting this one, or use a ReadWriteMany class for shared use")
        .samples(&[("pods", "web-0")]),
    // k8s.io/mount-utils mount_linux.go (pkg/util/mount before v1.19):
    // `Mount failed: %v\nMounting command: %s\nMounting arguments: %s\nOutput: %s`; the lines
    // after the first continue it (classify reads them as one message), the Output line names
    // the helper's reason.
    Entry::new("mount.utils-failed", F::Storage,
        "Mount failed: {error}",
        "kubernetes/mount-utils", "mount_linux.go (doMount)", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the mount command fails ({error}); the `Output:` line of the same message names the reason", NFS_MOUNT_REMEDY),
    Entry::new("mount.nfs-controller", F::Storage,
        "failed to mount nfs server: {error}",
        "kubernetes-csi/csi-driver-nfs", "pkg/nfs/controllerserver.go (internalMountNfs / CreateVolume)", "v3.0+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the NFS CSI controller cannot mount the NFS share to create or delete a volume ({error})", NFS_MOUNT_REMEDY),
    // ------------------------------------------------------------------ kubelet volume manager (sweep)
    // the projected service-account volume's kube-root-ca.crt ConfigMap not yet registered
    // with the kubelet's ConfigMap manager for the pod: transient noise of v1.21-v1.22
    // kubelets around pod start and deletion (kubernetes#105204, pkg/kubelet/util/manager
    // `object %q/%q not registered`), not the cause of a stuck pod
    Entry::new("mount.kube-root-ca-not-registered", F::Storage,
        "MountVolume.SetUp failed for volume \"{volume}\" : object \"{namespace}\"/\"kube-root-ca.crt\" not registered",
        K8S, "pkg/kubelet/util/manager/watch_based_manager.go", "v1.21+").complete().group("mount")
        .samples(&[("volume", "kube-api-access-abcde"), ("namespace", "default")]),
    // v1.26+ lists the volumes it could not process, and from v1.28 the wait ends with the
    // context's `context deadline exceeded` (pkg/kubelet/volumemanager/volume_manager.go
    // WaitForAttachAndMount); v1.9-v1.16 `Unable to mount volumes for pod %q: timeout expired
    // waiting for volumes to attach or mount for pod %q/%q. list of unmounted volumes=%s. list
    // of unattached volumes=%s` (pkg/kubelet/kubelet.go syncPod)
    Entry::new("mount.unable-to-attach-or-mount-deadline", F::Storage,
        "Unable to attach or mount volumes: unmounted volumes=[{unmounted}], unattached volumes=[{unattached}], failed to process volumes=[{unprocessed}]: context deadline exceeded",
        K8S, "pkg/kubelet/volumemanager/volume_manager.go", "v1.28+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the pod's volumes {unmounted} were not mounted in time", "`kubectl describe pod` shows the underlying FailedMount/FailedAttachVolume error: fix that one")
        .samples(&[("unmounted", "data"), ("unattached", ""), ("unprocessed", "")]),
    Entry::new("mount.unable-to-mount-legacy", F::Storage,
        "timeout expired waiting for volumes to attach or mount for pod {pod}. list of unmounted volumes=[{unmounted}]",
        K8S, "pkg/kubelet/kubelet.go (syncPod)", "v1.9-v1.16")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the pod's volumes {unmounted} were not mounted in time", "`kubectl describe pod` shows the underlying FailedMount/FailedAttachVolume error: fix that one")
        .samples(&[("pod", "\"default\"/\"web-1\""), ("unmounted", "data")]),
    Entry::new("mount.new-mounter-failed", F::Storage,
        "MountVolume.NewMounter initialization failed for volume \"{volume}\" : {error}",
        K8S, "pkg/volume/util/operationexecutor/operation_generator.go", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the kubelet cannot prepare the volume {volume} for the pod ({error})", "for a local or hostPath volume create the path on the node the pod runs on (or fix the PersistentVolume's path and nodeAffinity); for a CSI volume check the driver is registered on the node (`kubectl get csinode <node> -o yaml`)")
        .samples(&[("error", "path \"/mnt/data\" does not exist")]),
    Entry::new("mount.wait-for-attach-failed", F::Storage,
        "MountVolume.WaitForAttach failed for volume \"{volume}\" : {error}",
        K8S, "pkg/volume/util/operationexecutor/operation_generator.go", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the volume {volume} never appeared attached on the node ({error})", "check the VolumeAttachment (`kubectl get volumeattachment | grep <pv>`) and the CSI controller's attacher log; a volume still attached to another node must be detached there first")
        .samples(&[("error", "volume attachment is being deleted")]),
    Entry::new("mount.map-setup-failed", F::Storage,
        "MapVolume.SetUpDevice failed for volume \"{volume}\" : {error}",
        K8S, "pkg/volume/util/operationexecutor/operation_generator.go", "v1.13+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the block volume {volume} could not be mapped for the pod ({error})", "`kubectl describe pod` for the CSI error; check the CSI node plugin's log on that node")
        .samples(&[("error", "rpc error: code = Internal desc = failed")]),
    Entry::new("mount.setup-failed", F::Storage,
        "MountVolume.SetUp failed for volume \"{volume}\" : {error}",
        K8S, "pkg/volume/util/operationexecutor/operation_generator.go", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the volume {volume} could not be mounted for the pod", "`kubectl describe pod` for the full mount error; check the NFS export or the CSI node plugin on that node")
        .samples(&[("error", "mount failed: exit status 32")]),
    Entry::new("mount.device-failed", F::Storage,
        "MountVolume.MountDevice failed for volume \"{volume}\" : {error}",
        K8S, "pkg/volume/util/operationexecutor/operation_generator.go", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the volume {volume} could not be staged on the node", "`kubectl describe pod` for the CSI error; check the CSI node plugin's log on that node")
        .samples(&[("error", "rpc error: code = Internal desc = mount failed")]),
    Entry::new("attach.failed", F::Storage,
        "AttachVolume.Attach failed for volume \"{volume}\" : {error}",
        K8S, "pkg/volume/util/operationexecutor/operation_generator.go", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the volume {volume} could not be attached to the node", "check the CSI controller plugin's log and the VolumeAttachment (`kubectl get volumeattachment`)")
        .samples(&[("error", "rpc error: code = DeadlineExceeded desc = context deadline exceeded")]),
    Entry::new("mount.unable-to-attach-or-mount", F::Storage,
        "Unable to attach or mount volumes: unmounted volumes=[{unmounted}], unattached volumes=[{unattached}]: timed out waiting for the condition",
        K8S, "pkg/kubelet/volumemanager/volume_manager.go", "v1.17+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the pod's volumes {unmounted} were not mounted in time", "`kubectl describe pod` shows the underlying FailedMount/FailedAttachVolume error: fix that one")
        .samples(&[("unmounted", "data"), ("unattached", "data")]),
    // k8s.io/mount-utils mount_linux.go doMount: `mount failed: %v\nMounting command: %s\n
    // Mounting arguments: %s\nOutput: %s`, the first line as CSI node plugins log it inside
    // their own error (`Failed to mount volume ... Error: mount failed: exit status 32`, the
    // gRPC answer `rpc error: code = Internal desc = mount failed: exit status 32`): the mount
    // helper's `Output:` lines after it say why
    Entry::new("mount.utils-mount-failed", F::Storage,
        "mount failed: exit status {code:w}",
        "kubernetes/mount-utils", "mount_linux.go (doMount; pkg/util/mount before v1.17)", "v1.8+")
        .to(K::MountFailed, "storage-mount-failed", Error).group("mount").exclusive()
        .says("the mount command exits with status {code} (32: the mount failed; the helper's `Output:` lines say why)", "read the `Output:` lines of the same error (the mount helper's own message); mount the source by hand on the node with the same `Mounting arguments:` to see it")
        .samples(&[("code", "32")]),
    // ------------------------------------------------------------------ client-go / kubectl / Go
    Entry::new("kubectl.unable-to-connect", F::Client,
        "Unable to connect to the server: {error}",
        K8S, KUBECTL_HELPERS, "v1.8+"),
    // `kubectl cluster-info`: where kubectl connects (the control plane, then each cluster
    // service's proxy URL), and its hint line
    Entry::new("kubectl.cluster-info-running", F::Client,
        " is running at {url:w}",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo.go", "v1.8+").complete()
        .samples(&[("url", "https://10.0.0.1:6443")]),
    Entry::new("kubectl.cluster-info-dump-hint", F::Client,
        "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo.go", "v1.8+").complete(),
    Entry::new("client.memcache-group-list", F::Client,
        "couldn't get current server API group list: {error}",
        "kubernetes/client-go", "discovery/cached/memory/memcache.go", "v1.26+"),
    Entry::new("kubectl.connection-refused", F::Client,
        "The connection to the server {server:w} was refused - did you specify the right host or port?",
        K8S, KUBECTL_HELPERS, "v1.8+")
        .to(K::Refused, "cluster-unreachable", Error).group("conn")
        .says("nothing accepts connections at {server}", "check the server address and port in the kubeconfig and that the API server runs there"),
    Entry::new("go.dial-refused", F::Client,
        "dial tcp {endpoint:w}: connect: connection refused",
        GO, "src/net/net.go (syscall ECONNREFUSED)", "Go 1.x")
        .to(K::Refused, "cluster-unreachable", Error).group("conn")
        .says("nothing accepts connections at {endpoint}", "check the address and port and that the server runs there (an advertised NAT or loopback address is unreachable from other machines)"),
    Entry::new("go.dial-timeout", F::Client,
        "dial tcp {endpoint:w}: i/o timeout",
        GO, "src/net/net.go", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("no answer from {endpoint}: packets are dropped (firewall, security group, routing)", "test the path with `curl -vk --max-time 5 https://{endpoint}/version` and open the port"),
    Entry::new("go.client-timeout", F::Client,
        "net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)",
        GO, "src/net/http/client.go", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("no answer before the client's timeout", "test the path with `curl -vk --max-time 5 <server>/version` and open the port"),
    Entry::new("go.tls-handshake-timeout", F::Client,
        "net/http: TLS handshake timeout",
        GO, "src/net/http/transport.go", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("the TLS handshake did not finish in time (a middlebox drops the traffic, or the server is overloaded)", "test the path with `curl -vk --max-time 5 <server>/version`"),
    Entry::new("go.context-deadline", F::Client,
        "context deadline exceeded",
        GO, "src/context/context.go", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("the request timed out", "test the path with `curl -vk --max-time 5 <server>/version`"),
    // Go net/http returns io.EOF when the peer closes the connection before an HTTP answer;
    // url.Error prints it as `Get "<url>": EOF` (Go 1.14+; `Get <url>: EOF` before).
    // the server side of a handshake a client dropped (load balancer health checks, port
    // scans): routine noise of API servers and webhooks, never a client's connection problem
    Entry::new("go.server-tls-handshake-error", F::Client,
        "http: TLS handshake error from {client:w}: {error}",
        GO, "src/net/http/server.go (serve)", "Go 1.x")
        .exclusive()
        // understood on its own: a client that failed the handshake, logged by the server
        .complete()
        .samples(&[("client", "10.0.0.5:51234"), ("error", "EOF")]),
    Entry::new("go.eof", F::Client,
        "{scheme:w}://{address:w}: EOF",
        GO, "src/net/http/transport.go (io.EOF in url.Error)", "Go 1.x")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn")
        .samples(&[("scheme", "\"https"), ("address", "10.0.0.1:6443/version?timeout=32s\"")]),
    // kubectl's wrapper around a bare io.EOF (no URL: the discovery client's error printed
    // alone, k8s.io/kubectl pkg/cmd/util/helpers.go `Unable to connect to the server: %v`)
    Entry::new("kubectl.unable-to-connect-eof", F::Client,
        "Unable to connect to the server: EOF",
        K8S, KUBECTL_HELPERS, "v1.8+")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn").at_end(),
    Entry::new("go.connection-reset-write", F::Client,
        "write tcp {local:w}->{address:w}: write: connection reset by peer",
        GO, "src/net/net.go (syscall ECONNRESET in an OpError)", "Go 1.x")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn")
        .samples(&[("local", "10.0.0.5:52510"), ("address", "10.0.0.1:6443")]),
    Entry::new("go.connection-reset", F::Client,
        "read tcp {local:w}->{address:w}: read: connection reset by peer",
        GO, "src/net/net.go (syscall ECONNRESET in an OpError)", "Go 1.x")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn")
        .samples(&[("local", "10.0.0.5:52510"), ("address", "10.0.0.1:6443")]),
    // ECONNRESET in any other operation (`read: connection reset by peer` of a proxied or
    // TLS-wrapped connection, `wsarecv: An existing connection was forcibly closed` is
    // Windows' spelling)
    Entry::new("go.connection-reset-any", F::Client,
        "{op:w}: connection reset by peer",
        GO, "src/syscall/zerrors_linux_*.go (ECONNRESET)", "Go 1.x")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn")
        .samples(&[("op", "read")]),
    // an HTTP/2 connection whose pings went unanswered (golang.org/x/net http2 transport.go
    // errClientConnLost): the path dropped an established connection
    Entry::new("go.http2-connection-lost", F::Client,
        "http2: client connection lost",
        "golang/net", "http2/transport.go (errClientConnLost)", "Go 1.x")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn"),
    // Windows: Go names the failed call (`connectex` for ConnectEx, `wsarecv` / `wsasend` /
    // `wsarecvfrom` for the reads and writes: golang/go src/internal/poll/fd_windows.go,
    // src/net/fd_windows.go `os.NewSyscallError("connectex", err)`) and prints the Winsock
    // error with the system's own text (syscall.Errno.Error -> FormatMessage, src/syscall/
    // syscall_windows.go; WSAE* numbers in src/syscall/types_windows.go / zerrors_windows.go).
    // kubectl, argocd, karmadactl and every client-go program print these on Windows where a
    // Linux client prints `connect: connection refused` and its siblings.
    Entry::new("go.connection-reset-windows", F::Client,
        "{op:w}: An existing connection was forcibly closed by the remote host",
        GO, "src/syscall/zerrors_windows.go (WSAECONNRESET 10054), src/net/fd_windows.go", "Go 1.x on Windows")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn")
        .samples(&[("op", "wsarecv")]),
    Entry::new("go.connection-aborted-windows", F::Client,
        "{op:w}: An established connection was aborted by the software in your host machine",
        GO, "src/syscall/zerrors_windows.go (WSAECONNABORTED 10053), src/net/fd_windows.go", "Go 1.x on Windows")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn")
        .samples(&[("op", "wsasend")]),
    Entry::new("go.dial-refused-windows", F::Client,
        "connectex: No connection could be made because the target machine actively refused it",
        GO, "src/syscall/zerrors_windows.go (WSAECONNREFUSED 10061), src/net/fd_windows.go (connectex)", "Go 1.x on Windows")
        .to(K::Refused, "cluster-unreachable", Error).group("conn")
        .says("nothing accepts connections at the address", "check the address and port and that the server runs there"),
    Entry::new("go.dial-timeout-windows", F::Client,
        "connectex: A connection attempt failed because the connected party did not properly respond after a period of time",
        GO, "src/syscall/zerrors_windows.go (WSAETIMEDOUT 10060), src/net/fd_windows.go (connectex)", "Go 1.x on Windows")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("no answer from the address: packets are dropped (firewall, security group, routing, VPN)", "test the path with `curl -vk --max-time 5 https://<server>/version` from the same Windows machine and open the port"),
    Entry::new("go.no-route-windows", F::Client,
        "connectex: A socket operation was attempted to an unreachable {what:w}",
        GO, "src/syscall/zerrors_windows.go (WSAEHOSTUNREACH 10065, WSAENETUNREACH 10051), src/net/fd_windows.go (connectex)", "Go 1.x on Windows")
        .to(K::NoRoute, "cluster-unreachable", Error).group("conn")
        .says("no route to the address from this Windows machine", "fix routing or the VPN between this machine and the server (`route print`, `Test-NetConnection <host> -Port 6443`)")
        .samples(&[("what", "host.")]),
    Entry::new("go.socket-forbidden-windows", F::Client,
        "connectex: An attempt was made to access a socket in a way forbidden by its access permissions",
        GO, "src/syscall/zerrors_windows.go (WSAEACCES 10013), src/net/fd_windows.go (connectex)", "Go 1.x on Windows")
        .to(K::NoRoute, "cluster-unreachable", Error).group("conn")
        .says("Windows itself refused to open the connection (WSAEACCES): a local firewall, antivirus or VPN client blocks the program, or the port is in a range Windows reserves (Hyper-V / WSL excluded port ranges)", "allow the program in the local firewall/antivirus, check `netsh interface ipv4 show excludedportrange protocol=tcp` for the port, and retry from the same machine"),
    Entry::new("go.no-route", F::Client,
        "dial tcp {endpoint:w}: connect: no route to host",
        GO, "src/net/net.go (syscall EHOSTUNREACH)", "Go 1.x")
        .to(K::NoRoute, "cluster-unreachable", Error).group("conn")
        .says("no route to {endpoint}", "fix routing or the firewall between the two machines (a REJECT rule also shows as no route)"),
    Entry::new("go.network-unreachable", F::Client,
        "connect: network is unreachable",
        GO, "src/net/net.go (syscall ENETUNREACH)", "Go 1.x")
        .to(K::NoRoute, "cluster-unreachable", Error).group("conn")
        .says("the network of the address is unreachable from here", "fix routing between the two machines"),
    // ------------------------------------------------------------------ Go net: other wordings
    // Go before 1.10 wrote the failed connect as `getsockopt: <errno>` (src/net/fd_unix.go
    // `os.NewSyscallError("getsockopt", err)`), Go 1.10+ `connect: <errno>`; ETIMEDOUT from the
    // kernel is `connection timed out`; net/http appends ` (Client.Timeout exceeded while
    // awaiting headers)` to whatever ended the wait (src/net/http/client.go), and Transport's
    // ResponseHeaderTimeout says `net/http: timeout awaiting response headers`
    Entry::new("go.dial-refused-legacy", F::Client,
        "dial tcp {endpoint:w}: getsockopt: connection refused",
        GO, "src/net/fd_unix.go (Go before 1.10)", "Go 1.0-1.9")
        .to(K::Refused, "cluster-unreachable", Error).group("conn")
        .says("nothing accepts connections at {endpoint}", "check the address and port and that the server runs there (an advertised NAT or loopback address is unreachable from other machines)"),
    Entry::new("go.no-route-legacy", F::Client,
        "dial tcp {endpoint:w}: getsockopt: no route to host",
        GO, "src/net/fd_unix.go (Go before 1.10)", "Go 1.0-1.9")
        .to(K::NoRoute, "cluster-unreachable", Error).group("conn")
        .says("no route to {endpoint}: a firewall rejects the packets (REJECT with icmp-host-prohibited) or the host is down", "open the port on the server's firewall (`firewall-cmd --add-port=6443/tcp --permanent && firewall-cmd --reload`) and check routing"),
    Entry::new("go.dial-timed-out", F::Client,
        "dial tcp {endpoint:w}: {op:w} connection timed out",
        GO, "src/net/fd_unix.go (ETIMEDOUT)", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("no answer from {endpoint}: packets are dropped (firewall, security group, routing)", "test the path with `curl -vk --max-time 5 https://{endpoint}/version` and open the port")
        .samples(&[("op", "connect:")]),
    Entry::new("go.client-timeout-headers", F::Client,
        "(Client.Timeout exceeded while awaiting headers)",
        GO, "src/net/http/client.go", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("no answer before the client's timeout", "test the path with `curl -vk --max-time 5 <server>/version` and open the port; if it answers slowly, check the API server's load"),
    Entry::new("go.response-header-timeout", F::Client,
        "net/http: timeout awaiting response headers",
        GO, "src/net/http/transport.go", "Go 1.x")
        .to(K::Timeout, "cluster-unreachable", Error).group("conn")
        .says("the server accepted the connection but sent no answer in time", "test the path with `curl -vk --max-time 15 <server>/version`; check the API server's load and any proxy in between"),
    // net/http wraps every error while dialing the proxy of HTTPS_PROXY/https_proxy (or a
    // kubeconfig's proxy-url): `&net.OpError{Op: "proxyconnect", Net: "tcp", Err: err}`
    // (golang/go src/net/http/transport.go dialConn); the inner error is an entry of its own,
    // and classify::proxy marks its signal as the proxy's hop
    Entry::new("go.proxyconnect", F::Client,
        "proxyconnect tcp: {error}",
        GO, "src/net/http/transport.go (dialConn wrapErr)", "Go 1.8+")
        .samples(&[("error", "dial tcp 10.0.0.1:3128: connect: connection refused")]),
    // the SOCKS5 dialer (HTTPS_PROXY=socks5://...): `&net.OpError{Op: "socks connect", Net:
    // network, Source: proxy, Addr: dst, Err: err}`; a refusal by the proxy is `unknown error
    // <reply>` with the RFC 1928 reply text (golang.org/x/net internal/socks/socks.go and
    // client.go, vendored in net/http as socks_bundle.go)
    // an HTTP proxy refusing the CONNECT: net/http returns the answer's status text as the
    // error (`errors.New(text)`, golang/go src/net/http/transport.go dialConn); 407 is a
    // proxy's answer only, so it is read as the proxy's refusal (classify::proxy)
    Entry::new("go.proxy-auth-required", F::Client,
        ": Proxy Authentication Required",
        GO, "src/net/http/transport.go (dialConn: CONNECT answer's status text)", "Go 1.x")
        .to(K::Refused, "cluster-unreachable", Error).group("conn").at_end()
        .says("the proxy wants credentials for the CONNECT", "put the proxy's credentials in HTTPS_PROXY, or exempt the API server with NO_PROXY"),
    // the proxy closed the connection (or the CONNECT) without an answer
    Entry::new("go.proxyconnect-eof", F::Client,
        "proxyconnect tcp: EOF",
        GO, "src/net/http/transport.go (dialConn wrapErr around io.EOF)", "Go 1.8+")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn"),
    Entry::new("go.socks-reply", F::Client,
        "socks connect tcp {socks:w}->{target:w}: unknown error {reply}",
        "golang/net", "internal/socks/client.go (connect: `unknown error ` + Reply.String())", "Go 1.10+")
        .to(K::NoRoute, "cluster-unreachable", Error).group("conn")
        .says("the SOCKS proxy {socks} could not connect to {target}: {reply}", "check that the proxy can reach {target}, or exempt it with NO_PROXY")
        .samples(&[("socks", "127.0.0.1:1080"), ("target", "10.0.0.1:6443"), ("reply", "general SOCKS server failure")]),
    Entry::new("go.socks-connect", F::Client,
        "socks connect tcp {socks:w}->{target:w}: {error}",
        "golang/net", "internal/socks/socks.go (Dialer.DialContext)", "Go 1.10+")
        .samples(&[("socks", "127.0.0.1:1080"), ("target", "10.0.0.1:6443"), ("error", "dial tcp 127.0.0.1:1080: connect: connection refused")]),
    // Go's resolver: `server misbehaving` (errServerMisbehaving: SERVFAIL or an answer it
    // cannot use, src/net/dnsclient_unix.go), a DNS server that does not answer (`read udp
    // ...: i/o timeout`), and the cgo resolver's EAI_AGAIN (`Temporary failure in name
    // resolution`, src/net/cgo_unix.go); all print as `lookup <host>[ on <server>]: <err>`
    // (net.DNSError.Error, src/net/net.go)
    Entry::new("go.lookup-server-misbehaving", F::Client,
        "dial tcp: lookup {host:w} on {dns:w}: server misbehaving",
        GO, "src/net/dnsclient_unix.go (errServerMisbehaving)", "Go 1.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} does not resolve: the DNS server {dns} fails for it", "fix the DNS record of {host} or the resolver (systemd-resolved: `resolvectl query {host}`), or use an address the machine can resolve")
        .samples(&[("dns", "127.0.0.53:53")]),
    Entry::new("go.lookup-dns-timeout", F::Client,
        "dial tcp: lookup {host:w} on {dns:w}: read udp {local:w}->{server:w}: i/o timeout",
        GO, "src/net/dnsclient_unix.go (exchange timeout)", "Go 1.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} could not be looked up: the DNS server {dns} does not answer", "fix the machine's resolver (/etc/resolv.conf, `resolvectl status`) or the firewall to it, or use an IP address")
        .samples(&[("dns", "10.96.0.10:53"), ("local", "10.244.1.5:41234"), ("server", "10.96.0.10:53")]),
    Entry::new("go.lookup-temporary-failure", F::Client,
        "dial tcp: lookup {host:w}: Temporary failure in name resolution",
        GO, "src/net/cgo_unix.go (EAI_AGAIN)", "Go 1.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} could not be looked up (the resolver failed, EAI_AGAIN)", "fix the machine's resolver (/etc/resolv.conf, `resolvectl status`), or use an address the machine can resolve"),
    // Windows: Go's resolver calls GetAddrInfoW and prints its Winsock error with the
    // system's text (golang/go src/net/lookup_windows.go `winError("getaddrinfow", err)`;
    // WSAHOST_NOT_FOUND 11001 became the portable `no such host` in Go 1.13+), as in
    // `dial tcp: lookup <host>: getaddrinfow: <text>`
    Entry::new("go.lookup-windows-no-such-host", F::Client,
        "lookup {host:w}: getaddrinfow: No such host is known",
        GO, "src/net/lookup_windows.go (WSAHOST_NOT_FOUND 11001)", "Go 1.x before 1.13 on Windows")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} does not resolve on this Windows machine", "fix the DNS record of {host} or the machine's DNS settings (`nslookup {host}`), or use an address that resolves"),
    Entry::new("go.lookup-windows-try-again", F::Client,
        "lookup {host:w}: getaddrinfow: This is usually a temporary error during hostname resolution",
        GO, "src/net/lookup_windows.go (WSATRY_AGAIN 11002)", "Go 1.x on Windows")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the DNS server of this Windows machine did not answer for {host} (WSATRY_AGAIN)", "check the machine's DNS servers and VPN (`nslookup {host}`, `ipconfig /all`), or use an address that resolves"),
    Entry::new("go.lookup-windows-no-data", F::Client,
        "lookup {host:w}: getaddrinfow: The requested name is valid, but no data of the requested type was found",
        GO, "src/net/lookup_windows.go (WSANO_DATA 11004)", "Go 1.x on Windows")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} exists in DNS but has no address record (WSANO_DATA)", "add an A/AAAA record for {host} or use an address that resolves (`nslookup {host}`)"),
    Entry::new("go.lookup-no-such-host-dns", F::Client,
        "dial tcp: lookup {host:w} on {dns:w}: no such host",
        GO, "src/net/lookup.go", "Go 1.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} does not resolve (DNS server {dns})", "fix the DNS record of {host}, or use an address the machine can resolve (for pods: CoreDNS upstream or hostAliases)")
        .samples(&[("dns", "127.0.0.53:53")]),
    Entry::new("go.lookup-no-such-host", F::Client,
        "dial tcp: lookup {host:w}: no such host",
        GO, "src/net/lookup.go", "Go 1.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} does not resolve", "fix the DNS record of {host}, or use an address the machine can resolve"),
    // no DNS server answered at all (Go's resolver timing out without naming the server:
    // src/net/dnsclient_unix.go, an unreachable or missing nameserver in /etc/resolv.conf)
    Entry::new("go.lookup-timeout", F::Client,
        "dial tcp: lookup {host:w}: i/o timeout",
        GO, "src/net/dnsclient_unix.go", "Go 1.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} cannot be resolved: no DNS server answered in time", "check /etc/resolv.conf where the client runs (`resolvectl status`, `dig {host}`): the nameserver must be reachable; or use the API server's IP address"),
    // The API server's authentication filter (staging/src/k8s.io/apiserver/pkg/endpoints/
    // filters/authentication.go): `klog.Errorf("Unable to authenticate the request due to an
    // error: %v", err)` before v1.21, `klog.ErrorS(err, "Unable to authenticate the request")`
    // since. An x509 error here is about a CLIENT certificate (the server's TLS worked), so the
    // line concludes 401, never an untrusted server certificate.
    Entry::new("apiserver.authn-error-legacy", F::Client,
        "Unable to authenticate the request due to an error: {error}",
        K8S, "staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go", "v1.8-v1.20")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("auth").exclusive()
        .samples(&[("error", "x509: certificate has expired or is not yet valid")]),
    Entry::new("apiserver.authn-error", F::Client,
        "Unable to authenticate the request{sep}err=\"{error}\"",
        K8S, "staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go", "v1.21+")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("auth").exclusive()
        .samples(&[("sep", "\" "), ("error", "[invalid bearer token, service account token has expired]")]),
    Entry::new("kubectl.logged-in", F::Client,
        "You must be logged in to the server ({reason})",
        K8S, KUBECTL_HELPERS, "v1.8+")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("auth")
        .says("the API server rejects the credentials (401)", "renew the token or client certificate in the kubeconfig")
        .samples(&[("reason", "Unauthorized")]),
    Entry::new("apiserver.provide-credentials", F::Client,
        "the server has asked for the client to provide credentials",
        "kubernetes/apimachinery", "pkg/api/errors/errors.go", "v1.8+")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("auth")
        .says("the API server rejects the credentials (401)", "renew the token or client certificate in the kubeconfig"),
    Entry::new("apiserver.status-unauthorized", F::Client,
        "\"reason\":\"Unauthorized\"",
        "kubernetes/apimachinery", "pkg/apis/meta/v1/types.go (StatusReasonUnauthorized)", "v1.8+")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("auth")
        .says("the API server rejects the credentials (401)", "renew the token or client certificate in the kubeconfig"),
    Entry::new("client.unauthorized-suffix", F::Client,
        ": Unauthorized",
        "kubernetes/apimachinery", "pkg/api/errors/errors.go", "v1.8+")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("auth").at_end()
        .says("the API server rejects the credentials (401)", "renew the token or client certificate"),
    Entry::new("apiserver.forbidden-anonymous", F::Client,
        "is forbidden: User \"system:anonymous\" cannot {action}",
        K8S, "staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go", "v1.8+")
        .to(K::AnonymousForbidden, "cluster-unauthorized", Error).group("auth")
        .says("the request reached the API server without credentials (anonymous user)", "put a token or client certificate in the kubeconfig user; for a proxy, pass the Authorization header through")
        .samples(&[("action", "list resource \"nodes\" in API group \"\" at the cluster scope")]),
    Entry::new("apiserver.forbidden", F::Client,
        "is forbidden: User \"{user}\" cannot {action}",
        K8S, "staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go", "v1.8+")
        .to(K::RbacForbidden, "cluster-forbidden", Error).group("auth")
        .says("RBAC denies {user}: cannot {action}", "grant the verb on the resource with a Role/ClusterRole and binding for {user}")
        .samples(&[("action", "list resource \"nodes\" in API group \"\" at the cluster scope")]),
    // NodeRestriction admission: a kubelet (system:node:<name>) may modify only the Node of
    // its own name (kubernetes/kubernetes plugin/pkg/admission/noderestriction/admission.go
    // admitNode, wrapped by admission.NewForbidden as `nodes "<target>" is forbidden: ...`)
    Entry::new("noderestriction.modify-other-node", F::Client,
        "node {node:w} is not allowed to modify node {target:w}",
        K8S, "plugin/pkg/admission/noderestriction/admission.go (admitNode)", "v1.21+")
        .to(K::RbacForbidden, "cluster-forbidden", Error).group("auth").exclusive()
        .says("the kubelet authenticates as node {node} but registers or updates Node {target}", "make the node name the kubelet uses equal to its certificate's name, or issue credentials for the new name")
        .samples(&[("node", "\"node-01\""), ("target", "\"node-01.local\"")]),
    Entry::new("noderestriction.modify-other-node-legacy", F::Client,
        "node {node:w} cannot modify node {target:w}",
        K8S, "plugin/pkg/admission/noderestriction/admission.go (admitNode)", "v1.7-v1.20")
        .to(K::RbacForbidden, "cluster-forbidden", Error).group("auth").exclusive()
        .says("the kubelet authenticates as node {node} but registers or updates Node {target}", "make the node name the kubelet uses equal to its certificate's name, or issue credentials for the new name")
        .samples(&[("node", "\"node-01\""), ("target", "\"node-01.local\"")]),
    // ToStatusErr without a message from the webhook (same file): `admission webhook %q
    // denied the request without explanation`
    // HAMi's mutating webhook refuses a pod that asks for HAMi-managed devices and already
    // names its node (Project-HAMi/HAMi pkg/scheduler/webhook.go Handle: `if pod.Spec.NodeName
    // != "" { ... return admission.Denied("pod has node assigned") }`, v2.0+; webhook
    // vgpu.hami.io, vgpu.4pd.io before the rename): such a pod would bypass hami-scheduler,
    // which must pick the GPU and write the device annotations (HAMi#960)
    Entry::new("hami.webhook-node-assigned", F::Hami,
        "admission webhook {webhook:w} denied the request: pod has node assigned",
        "Project-HAMi/HAMi", "pkg/scheduler/webhook.go (Handle)", "v2.0+")
        .to(K::WebhookDenied, "admission-webhook-denied", Warning).group("auth").exclusive()
        .says("HAMi's admission webhook {webhook} refuses the pod on purpose: it asks for HAMi-managed GPUs and sets spec.nodeName, which bypasses hami-scheduler (it must choose the GPU and write the device annotations the HAMi device plugin reads); the webhook and the API server work", "remove spec.nodeName from the pod (or its template) and pin the node with a nodeSelector (`kubernetes.io/hostname: <node>`) or node affinity instead, so hami-scheduler places the pod; or, if the pod should not use HAMi's GPUs, drop the nvidia.com/gpu (gpumem, gpucores) requests")
        .samples(&[("webhook", "\"vgpu.hami.io\"")]),
    Entry::new("apiserver.webhook-denied-no-reason", F::Client,
        "admission webhook \"{webhook}\" denied the request without explanation",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go", "v1.9+")
        .to(K::WebhookDenied, "admission-webhook-denied", Warning).group("auth").exclusive()
        .says("the admission webhook {webhook} denied the request and gave no reason", "read the webhook's own log for the request (its pod in the webhook's namespace), then change the object or ask the policy owner for an exception")
        .samples(&[("webhook", "validation.gatekeeper.sh")]),
    Entry::new("apiserver.webhook-denied", F::Client,
        "admission webhook \"{webhook}\" denied the request: {reason}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go", "v1.9+")
        .to(K::WebhookDenied, "admission-webhook-denied", Warning).group("auth").exclusive()
        .says("the admission webhook {webhook} denied the request: {reason}", "change the object to satisfy the policy, or ask the policy owner for an exception")
        .samples(&[("webhook", "validation.gatekeeper.sh"), ("reason", "no cpu limit")]),
    // ------------------------------------------------------------------ API server backends: admission webhooks it cannot call
    // ErrCallingWebhook (staging/src/k8s.io/apiserver/pkg/util/webhook/error.go): `failed calling
    // webhook %q: %v` for a transport error (the webhook never answered), or `failed calling
    // webhook %q; no further details available`; v1.9-v1.10 printed `failed calling admission
    // webhook %q: %v`. Since v1.22 the dispatchers (staging/src/k8s.io/apiserver/pkg/admission/
    // plugin/webhook/{mutating,validating}/dispatcher.go) wrap the transport error as `failed to
    // call webhook: %w` (`received invalid webhook response: %w` for an answer it cannot use);
    // with failurePolicy Fail the API server answers `Internal error occurred: ...`
    // (apierrors.NewInternalError, 500), with Ignore it only logs `Failed calling webhook,
    // failing open %v: %v` and admits the request. The API server answered: never a client's
    // connection problem (the inner `context deadline exceeded`/x509/refused is the API server's
    // call to the webhook), so these entries keep the line's other signalling entries out.
    // classify::backends derives the webhook's Service and the cause from the inner error.
    Entry::new("webhook.failing-open", F::Admission,
        "Failed calling webhook, failing open {webhook:w}: {error}",
        K8S, WEBHOOK_DISPATCHER, "v1.9+")
        .to(K::Known, "admission-webhook-unreachable", Warning).group("webhook-call").exclusive()
        .subject("Service/{webhook_namespace}/{webhook_service}")
        .says("the API server cannot call the admission webhook {webhook} ({target}) and admits requests without it (failurePolicy Ignore): {why}", "{fix}")
        .samples(&[("webhook", "webhook.cert-manager.io"), ("error", "failed calling webhook \"webhook.cert-manager.io\": failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": context deadline exceeded")]),
    Entry::new("webhook.failing-closed", F::Admission,
        "Failed calling webhook, failing closed {webhook:w}: {error}",
        K8S, WEBHOOK_DISPATCHER, "v1.9+")
        .to(K::Known, "admission-webhook-unreachable", Error).group("webhook-call").exclusive()
        .subject("Service/{webhook_namespace}/{webhook_service}")
        .says("the API server answered but cannot call the admission webhook {webhook} ({target}), so it rejects the requests the webhook matches (failurePolicy Fail): {why}", "{fix}")
        .samples(&[("webhook", "webhook.cert-manager.io"), ("error", "failed calling webhook \"webhook.cert-manager.io\": failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": context deadline exceeded")]),
    Entry::new("webhook.call-failed-legacy", F::Admission,
        "failed calling admission webhook \"{webhook}\": {error}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors.go (ErrCallingWebhook)", "v1.9-v1.10")
        .to(K::Known, "admission-webhook-unreachable", Error).group("webhook-call").exclusive()
        .subject("Service/{webhook_namespace}/{webhook_service}")
        .says("the API server answered but cannot call the admission webhook {webhook} ({target}), so it rejects the requests the webhook matches: {why}", "{fix}")
        .samples(&[("webhook", "sidecar-injector.istio.io"), ("error", "Post https://istio-sidecar-injector.istio-system.svc:443/inject: Service Unavailable")]),
    Entry::new("webhook.call-failed", F::Admission,
        "failed calling webhook \"{webhook}\": {error}",
        K8S, "staging/src/k8s.io/apiserver/pkg/util/webhook/error.go (ErrCallingWebhook)", "v1.11+ (`failed to call webhook: ` inside since v1.22)")
        .to(K::Known, "admission-webhook-unreachable", Error).group("webhook-call").exclusive()
        .subject("Service/{webhook_namespace}/{webhook_service}")
        .says("the API server answered but cannot call the admission webhook {webhook} ({target}), so it rejects the requests the webhook matches: {why}", "{fix}")
        .samples(&[("webhook", "webhook.cert-manager.io"), ("error", "failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": context deadline exceeded")]),
    Entry::new("webhook.call-failed-no-details", F::Admission,
        "failed calling webhook \"{webhook}\"; no further details available",
        K8S, "staging/src/k8s.io/apiserver/pkg/util/webhook/error.go (ErrCallingWebhook)", "v1.11+")
        .to(K::Known, "admission-webhook-unreachable", Error).group("webhook-call").exclusive()
        .subject("Service/{webhook_namespace}/{webhook_service}")
        .says("the API server answered but its call to the admission webhook {webhook} failed without details: {why}", "{fix}")
        .samples(&[("webhook", "webhook.cert-manager.io")]),
    // a CRD conversion webhook the API server cannot call (k8s.io/apiextensions-apiserver
    // pkg/apiserver/conversion/webhook_converter.go: `conversion webhook for %v failed: %v`):
    // the same path from the control plane to a webhook's Service
    Entry::new("webhook.conversion-failed", F::Admission,
        "conversion webhook for {gvk} failed: {error}",
        K8S, "staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go", "v1.15+")
        .to(K::Known, "admission-webhook-unreachable", Error).group("webhook-call").exclusive()
        .subject("Service/{webhook_namespace}/{webhook_service}")
        .says("the API server answered but cannot call the conversion webhook of {gvk} ({target}), so objects of that CustomResourceDefinition cannot be read or written in other versions: {why}", "{fix}")
        .samples(&[("gvk", "cert-manager.io/v1alpha2, Kind=Certificate"), ("error", "Post \"https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s\": context deadline exceeded")]),
    // ------------------------------------------------------------------ API server backends: request timeouts
    // The API server answered HTTP 504 with reason Timeout (k8s.io/apimachinery
    // pkg/api/errors/errors.go NewTimeoutError prints `Timeout: %s`; kubectl adds `Error from
    // server (Timeout): `): the request did not finish within its deadline INSIDE the server
    // (admission webhooks, etcd, an overloaded API server), so the client's connection works
    // and this is never cluster-unreachable. Wordings:
    // staging/src/k8s.io/apiserver/pkg/endpoints/handlers/finisher/finisher.go (v1.23+:
    // `request did not complete within requested timeout - %s` with ctx.Err(), `context
    // deadline exceeded`); endpoints/handlers/rest.go before (`... requested timeout %s` with
    // the duration); admission/plugin/webhook/{mutating,validating}/dispatcher.go and
    // storage/etcd3/store.go (the bare text, when the deadline passed before the next webhook or
    // etcd read); server/filters/timeout.go WithTimeoutForNonLongRunningRequests (`request did
    // not complete within %s`, the global --request-timeout, 1m0s by default); a 504 without a
    // Status body (errors.go NewGenericServerResponse: `the server was unable to return a
    // response in the time allotted, but may still be processing the request`); NewServerTimeout
    // (`The %s operation against %s could not be completed at this time, please try again.`);
    // and the server's own log when a handler ran past the deadline (Go net/http
    // ErrHandlerTimeout `http: Handler timeout`, written by server/filters/timeout.go).
    // rules::backends reads them with the rest of the text: when the text names admission
    // webhooks, the webhooks' timeoutSeconds are the cause (admission-webhook-unreachable).
    Entry::new("apiserver.request-timeout", F::Client,
        "request did not complete within requested timeout",
        K8S, "staging/src/k8s.io/apiserver/pkg/endpoints/handlers/finisher/finisher.go (handlers/rest.go before v1.23; the webhook dispatchers; storage/etcd3/store.go)", "v1.8+")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-timeout").exclusive()
        .says("the API server answered 504 Timeout: the request did not finish within its deadline inside the API server (the client reached the server; this is not a connection problem). What it waited for is one of: admission webhooks it cannot reach (each waits its timeoutSeconds, and the calls add up), etcd answering slowly, or an API server overloaded or throttling (priority and fairness)", APISERVER_TIMEOUT_REMEDY),
    Entry::new("apiserver.request-timeout-global", F::Client,
        "Timeout: request did not complete within {timeout:w}",
        K8S, "staging/src/k8s.io/apiserver/pkg/server/filters/timeout.go (WithTimeoutForNonLongRunningRequests)", "v1.8+")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-timeout").exclusive()
        .says("the API server answered 504 Timeout: the request ran past the server's request timeout ({timeout}, kube-apiserver --request-timeout) inside the API server (the client reached the server; this is not a connection problem): admission webhooks it cannot reach, etcd answering slowly, or an overloaded API server", APISERVER_TIMEOUT_REMEDY)
        .samples(&[("timeout", "1m0s")]),
    Entry::new("apiserver.gateway-timeout", F::Client,
        "the server was unable to return a response in the time allotted",
        "kubernetes/apimachinery", "pkg/api/errors/errors.go (NewGenericServerResponse, http.StatusGatewayTimeout)", "v1.8+")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-timeout").exclusive()
        .says("the API server (or a proxy in front of it) answered 504 Timeout: it could not answer in time and may still be processing the request (the client reached the server; this is not a connection problem): admission webhooks it cannot reach, etcd answering slowly, or an overloaded API server", APISERVER_TIMEOUT_REMEDY),
    Entry::new("apiserver.server-timeout", F::Client,
        "The {verb:w} operation against {resource} could not be completed at this time, please try again.",
        "kubernetes/apimachinery", "pkg/api/errors/errors.go (NewServerTimeout)", "v1.8+")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-timeout").exclusive()
        .says("the API server answered ServerTimeout for {verb} on {resource}: it could not complete the operation in time (the client reached the server; this is not a connection problem): etcd answering slowly, admission webhooks it cannot reach, or an overloaded API server", APISERVER_TIMEOUT_REMEDY)
        .samples(&[("verb", "POST"), ("resource", "pods")]),
    Entry::new("apiserver.handler-timeout", F::Client,
        "http: Handler timeout",
        GO, "src/net/http/server.go (ErrHandlerTimeout), written by k8s.io/apiserver pkg/server/filters/timeout.go", "Go 1.x")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-timeout").exclusive()
        .says("the API server's own log: handlers ran past the request deadline and their clients got 504 Timeout (the server is up and answering; its requests are slow): admission webhooks it cannot reach, etcd answering slowly, or an overloaded API server", APISERVER_TIMEOUT_REMEDY),
    // the API server refusing for load (k8s.io/apimachinery pkg/api/errors/errors.go
    // NewTooManyRequests / NewGenericServerResponse 429: `the server has received too many
    // requests and has asked us to try again later`, sent by priority and fairness or the
    // max-in-flight filter, staging/src/k8s.io/apiserver/pkg/server/filters) and the
    // ResourceQuota admission plugin giving up on its evaluation
    // (plugin/pkg/admission/resourcequota/controller.go: `resource quota evaluation timed out`):
    // the server answered, overloaded or waiting on etcd
    Entry::new("apiserver.too-many-requests", F::Client,
        "the server has received too many requests and has asked us to try again later",
        "kubernetes/apimachinery", "pkg/api/errors/errors.go (StatusTooManyRequests), sent by k8s.io/apiserver pkg/server/filters (priority and fairness, max-in-flight)", "v1.8+")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-overload").exclusive()
        .says("the API server answered 429 Too Many Requests: it is throttling (API priority and fairness, or --max-requests-inflight / --max-mutating-requests-inflight reached), so it is overloaded or a client floods it (the client reached the server; this is not a connection problem)", "find who floods the API server (`kubectl get --raw /metrics | grep -e apiserver_flowcontrol_rejected_requests_total -e apiserver_flowcontrol_current_inqueue_requests`, the flow schema and priority level of the rejected requests) and slow it down, or give its FlowSchema a priority level with more shares; check that etcd is not the bottleneck (`etcdctl endpoint status --cluster -w table`)"),
    Entry::new("apiserver.quota-evaluation-timeout", F::Admission,
        "resource quota evaluation timed out",
        K8S, "plugin/pkg/admission/resourcequota/controller.go (Evaluate)", "v1.8+")
        .to(K::Known, "etcd-unhealthy", Warning).group("apiserver-overload").exclusive()
        .says("the API server's ResourceQuota admission did not finish evaluating the request in time (10 s): updating the quota's status in etcd is slow or contended (many pods created at once in a namespace with quotas, slow etcd)", "check etcd's latency (`etcdctl endpoint status --cluster -w table`, the etcd log's `took too long` lines) and the API server's load; retry the request, and spread bursts of pod creations in namespaces with a ResourceQuota"),
    // the API server proxying to a backend (a node's kubelet on 10250 for exec, attach,
    // port-forward, logs; an aggregated API) that it cannot dial: k8s.io/apimachinery
    // pkg/util/proxy/upgradeaware.go `error dialing backend: %v`. The API server answered.
    // the kubelet ends the TLS handshake with an internal_error alert when it has no serving
    // certificate: serverTLSBootstrap (rotate-server-certificates) is on and its CSR
    // (kubernetes.io/kubelet-serving) was never approved (k8s.io/client-go
    // util/certificate/certificate_manager.go leaves GetCertificate without one; Go's
    // crypto/tls sends alertInternalError). `kubectl logs/exec` print it inside the API
    // server's answer (Netcracker/KubeMarine documentation/Troubleshooting.md; kubeadm docs
    // "Enabling signed kubelet serving certificates")
    Entry::new("apiserver.kubelet-serving-cert-missing", F::Client,
        "remote error: tls: internal error",
        GO, "src/crypto/tls/alert.go (alertInternalError, sent by the kubelet's TLS server without a serving certificate)", "v1.8+")
        .to(K::Known, "apiserver-kubelet-unreachable", Warning).group("apiserver-backend").exclusive()
        .says("the node's kubelet has no serving certificate, so it ends every TLS handshake on port 10250 (logs, exec, port-forward, metrics-server scrapes): it requests one from the cluster (serverTLSBootstrap / rotate-server-certificates) and that certificate signing request is pending, never approved", "approve the kubelet serving CSRs: `kubectl get csr | grep kubelet-serving` then `kubectl certificate approve <csr-name>` for each node (they are not approved automatically; an approver such as kubelet-csr-approver can do it), or turn serverTLSBootstrap off to keep self-signed kubelet certificates"),
    Entry::new("apiserver.backend-dial-failed", F::Client,
        "error dialing backend: {error}",
        "kubernetes/apimachinery", "pkg/util/proxy/upgradeaware.go (UpgradeAwareHandler dial)", "v1.8+")
        .to(K::Known, "apiserver-kubelet-unreachable", Warning).group("apiserver-backend").exclusive()
        .says("the API server answered but cannot open a connection to the backend it proxies to ({error}): for exec, attach, port-forward and logs that is the node's kubelet (port 10250); for an aggregated API its Service", KUBELET_PATH_REMEDY)
        .samples(&[("error", "dial tcp 10.0.0.5:10250: i/o timeout")]),
    // ------------------------------------------------------------------ API server backends: aggregated APIs
    // An APIService (metrics-server's v1beta1.metrics.k8s.io, custom metrics adapters) the
    // API server cannot reach: clients get 503 (apimachinery pkg/api/errors: `the server is
    // currently unable to handle the request`), discovery reports the group (client-go
    // discovery/discovery_client.go ErrGroupDiscoveryFailed `unable to retrieve the complete
    // list of server APIs: <group>: <err>`, discovery/cached/memory/memcache.go `couldn't get
    // resource list for %v: %v`), and the aggregator's availability check logs why
    // (kube-aggregator pkg/controllers/status available_controller.go: `failing or missing
    // response from %s: %v`).
    Entry::new("apiservice.unavailable-discovery", F::Client,
        "couldn't get resource list for {group:w}: the server is currently unable to handle the request",
        K8S, "staging/src/k8s.io/client-go/discovery/cached/memory/memcache.go", "v1.15+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server cannot reach the aggregated API {group} (an APIService whose backing Service answers nothing), so discovery and every request for that group fail with 503", APISERVICE_REMEDY)
        .samples(&[("group", "metrics.k8s.io/v1beta1")]),
    Entry::new("apiservice.unavailable-group", F::Client,
        "unable to retrieve the complete list of server APIs: {group:w}: the server is currently unable to handle the request",
        K8S, "staging/src/k8s.io/client-go/discovery/discovery_client.go (ErrGroupDiscoveryFailed)", "v1.8+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server cannot reach the aggregated API {group} (an APIService whose backing Service answers nothing), so discovery and every request for that group fail with 503", APISERVICE_REMEDY)
        .samples(&[("group", "metrics.k8s.io/v1beta1")]),
    Entry::new("apiservice.unavailable-get", F::Client,
        "the server is currently unable to handle the request (get {resource:w}",
        "kubernetes/apimachinery", "pkg/api/errors/errors.go (StatusReasonServiceUnavailable)", "v1.8+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server answers 503 for {resource}: the aggregated API serving it (an APIService such as metrics-server's v1beta1.metrics.k8s.io) is not reachable from the API server", APISERVICE_REMEDY)
        .samples(&[("resource", "nodes.metrics.k8s.io")]),
    Entry::new("apiservice.failing-response", F::Client,
        "failing or missing response from {url:w} {error}",
        K8S, "staging/src/k8s.io/kube-aggregator/pkg/controllers/status/available_controller.go", "v1.10+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server's aggregator cannot reach the APIService backend at {url} ({error}): the backing pod is not Ready, or the control plane cannot reach the pod network (for metrics-server on EKS with a custom CNI or Calico: hostNetwork: true; firewall or security group from the control plane to the pod's port)", APISERVICE_REMEDY)
        .samples(&[("url", "https://10.0.0.5:443/apis/metrics.k8s.io/v1beta1:"), ("error", "Get \"https://10.0.0.5:443/apis/metrics.k8s.io/v1beta1\": dial tcp 10.0.0.5:443: i/o timeout")]),
    // The aggregator's availability condition of an APIService (`kubectl describe apiservice`
    // Message, `-o yaml` status.conditions[].message; kube-aggregator
    // pkg/controllers/status available_controller.go, remote/remote_available_controller.go
    // from v1.30: Reason ServiceNotFound `service/%s in %q is not present`, MissingEndpoints
    // `endpoints for service/%s in %q have no addresses with port name %q`, `endpointslices
    // for ...` once it reads EndpointSlices) and `kubectl get apiservices`' AVAILABLE column
    // (`False (MissingEndpoints)`, read by classify::backends::apiservice_rows).
    Entry::new("apiservice.service-not-found", F::Client,
        "service/{service:w} in {namespace:w} is not present",
        K8S, "staging/src/k8s.io/kube-aggregator/pkg/controllers/status/available_controller.go (ServiceNotFound)", "v1.10+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("an APIService points at the Service {service} in {namespace}, which does not exist (ServiceNotFound): every request for its API group fails with 503", APISERVICE_REMEDY)
        .samples(&[("service", "metrics-server"), ("namespace", "\"kube-system\"")]),
    Entry::new("apiservice.missing-endpoints", F::Client,
        "for service/{service:w} in {namespace:w} have no addresses with port name {port:w}",
        K8S, "staging/src/k8s.io/kube-aggregator/pkg/controllers/status/available_controller.go (MissingEndpoints)", "v1.10+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the Service {service} in {namespace} behind an APIService has no ready endpoint on port {port} (MissingEndpoints): its pods are not Ready or do not run, so every request for its API group fails with 503", APISERVICE_REMEDY)
        .samples(&[("service", "metrics-server"), ("namespace", "\"kube-system\""), ("port", "\"https\"")]),
    Entry::new("apiservice.table-unavailable", F::Client,
        "{apiservice:w} {service:w} False ({reason:w})",
        K8S, "staging/src/k8s.io/kube-aggregator (kubectl get apiservices: NAME SERVICE AVAILABLE AGE)", "v1.10+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the APIService {apiservice} (Service {service}) is not available: {reason}, so every request for its API group fails with 503", APISERVICE_REMEDY)
        .samples(&[("apiservice", "v1beta1.metrics.k8s.io"), ("service", "kube-system/metrics-server"), ("reason", "MissingEndpoints")]),
    // the API server's proxy to an aggregated API whose Service it cannot resolve
    // (kube-aggregator pkg/apiserver/handler_proxy.go `error resolving %s/%s: %v`), and the
    // OpenAPI aggregation failing on the same backend (kube-aggregator
    // pkg/controllers/openapi/controller.go v1.27+: `Error updating APIService %q with err:
    // %v`, `failed to download %v: %v`)
    Entry::new("apiservice.proxy-resolve-failed", F::Client,
        "error resolving {service:w}: {error}",
        K8S, "staging/src/k8s.io/kube-aggregator/pkg/apiserver/handler_proxy.go", "v1.10+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server cannot resolve the Service {service} of an aggregated API ({error}): the APIService points at a Service that does not exist or has no usable address, so every request for its API group fails with 503", APISERVICE_REMEDY)
        .samples(&[("service", "kube-system/metrics-server"), ("error", "service \"metrics-server\" not found")]),
    Entry::new("apiservice.openapi-download-failed", F::Client,
        "Error updating APIService {apiservice:w} with err: failed to download {name:w}: {error}",
        K8S, "staging/src/k8s.io/kube-aggregator/pkg/controllers/openapi/controller.go", "v1.27+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server's aggregator cannot read the OpenAPI spec of the APIService {apiservice}: its backend does not answer ({error})", APISERVICE_REMEDY)
        .samples(&[("apiservice", "\"v1beta1.metrics.k8s.io\""), ("name", "v1beta1.metrics.k8s.io"), ("error", "failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable")]),
    Entry::new("apiservice.openapi-failed", F::Client,
        "loading OpenAPI spec for \"{apiservice}\" failed with: {error}",
        K8S, "staging/src/k8s.io/kube-aggregator/pkg/controllers/openapi/controller.go", "v1.10+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice").exclusive()
        .says("the API server's aggregator cannot read the OpenAPI spec of the APIService {apiservice}: its backend does not answer ({error})", APISERVICE_REMEDY)
        .samples(&[("apiservice", "v1beta1.metrics.k8s.io"), ("error", "failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable")]),
    // ------------------------------------------------------------------ API server backends: etcd
    // etcd's gRPC errors (etcd-io/etcd api/v3rpc/rpctypes/error.go, `etcdserver: ...` texts that
    // the API server passes on unchanged: kubectl, kubelet status updates, controllers);
    // `alarm:NOSPACE` is how `etcdctl alarm list` prints the alarm (etcdctl/ctlv3/command/
    // printer_simple.go, an AlarmMember).
    Entry::new("etcd.no-space", F::Etcd,
        "etcdserver: mvcc: database space exceeded",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-space-exceeded", Error).group("etcd").exclusive()
        .says("etcd's backend database reached its quota (--quota-backend-bytes, 2 GiB by default) and raised the NOSPACE alarm: etcd refuses every write, so no object can be created or updated (pod status, leases, events) until the space is reclaimed and the alarm disarmed", ETCD_NOSPACE_REMEDY),
    Entry::new("etcd.alarm-nospace", F::Etcd,
        "alarm:NOSPACE",
        ETCD, "etcdctl/ctlv3/command/printer_simple.go (Alarm: AlarmMember printed with %+v)", "etcd v3.0+")
        .to(K::Known, "etcd-space-exceeded", Error).group("etcd").exclusive()
        .says("etcd's NOSPACE alarm is raised: its backend database reached --quota-backend-bytes and etcd refuses every write until the space is reclaimed and the alarm disarmed", ETCD_NOSPACE_REMEDY),
    // etcd's client port (2379, etcd-io/etcd embed/config.go DefaultListenClientURLs) refusing
    // or not answering a dial: the API server's own storage backend (its log, or its answer
    // `Error from server: ... dial tcp <host>:2379: ...` passed on to kubectl), etcdctl, or a
    // kubeadm etcd check. Not the client's connection to the API server.
    Entry::new("etcd.client-port-dial", F::Etcd,
        "dial tcp {host:w}:2379: {error}",
        GO, "src/net/net.go (OpError) dialing etcd's client port 2379 (etcd-io/etcd embed/config.go)", "Go 1.x, etcd v3")
        .to(K::Known, "etcd-unhealthy", Error).group("etcd").exclusive()
        .says("nothing answers on etcd's client port at {host}:2379 ({error}): the etcd member is down or restarting (its static pod or service crashed: out of disk, corrupt data, expired peer or server certificates), listens on another address, or a firewall drops 2379; the API server cannot serve without it", "on the control-plane node check etcd itself: `crictl ps -a | grep etcd` and `crictl logs <etcd container>` (kubeadm static pod /etc/kubernetes/manifests/etcd.yaml; `journalctl -u etcd` for a systemd etcd), its certificates (`kubeadm certs check-expiration`), the addresses in --listen-client-urls / --advertise-client-urls against kube-apiserver's --etcd-servers, and `etcdctl endpoint health --cluster` with the etcd client certificates")
        .samples(&[("host", "127.0.0.1"), ("error", "connect: connection refused")]),
    Entry::new("etcd.compacted", F::Etcd,
        "etcdserver: mvcc: required revision has been compacted",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Info).group("etcd").exclusive()
        .says("a watch or read asked for a revision etcd has already compacted (the API server compacts every 5 minutes, --etcd-compaction-interval): routine for watches, which relist and go on", "nothing to do when it only accompanies watches; a client that fails on it must relist (a reflector does)"),
    Entry::new("etcd.timeout-leader-failure", F::Etcd,
        "etcdserver: request timed out, possibly due to previous leader failure",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("etcd did not commit the request in time after its leader failed (an election was under way)", ETCD_SLOW_REMEDY),
    Entry::new("etcd.timeout-connection-lost", F::Etcd,
        "etcdserver: request timed out, possibly due to connection lost",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("etcd did not commit the request in time: the member lost its connection to the leader", ETCD_SLOW_REMEDY),
    Entry::new("etcd.timeout", F::Etcd,
        "etcdserver: request timed out",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("etcd did not commit the request in time: its disk is too slow for its fsyncs (WAL fsync, backend commit), it is overloaded, or its members lose each other", ETCD_SLOW_REMEDY),
    Entry::new("etcd.leader-changed", F::Etcd,
        "etcdserver: leader changed",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("etcd's leader changed while the request was in flight; frequent changes mean heartbeats are missed (slow disk or network between members, an overloaded member)", ETCD_SLOW_REMEDY),
    Entry::new("etcd.no-leader", F::Etcd,
        "etcdserver: no leader",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Error).group("etcd").exclusive()
        .says("etcd has no leader: fewer than a quorum of its members are up and reach each other, so it serves no writes", "check every member (`etcdctl endpoint status --cluster -w table`, the etcd static pods or services and their logs): bring members back until a quorum (more than half) is up; a member whose peer certificate or address changed must be fixed or removed and re-added"),
    Entry::new("etcd.too-many-requests", F::Etcd,
        "etcdserver: too many requests",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("etcd refuses requests because its applied index lags its committed index by too much (the backend cannot keep up: slow disk, huge transactions)", ETCD_SLOW_REMEDY),
    // etcd's own warnings that it is slow (server/etcdserver/util.go: v3.3-v3.4 capnslog
    // `read-only range request %q with result %q took too long (%v) to execute`, v3.5+ zap
    // `apply request took too long`; server/storage/wal/wal.go `slow fdatasync`;
    // server/etcdserver/raft.go `failed to send out heartbeat on time`): information, routine
    // when rare, the cause of API timeouts when they fill the log
    Entry::new("etcd.slow-range-request", F::Etcd,
        "read-only range request {request} took too long ({took:w} to execute",
        ETCD, "server/etcdserver/util.go (warnOfExpensiveReadOnlyRangeRequest)", "etcd v3.3-v3.4")
        .to(K::Known, "etcd-unhealthy", Info).group("etcd").exclusive()
        .says("etcd took {took} to answer a read: its disk or CPU is slow for its load", ETCD_SLOW_REMEDY)
        .samples(&[("request", "\"key:\\\"/registry/pods/\\\" \" with result \"range_response_count:1 size:4096\""), ("took", "2.04s")]),
    Entry::new("etcd.apply-too-long", F::Etcd,
        "apply request took too long",
        ETCD, "server/etcdserver/util.go (warnOfExpensiveRequest)", "etcd v3.5+")
        .to(K::Known, "etcd-unhealthy", Info).group("etcd").exclusive()
        .says("etcd took longer than expected to apply requests: its disk (fsync) or CPU is slow for its load", ETCD_SLOW_REMEDY),
    Entry::new("etcd.slow-fdatasync", F::Etcd,
        "slow fdatasync",
        ETCD, "server/storage/wal/wal.go (sync)", "etcd v3.4+")
        .to(K::Known, "etcd-unhealthy", Info).group("etcd").exclusive()
        .says("etcd's write-ahead log fsync is slow: the disk is too slow for etcd (it needs low fsync latency)", ETCD_SLOW_REMEDY),
    Entry::new("etcd.heartbeat-late", F::Etcd,
        "failed to send out heartbeat on time",
        ETCD, "server/etcdserver/raft.go", "etcd v3.2+")
        .to(K::Known, "etcd-unhealthy", Info).group("etcd").exclusive()
        .says("the etcd leader could not send heartbeats on time (the server is overloaded, or its disk or network is slow); elections follow when it lasts", ETCD_SLOW_REMEDY),
    Entry::new("etcd.request-too-large", F::Etcd,
        "etcdserver: request is too large",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("the object written is larger than etcd accepts (--max-request-bytes, 1.5 MiB by default): a huge ConfigMap, Secret, CRD or an object with many managed fields", "make the object smaller (split a ConfigMap, store data elsewhere); raising --max-request-bytes on every etcd member is the last resort"),
    Entry::new("etcd.server-stopped", F::Etcd,
        "etcdserver: server stopped",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Warning).group("etcd").exclusive()
        .says("the etcd member the API server asked was stopping or stopped", "check the etcd member's pod or service and its log for why it stopped (removed from the cluster, corrupt data, out of disk)"),
    Entry::new("etcd.unhealthy-cluster", F::Etcd,
        "etcdserver: unhealthy cluster",
        ETCD, ETCD_ERRORS, "etcd v3.0+")
        .to(K::Known, "etcd-unhealthy", Error).group("etcd").exclusive()
        .says("etcd refused a membership change because the cluster would lose quorum or is not healthy", "make every member healthy first (`etcdctl endpoint health --cluster`), then repeat the change"),
    Entry::new("etcd.corrupt-cluster", F::Etcd,
        "etcdserver: corrupt cluster",
        ETCD, ETCD_ERRORS, "etcd v3.3+")
        .to(K::Known, "etcd-unhealthy", Error).group("etcd").exclusive()
        .says("etcd's corruption check found members whose data disagree (the CORRUPT alarm)", "find the member with diverging data (`etcdctl alarm list`, `etcdctl endpoint status --cluster -w table` hashes), remove it from the cluster, wipe its data directory and add it back; restore from a snapshot if the leader is the corrupt one"),
    // ------------------------------------------------------------------ API server backends: dynamic provisioning
    // kubernetes-csi/external-provisioner through sigs.k8s.io/sig-storage-lib-external-provisioner
    // controller/controller.go (provisionClaimOperation: the ProvisioningFailed event `failed to
    // provision volume with StorageClass %q: %v`); the in-tree PersistentVolume controller
    // (pkg/controller/volume/persistentvolume/pv_controller.go provisionClaimOperation) printed
    // `Failed to provision volume with StorageClass %q: %v` and, for a class served by an external
    // provisioner, the Normal ExternalProvisioning event `waiting for a volume to be created,
    // either by external provisioner %q or manually created by system administrator` (reworded
    // in 2023 to `Waiting for a volume to be created either by the external provisioner '%s' or
    // manually by the system administrator. If volume creation is delayed, please verify that
    // the provisioner is running and correctly registered.`). classify::backends classifies the
    // driver's inner error (gRPC code, cloud permission, quota, topology).
    Entry::new("provision.failed", F::Storage,
        "failed to provision volume with StorageClass \"{class}\": {error}",
        "kubernetes-sigs/sig-storage-lib-external-provisioner", "controller/controller.go (provisionClaimOperation)", "external-provisioner v1.0+")
        .to(K::Known, "storage-provisioning-failed", Error).group("provision").exclusive()
        .says("the PersistentVolumeClaim cannot be provisioned with StorageClass {class}: {why}", "{fix}")
        .samples(&[("class", "ebs-sc"), ("error", "rpc error: code = Internal desc = Could not create volume \"pvc-1\": could not create volume in EC2: UnauthorizedOperation: You are not authorized to perform this operation.")]),
    Entry::new("provision.failed-intree", F::Storage,
        "Failed to provision volume with StorageClass \"{class}\": {error}",
        K8S, "pkg/controller/volume/persistentvolume/pv_controller.go (provisionClaimOperation)", "v1.6+")
        .to(K::Known, "storage-provisioning-failed", Error).group("provision").exclusive()
        .says("the PersistentVolumeClaim cannot be provisioned with StorageClass {class}: {why}", "{fix}")
        .samples(&[("class", "standard"), ("error", "storageclass.storage.k8s.io \"standard\" not found")]),
    // nfs-client-provisioner and other provisioners built on sig-storage-lib-external-provisioner
    // before v6 read the claim's selfLink, which Kubernetes v1.20 stopped setting
    // (RemoveSelfLink): the provisioner fails every claim
    Entry::new("provision.selflink-empty", F::Storage,
        "unexpected error getting claim reference: selfLink was empty, can't make reference",
        "kubernetes-sigs/sig-storage-lib-external-provisioner", "controller/controller.go v4-v5 (provisionClaimOperation, ref.GetReference)", "v4-v5 on Kubernetes v1.20+")
        .to(K::Known, "storage-provisioning-failed", Error).group("provision").exclusive()
        .says("the external provisioner is built on a library older than v6 that needs the claim's selfLink, which the API server no longer sets (Kubernetes v1.20+): it fails every claim, which stay Pending", "upgrade the provisioner to a release built on sig-storage-lib-external-provisioner v6+ (nfs-client-provisioner: replace it with kubernetes-sigs/nfs-subdir-external-provisioner v4+, or use csi-driver-nfs); the RemoveSelfLink=false feature gate worked only up to v1.23"),
    Entry::new("provision.class-not-found", F::Storage,
        "storageclass.storage.k8s.io \"{class}\" not found",
        K8S, "pkg/controller/volume/persistentvolume/pv_controller.go (getProvisionerNameFromVolume / provisionClaim)", "v1.6+")
        .to(K::Known, "storage-provisioning-failed", Warning).group("provision").exclusive()
        .says("StorageClass {class} does not exist: a PersistentVolumeClaim that names it is never provisioned (it stays Pending)", "list the classes (`kubectl get storageclass`) and set the claim's storageClassName to one of them (a claim's class cannot be changed: delete and re-create the claim), or create the StorageClass {class}")
        .samples(&[("class", "fast-ssd")]),
    Entry::new("provision.waiting-external", F::Storage,
        "waiting for a volume to be created, either by external provisioner \"{provisioner}\" or manually created by system administrator",
        K8S, "pkg/controller/volume/persistentvolume/pv_controller.go (provisionClaim, ExternalProvisioning event)", "v1.11-v1.28")
        .to(K::Known, "storage-provisioning-failed", Warning).group("provision").exclusive()
        .says("the claim waits for the external provisioner {provisioner} and the input shows no sign of it working on the claim (no Provisioning or ProvisioningFailed event of it): the provisioner (a CSI driver's controller with its csi-provisioner sidecar) is not installed or not running, or its name differs from the StorageClass's provisioner field", WAITING_PROVISIONER_REMEDY)
        .samples(&[("provisioner", "ebs.csi.aws.com")]),
    Entry::new("provision.waiting-external-v2", F::Storage,
        "Waiting for a volume to be created either by the external provisioner '{provisioner}' or manually by the system administrator",
        K8S, "pkg/controller/volume/persistentvolume/pv_controller.go (provisionClaim, ExternalProvisioning event)", "v1.29+")
        .to(K::Known, "storage-provisioning-failed", Warning).group("provision").exclusive()
        .says("the claim waits for the external provisioner {provisioner} and the input shows no sign of it working on the claim (no Provisioning or ProvisioningFailed event of it): the provisioner (a CSI driver's controller with its csi-provisioner sidecar) is not installed or not running, or its name differs from the StorageClass's provisioner field", WAITING_PROVISIONER_REMEDY)
        .samples(&[("provisioner", "ebs.csi.aws.com")]),
    // the csi-provisioner's own log of the failed call (kubernetes-csi/external-provisioner
    // pkg/controller/controller.go: `CreateVolume failed, supports topology = %v, node selected
    // %v => may reschedule = %v => state = %v: %v`) and csi-lib-utils' gRPC trace
    // (connection/connection.go LogGRPC `GRPC error: %v`): the driver's error, never the
    // client's connection
    Entry::new("provision.createvolume-failed", F::Storage,
        "CreateVolume failed, supports topology = {topology:w} node selected {selected:w} => may reschedule = {reschedule:w} => state = {state:w} {error}",
        "kubernetes-csi/external-provisioner", "pkg/controller/controller.go (provisionClaimOperation)", "v1.6+")
        .to(K::Known, "storage-provisioning-failed", Error).group("provision").exclusive()
        .says("the CSI driver's CreateVolume failed: {why}", "{fix}")
        .samples(&[("topology", "true,"), ("selected", "false"), ("reschedule", "false"), ("state", "Background:"), ("error", "rpc error: code = DeadlineExceeded desc = context deadline exceeded")]),
    Entry::new("provision.temporary-error", F::Storage,
        "Temporary error received, adding PVC {uid:w} to claims in progress",
        "kubernetes-csi/external-provisioner", "pkg/controller/controller.go (provisionClaimOperation)", "v1.6+")
        // the provisioner will retry: its error is on the lines around it
        .complete()
        .samples(&[("uid", "00000000-0000-0000-0000-000000000000")]),
    Entry::new("csi.grpc-error", F::Storage,
        "GRPC error: {error}",
        "kubernetes-csi/csi-lib-utils", "connection/connection.go (LogGRPC)", "v0.2+")
        // a trace line (`GRPC error: <nil>` for every call that worked); a failure is read
        // from the provisioner's own lines around it
        .exclusive().complete()
        .samples(&[("error", "rpc error: code = DeadlineExceeded desc = context deadline exceeded")]),
    // the provisioner's own progress events (sig-storage-lib-external-provisioner
    // controller/controller.go): context that it runs
    Entry::new("provision.external-provisioning", F::Storage,
        "External provisioner is provisioning volume for claim \"{claim}\"",
        "kubernetes-sigs/sig-storage-lib-external-provisioner", "controller/controller.go (provisionClaimOperation)", "external-provisioner v1.0+")
        .complete()
        .samples(&[("claim", "default/ebs-claim")]),
    Entry::new("provision.succeeded", F::Storage,
        "Successfully provisioned volume {volume:w}",
        "kubernetes-sigs/sig-storage-lib-external-provisioner", "controller/controller.go (provisionClaimOperation)", "external-provisioner v1.0+")
        .complete()
        .samples(&[("volume", "pvc-0a1b2c3d")]),
    // the PersistentVolume controller's Normal event for a claim of a WaitForFirstConsumer
    // class that no scheduled pod uses yet (pkg/controller/volume/persistentvolume/
    // pv_controller.go, reason WaitForFirstConsumer): the normal wait, no conclusion
    Entry::new("provision.waiting-first-consumer", F::Storage,
        "waiting for first consumer to be created before binding",
        K8S, "pkg/controller/volume/persistentvolume/pv_controller.go (syncUnboundClaim, WaitForFirstConsumer event)", "v1.12+")
        .complete(),
    Entry::new("go.x509-unknown-authority", F::Client,
        "x509: certificate signed by unknown authority",
        GO, "src/crypto/x509/verify.go (UnknownAuthorityError)", "Go 1.x")
        .to(K::TlsUntrusted, "cluster-tls-untrusted", Error).group("tls")
        .says("the server's certificate is not signed by a CA the client trusts", "use the cluster's CA (certificate-authority-data); behind a proxy use the proxy's CA"),
    // Go on macOS verifies with the Security framework (src/crypto/x509/root_darwin.go
    // systemVerify, Go 1.18+): results it does not map to UnknownAuthorityError, HostnameError or
    // Expired come back as `x509: <the framework's text>`, the certificate's name in curly quotes
    // (`x509: “kube-apiserver” certificate is not trusted`)
    Entry::new("go.x509-darwin-not-trusted", F::Client,
        "x509: {name} certificate is not trusted",
        GO, "src/crypto/x509/root_darwin.go (systemVerify)", "Go 1.18+ on macOS")
        .to(K::TlsUntrusted, "cluster-tls-untrusted", Error).group("tls")
        .says("the client's macOS trust store does not trust the server's certificate {name} (a cluster CA that is not in the kubeconfig, or a self-signed serving certificate)", "put the cluster's CA in the kubeconfig (certificate-authority-data) of the context used; behind a TLS-inspecting proxy use the proxy's CA")
        .samples(&[("name", "\u{201c}kube-apiserver\u{201d}")]),
    Entry::new("go.x509-hostname", F::Client,
        "x509: certificate is valid for {valid_for}, not {wanted}",
        GO, "src/crypto/x509/verify.go (HostnameError)", "Go 1.x")
        .to(K::TlsNameMismatch, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate is valid for {valid_for}, not for {wanted}", "connect with a name in the certificate's SANs, or re-issue the serving certificate with {wanted}")
        .samples(&[("valid_for", "10.96.0.1, 10.0.2.15"), ("wanted", "10.0.0.10")]),
    Entry::new("go.x509-validity-window", F::Client,
        "x509: certificate has expired or is not yet valid: current time {current_time:w} is {relation:w} {bound:w}",
        GO, "src/crypto/x509/verify.go (CertificateInvalidError Expired)", "Go 1.11+")
        .to(K::TlsExpired, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate is outside its validity window at the client's current time {current_time} ({relation} {bound})", "`before`: the client clock is behind, fix time sync; `after`: renew the certificate")
        .samples(&[("current_time", "2021-04-01T14:43:32+02:00"), ("relation", "before"), ("bound", "2021-04-01T15:31:09Z")]),
    Entry::new("go.x509-expired", F::Client,
        "x509: certificate has expired or is not yet valid",
        GO, "src/crypto/x509/verify.go (CertificateInvalidError Expired)", "Go 1.x")
        .to(K::TlsExpired, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate is outside its validity window (expired, or the client clock is wrong)", "compare clocks first, then the certificate's NotBefore/NotAfter"),
    // ------------------------------------------------------------------ Go x509 / TLS (sweep)
    // src/crypto/x509/verify.go HostnameError.Error: a certificate without SANs for the name
    // (`x509: certificate is not valid for any names, but wanted to match %s`), an IP address
    // not in the IP SANs (`x509: cannot validate certificate for %s because it doesn't contain
    // any IP SANs`), and a certificate with only a Common Name (Go 1.15-1.16 `x509: certificate
    // relies on legacy Common Name field, use SANs or temporarily enable Common Name matching
    // with GODEBUG=x509ignoreCN=0`, Go 1.17+ `..., use SANs instead`)
    Entry::new("go.x509-no-ip-sans", F::Client,
        "x509: cannot validate certificate for {wanted:w} because it doesn't contain any IP SANs",
        GO, "src/crypto/x509/verify.go (HostnameError)", "Go 1.x")
        .to(K::TlsNameMismatch, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate has no IP SANs, so it is not valid for the address {wanted}", "connect with a DNS name in the certificate's SANs, or re-issue the serving certificate with {wanted} as an IP SAN")
        .samples(&[("wanted", "10.0.0.10")]),
    Entry::new("go.x509-no-names", F::Client,
        "x509: certificate is not valid for any names, but wanted to match {wanted:w}",
        GO, "src/crypto/x509/verify.go (HostnameError)", "Go 1.x")
        .to(K::TlsNameMismatch, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate has no subject alternative names, so it is not valid for {wanted}", "re-issue the serving certificate with {wanted} in its SANs")
        .samples(&[("wanted", "api.example.com")]),
    Entry::new("go.x509-legacy-cn", F::Client,
        "x509: certificate relies on legacy Common Name field, use SANs",
        GO, "src/crypto/x509/verify.go (HostnameError)", "Go 1.15+")
        .to(K::TlsNameMismatch, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate names the host only in its Common Name, which Go 1.15+ clients no longer accept: it has no subject alternative names", "re-issue the serving certificate with the host name (and IP address) in its SANs (`openssl x509 -noout -ext subjectAltName -in <cert>` shows none today)"),
    Entry::new("go.x509-key-usage", F::Client,
        "x509: certificate specifies an incompatible key usage",
        GO, "src/crypto/x509/verify.go (CertificateInvalidError IncompatibleUsage)", "Go 1.x")
        .to(K::TlsUntrusted, "cluster-tls-untrusted", Error).group("tls")
        .says("the certificate's extended key usage does not allow this use (a client certificate served as a server certificate, or the reverse)", "re-issue the certificate with the right extended key usage (serverAuth for a server, clientAuth for a client)"),
    Entry::new("go.http-to-https", F::Client,
        "Client sent an HTTP request to an HTTPS server.",
        GO, "src/net/http/server.go", "Go 1.x")
        .to(K::ProtocolMismatch, "cluster-unreachable", Error).group("proto")
        .says("plain http was sent to an https port", "use https:// for the API server"),
    Entry::new("go.https-to-http", F::Client,
        "server gave HTTP response to HTTPS client",
        GO, "src/net/http/transport.go", "Go 1.x")
        .to(K::ProtocolMismatch, "cluster-unreachable", Error).group("proto")
        .says("https was sent to a plain-http port", "use the API server's TLS port"),
    Entry::new("go.not-tls", F::Client,
        "first record does not look like a TLS handshake",
        GO, "src/crypto/tls/conn.go", "Go 1.x")
        .to(K::ProtocolMismatch, "cluster-unreachable", Error).group("proto")
        .says("the port does not speak TLS", "use the API server's TLS port"),
    Entry::new("client.insecure-with-ca", F::Client,
        "specifying a root certificates file with the insecure flag is not allowed",
        "kubernetes/client-go", "rest/transport.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .says("the kubeconfig sets a CA and insecure-skip-tls-verify together", "drop insecure-skip-tls-verify (keep the CA)"),
    Entry::new("client.context-missing", F::Client,
        "context was not found for specified context: {context}",
        "kubernetes/client-go", "tools/clientcmd/client_config.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .says("the kubeconfig has no context {context}", "`kubectl config get-contexts` and select an existing one"),
    Entry::new("client.no-configuration", F::Client,
        "no configuration has been provided",
        "kubernetes/client-go", "tools/clientcmd/client_config.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .says("no kubeconfig was found", "set KUBECONFIG or pass --kubeconfig"),
    // ------------------------------------------------------------------ client-go exec credential plugins
    // staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go: the kubeconfig user's
    // exec plugin is not installed (`exec: executable %s not found`, v1.22+, with the hint
    // `It looks like you are trying to use a client-go credential plugin that is not
    // installed`), fails (`exec: executable %s failed with exit code %d`), or names an
    // apiVersion client-go no longer knows (`exec plugin: invalid apiVersion %q`:
    // client.authentication.k8s.io/v1alpha1 was removed in v1.24)
    Entry::new("client.exec-plugin-not-found", F::Client,
        "exec: executable {command:w} not found",
        K8S, "staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go", "v1.22+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("exec-plugin")
        .says("the kubeconfig's user runs the credential plugin {command}, which is not installed (or not in PATH) where the client runs, so no request is sent", "install {command} where kubectl runs (EKS: the AWS CLI v2 or aws-iam-authenticator; AKS: kubelogin; GKE: gke-gcloud-auth-plugin) and put it in PATH, or regenerate the kubeconfig on this machine (`aws eks update-kubeconfig`, `az aks get-credentials`, `gcloud container clusters get-credentials`)")
        .samples(&[("command", "aws")]),
    Entry::new("client.exec-plugin-not-installed-hint", F::Client,
        "It looks like you are trying to use a client-go credential plugin that is not installed.",
        K8S, "staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go", "v1.22+").complete(),
    Entry::new("client.exec-plugin-failed", F::Client,
        "exec: executable {command:w} failed with exit code {code:w}",
        K8S, "staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go", "v1.22+")
        .to(K::Unauthorized, "cluster-unauthorized", Error).group("exec-plugin")
        .says("the kubeconfig's credential plugin {command} exits with code {code}, so the client gets no credentials (the login expired, the cloud CLI is not logged in, or the plugin's arguments are wrong)", "run the plugin's login where kubectl runs (`aws sso login` / `aws configure`, `az login` then `kubelogin convert-kubeconfig`, `gcloud auth login`), then retry; its own output above says why it failed")
        .samples(&[("command", "kubelogin"), ("code", "1")]),
    Entry::new("client.exec-plugin-api-version", F::Client,
        "exec plugin: invalid apiVersion \"{api_version}\"",
        K8S, "staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go", "v1.24+ (v1alpha1 removed)")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("exec-plugin")
        .says("the kubeconfig's exec plugin asks for apiVersion {api_version}, which this kubectl/client-go no longer supports (client.authentication.k8s.io/v1alpha1 was removed in v1.24)", "regenerate the kubeconfig with a current cloud CLI (`aws eks update-kubeconfig --name <cluster>` with AWS CLI 1.24+/2.7+ writes client.authentication.k8s.io/v1beta1), or edit the user's exec.apiVersion to client.authentication.k8s.io/v1beta1")
        .samples(&[("api_version", "client.authentication.k8s.io/v1alpha1")]),
    // kubectl cannot read its kubeconfig (staging/src/k8s.io/client-go/tools/clientcmd/loader.go
    // `error loading config file %q: %v`, v1.8+)
    Entry::new("client.kubeconfig-load-failed", F::Client,
        "error loading config file \"{file}\": {error}",
        K8S, "staging/src/k8s.io/client-go/tools/clientcmd/loader.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .says("kubectl cannot read its kubeconfig {file} ({error}), so it has no cluster to talk to", "fix the file: `permission denied` after `sudo cp /etc/kubernetes/admin.conf` needs `sudo chown $(id -u):$(id -g) {file}`; a YAML error means the file was mangled (copy it again: `kubectl config view --raw` on a working machine)")
        .samples(&[("file", "/root/.kube/config"), ("error", "yaml: line 5: mapping values are not allowed in this context")]),
    // clientcmd's validation of a kubeconfig whose user or cluster names files it cannot read
    // (staging/src/k8s.io/client-go/tools/clientcmd/validation.go `unable to read %v %v for %v
    // due to %w`, printed by kubectl as `Error in configuration: ...`): relative paths of a
    // copied kubeconfig, a minikube profile removed
    Entry::new("client.kubeconfig-file-unreadable", F::Client,
        "unable to read {what:w} {file:w} for {name:w} due to {error}",
        K8S, "staging/src/k8s.io/client-go/tools/clientcmd/validation.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .says("the kubeconfig names the {what} file {file} for {name}, which cannot be read ({error}): the kubeconfig was copied without its certificate files, refers to them by a path relative to another directory, or the profile that wrote them was deleted", "embed the files in the kubeconfig (`kubectl config view --raw --flatten > flat.yaml` on the machine that has them) or fix the path in the kubeconfig; for minikube recreate the profile (`minikube start`) or `minikube update-context`")
        .samples(&[("what", "client-cert"), ("file", "/home/user/.minikube/client.crt"), ("name", "minikube"), ("error", "open /home/user/.minikube/client.crt: no such file or directory")]),
    // kubectl with a kubeconfig that selects no context, or a context it does not have
    // (staging/src/k8s.io/client-go/tools/clientcmd/validation.go ErrNoContext `context was
    // not found`, `current-context is not set`; kubectl config use-context `no context exists
    // with the name: %q`), and a KUBECONFIG naming a file that does not exist (clientcmd
    // loader.go `Config not found: %s`): kubectl then falls back to localhost:8080
    Entry::new("client.current-context-unset", F::Client,
        "current-context is not set",
        K8S, "staging/src/k8s.io/client-go/tools/clientcmd/validation.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config"),
    Entry::new("client.no-context-named", F::Client,
        "no context exists with the name: {context}",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/config/use_context.go", "v1.8+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .samples(&[("context", "\"prod\"")]),
    Entry::new("client.kubeconfig-not-found", F::Client,
        "Config not found: {file:w}",
        K8S, "staging/src/k8s.io/client-go/tools/clientcmd/loader.go", "v1.8+")
        .to(K::NoUsableKubeconfig, "cluster-unreachable", Error).group("config")
        .samples(&[("file", "/etc/kubernetes/admin.conf")]),
    // `argocd cluster add <context>` with a context the kubeconfig does not have (argoproj/argo-cd
    // cmd/argocd/commands/cluster.go `Context %s does not exist in kubeconfig`)
    Entry::new("argocd.context-missing", F::ArgoCd,
        "Context {context:w} does not exist in kubeconfig",
        "argoproj/argo-cd", "cmd/argocd/commands/cluster.go", "v1.0+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config"),
    Entry::new("go.invalid-port", F::Client,
        "invalid port \"{port}\" after host",
        GO, "src/net/url/url.go", "Go 1.x")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config")
        .says("the server URL has an invalid port {port}", "fix the server URL in the kubeconfig")
        .samples(&[("port", ":x")]),
    // A NotFound whose missing thing is the resource TYPE or the namespace a request writes
    // into: the request did nothing (not "the object does not exist"). The API server's 404 for
    // an unserved resource (staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go
    // NewGenericServerResponse: `the server could not find the requested resource (%s %s)`, verb
    // and `<plural>.<group>`, with the name after it for a get of one object), kubectl's mapper
    // (apimachinery pkg/api/meta/errors.go NoKindMatchError `no matches for kind %q in version
    // %q`, NoResourceMatchError `no matches for %v`; kubectl pkg/cmd/get `the server doesn't have
    // a resource type %q`), and the namespace lifecycle admission plugin's 404 for a create into a
    // namespace that does not exist (staging/src/k8s.io/apiserver/pkg/admission/plugin/
    // namespace/lifecycle/admission.go, `namespaces "%s" not found`, under kubectl's `error when
    // creating %q: %v`, staging/src/k8s.io/kubectl/pkg/cmd/create/create.go and apply.go).
    // Entries concluding other rules for one group (priority.*, karmada.*) take the line
    // (classify: generic_not_served).
    Entry::new("kubectl.resource-not-served", F::Client,
        "the server could not find the requested resource ({verb:w} {resource})",
        K8S, "staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewGenericServerResponse 404)", "v1.8+")
        .to(K::Known, "api-resource-missing", Error).group("not-served")
        .says("the API server does not serve {resource}: its CustomResourceDefinition (or the API group/version) is not installed there, or the kubeconfig points at another cluster than the one that has it; the {verb} did nothing", "`kubectl api-resources | grep <group>` with the same kubeconfig: install the component that defines the resource (its CRDs / chart), or use the kubeconfig (context) of the cluster that serves it")
        .samples(&[("verb", "post"), ("resource", "localqueues.kueue.x-k8s.io")]),
    Entry::new("kubectl.resource-type-unknown", F::Client,
        "the server doesn't have a resource type {resource:w}",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (resource builder, NoResourceMatchError)", "v1.8+")
        .to(K::Known, "api-resource-missing", Error).group("not-served")
        .says("the API server has no resource type {resource}: its CustomResourceDefinition (or the API group) is not installed there, or the kubeconfig points at another cluster", "`kubectl api-resources` with the same kubeconfig: install the component that defines it, or use the kubeconfig (context) of the cluster that serves it")
        .samples(&[("resource", "\"localqueues\"")]),
    Entry::new("kubectl.kind-not-served", F::Client,
        "no matches for kind \"{kind:w}\" in version \"{version:w}\"",
        K8S, "staging/src/k8s.io/apimachinery/pkg/api/meta/errors.go (NoKindMatchError)", "v1.8+")
        .to(K::Known, "api-resource-missing", Error).group("not-served")
        .says("the API server does not serve kind {kind} in {version}: the CustomResourceDefinition is not installed, the version is not served (removed or not yet enabled), or the kubeconfig points at another cluster; nothing was created", "`kubectl api-versions` / `kubectl api-resources` with the same kubeconfig: install the CRDs of the component, use an apiVersion the server serves, or switch to the cluster's kubeconfig")
        .samples(&[("kind", "LocalQueue"), ("version", "kueue.x-k8s.io/v1beta1")]),
    Entry::new("kubectl.create-namespace-missing", F::Client,
        "error when creating {file:w}: namespaces {namespace:w} not found",
        K8S, "staging/src/k8s.io/kubectl/pkg/cmd/create/create.go (`error when creating %q: %v`) + apiserver admission/plugin/namespace/lifecycle", "v1.8+")
        .to(K::Known, "api-resource-missing", Error).group("namespace-missing")
        .says("nothing was created from {file}: the namespace {namespace} it creates into does not exist", "create the namespace first (`kubectl create namespace <name>`, or put the Namespace object first in the manifest), or fix metadata.namespace / -n")
        .samples(&[("file", "\"job.yaml\""), ("namespace", "\"ml-team\"")]),
    Entry::new("kubectl.not-found", F::Client,
        "Error from server (NotFound): {what}",
        K8S, KUBECTL_HELPERS, "v1.8+")
        .to(K::NotFound, "", Info)
        .says("the object does not exist (the request was authorised and reached the server)", ""),
    // ------------------------------------------------------------------ admission / controllers / kueue
    Entry::new("quota.exceeded", F::Admission,
        "exceeded quota: {quota:w}, requested: {requested}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go", "v1.8+")
        .to(K::QuotaExceeded, "quota-near-limit", Warning)
        .says("ResourceQuota {quota} is full for the request", "raise the quota or free usage in the namespace")
        .samples(&[("requested", "limits.cpu=1")]),
    Entry::new("quota.must-specify", F::Admission,
        "failed quota: {quota:w}: must specify {must_specify}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go", "v1.8+")
        .to(K::QuotaMustSpecify, "quota-without-limitrange", Error)
        .says("ResourceQuota {quota} tracks {must_specify}, which the pod does not state", "give the namespace a LimitRange with defaults for {must_specify}")
        .samples(&[("must_specify", "limits.cpu,limits.memory")]),
    // Kubernetes up to v1.5 (and OpenShift 3.x, which carried those releases' admission
    // plugin) printed the same errors capitalised (`plugin/pkg/admission/resourcequota/
    // controller.go` before it moved to the apiserver and was lower-cased)
    Entry::new("quota.exceeded-capitalised", F::Admission,
        "Exceeded quota: {quota:w}, requested: {requested}",
        K8S, "plugin/pkg/admission/resourcequota/controller.go", "v1.2-v1.5, OpenShift 3.x")
        .to(K::QuotaExceeded, "quota-near-limit", Warning)
        .says("ResourceQuota {quota} is full for the request", "raise the quota or free usage in the namespace")
        .samples(&[("requested", "replicationcontrollers=1, used: replicationcontrollers=20, limited: replicationcontrollers=20")]),
    Entry::new("quota.must-specify-capitalised", F::Admission,
        "Failed quota: {quota:w}: must specify {must_specify}",
        K8S, "plugin/pkg/admission/resourcequota/controller.go", "v1.2-v1.5, OpenShift 3.x")
        .to(K::QuotaMustSpecify, "quota-without-limitrange", Error)
        .says("ResourceQuota {quota} tracks {must_specify}, which the pod does not state", "give the namespace a LimitRange with defaults for {must_specify}")
        .samples(&[("must_specify", "limits.cpu,limits.memory")]),
    Entry::new("quota.status-unknown-capitalised", F::Admission,
        "Status unknown for quota: {quota}",
        K8S, "plugin/pkg/admission/resourcequota/controller.go", "v1.2-v1.5, OpenShift 3.x")
        .to(K::QuotaStatusUnknown, "gpu-resource-name-mismatch", Warning)
        .says("the quota controller has not computed ResourceQuota {quota}'s usage", "check kube-controller-manager and the quota's resource names"),
    // The ResourceQuota admission plugin before v1.2's rewrite (kubernetes/kubernetes
    // plugin/pkg/admission/resourcequota/admission.go `IncrementUsage`): v1.0 and v1.1.0 tracked
    // object counts, cpu and memory only and printed `limited to %s %s` (count),
    // `unable to admit pod without exceeding quota for resource %s:  limited to %s but require
    // %s to succeed.`, `must make a non-zero request for %s since it is tracked by quota.` and,
    // while the quota controller had not computed usage, `unable to admit pod until quota usage
    // stats are calculated.` / `quota usage stats are not yet known, unable to admit resource
    // until an accurate count is completed.`; kubernetes#16941 (v1.1.x, 2015-11, "Improve
    // resource quota error messages", replaced by v1.2's controller.go) reworded them as
    // `%s is limited by quota, must make explicit request.`, `%s quota is %s, current usage is
    // %s, requesting %s.` and `Limited to %s %s`. Each is wrapped as `<Kind> "<name>" is
    // forbidden: ...` (v1.1: `Pod "nginx-"`) or `pods "<name>" is forbidden: ...`.
    Entry::new("quota.v1.1-explicit-request", F::Admission,
        "{resource:w} is limited by quota, must make explicit request",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage; kubernetes#16941)", "v1.1.x")
        .to(K::QuotaMustSpecify, "quota-without-limitrange", Error)
        .says("a ResourceQuota tracks {resource}, which the pod does not request", "give the namespace a LimitRange with a default request for {resource}")
        .samples(&[("resource", "cpu")]),
    Entry::new("quota.v1.1-exceeded", F::Admission,
        "{resource:w} quota is {hard:w}, current usage is {used:w}, requesting {requested:w}",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage; kubernetes#16941)", "v1.1.x")
        .to(K::QuotaExceeded, "quota-near-limit", Warning)
        .says("a ResourceQuota allows {hard} {resource}, {used} is used and the pod asks {requested} more", "raise the quota or free usage in the namespace")
        .samples(&[("resource", "cpu"), ("hard", "200m"), ("used", "200m"), ("requested", "100m.")]),
    Entry::new("quota.v1.0-must-request", F::Admission,
        "must make a non-zero request for {resource:w} since it is tracked by quota",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage)", "v1.0-v1.1.0")
        .to(K::QuotaMustSpecify, "quota-without-limitrange", Error)
        .says("a ResourceQuota tracks {resource}, which the pod does not request", "give the namespace a LimitRange with a default for {resource}")
        .samples(&[("resource", "memory")]),
    Entry::new("quota.v1.0-exceeding", F::Admission,
        "unable to admit pod without exceeding quota for resource {resource:w}:{sep}limited to {hard:w} but require {required:w} to succeed",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage)", "v1.0-v1.1.0")
        .to(K::QuotaExceeded, "quota-near-limit", Warning)
        .says("a ResourceQuota allows {hard} {resource} and the namespace would need {required} with this pod", "raise the quota or free usage in the namespace")
        .samples(&[("resource", "cpu"), ("sep", "  "), ("hard", "2"), ("required", "2500m")]),
    Entry::new("quota.v1.0-count", F::Admission,
        "is forbidden: limited to {hard:w} {resource:w}",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage)", "v1.0-v1.1.0")
        .to(K::QuotaExceeded, "quota-near-limit", Warning)
        .says("a ResourceQuota allows {hard} {resource}, all in use", "raise the quota or delete objects in the namespace")
        .samples(&[("hard", "10"), ("resource", "pods")]),
    Entry::new("quota.v1.1-count", F::Admission,
        "is forbidden: Limited to {hard:w} {resource:w}",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage; kubernetes#16941)", "v1.1.x")
        .to(K::QuotaExceeded, "quota-near-limit", Warning)
        .says("a ResourceQuota allows {hard} {resource}, all in use", "raise the quota or delete objects in the namespace")
        .samples(&[("hard", "10"), ("resource", "pods")]),
    Entry::new("quota.v1.0-stats-unknown-pod", F::Admission,
        "unable to admit pod until quota usage stats are calculated",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage)", "v1.0-v1.1")
        .to(K::QuotaStatusUnknown, "gpu-resource-name-mismatch", Warning)
        .says("the quota controller (kube-controller-manager) has not computed the namespace's ResourceQuota usage yet, so admission refuses pods", "check that kube-controller-manager runs (its resourcequota controller fills status.used; `kubectl describe resourcequota` shows Used); pods are admitted once it has"),
    Entry::new("quota.v1.0-stats-unknown", F::Admission,
        "quota usage stats are not yet known, unable to admit resource until an accurate count is completed",
        K8S, "plugin/pkg/admission/resourcequota/admission.go (IncrementUsage)", "v1.0-v1.1")
        .to(K::QuotaStatusUnknown, "gpu-resource-name-mismatch", Warning)
        .says("the quota controller (kube-controller-manager) has not counted the namespace's objects for its ResourceQuota yet, so admission refuses new objects", "check that kube-controller-manager runs (its resourcequota controller fills status.used; `kubectl describe resourcequota` shows Used); objects are admitted once it has"),
    // the limitedResources of the API server's ResourceQuota admission configuration
    // (`--admission-control-config-file`, v1.9+): consuming a listed resource needs a covering
    // quota (staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go
    // CheckRequest); and a negative request
    Entry::new("quota.insufficient-to-consume", F::Admission,
        "insufficient quota to consume: {resources:w}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (CheckRequest; v1.9-v1.14 plugin/pkg/admission/resourcequota)", "v1.9+")
        .to(K::Known, "priority-without-quota", Error)
        .says("the API server's ResourceQuota admission configuration (limitedResources) lets pods consume {resources} only in namespaces whose ResourceQuota names it, and this namespace has none that does", "create in the namespace a ResourceQuota whose spec.hard names {resources} (as much as the namespace may use), or remove the resource from the pod")
        .samples(&[("resources", "requests.nvidia.com/gpu")]),
    Entry::new("quota.usage-negative", F::Admission,
        "quota usage is negative for resource(s): {resources}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (CheckRequest)", "v1.8+")
        .to(K::Known, "quota-without-limitrange", Error)
        .says("the object asks a negative amount of {resources}, which the quota refuses", "fix the negative request in the pod or claim spec")
        .samples(&[("resources", "memory")]),
    // the API server's ResourceQuota admission configuration (`limitedResources` with
    // `matchScopes`, kube-apiserver --admission-control-config-file) requires a covering quota:
    // GKE limits the system-node-critical / system-cluster-critical classes to namespaces with
    // a ResourceQuota whose scopeSelector names them (kubernetes.io "Limit Priority Class
    // consumption by default")
    Entry::new("quota.insufficient-scopes", F::Admission,
        "insufficient quota to match these scopes: {scopes}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go (CheckRequest)", "v1.11+")
        .to(K::Known, "priority-without-quota", Warning)
        .says("the API server's ResourceQuota admission configuration limits pods matching {scopes} (limitedResources: PriorityClass scopes; GKE sets it for system-node-critical and system-cluster-critical) to namespaces that have a ResourceQuota whose scopeSelector covers them, and this namespace has none, so the controller cannot create its pods", "create in the workload's namespace a ResourceQuota with a scopeSelector matching those scopes (spec.scopeSelector.matchExpressions: scopeName PriorityClass, operator In, values as in the message; hard pods as many as the workload needs), or run the workload in kube-system, or give it a PriorityClass that is not limited")
        .samples(&[("scopes", "[{PriorityClass In [system-node-critical system-cluster-critical]}]")]),
    // LimitRanger (plugin/pkg/admission/limitranger/admission.go: minConstraint, maxConstraint,
    // maxRequestConstraint, limitRequestRatioConstraint); up to about v1.11 every text ends
    // with `.`; `limitrange-rejected` reads every violation of the line itself
    Entry::new("limitrange.minimum", F::Admission,
        "minimum {resource:w} usage per {type:w} is {value:w}, but {which:w} is {actual:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go", "v1.0+")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's min {resource} per {type} is {value}, the {which} is {actual}", "raise the {which} or lower the LimitRange's min")
        .samples(&[("resource", "memory"), ("type", "Container"), ("value", "204Mi"), ("which", "request"), ("actual", "60Mi")]),
    Entry::new("limitrange.maximum", F::Admission,
        "maximum {resource:w} usage per {type:w} is {value:w}, but {which:w} is {actual:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go", "v1.0+")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's max {resource} per {type} is {value}, the {which} is {actual}", "lower the {which} or raise the LimitRange's max")
        .samples(&[("resource", "memory"), ("type", "Container"), ("value", "4Gi"), ("which", "limit"), ("actual", "8Gi")]),
    Entry::new("limitrange.minimum-unset", F::Admission,
        "minimum {resource:w} usage per {type:w} is {value}No request is specified",
        K8S, "plugin/pkg/admission/limitranger/admission.go", "v1.0+")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's min {resource} per {type} is {value} and no request is set", "set the request")
        .samples(&[("resource", "cpu"), ("type", "Container"), ("value", "100m.  ")]),
    Entry::new("limitrange.maximum-unset", F::Admission,
        "maximum {resource:w} usage per {type:w} is {value}No {which:w} is specified",
        K8S, "plugin/pkg/admission/limitranger/admission.go", "v1.0+")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's max {resource} per {type} is {value} and no {which} is set", "set the {which}")
        .samples(&[("resource", "cpu"), ("type", "Container"), ("value", "2.  "), ("which", "limit")]),
    Entry::new("limitrange.ratio", F::Admission,
        "{resource:w} max limit to request ratio per {type:w} is {value:w}, but {rest}",
        K8S, "plugin/pkg/admission/limitranger/admission.go", "v1.0+")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's maxLimitRequestRatio for {resource} per {type} is {value}: {rest}", "bring limit/request within the ratio")
        .samples(&[("resource", "cpu"), ("type", "Container"), ("value", "2"), ("rest", "provided ratio is 4.000000")]),
    // Older wordings of the same LimitRanger checks. v1.1-v1.10 (and OpenShift 3.x) printed
    // them capitalised with a final `.` (`Minimum %s usage per %s is %s, but %s is %s.`,
    // `... is %s.  No %s is specified.`); v1.0's `PodLimitFunc` compared only the limits and
    // printed `%simum memory usage per pod is %s`, `%simum CPU usage per container is %s` and,
    // for cpu per pod, `%simum CPU usage per pod is %s, but requested %s` (min/max spelled
    // `Min`/`Max`, the type lower-case: plugin/pkg/admission/limitranger/admission.go at
    // v1.0). `limitrange-rejected` reads every wording's violations itself.
    Entry::new("limitrange.minimum-capitalised", F::Admission,
        "Minimum {resource:w} usage per {type:w} is {value:w}, but {which:w} is {actual:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go (minConstraint)", "v1.1-v1.10, OpenShift 3.x")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's min {resource} per {type} is {value}, the {which} is {actual}", "raise the {which} or lower the LimitRange's min")
        .samples(&[("resource", "cpu"), ("type", "Container"), ("value", "100m"), ("which", "request"), ("actual", "50m.")]),
    Entry::new("limitrange.maximum-capitalised", F::Admission,
        "Maximum {resource:w} usage per {type:w} is {value:w}, but {which:w} is {actual:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go (maxConstraint)", "v1.1-v1.10, OpenShift 3.x")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's max {resource} per {type} is {value}, the {which} is {actual}", "lower the {which} or raise the LimitRange's max")
        .samples(&[("resource", "cpu"), ("type", "Pod"), ("value", "2"), ("which", "limit"), ("actual", "3.")]),
    Entry::new("limitrange.minimum-unset-capitalised", F::Admission,
        "Minimum {resource:w} usage per {type:w} is {value}No request is specified",
        K8S, "plugin/pkg/admission/limitranger/admission.go (minConstraint)", "v1.1-v1.10, OpenShift 3.x")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's min {resource} per {type} is {value} and no request is set", "set the request")
        .samples(&[("resource", "cpu"), ("type", "Container"), ("value", "100m.  ")]),
    Entry::new("limitrange.maximum-unset-capitalised", F::Admission,
        "Maximum {resource:w} usage per {type:w} is {value}No {which:w} is specified",
        K8S, "plugin/pkg/admission/limitranger/admission.go (maxConstraint)", "v1.1-v1.10, OpenShift 3.x")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's max {resource} per {type} is {value} and no {which} is set", "set the {which}")
        .samples(&[("resource", "memory"), ("type", "Container"), ("value", "1Gi.  "), ("which", "limit")]),
    Entry::new("limitrange.v1.0-cpu-per-pod", F::Admission,
        "imum CPU usage per pod is {value:w}, but requested {actual:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go (PodLimitFunc)", "v1.0")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange bounds the pod's summed cpu limits at {value}, the pod's limits sum to {actual}", "bring the containers' cpu limits within the LimitRange")
        .samples(&[("value", "2"), ("actual", "3")]),
    Entry::new("limitrange.v1.0-min", F::Admission,
        "Minimum {resource:w} usage per {type:w} is {value:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go (PodLimitFunc)", "v1.0")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's min {resource} per {type} is {value}, and the limits are below it", "raise the limits to at least {value}")
        .samples(&[("resource", "memory"), ("type", "pod"), ("value", "6Mi")]),
    Entry::new("limitrange.v1.0-max", F::Admission,
        "Maximum {resource:w} usage per {type:w} is {value:w}",
        K8S, "plugin/pkg/admission/limitranger/admission.go (PodLimitFunc)", "v1.0")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a LimitRange's max {resource} per {type} is {value}, and the limits exceed it", "lower the limits to at most {value}")
        .samples(&[("resource", "memory"), ("type", "container"), ("value", "500Mi")]),
    // Dynamic Resource Allocation fields the API server or kubectl does not know: the
    // server's field validation (apimachinery `strict decoding error: unknown field "<path>"`
    // in Strict mode, `Warning: unknown field "<path>"` in Warn mode, k8s.io/apiserver
    // pkg/endpoints/handlers/fieldmanager / apimachinery pkg/runtime/serializer, v1.25+) and
    // kubectl's client-side OpenAPI validation before v1.25 (`ValidationError(Pod.spec):
    // unknown field "resourceClaims" in io.k8s.api.core.v1.PodSpec`, k8s.io/kubectl
    // pkg/util/openapi/validation). PodSpec.resourceClaims and ResourceRequirements.claims
    // exist from v1.26 (pkg/apis/core/types.go); an API server with the
    // DynamicResourceAllocation gate off keeps them out silently (pkg/api/pod/util.go
    // dropDisabledDynamicResourceAllocationFields).
    Entry::new("dra.unknown-field-resource-claims-client", F::Client,
        "unknown field \"resourceClaims\" in io.k8s.api.core.v1.PodSpec",
        K8S, "staging/src/k8s.io/kubectl/pkg/util/openapi/validation (client-side validation before v1.25); field from pkg/apis/core/types.go v1.26", "kubectl before v1.25 with a v1.26+ manifest")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("kubectl's schema does not know the pod's DRA field resourceClaims: the kubectl (or the server's OpenAPI it validates against) predates Dynamic Resource Allocation (Kubernetes before v1.26)", "upgrade kubectl and the control plane to a release with DRA (v1.26 alpha with the DynamicResourceAllocation feature gate and the resource.k8s.io API in --runtime-config, v1.32 beta, v1.34 GA), or request the device through the device plugin's extended resource (limits: nvidia.com/gpu) instead; `kubectl version` shows both versions"),
    Entry::new("dra.unknown-field-container-claims-client", F::Client,
        "unknown field \"claims\" in io.k8s.api.core.v1.ResourceRequirements",
        K8S, "staging/src/k8s.io/kubectl/pkg/util/openapi/validation (client-side validation before v1.25); field from pkg/apis/core/types.go v1.26", "kubectl before v1.25 with a v1.26+ manifest")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("kubectl's schema does not know the containers' DRA field resources.claims: it predates Dynamic Resource Allocation (Kubernetes before v1.26)", "upgrade kubectl and the control plane to a release with DRA (v1.26+ with the DynamicResourceAllocation feature gate, v1.34+ on by default), or request the device through the device plugin's extended resource (limits: nvidia.com/gpu) instead"),
    Entry::new("dra.unknown-field-resource-claims", F::Client,
        "unknown field \"{path:w}resourceClaims\"",
        K8S, "staging/src/k8s.io/apimachinery/pkg/runtime/serializer (strict decoding), staging/src/k8s.io/kubectl/pkg/util/openapi/validation; field from pkg/apis/core/types.go v1.26", "v1.26+ manifests on older servers")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("the API server (or kubectl's schema) does not know the pod's DRA field {path}resourceClaims: it predates Dynamic Resource Allocation (Kubernetes before v1.26), so the ResourceClaims are dropped or refused and the pod can never get its device", "upgrade the control plane (and kubectl) to a release with DRA (v1.26 alpha with the DynamicResourceAllocation feature gate and the resource.k8s.io API in --runtime-config, v1.32 beta, v1.34 GA), or request the device through the device plugin's extended resource (limits: nvidia.com/gpu) instead; `kubectl version` shows both versions")
        .samples(&[("path", "spec.")]),
    Entry::new("dra.unknown-field-container-claims", F::Client,
        "unknown field \"{path:w}claims\"",
        K8S, "staging/src/k8s.io/apimachinery/pkg/runtime/serializer (strict decoding), staging/src/k8s.io/kubectl/pkg/util/openapi/validation; field from pkg/apis/core/types.go v1.26", "v1.26+ manifests on older servers")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("the API server (or kubectl's schema) does not know the containers' DRA field {path}claims (resources.claims): it predates Dynamic Resource Allocation (Kubernetes before v1.26), so the container is not given its ResourceClaim", "upgrade the control plane (and kubectl) to a release with DRA (v1.26+ with the DynamicResourceAllocation feature gate, v1.34+ on by default), or request the device through the device plugin's extended resource (limits: nvidia.com/gpu) instead")
        .samples(&[("path", "spec.containers[0].resources.")]),
    // A resource.k8s.io kind or version the API server does not serve (kubectl's REST mapper,
    // k8s.io/apimachinery pkg/api/meta NoKindMatchError: `no matches for kind %q in version
    // %q`): DRA's API group is off (--runtime-config, feature gate) or the driver's manifests
    // are for another release (v1alpha2 in v1.26-v1.30, v1alpha3 v1.31, v1beta1 v1.32+,
    // v1beta2 v1.33+, v1 v1.34+).
    Entry::new("dra.kind-not-served", F::Client,
        "no matches for kind \"{kind:w}\" in version \"resource.k8s.io/{version}\"",
        K8S, "staging/src/k8s.io/apimachinery/pkg/api/meta/errors.go (NoKindMatchError)", "v1.26+ manifests")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("the API server does not serve {kind} in resource.k8s.io/{version}: the DRA API group is not enabled (--runtime-config=resource.k8s.io/{version}=true and the DynamicResourceAllocation feature gate before v1.34), or the manifests were written for another Kubernetes release (v1alpha2 in v1.26-v1.30, v1alpha3 in v1.31, v1beta1 from v1.32, v1beta2 from v1.33, v1 from v1.34), so no ResourceClaim exists for the pods", "`kubectl api-versions | grep resource.k8s.io` lists what the server serves: use the DRA driver release (Helm chart) made for this Kubernetes version, or enable the API group and feature gate on kube-apiserver, kube-controller-manager, kube-scheduler and the kubelets")
        .samples(&[("kind", "ResourceClaimTemplate"), ("version", "v1beta1")]),
    // The NVIDIA DRA driver's own parameter kinds of its classic-DRA releases (GpuClaimParameters,
    // MigDeviceClaimParameters, ComputeDomain... in gpu.resource.nvidia.com/v1alpha1, CRDs of
    // NVIDIA/k8s-dra-driver deployments/helm up to v0.1; the structured-parameters releases
    // (v25.x) dropped the claim-parameter CRDs): a demo spec of another driver release.
    Entry::new("dra.nvidia-driver-crd-not-served", F::Client,
        "no matches for kind \"{kind:w}\" in version \"gpu.resource.nvidia.com/{version}\"",
        "NVIDIA/k8s-dra-driver", "deployments/helm/k8s-dra-driver/crds (gpu.resource.nvidia.com CRDs), apimachinery pkg/api/meta/errors.go (NoKindMatchError)", "driver v0.1 (classic DRA) specs on other releases")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("the cluster has no {kind} kind in gpu.resource.nvidia.com/{version}: the spec was written for the NVIDIA DRA driver's classic-DRA releases (claim parameters as CRDs, Kubernetes v1.26-v1.30), while the installed driver release does not install that CRD (structured parameters: requests with deviceClassName, selectors and config in the ResourceClaim itself), so the claims that use it are never created", "use the demo specs of the installed driver release (the same tag as the Helm chart), or install the driver release the specs were written for; `kubectl get crd | grep gpu.resource.nvidia.com` lists what the installed driver serves")
        .samples(&[("kind", "GpuClaimParameters"), ("version", "v1alpha1")]),
    // A pod claim entry that names neither a claim nor a template (pkg/apis/core/validation
    // validatePodResourceClaim, v1.28+ after the `source` struct was flattened): a manifest in
    // the v1.26-v1.27 alpha schema (`source: {resourceClaimTemplateName: x}`) loses `source` as
    // an unknown field on a newer server (kubernetes#131877).
    Entry::new("dra.pod-claim-names-nothing", F::Admission,
        "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
        K8S, "pkg/apis/core/validation/validation.go (validatePodResourceClaim)", "v1.28+")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("an entry of the pod's spec.resourceClaims names neither a ResourceClaim nor a ResourceClaimTemplate as the API server received it: the manifest most likely uses the v1.26-v1.27 alpha schema (`source: {resourceClaimTemplateName: ...}`), whose `source` field newer servers (v1.28+, where the names sit directly on the entry) do not know and drop, or a webhook removed the name; no pod is created", "write the entry as `- name: <name>` with `resourceClaimTemplateName: <template>` (or `resourceClaimName: <claim>`) directly under it, without `source:`; `kubectl apply --dry-run=server --validate=strict -f <manifest>` names the unknown field"),
    // A container names a claim the pod spec does not hold (pkg/apis/core/validation
    // validateResourceClaimNames: `<path>.claims[i]: Not found: "<name>": must be one of the
    // names in pod.spec.resourceClaims which is empty` or `...: <names>`).
    Entry::new("dra.claim-not-in-pod", F::Admission,
        "must be one of the names in pod.spec.resourceClaims{rest}",
        K8S, "pkg/apis/core/validation/validation.go (validateResourceClaimNames)", "v1.26+")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("a container's resources.claims names a claim that pod.spec.resourceClaims does not hold{rest}: when the manifest has both, something between kubectl and the API server dropped spec.resourceClaims, most often a mutating admission webhook built against Kubernetes API types older than v1.26 that re-encodes the whole pod (or the field was left out of the manifest)", "compare the manifest with `kubectl get mutatingwebhookconfigurations` and the webhooks' versions: upgrade (or exclude the namespace from) the webhook that re-writes pods; `kubectl create --dry-run=server -o yaml -f <manifest>` shows the pod as admission leaves it")
        .samples(&[("rest", " which is empty")]),
    // The kubelet has no DRA driver for the claim's allocation (pkg/kubelet/cm/dra/plugin:
    // `plugin name %s not found in the list of registered DRA plugins`, v1.26-v1.31; `plugin
    // %s not found in the list of registered DRA plugins or not connected` later).
    Entry::new("dra.kubelet-driver-not-registered", F::Kubelet,
        "{driver:w} not found in the list of registered DRA plugins",
        K8S, "pkg/kubelet/cm/dra/plugin/plugins_store.go, registration.go (NewDRAPluginClient)", "v1.26+")
        .to(K::Known, "pod-resource-claims-dropped", Error).group("dra-fields")
        .says("the kubelet cannot prepare the pod's ResourceClaim: DRA driver {driver} has not registered with the kubelet on this node (its kubelet-plugin pod is not running there, or registers under another name or a plugin directory the kubelet does not watch)", "check the DRA driver's kubelet-plugin DaemonSet pod on the node (`kubectl get pods -A -o wide | grep -i dra`) and its log; the socket appears in /var/lib/kubelet/plugins_registry/ once it registers")
        .samples(&[("driver", "gpu.nvidia.com")]),
    // API validation of a container's resources (pkg/apis/core/validation/validation.go
    // `ValidateResourceRequirements`, v1.2+; `... limit of <q>` appended in newer releases):
    // a request above the limit. With a LimitRange the limit is often not the pod's own: the
    // LimitRanger fills a missing limit from the LimitRange's `default` before validation, so
    // a request above that default is refused.
    Entry::new("validation.request-above-limit", F::Admission,
        "Invalid value: {value}: must be less than or equal to {resource:w} limit",
        K8S, "pkg/apis/core/validation/validation.go (ValidateResourceRequirements; v1.2-v1.8 pkg/api/validation)", "v1.2+")
        .to(K::Known, "limitrange-rejected", Error).group("limitrange")
        .says("a container's {resource} request ({value}) is above its {resource} limit; when the container sets no limit, the namespace's LimitRange default limit is filled in at admission and the request must not exceed it", "set limits.{resource} on the container at or above its request, or raise the LimitRange's default {resource} limit (`kubectl get limitrange -o yaml`)")
        .samples(&[("value", "\"2\""), ("resource", "cpu")]),
    // API validation of an extended resource (pkg/apis/core/validation/validation.go
    // `ValidateResourceRequirements` with helper `IsOvercommitAllowed` /
    // `IsIntegerResourceName`): a resource that may not be overcommitted needs request ==
    // limit (`must be equal to <res> limit`, v1.8+, ` of <limit>` appended in newer releases;
    // v1.6-v1.7 said it of alpha.kubernetes.io/nvidia-gpu only), a limit whenever it has a
    // request, and a whole quantity.
    Entry::new("validation.extended-request-not-limit", F::Admission,
        "Invalid value: {value}: must be equal to {resource:w} limit",
        K8S, "pkg/apis/core/validation/validation.go (ValidateResourceRequirements; v1.6-v1.8 pkg/api/validation)", "v1.6+")
        .to(K::Known, "pod-extended-resource-invalid", Error).group("validation-extended")
        .says("the container's {resource} request ({value}) differs from its {resource} limit: {resource} is an extended resource, which cannot be overcommitted, so its request must equal its limit", "set requests.{resource} equal to limits.{resource} in the container, or drop the request and keep only limits.{resource} (the API server copies a limit into a missing request); when the workload's template already has them equal, remove the LimitRange default or defaultRequest for {resource} that changes the pod at admission (`kubectl get limitrange -n <namespace> -o yaml`)")
        .samples(&[("value", "\"1\""), ("resource", "nvidia.com/gpu")]),
    Entry::new("validation.extended-limit-required", F::Admission,
        "Required value: Limit must be set for non overcommitable resources",
        K8S, "pkg/apis/core/validation/validation.go (ValidateResourceRequirements; kubernetes#57170)", "v1.10+")
        .to(K::Known, "pod-extended-resource-invalid", Error).group("validation-extended")
        .says("a container requests an extended resource (or hugepages) without a limit: such a resource cannot be overcommitted, so it needs a limit equal to the request", "put the extended resource under limits (nvidia.com/gpu: N), with or without the same value under requests"),
    Entry::new("validation.extended-not-integer", F::Admission,
        ".resources.{field:w}: Invalid value: {value}: must be an integer",
        K8S, "pkg/apis/core/validation/validation.go (ValidateResourceQuantityValue, IsIntegerResourceName)", "v1.8+")
        .to(K::Known, "pod-extended-resource-invalid", Error).group("validation-extended")
        .says("a container asks for a fractional extended resource ({field} = {value}): extended resources are counted in whole devices", "give the extended resource a whole number; to share one GPU among pods use the device plugin's time-slicing or MPS, MIG, or a sharing scheduler (HAMi) and its own resource names")
        .samples(&[("field", "requests[nvidia.com/gpu]"), ("value", "\"500m\"")]),
    // the Priority admission plugin (kubernetes/kubernetes
    // plugin/pkg/admission/priority/admission.go `admitPod`, `validatePriorityClass`) and the
    // PriorityClass validation (pkg/apis/scheduling/validation/validation.go
    // `ValidatePriorityClass`); `priority-class-rejected` reads the class, the namespace and the
    // workload and explains each
    Entry::new("priority.class-not-found", F::Admission,
        "no PriorityClass with name {class:w} was found",
        K8S, "plugin/pkg/admission/priority/admission.go (admitPod)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the pods name priorityClassName {class}, which no PriorityClass has", "create PriorityClass {class} or fix priorityClassName in the pod template")
        .samples(&[("class", "high-priority")]),
    // the plugin's own lookups failing (an internal error, not the manifest's): `failed to get
    // default priority class: %v` (admitPod without priorityClassName, validatePriorityClass of a
    // globalDefault class), `failed to get PriorityClass with name %s: %v` (admitPod); an inner
    // error the catalog knows (etcd's `request timed out`) is concluded by its own entry
    Entry::new("priority.class-lookup-failed", F::Admission,
        "failed to get PriorityClass with name {class:w}: {error}",
        K8S, "plugin/pkg/admission/priority/admission.go (admitPod)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the Priority admission plugin could not read PriorityClass {class}: {error}", "check the API server and its storage (`kubectl get --raw='/readyz?verbose'`, `kubectl get priorityclass {class}`), then retry")
        .samples(&[("class", "high-priority"), ("error", "informer not synced")]),
    Entry::new("priority.default-class-lookup-failed", F::Admission,
        "failed to get default priority class: {error}",
        K8S, "plugin/pkg/admission/priority/admission.go (admitPod, validatePriorityClass)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the Priority admission plugin could not list the PriorityClasses to find the globalDefault one: {error}", "check the API server and its storage (`kubectl get --raw='/readyz?verbose'`, `kubectl get priorityclass`), then retry")
        .samples(&[("error", "informer not synced")]),
    Entry::new("priority.not-permitted-in-namespace", F::Admission,
        "pods with {class:w} priorityClass is not permitted in {namespace:w} namespace",
        K8S, "plugin/pkg/admission/priority/admission.go (priorityClassPermittedInNamespace)", "v1.11-v1.16")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the system class {class} is only admitted in kube-system, not in {namespace}", "run the workload in kube-system or give it a PriorityClass of its own")
        .samples(&[("class", "system-cluster-critical"), ("namespace", "monitoring")]),
    Entry::new("priority.value-in-spec", F::Admission,
        "the integer value of priority ({given:w}) must not be provided in pod spec; priority admission controller computed {computed:w} from the given PriorityClass name",
        K8S, "plugin/pkg/admission/priority/admission.go (admitPod)", "v1.12+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the pod template sets spec.priority {given}, its PriorityClass gives {computed}", "remove spec.priority from the pod template")
        .samples(&[("given", "1000"), ("computed", "0")]),
    Entry::new("priority.value-in-spec-v1.8", F::Admission,
        "the integer value of priority must not be provided in pod spec",
        K8S, "plugin/pkg/admission/priority/admission.go (admitPod)", "v1.8-v1.11")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the pod template sets spec.priority, which the Priority admission plugin fills itself", "remove spec.priority from the pod template"),
    Entry::new("priority.preemption-policy-in-spec", F::Admission,
        "the string value of PreemptionPolicy ({given:w}) must not be provided in pod spec; priority admission controller computed {computed:w} from the given PriorityClass name",
        K8S, "plugin/pkg/admission/priority/admission.go (admitPod)", "v1.19+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the pod template sets spec.preemptionPolicy {given}, its PriorityClass gives {computed}", "remove spec.preemptionPolicy from the pod template")
        .samples(&[("given", "Never"), ("computed", "PreemptLowerPriority")]),
    Entry::new("priority.class-reserved-name", F::Admission,
        "priority class names with 'system-' prefix are reserved for system use only",
        K8S, "pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass)", "v1.11+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("a PriorityClass named system-* that is not one of the two built-in classes is refused", "name the PriorityClass without the system- prefix"),
    Entry::new("priority.class-reserved-name-v1.8", F::Admission,
        "the name of the priority class is a reserved name for system use only: {class:w}",
        K8S, "plugin/pkg/admission/priority/admission.go (validatePriorityClass)", "v1.8-v1.10")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the PriorityClass name {class} is reserved for the built-in classes", "name the PriorityClass differently")
        .samples(&[("class", "system-cluster-critical")]),
    Entry::new("priority.class-value-too-high", F::Admission,
        "maximum allowed value of a user defined priority is {max:w}",
        K8S, "pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass; v1.8-v1.10 the admission plugin)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("a user-defined PriorityClass value may be at most {max}", "give the PriorityClass a value of at most {max}")
        .samples(&[("max", "1000000000")]),
    Entry::new("priority.class-second-default", F::Admission,
        "PriorityClass {class:w} is already marked as default. Only one default can exist",
        K8S, "plugin/pkg/admission/priority/admission.go (validatePriorityClass)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("PriorityClass {class} is already the globalDefault", "set globalDefault: false on the new PriorityClass, or unset it on {class} first")
        .samples(&[("class", "default-priority")]),
    // The alpha PodPriority feature (v1.8-v1.10): pod validation refused spec.priorityClassName
    // and spec.priority while the PodPriority gate was off in the validating component
    // (pkg/api/validation/validation.go `ValidatePodSpec`: `field.Forbidden(...,"Pod priority is
    // disabled by feature-gate")`, v1.8-v1.9; v1.10 drops the fields instead). With the gate and
    // the Priority admission plugin on in the API server, the plugin fills spec.priority of
    // every pod, and a kubelet without the gate refuses each one it receives (pkg/kubelet/config/
    // config.go `filterInvalidPods`: `Error validating pod %s from %s, ignoring: %v`,
    // kubernetes#55583); the kubelet's wording first.
    Entry::new("priority.feature-gate-disabled-kubelet", F::Admission,
        "Error validating pod {pod:w} from {source:w}, ignoring: {errors}Pod priority is disabled by feature-gate",
        K8S, "pkg/kubelet/config/config.go (filterInvalidPods) + pkg/api/validation/validation.go (ValidatePodSpec)", "v1.8-v1.9")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the kubelet refuses pod {pod}: it carries spec.priority / spec.priorityClassName (set by the Priority admission plugin of an API server with PodPriority on) while the kubelet runs without the PodPriority feature gate", "enable --feature-gates=PodPriority=true on every kubelet (as on kube-apiserver and kube-scheduler), or turn the Priority admission plugin off")
        .samples(&[("pod", "nginx_default(00000000-0000-0000-0000-000000000000)"), ("source", "api"), ("errors", "[spec.priorityClassName: Forbidden: ")]),
    Entry::new("priority.feature-gate-disabled", F::Admission,
        "{field:w}: Forbidden: Pod priority is disabled by feature-gate",
        K8S, "pkg/api/validation/validation.go (ValidatePodSpec)", "v1.8-v1.9")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the pod sets {field} while the PodPriority feature gate is off in the component validating it", "enable --feature-gates=PodPriority=true on kube-apiserver, kube-scheduler and every kubelet (v1.8-v1.10), or remove priorityClassName/priority from the pod")
        .samples(&[("field", "spec.priorityClassName")]),
    // PriorityClass manifests of an API version the server does not serve:
    // scheduling.k8s.io/v1alpha1 (v1.8-v1.10, off unless --runtime-config enables it),
    // v1beta1 (v1.11+), v1 (v1.14+); kubectl's mapper error (staging/src/k8s.io/apimachinery/
    // pkg/api/meta/errors.go `NoKindMatchError`: `no matches for kind %q in version %q`) and
    // the 404 of a POST to a group that is off
    Entry::new("priority.api-not-served", F::Admission,
        "no matches for kind \"PriorityClass\" in version \"{version}\"",
        K8S, "staging/src/k8s.io/apimachinery/pkg/api/meta/errors.go (NoKindMatchError)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the API server does not serve PriorityClass in {version}", "use an apiVersion the server serves (`kubectl api-versions | grep scheduling`)")
        .samples(&[("version", "scheduling.k8s.io/v1alpha1")]),
    Entry::new("priority.api-not-served-post", F::Admission,
        "the server could not find the requested resource (post priorityclasses.scheduling.k8s.io)",
        K8S, "staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (NewGenericServerResponse 404)", "v1.8+")
        .to(K::Known, "priority-class-rejected", Error).group("priority")
        .says("the API server does not serve the scheduling.k8s.io version of the manifest", "use an apiVersion the server serves (`kubectl api-versions | grep scheduling`)"),
    // ------------------------------------------------------------------ kubelet admission
    // The kubelet re-checks a pod bound to its node before running it (pkg/kubelet/lifecycle/
    // predicate.go `Admit`, the scheduler's predicates run again): a failure marks the pod
    // Failed with reason `OutOf<resource>` and `Node didn't have enough resource: %s,
    // requested: %d, used: %d, capacity: %d` (InsufficientResourceError, plugin/pkg/scheduler/
    // algorithm/predicates/error.go v1.4-v1.18, then the lifecycle package), or the predicate's
    // name as reason and `Predicate %s failed` (`MatchNodeSelector`, `PodToleratesNodeTaints`,
    // `NodeAffinity`, `TaintToleration` in v1.19+). Such a pod was bound without the
    // scheduler's fit (spec.nodeName, a static pod, DaemonSet pods before v1.12) or the node
    // changed in between; it is not retried. Capacity 0: the node advertises none of it (an
    // extended resource whose device plugin has not registered).
    Entry::new("kubelet.admit.not-advertised", F::Kubelet,
        "Node didn't have enough resource: {resource:w}, requested: {requested:w}, used: {used:w}, capacity: 0",
        K8S, "pkg/kubelet/lifecycle/predicate.go (Admit; InsufficientResourceError)", "v1.4+")
        .to(K::Known, "node-overcommitted", Error).group("kubelet-admit")
        .says("the kubelet refused the pod (reason OutOf{resource}): the node advertises no {resource} (capacity 0) while the pod asks {requested}: the device plugin for {resource} is not registered on that node (not running, or not yet re-registered after a kubelet restart), and the pod was bound there without the scheduler's check (spec.nodeName) or before the node's status changed", "check the device-plugin pod on that node and `kubectl describe node <node>` (Capacity/Allocatable must list {resource}); do not set spec.nodeName by hand (use a nodeSelector so the scheduler checks resources); then delete the failed pods (`kubectl get pods -A --field-selector=status.phase=Failed`)")
        .samples(&[("resource", "nvidia.com/gpu"), ("requested", "1"), ("used", "0")]),
    Entry::new("kubelet.admit.insufficient", F::Kubelet,
        "Node didn't have enough resource: {resource:w}, requested: {requested:w}, used: {used:w}, capacity: {capacity:w}",
        K8S, "pkg/kubelet/lifecycle/predicate.go (Admit; InsufficientResourceError)", "v1.4+")
        .to(K::Known, "node-overcommitted", Error).group("kubelet-admit")
        .says("the kubelet refused the pod (reason OutOf{resource}): the node's pods already use {used} of its {capacity} {resource} (millicores for cpu, bytes for memory) and the pod asks {requested} more: it was bound to the node without the scheduler's fit check (spec.nodeName set, a static pod) or another pod took the room first", "let the scheduler place the pod (replace spec.nodeName with a nodeSelector), or free {resource} on that node; then delete the failed pods (`kubectl get pods -A --field-selector=status.phase=Failed`), which are never retried")
        .samples(&[("resource", "cpu"), ("requested", "4000"), ("used", "7200"), ("capacity", "8000")]),
    Entry::new("kubelet.admit.predicate-failed", F::Kubelet,
        "Predicate {predicate:w} failed",
        K8S, "pkg/kubelet/lifecycle/predicate.go (Admit; PredicateFailureError)", "v1.4+")
        .to(K::Known, "pod-unschedulable", Error).group("kubelet-admit")
        .says("the kubelet refused the pod after it was bound to the node: the {predicate} check (node selector / node affinity, taints, host ports) fails there; most often right after the node rebooted or its kubelet restarted, when the kubelet re-admits its pods before it has read its own Node object's labels (kubernetes/kubernetes#71907, #80745: the controllers create replacement pods), otherwise the pod was bound without the scheduler's check (spec.nodeName set by hand or by a controller, a static pod) or the node's labels or taints changed before it started; the pod is marked Failed and not retried", "compare the pod's nodeSelector, affinity and tolerations with the node (`kubectl get node <node> --show-labels`, `kubectl describe node <node> | grep Taints`); do not set spec.nodeName by hand; then delete the failed pods (`kubectl get pods -A --field-selector=status.phase=Failed`)")
        .samples(&[("predicate", "MatchNodeSelector")]),
    // the kubelet's Topology Manager (pkg/kubelet/cm/topologymanager/scope.go,
    // `ErrorTopologyAffinity`, reason TopologyAffinityError, v1.18+): with the
    // single-numa-node or restricted policy the pod's devices and CPUs cannot be aligned
    Entry::new("kubelet.admit.topology-affinity", F::Kubelet,
        "Resources cannot be allocated with Topology locality",
        K8S, "pkg/kubelet/cm/topologymanager/scope.go (ErrorTopologyAffinity)", "v1.18+")
        .to(K::Known, "pod-unschedulable", Error).group("kubelet-admit")
        .says("the kubelet's Topology Manager refused the pod (reason TopologyAffinityError): with its single-numa-node or restricted policy the pod's GPUs (or other devices) and exclusive CPUs cannot all come from one NUMA node of the node it was bound to; the scheduler does not see NUMA topology, so it keeps placing such pods there", "request fewer devices or CPUs per pod (what one NUMA node holds), free the devices of that NUMA node, or relax the kubelet's --topology-manager-policy (best-effort); then delete the failed pods (`kubectl get pods -A --field-selector=status.phase=Failed`)"),
    // kube-scheduler sentences that stand without a `0/N nodes are available` header: v1.4-v1.9
    // volume predicates stopped at an unbound claim (`PersistentVolumeClaim is not bound: %q`,
    // plugin/pkg/scheduler/algorithm/predicates/predicates.go), and the VolumeBinding check's
    // own status given as the event message (`pod has unbound PersistentVolumeClaims`
    // v1.10-v1.11, `pod has unbound immediate PersistentVolumeClaims` v1.12+:
    // pkg/scheduler/framework/plugins/volumebinding, earlier pkg/scheduler/core)
    Entry::new("scheduler.pvc-not-bound", F::KubeScheduler,
        "PersistentVolumeClaim is not bound: {claim:w}",
        K8S, "plugin/pkg/scheduler/algorithm/predicates/predicates.go", "v1.4-v1.9")
        .to(K::Known, "pod-unschedulable", Warning).group("scheduler-volume")
        .says("the scheduler places the pod nowhere: its PersistentVolumeClaim {claim} is not bound (no PersistentVolume matches it and no provisioner creates one: no storageClassName and no default StorageClass, or the class's provisioner is not running)", "bind the claim: set a storageClassName with a working provisioner (or mark one StorageClass default), or create a matching PersistentVolume")
        .samples(&[("claim", "\"data-0\"")]),
    Entry::new("scheduler.unbound-immediate-claims", F::KubeScheduler,
        "pod has unbound immediate PersistentVolumeClaims",
        K8S, "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (v1.12-v1.18 pkg/scheduler/core)", "v1.12+")
        .to(K::Known, "pod-unschedulable", Warning).group("scheduler-volume")
        .says("the scheduler places the pod nowhere: a PersistentVolumeClaim of the pod (volumeBindingMode Immediate) is unbound (no PersistentVolume matches it and no provisioner creates one: no storageClassName and no default StorageClass, or the class's provisioner is not running)", "bind the claim: set a storageClassName with a working provisioner (or mark one StorageClass default), or create a matching PersistentVolume"),
    Entry::new("scheduler.unbound-claims", F::KubeScheduler,
        "pod has unbound PersistentVolumeClaims",
        K8S, "pkg/scheduler/core/generic_scheduler.go", "v1.10-v1.11")
        .to(K::Known, "pod-unschedulable", Warning).group("scheduler-volume")
        .says("the scheduler places the pod nowhere: a PersistentVolumeClaim of the pod is unbound (no PersistentVolume matches it and no provisioner creates one)", "bind the claim: set a storageClassName with a working provisioner (or mark one StorageClass default), or create a matching PersistentVolume"),
    // kube-scheduler FitError sentences of v1.0-v1.9, before the `0/N nodes are available`
    // header (plugin/pkg/scheduler/generic_scheduler.go `FitError.Error`, v1.1 `FitResult`;
    // plugin/pkg/scheduler/core/generic_scheduler.go from v1.7, pkg/scheduler/core in v1.9).
    // The scheduler grammar (cube_quota::schedmsg, "Before v1.10") reads them and
    // `pod-unschedulable` concludes; these entries record the wordings, their sources and
    // versions (no signal of their own: kind None)
    Entry::new("scheduler.v1.0-failed-for-reason", F::KubeScheduler,
        "Failed for reason {reason:w} and possibly others",
        K8S, "plugin/pkg/scheduler/generic_scheduler.go (FitError.Error; v1.1 FitResult.Error)", "v1.0-v1.1")
        .samples(&[("reason", "PodFitsResources")]),
    Entry::new("scheduler.v1.2-failed-to-fit", F::KubeScheduler,
        "pod ({pod:w}) failed to fit in any node",
        K8S, "plugin/pkg/scheduler/generic_scheduler.go (FitError.Error)", "v1.2-v1.5")
        .samples(&[("pod", "web-1")]),
    Entry::new("scheduler.v1.2-failed-to-fit-quoted", F::KubeScheduler,
        "pod failed to fit in any node",
        K8S, "plugin/pkg/scheduler/generic_scheduler.go (FitError.Error, quoted without the pod's name: issue titles, OpenShift 1.5-era reports)", "v1.2-v1.5"),
    Entry::new("scheduler.v1.2-fit-failure-on-node", F::KubeScheduler,
        "fit failure on node ({node:w}): {reasons}",
        K8S, "plugin/pkg/scheduler/generic_scheduler.go (FitError.Error: one line per node; v1.2 predicate names joined by `,`, v1.4 reasons by `, `)", "v1.2-v1.4")
        .samples(&[("node", "node-01"), ("reasons", "Insufficient cpu")]),
    Entry::new("scheduler.v1.5-fit-failure-summary", F::KubeScheduler,
        "fit failure summary on nodes : {reasons}",
        K8S, "plugin/pkg/scheduler/generic_scheduler.go (FitError.Error)", "v1.5")
        .samples(&[("reasons", "Insufficient pods (2), PodToleratesNodeTaints (1)")]),
    Entry::new("scheduler.v1.6-no-nodes-match-following", F::KubeScheduler,
        "No nodes are available that match all of the following predicates:: {reasons}",
        K8S, "plugin/pkg/scheduler/core/generic_scheduler.go (FitError.Error; v1.6 plugin/pkg/scheduler/generic_scheduler.go)", "v1.6-v1.7")
        .samples(&[("reasons", "Insufficient cpu (18), MatchNodeSelector (18).")]),
    Entry::new("scheduler.v1.8-no-nodes-match", F::KubeScheduler,
        "No nodes are available that match all of the predicates: {reasons}",
        K8S, "plugin/pkg/scheduler/core/generic_scheduler.go (FitError.Error; v1.9 pkg/scheduler/core)", "v1.8-v1.9")
        .samples(&[("reasons", "Insufficient nvidia.com/gpu (3), PodToleratesNodeTaints (1).")]),
    Entry::new("scheduler.no-nodes-available", F::KubeScheduler,
        "no nodes available to schedule pods",
        K8S, "plugin/pkg/scheduler/generic_scheduler.go (ErrNoNodesAvailable; later pkg/scheduler/core/generic_scheduler.go, pkg/scheduler/schedule_one.go)", "v1.0+"),
    // ------------------------------------------------------------------ node autoscalers
    // kubernetes/autoscaler cluster-autoscaler: the NotTriggerScaleUp event (processors/status/
    // eventing_scale_up_processor.go: `pod didn't trigger scale-up: %s`, ReasonsMessage = `<n>
    // <reason>` per reason over the node groups, or `max total nodes in cluster reached`; the
    // skipped-group reasons of core/scaleup/orchestrator/skippedreasons.go; older releases
    // (core/scale_up.go) `pod didn't trigger scale-up (it wouldn't fit if a new node is
    // added)`, later followed by `: <reasons>`). `pod-unschedulable` reads the reasons
    // (rules/pod_unschedulable/autoscaler.rs).
    Entry::new("autoscaler.not-trigger-scale-up-wouldnt-fit", F::Autoscaler,
        "pod didn't trigger scale-up (it wouldn't fit if a new node is added)",
        "kubernetes/autoscaler", "cluster-autoscaler/core/scale_up.go", "cluster-autoscaler 0.5-1.1x")
        .to(K::Known, "pod-unschedulable", Warning).group("autoscaler")
        .says("the cluster autoscaler adds no node for the pod: a new node of no node group would fit it", "compare the pod's requests, selectors and tolerations with the node groups' instance types, labels and taints"),
    Entry::new("autoscaler.not-trigger-scale-up", F::Autoscaler,
        "pod didn't trigger scale-up:{reasons}",
        "kubernetes/autoscaler", "cluster-autoscaler/processors/status/eventing_scale_up_processor.go", "cluster-autoscaler 1.1x+")
        .to(K::Known, "pod-unschedulable", Warning).group("autoscaler")
        .says("the cluster autoscaler adds no node for the pod:{reasons}", "act on each node group reason")
        .samples(&[("reasons", " 2 max node group size reached")]),
    Entry::new("autoscaler.triggered-scale-up", F::Autoscaler,
        "pod triggered scale-up: {groups}",
        "kubernetes/autoscaler", "cluster-autoscaler/processors/status/eventing_scale_up_processor.go", "cluster-autoscaler 1.x")
        .complete().group("autoscaler")
        .samples(&[("groups", "[{gpu-pool 0->1 (max: 3)}]")]),
    // kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/scheduler.go
    // (addToNewNodeClaim: `all available instance types exceed limits for nodepool`, `node
    // limits have been exhausted for nodepool`, wrapped by serrors with `(NodePool=<name>)`;
    // v0.33-v0.3x printed `... for nodepool "<name>"`; the v1alpha5 Provisioner API before
    // v0.33 `... for provisioner "<name>"`) and nodeclaim.go (`incompatible with nodepool
    // "<name>", daemonset overhead=..., <reason>`), in the FailedScheduling event `Failed to
    // schedule pod, <errors joined by "; ">`.
    Entry::new("karpenter.exceed-limits", F::Autoscaler,
        "all available instance types exceed limits for nodepool",
        "kubernetes-sigs/karpenter", "pkg/controllers/provisioning/scheduling/scheduler.go (addToNewNodeClaim)", "v0.33+")
        .to(K::Known, "pod-unschedulable", Warning).group("karpenter")
        .says("Karpenter creates no node: the NodePool is at its spec.limits", "raise the NodePool's spec.limits"),
    Entry::new("karpenter.exceed-limits-provisioner", F::Autoscaler,
        "exceed limits for provisioner",
        "aws/karpenter", "pkg/controllers/provisioning/scheduling/scheduler.go", "v0.1x-v0.32")
        .to(K::Known, "pod-unschedulable", Warning).group("karpenter")
        .says("Karpenter creates no node: the Provisioner is at its spec.limits", "raise the Provisioner's spec.limits.resources"),
    Entry::new("karpenter.node-limits-exhausted", F::Autoscaler,
        "node limits have been exhausted for nodepool",
        "kubernetes-sigs/karpenter", "pkg/controllers/provisioning/scheduling/scheduler.go (addToNewNodeClaim)", "v1.x")
        .to(K::Known, "pod-unschedulable", Warning).group("karpenter")
        .says("Karpenter creates no node: the NodePool's limits.nodes is reached", "raise the NodePool's spec.limits.nodes"),
    Entry::new("karpenter.incompatible-nodepool", F::Autoscaler,
        "incompatible with nodepool {pool:w}, {rest}",
        "kubernetes-sigs/karpenter", "pkg/controllers/provisioning/scheduling/nodeclaim.go (CanAdd)", "v0.33+")
        .to(K::Known, "pod-unschedulable", Warning).group("karpenter")
        .says("NodePool {pool} cannot serve the pod: {rest}", "make the NodePool's requirements, taints and instance types fit the pod, or the pod's constraints fit a NodePool")
        .samples(&[("pool", "\"gpu\""), ("rest", "no instance type has enough resources")]),
    Entry::new("quota.status-unknown", F::Admission,
        "status unknown for quota: {quota}",
        K8S, "staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go", "v1.8+")
        .to(K::QuotaStatusUnknown, "gpu-resource-name-mismatch", Warning)
        .says("the quota controller has not computed ResourceQuota {quota}'s usage", "check kube-controller-manager and the quota's resource names"),
    Entry::new("pv.no-storage-class", F::Admission,
        "no persistent volumes available for this claim and no storage class is set",
        K8S, "pkg/controller/volume/persistentvolume/pv_controller.go", "v1.8+")
        .to(K::PvcNoStorageClass, "storage-no-default-class", Error)
        .says("the claim names no StorageClass and none is default", "set storageClassName on the claim or mark a StorageClass default"),
    Entry::new("kueue.resource-unavailable", F::Kueue,
        "resource {resource:w} unavailable in ClusterQueue",
        "kubernetes-sigs/kueue", "pkg/scheduler/flavorassigner/flavorassigner.go", "v0.3+")
        .to(K::KueueResourceUnavailable, "pod-unschedulable", Warning)
        .says("the ClusterQueue does not cover {resource}", "add {resource} to the ClusterQueue's coveredResources with a nominalQuota"),
    // Kueue's flavor assignment reasons (kubernetes-sigs/kueue
    // pkg/scheduler/flavorassigner/flavorassigner.go), shown in the Workload's QuotaReserved
    // condition and Pending events after `couldn't assign flavors to pod set <ps>: `.
    Entry::new("kueue.couldnt-assign-flavors", F::Kueue,
        "couldn't assign flavors to pod set {podset:w}: {reasons}",
        "kubernetes-sigs/kueue", "pkg/scheduler/scheduler.go (flavorassigner status)", "v0.3+"),
    Entry::new("kueue.insufficient-unused-quota", F::Kueue,
        "insufficient unused quota for {resource:w} in flavor {flavor:w}, {more:w} more needed",
        "kubernetes-sigs/kueue", "pkg/scheduler/flavorassigner/flavorassigner.go", "v0.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-quota")
        .says("Kueue does not admit the workload: ClusterQueue quota for {resource} in flavor {flavor} is in use by admitted workloads ({more} more needed); it waits until quota frees up or preemption/borrowing makes room", "see the queue's usage (`kubectl get clusterqueue -o wide`, `kubectl describe clusterqueue <cq>`); raise nominalQuota or borrowingLimit for {resource} in {flavor}, or let it wait for running workloads to finish")
        .samples(&[("resource", "nvidia.com/gpu"), ("flavor", "default-flavor"), ("more", "1")]),
    Entry::new("kueue.insufficient-unused-quota-cohort", F::Kueue,
        "insufficient unused quota in cohort for {resource:w} in flavor {flavor:w}, {more:w} more needed",
        "kubernetes-sigs/kueue", "pkg/scheduler/flavorassigner/flavorassigner.go", "v0.3-v0.5")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-quota")
        .says("Kueue does not admit the workload: the cohort's unused quota for {resource} in flavor {flavor} is used up ({more} more needed)", "see the cohort's ClusterQueues (`kubectl get clusterqueue -o wide`); raise nominalQuota for {resource} in {flavor} or wait for admitted workloads to finish")
        .samples(&[("resource", "cpu"), ("flavor", "default-flavor"), ("more", "1")]),
    Entry::new("kueue.insufficient-quota", F::Kueue,
        "insufficient quota for {resource:w} in flavor {flavor:w} in ClusterQueue",
        "kubernetes-sigs/kueue", "pkg/scheduler/flavorassigner/flavorassigner.go", "v0.3-v0.5")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-quota")
        .says("Kueue can never admit the workload as it is: it asks for more {resource} than the ClusterQueue's quota in flavor {flavor} (with what it may borrow)", "raise nominalQuota (or borrowingLimit) for {resource} in {flavor}, or request less")
        .samples(&[("resource", "nvidia.com/gpu"), ("flavor", "default-flavor")]),
    Entry::new("kueue.max-capacity", F::Kueue,
        "insufficient quota for {resource:w} in flavor {flavor:w}, request > maximum capacity ({request:w} > {max:w})",
        "kubernetes-sigs/kueue", "pkg/scheduler/flavorassigner/flavorassigner.go", "v0.6+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-quota")
        .says("Kueue can never admit the workload as it is: it asks for {request} {resource}, more than the most flavor {flavor} can ever give it ({max}, nominal quota plus borrowing)", "raise nominalQuota (or borrowingLimit) for {resource} in {flavor} to at least {request}, or request less")
        .samples(&[("resource", "nvidia.com/gpu"), ("flavor", "a100"), ("request", "16"), ("max", "8")]),
    Entry::new("kueue.max-capacity-podsets", F::Kueue,
        "insufficient quota for {resource:w} in flavor {flavor:w}, previously considered podsets requests ({previous:w}) + current podset request ({request:w}) > maximum capacity ({max:w})",
        "kubernetes-sigs/kueue", "pkg/scheduler/flavorassigner/flavorassigner.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-quota")
        .says("Kueue can never admit the workload as it is: its pod sets together ask for more {resource} ({previous} + {request}) than flavor {flavor} can ever give ({max}, nominal quota plus borrowing)", "raise nominalQuota (or borrowingLimit) for {resource} in {flavor}, or request less")
        .samples(&[("resource", "nvidia.com/gpu"), ("flavor", "a100"), ("previous", "4"), ("request", "8"), ("max", "8")]),
    // The ClusterQueue CRD's validation of a flavor that does not list every covered resource
    // (apis/kueue/v1beta1 and v1beta2 clusterqueue_types.go XValidation on ResourceGroup),
    // as the API server prints a CEL rule's message.
    Entry::new("kueue.flavor-resources-mismatch", F::Kueue,
        "flavors must have the same number of resources as the coveredResources",
        "kubernetes-sigs/kueue", "apis/kueue/v1beta2/clusterqueue_types.go (ResourceGroup XValidation)", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Error)
        .says("the API server refuses the ClusterQueue: a flavor of one of its resourceGroups does not list every resource of coveredResources (each flavor needs a nominalQuota entry for each covered resource, in the same order), so the queue is not created or keeps its old quotas and workloads asking for the missing resource are not admitted", "give every flavor of the resourceGroup a `resources` entry (name and nominalQuota, 0 allowed) for each name in coveredResources, or remove the name from coveredResources; then apply the ClusterQueue again"),
    // Kueue's queue blockers: the Workload's QuotaReserved=False condition and its Pending
    // event (pkg/controller/core/workload_controller.go getQueueBlocker, the Stopped /
    // terminating cases above it; pkg/scheduler/scheduler.go inadmissibleMsg; namespace
    // selector: pkg/workload/resources.go ErrNamespaceMismatch).
    Entry::new("kueue.localqueue-missing", F::Kueue,
        "LocalQueue {queue:w} doesn't exist",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go (getQueueBlocker)", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue never admits the workload: it names LocalQueue {queue} (label kueue.x-k8s.io/queue-name), which does not exist in the workload's namespace", "create LocalQueue {queue} in the workload's namespace with spec.clusterQueue set to an existing ClusterQueue, or fix the kueue.x-k8s.io/queue-name label (`kubectl get localqueues -n <namespace>`)"),
    Entry::new("kueue.localqueue-inactive", F::Kueue,
        "LocalQueue {queue:w} is inactive",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: its LocalQueue {queue} is inactive (a stopPolicy set on it, the LocalQueue being deleted, or its ClusterQueue missing)", "`kubectl get localqueue -n <namespace> {queue} -o yaml`: clear spec.stopPolicy (None) or recreate the LocalQueue, and check the ClusterQueue it names exists"),
    Entry::new("kueue.localqueue-stopped", F::Kueue,
        "LocalQueue {queue:w} is stopped",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: its LocalQueue {queue} is stopped (a stopPolicy set on it, the LocalQueue being deleted, or its ClusterQueue missing)", "`kubectl get localqueue -n <namespace> {queue} -o yaml`: clear spec.stopPolicy (None) or recreate the LocalQueue, and check the ClusterQueue it names exists"),
    Entry::new("kueue.localqueue-terminating", F::Kueue,
        "LocalQueue {queue:w} is terminating or missing",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: its LocalQueue {queue} is terminating or missing (a stopPolicy set on it, the LocalQueue being deleted, or its ClusterQueue missing)", "`kubectl get localqueue -n <namespace> {queue} -o yaml`: clear spec.stopPolicy (None) or recreate the LocalQueue, and check the ClusterQueue it names exists"),
    Entry::new("kueue.clusterqueue-missing", F::Kueue,
        "ClusterQueue {queue:w} doesn't exist",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go (getQueueBlocker)", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue never admits the workload: its LocalQueue points at ClusterQueue {queue}, which does not exist", "create ClusterQueue {queue} or point the LocalQueue's spec.clusterQueue at an existing one (`kubectl get clusterqueues`)"),
    Entry::new("kueue.clusterqueue-not-found", F::Kueue,
        "ClusterQueue {queue:w} not found",
        "kubernetes-sigs/kueue", "pkg/scheduler/scheduler.go (inadmissibleMsg)", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue never admits the workload: ClusterQueue {queue} is not known to the scheduler (missing or not yet synced)", "create ClusterQueue {queue} or point the LocalQueue at an existing one (`kubectl get clusterqueues`)"),
    Entry::new("kueue.clusterqueue-inactive", F::Kueue,
        "ClusterQueue {queue:w} is inactive",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go, pkg/scheduler/scheduler.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: ClusterQueue {queue} is inactive; a ClusterQueue is inactive when a ResourceFlavor or AdmissionCheck it references does not exist or is inactive, a Topology is missing, or a stopPolicy is set (apis/kueue ClusterQueueActiveReason*)", "`kubectl get clusterqueue {queue} -o jsonpath='{{.status.conditions}}'`: the Active condition's reason (FlavorNotFound, AdmissionCheckNotFound, AdmissionCheckInactive, TopologyNotFound, Stopped) names what to create or fix"),
    Entry::new("kueue.clusterqueue-stopped", F::Kueue,
        "ClusterQueue {queue:w} is stopped",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go, pkg/scheduler/scheduler.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: ClusterQueue {queue} is stopped; a ClusterQueue is inactive when a ResourceFlavor or AdmissionCheck it references does not exist or is inactive, a Topology is missing, or a stopPolicy is set (apis/kueue ClusterQueueActiveReason*)", "`kubectl get clusterqueue {queue} -o jsonpath='{{.status.conditions}}'`: the Active condition's reason (FlavorNotFound, AdmissionCheckNotFound, AdmissionCheckInactive, TopologyNotFound, Stopped) names what to create or fix"),
    Entry::new("kueue.clusterqueue-terminating", F::Kueue,
        "ClusterQueue {queue:w} is terminating or missing",
        "kubernetes-sigs/kueue", "pkg/controller/core/workload_controller.go, pkg/scheduler/scheduler.go", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: ClusterQueue {queue} is terminating or missing; a ClusterQueue is inactive when a ResourceFlavor or AdmissionCheck it references does not exist or is inactive, a Topology is missing, or a stopPolicy is set (apis/kueue ClusterQueueActiveReason*)", "`kubectl get clusterqueue {queue} -o jsonpath='{{.status.conditions}}'`: the Active condition's reason (FlavorNotFound, AdmissionCheckNotFound, AdmissionCheckInactive, TopologyNotFound, Stopped) names what to create or fix"),
    Entry::new("kueue.namespace-mismatch", F::Kueue,
        "workload namespace doesn't match ClusterQueue selector",
        "kubernetes-sigs/kueue", "pkg/workload/resources.go (ErrNamespaceMismatch)", "v0.9+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kueue-queue")
        .says("Kueue does not admit the workload: its namespace does not match the ClusterQueue's spec.namespaceSelector", "label the namespace so the ClusterQueue's namespaceSelector selects it, or widen the selector (`kubectl get clusterqueue <queue> -o jsonpath='{{.spec.namespaceSelector}}'`)"),
    // Apache YuniKorn core pkg/scheduler/objects/ask_events.go (SendRequestExceedsQueueHeadroom).
    Entry::new("yunikorn.queue-headroom", F::YuniKorn,
        "Request '{alloc}' does not fit in queue '{queue}' (requested {requested}, available {available})",
        "apache/yunikorn-core", "pkg/scheduler/objects/ask_events.go", "v1.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning)
        .says("YuniKorn keeps the request pending: queue {queue} has no headroom for it (requested {requested}, available {available})", "raise the queue's max resources in the YuniKorn queue config (or its parent's), or wait for the queue's running applications to finish")
        .samples(&[("alloc", "task-0"), ("queue", "root.default"), ("requested", "map[nvidia.com/gpu:1]"), ("available", "map[nvidia.com/gpu:0]")]),
    // YuniKorn's other request events (apache/yunikorn-core pkg/scheduler/objects/events/
    // ask_events.go): a DaemonSet pod (required node) for which preemption found no victim
    // (SendRequiredNodePreemptionFailed), the predicate histogram (SendPredicatesFailed:
    // `<reason> (<n>x); ` sorted), and the user quota (SendRequestExceedsUserQuota). The k8s
    // shim posts them as Normal events on the pod, so they are read whatever their type.
    Entry::new("yunikorn.required-node-no-victim", F::YuniKorn,
        "Unschedulable request '{alloc}' with required node '{node:w}', no preemption victim found",
        "apache/yunikorn-core", "pkg/scheduler/objects/events/ask_events.go (SendRequiredNodePreemptionFailed)", "v1.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("yunikorn-request")
        .says("YuniKorn must place this pod on node {node} (a DaemonSet pod's required node) but the node has no room for its requests and preemption found no pod to evict there", "`kubectl describe node {node}` (Allocated resources, taints): free room on {node} for the pod's requests (or lower them); YuniKorn preempts for required-node requests only pods that are allowed to be preempted (not DaemonSet pods, not pods of higher priority or in their queue's guaranteed share)")
        .samples(&[("alloc", "00000000-0000-0000-0000-000000000000"), ("node", "node-06")]),
    Entry::new("yunikorn.predicates-failed", F::YuniKorn,
        "Unschedulable request '{alloc}': {failures}",
        "apache/yunikorn-core", "pkg/scheduler/objects/events/ask_events.go (SendPredicatesFailed)", "v1.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("yunikorn-request")
        .says("YuniKorn finds no node that passes the scheduling predicates: {failures}", "address the most frequent predicate failure (taints, node selector/affinity, resources) as for kube-scheduler's reasons; `kubectl describe pod` lists the latest event")
        .samples(&[("alloc", "task-0"), ("failures", "node(s) had untolerated taint(s) (3x);")]),
    Entry::new("yunikorn.user-quota", F::YuniKorn,
        "Request '{alloc}' exceeds the available user quota (requested {requested}, available {available})",
        "apache/yunikorn-core", "pkg/scheduler/objects/events/ask_events.go (SendRequestExceedsUserQuota)", "v1.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("yunikorn-request")
        .says("YuniKorn keeps the request pending: the submitting user's quota has no room for it (requested {requested}, available {available})", "raise the user's limit in the YuniKorn queue config (limits: users/maxresources) or wait for the user's running applications to finish")
        .samples(&[("alloc", "task-0"), ("requested", "map[nvidia.com/gpu:1]"), ("available", "map[nvidia.com/gpu:0]")]),
    // KAI scheduler (NVIDIA/KAI-Scheduler): the PodGroup's `Unschedulable` event (`Unable to
    // schedule podgroup: <reasons>`) carries the MaxNodePoolResources predicate's texts
    // (`The pod %s/%s requires %s. ` then `No node in the %s node-pool has %s resources` or
    // `Max %s resources available in a single node in the %s node-pool is topped at %s`).
    Entry::new("kai.no-node-has-gpu-resource", F::Kai,
        "No node in the {pool:w} node-pool has nvidia.com/{gpu_resource:w} resources",
        "NVIDIA/KAI-Scheduler", "pkg/scheduler/plugins (MaxNodePoolResources predicate)", "v0.4+")
        .to(K::Known, "gpu-resource-name-mismatch", Warning).group("kai")
        .says("KAI scheduler: no node of node-pool {pool} advertises nvidia.com/{gpu_resource}, which the pod asks for: a MIG profile exists only on nodes where MIG is enabled with that profile (the nodes' nvidia.com/mig.config label; `all-disabled` turns MIG off), and a shared or renamed GPU resource appears under its new name", "`kubectl get nodes -o custom-columns=NAME:.metadata.name,MIG:.metadata.labels.nvidia\\.com/mig\\.config` and the nodes' allocatable: label a node with a mig.config that creates the profile (`kubectl label node <node> nvidia.com/mig.config=all-1g.5gb --overwrite`, applied by the GPU operator's mig-manager), or ask the pod for a resource the nodes advertise")
        .samples(&[("pool", "default"), ("gpu_resource", "mig-1g.5gb")]),
    Entry::new("kai.no-node-has-resource", F::Kai,
        "No node in the {pool:w} node-pool has {resource:w} resources",
        "NVIDIA/KAI-Scheduler", "pkg/scheduler/plugins (MaxNodePoolResources predicate)", "v0.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kai")
        .says("KAI scheduler: no node of node-pool {pool} has {resource} at all, which the pod asks for", "ask the pod for a resource the nodes of the pool advertise, or add nodes that have {resource} to node-pool {pool}")
        .samples(&[("pool", "default"), ("resource", "rdma/shared_mlx5")]),
    Entry::new("kai.max-node-resources", F::Kai,
        "Max {resource:w} resources available in a single node in the {pool:w} node-pool is topped at {max:w}",
        "NVIDIA/KAI-Scheduler", "pkg/scheduler/plugins (MaxNodePoolResources predicate)", "v0.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("kai")
        .says("KAI scheduler: the pod asks for more {resource} than any single node of node-pool {pool} has (at most {max})", "lower the pod's {resource} request to at most {max}, or add a larger node to node-pool {pool}")
        .samples(&[("resource", "GPU"), ("pool", "default"), ("max", "8")]),
    Entry::new("kai.unable-to-schedule-podgroup", F::Kai,
        "Unable to schedule podgroup: {detail}",
        "NVIDIA/KAI-Scheduler", "pkg/scheduler (PodGroup Unschedulable event)", "v0.4+")
        .samples(&[("detail", "2 Resources were not found for pod a/b")]),
    // Volcano's PodGroup event (volcano-sh/volcano pkg/scheduler/cache/cache.go
    // RecordJobStatusEvent, message from pkg/scheduler/api/job_info.go FitError).
    Entry::new("volcano.gang-unschedulable", F::Volcano,
        "{pending:w}/{total:w} tasks in gang unschedulable: {detail}",
        "volcano-sh/volcano", "pkg/scheduler/cache/cache.go (RecordJobStatusEvent)", "v1.0+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-gang")
        .says("Volcano does not start the job: {pending} of its {total} tasks cannot be placed together (gang scheduling: {detail})", "`kubectl describe podgroup` and the pods' FailedScheduling events name the node reasons; lower minAvailable or the tasks' requests, or free capacity in the job's queue (`kubectl get queue`)")
        .samples(&[("pending", "1"), ("total", "2"), ("detail", "pod group is not ready, 1 Pending, 2 minAvailable; Pending: 1 Unschedulable")]),
    // The same FitError without the gang prefix: the pods' FailedScheduling events and their
    // PodScheduled condition (pkg/scheduler/cache/cache.go RecordJobStatusEvent ->
    // taskUnschedulable, message `job.FitError()` of pkg/scheduler/api/job_info.go:
    // `pod group is not ready, <task statuses and N minAvailable>; Pending: <pending tasks'
    // reasons>[. Origin reason is <task>: <FitErrors>]`, PodGroupNotReady of
    // staging/src/volcano.sh/apis/pkg/apis/scheduling/v1beta1/types.go); the 2019 releases
    // (kube-batch heritage) said `job is not ready`. The rule reads the structure
    // (rules/pod_unschedulable/volcano.rs).
    Entry::new("volcano.pod-group-not-ready", F::Volcano,
        "pod group is not ready, {detail}",
        "volcano-sh/volcano", "pkg/scheduler/api/job_info.go (JobInfo.FitError)", "v0.4+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-gang")
        .says("Volcano has not admitted or placed the pod's PodGroup (pod group is not ready, {detail})", "`kubectl describe podgroup` (Phase and Conditions) and `kubectl get queue -o yaml` (capability, allocated)")
        .samples(&[("detail", "1 Pending, 1 minAvailable; Pending: 1 Unschedulable")]),
    Entry::new("volcano.job-not-ready-legacy", F::Volcano,
        "job is not ready, {detail}",
        "volcano-sh/volcano", "pkg/scheduler/api/job_info.go (JobInfo.FitError, 2019 wording)", "v0.1-v0.3")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-gang")
        .says("Volcano has not admitted or placed the pod's job (job is not ready, {detail})", "`kubectl describe podgroup` and `kubectl get queue -o yaml`")
        .samples(&[("detail", "10 minAvailable, 6 Pending")]),
    // A task that fits but waits for its gang (JobInfo.TaskSchedulingReason, Allocated and
    // Pipelined cases).
    Entry::new("volcano.task-waits-for-gang", F::Volcano,
        "Pod {pod:w} can possibly be assigned to {node:w}, once {rest}minAvailable is satisfied",
        "volcano-sh/volcano", "pkg/scheduler/api/job_info.go (TaskSchedulingReason)", "v1.1+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-gang")
        .says("Volcano's gang scheduling holds pod {pod}: it fits on {node}, but it is not bound until minAvailable tasks of its PodGroup fit at the same time, and the others do not", "find the tasks of the same PodGroup that do not fit (`kubectl describe podgroup`, their FailedScheduling events) and free or add capacity for them, or lower the PodGroup's minAvailable")
        .samples(&[("pod", "default/job-worker-1"), ("node", "node-01"), ("rest", "resource is released and ")]),
    // Enqueue refusals (the job's PodGroup stays Pending, never Inqueue, so no node is tried):
    // the overcommit plugin's log line and PodGroup event
    // (pkg/scheduler/plugins/overcommit/overcommit.go JobEnqueueableFn, event text through
    // pkg/scheduler/plugins/util/util.go FormatResourceNames: `<prefix>: overused <res>, ...`).
    Entry::new("volcano.overcommit-reject-inqueue", F::Volcano,
        "Resource in cluster is overused, reject job <{job}> to be inqueue",
        "volcano-sh/volcano", "pkg/scheduler/plugins/overcommit/overcommit.go (JobEnqueueableFn)", "v1.1+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-enqueue")
        .says("Volcano's overcommit plugin does not let job {job} into the queue (PodGroup stays Pending, no node is tried): the cluster's idle resources times overcommit-factor (1.2 by default), minus what Inqueue PodGroups already reserve, do not cover the PodGroup's minResources", "compare the PodGroup's spec.minResources (`kubectl get podgroup -n <namespace> -o yaml`) with the nodes' free resources; other Inqueue/Pending PodGroups that reserve minResources hold the room (`kubectl get podgroup -A`); raise `overcommit-factor` of the overcommit plugin in volcano-scheduler.conf (the volcano-scheduler-configmap) only if the nodes really have room")
        .samples(&[("job", "default/podgroup-1")]),
    Entry::new("volcano.overcommit-event", F::Volcano,
        "resource in cluster is overused{rest}",
        "volcano-sh/volcano", "pkg/scheduler/plugins/overcommit/overcommit.go (PodGroup Unschedulable event)", "v1.1+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-enqueue")
        .says("Volcano's overcommit plugin does not let the PodGroup into the queue{rest}: the cluster's idle resources times overcommit-factor do not cover the PodGroup's minResources, so no node is tried", "compare the PodGroup's spec.minResources (`kubectl get podgroup -o yaml`) with the nodes' free resources and the PodGroups already Inqueue (`kubectl get podgroup -A`); overcommit-factor is set in volcano-scheduler.conf")
        .samples(&[("rest", ": overused nvidia.com/gpu")]),
    // The proportion and capacity plugins' enqueue refusal (queue capability / deserved),
    // pkg/scheduler/plugins/proportion/proportion.go and capacity/capacity.go.
    Entry::new("volcano.queue-quota-insufficient", F::Volcano,
        "queue resource quota insufficient{rest}",
        "volcano-sh/volcano", "pkg/scheduler/plugins/proportion/proportion.go, capacity/capacity.go (JobEnqueueableFn)", "v1.1+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-enqueue")
        .says("Volcano does not let the PodGroup into its queue{rest}: the queue's capability (proportion plugin) or deserved/capability (capacity plugin) minus what it has allocated and Inqueue is below the PodGroup's minResources, whatever the nodes have free", "`kubectl get queue <queue> -o yaml`: compare spec.capability (and spec.deserved) with status.allocated; raise the queue's capability, submit to a queue with room, or lower the job's minAvailable/requests")
        .samples(&[("rest", ": insufficient nvidia.com/gpu")]),
    // The resourcequota plugin (a namespace ResourceQuota checked at enqueue),
    // pkg/scheduler/plugins/resourcequota/resourcequota.go.
    Entry::new("volcano.namespace-quota-insufficient", F::Volcano,
        "resource quota insufficient, requested: {requested}, used: {used}, limited: {limited}",
        "volcano-sh/volcano", "pkg/scheduler/plugins/resourcequota/resourcequota.go (JobEnqueueableFn)", "v1.3+")
        .to(K::QueueAdmission, "pod-unschedulable", Warning).group("volcano-enqueue")
        .says("Volcano's resourcequota plugin does not let the PodGroup into the queue: the namespace's ResourceQuota would be exceeded (requested {requested}, used {used}, hard {limited})", "`kubectl describe quota -n <namespace>`: raise the quota's hard limits or free what the namespace holds")
        .samples(&[("requested", "map[requests.nvidia.com/gpu:2]"), ("used", "map[requests.nvidia.com/gpu:7]"), ("limited", "map[requests.nvidia.com/gpu:8]")]),
    // Volcano's device-sharing predicates log every node a pod does not fit at error level
    // (`klog.Errorln("deviceSharing err=", err.Error())` in FilterNode of
    // pkg/scheduler/api/devices/nvidia/gpushare/device_info.go and vgpu/device_info.go) and
    // return Unschedulable with the same reason, which the pod's FailedScheduling event and
    // the PodGroup's event aggregate: a per-node fit refusal, context for those, not a failure
    // of its own.
    Entry::new("volcano.device-sharing-filter", F::Volcano,
        "deviceSharing err= {error}",
        "volcano-sh/volcano", "pkg/scheduler/api/devices/nvidia/vgpu/device_info.go (FilterNode)", "v1.8+")
        .complete(),
    // ------------------------------------------------------------------ Karmada / kubefed / OCM
    // karmadactl register (pkg/karmadactl/register/register.go, v1.8+): a member of that name
    // is already registered, or no CA pin was given for the bootstrap discovery
    Entry::new("karmada.register.name-exists", F::Karmada,
        "failed to register as cluster with name {cluster:w} already exists",
        "karmada-io/karmada", "pkg/karmadactl/register/register.go", "v1.8+")
        .to(K::Known, "agent-registration-failed", Error).group("karmada-register")
        .says("the Karmada control plane already has a member cluster named {cluster}, so this cluster cannot register under that name (an earlier registration or join of the same or another cluster)", "pick another name (`karmadactl register ... --cluster-name <name>`), or remove the old member first (`karmadactl unregister {cluster}` for a Pull-mode member, `karmadactl unjoin {cluster}` for a Push-mode one) and register again")
        .samples(&[("cluster", "member1")]),
    Entry::new("karmada.register.ca-hash-required", F::Karmada,
        "need to verify CACertHashes, or set --discovery-token-unsafe-skip-ca-verification=true",
        "karmada-io/karmada", "pkg/karmadactl/register/register.go", "v1.8+")
        .to(K::Known, "agent-registration-failed", Error).group("karmada-register")
        .says("`karmadactl register` was given no --discovery-token-ca-cert-hash, so it cannot trust the Karmada API server it discovers", "use the full command printed by `karmadactl token create --print-register-command` on the Karmada control plane (it carries --discovery-token-ca-cert-hash sha256:...)"),
    Entry::new("karmada.cluster-not-reachable", F::Karmada,
        "cluster is not reachable",
        "karmada-io/karmada", "pkg/controllers/status/cluster_status_controller.go", "v1.0+")
        .to(K::ClusterNotReachable, "cluster-unreachable", Error).group("member")
        .says("the hub cannot reach the member cluster's API endpoint", "check the member's endpoint, CA bundle and credentials from the hub"),
    Entry::new("karmada.health-check-failed", F::Karmada,
        "Failed to do cluster health check for cluster {cluster:w}, err is : {error}",
        "karmada-io/karmada", "pkg/controllers/status/cluster_status_controller.go", "v1.0+"),
    Entry::new("karmadactl.cluster-inaccessible", F::Karmada,
        "cluster({cluster:w}) is inaccessible, please check authorization or network",
        "karmada-io/karmada", "pkg/karmadactl/util/...(proxy to member clusters)", "v1.2+")
        .to(K::ClusterNotReachable, "cluster-unreachable", Error).group("member")
        .says("karmadactl cannot reach member cluster {cluster} through the Karmada API (authorization or network)", "check the member's Ready condition (`kubectl get clusters`) and the karmada-controller-manager or karmada-agent log for the cluster health check error"),
    // karmadactl join's wrappers around the Karmada API server's answer (karmada-io/karmada
    // pkg/karmadactl/join/join.go `failed to create cluster(%s) object. error: %v`,
    // pkg/util/cluster.go `Failed to create cluster(%s). error: %v`, `Failed to retrieve
    // cluster(%s). error: %v`; before v1.2 lowercase and without the name): the inner error
    // carries the meaning (`the server is currently unable to handle the request (get
    // clusters.cluster.karmada.io ...)`: karmada-aggregated-apiserver unavailable)
    Entry::new("karmada.join.create-cluster-failed", F::Karmada,
        "ailed to create cluster({cluster}. error: {error}",
        "karmada-io/karmada", "pkg/karmadactl/join/join.go, pkg/util/cluster.go (CreateClusterObject)", "v0.5+")
        .samples(&[("cluster", "member1) object"), ("error", "the server is currently unable to handle the request (get clusters.cluster.karmada.io member1)")]),
    // the Karmada API server's validation of the Cluster object karmadactl join / karmada-agent
    // builds (pkg/apis/cluster/validation): a required field missing means the client is
    // another release than the control plane (a kubectl-karmada built from source without a
    // version, karmada-io/karmada#1291)
    Entry::new("karmada.cluster-invalid", F::Karmada,
        "Cluster.cluster.karmada.io {cluster:w} is invalid: {errors}",
        "karmada-io/karmada", "pkg/apis/cluster/validation/validation.go (ValidateCluster), answered to pkg/util/cluster.go CreateClusterObject", "v1.0+")
        .to(K::Known, "agent-registration-failed", Error).group("karmada-register")
        .says("the Karmada API server rejects the Cluster object {cluster} that karmadactl / karmada-agent creates ({errors}): the client is another release than the control plane (the Cluster API's required fields differ)", "use the karmadactl (or kubectl-karmada) and karmada-agent release that matches the control plane (`kubectl karmada version` against the karmada-apiserver's image tag) and join or register again")
        .samples(&[("cluster", "\"member1\""), ("errors", "[spec.secretRef.namespace: Required value, spec.secretRef.name: Required value]")]),
    // karmada-agent's start-up (cmd/agent/app/agent.go run: `failed to register with karmada
    // control plane: %w`; the inner errors of pkg/util/credential.go RegisterClusterInControllerPlane:
    // `failed to create impersonator secret in control plane. error: %v`, `failed to create
    // secret in control plane. error: %v`, and the Cluster object's creation)
    Entry::new("karmada.agent.register-failed", F::Karmada,
        "failed to register with karmada control plane: {error}",
        "karmada-io/karmada", "cmd/agent/app/agent.go (run), pkg/util/credential.go (RegisterClusterInControllerPlane)", "v1.2+")
        .to(K::Known, "agent-registration-failed", Error).group("karmada-register")
        .says("karmada-agent cannot register its cluster with the Karmada control plane and exits ({error})", "read the inner error: a namespace `not found` in the control plane (karmada-cluster, where member secrets are kept) must exist there (`kubectl --kubeconfig <karmada-apiserver.config> create namespace karmada-cluster`, or re-run `karmadactl init`); `forbidden` means the agent's credential for the control plane (the karmada-kubeconfig secret in the member) lacks the agent's RBAC (`karmadactl register` creates it); then restart the karmada-agent pod")
        .samples(&[("error", "failed to create impersonator secret in control plane. error: namespaces \"karmada-cluster\" not found")]),
    Entry::new("karmada.join.retrieve-cluster-failed", F::Karmada,
        "ailed to retrieve cluster({cluster}. error: {error}",
        "karmada-io/karmada", "pkg/util/cluster.go (GetClusterWithKarmadaClient)", "v0.5+")
        .samples(&[("cluster", "member1)"), ("error", "the server is currently unable to handle the request (get clusters.cluster.karmada.io member1)")]),
    // karmada-operator's init tasks waiting for the aggregated API server and its APIServices
    // (karmada-io/karmada operator/pkg/tasks/init/apiserver.go runWaitKarmadaAggregatedAPIServer,
    // operator/pkg/tasks/init/component.go `the APIService %s is unhealthy, err: %w`)
    Entry::new("karmada.operator.aggregated-apiserver-wait-timeout", F::Karmada,
        "waiting for karmada-aggregated-apiserver to ready timeout, err: {error}",
        "karmada-io/karmada", "operator/pkg/tasks/init/apiserver.go (runWaitKarmadaAggregatedAPIServer)", "v1.6+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice")
        .says("karmada-operator waited in vain for a Ready karmada-aggregated-apiserver pod ({error})", APISERVICE_REMEDY)
        .samples(&[("error", "context deadline exceeded")]),
    Entry::new("karmada.operator.apiservice-unhealthy", F::Karmada,
        "the APIService {apiservice:w} is unhealthy, err: {error}",
        "karmada-io/karmada", "operator/pkg/tasks/init/component.go (WaitForAPIService)", "v1.8+")
        .to(K::Known, "apiservice-unavailable", Warning).group("apiservice")
        .says("karmada-operator waited in vain for the APIService {apiservice} to become Available ({error})", APISERVICE_REMEDY)
        .samples(&[("apiservice", "v1alpha1.search.karmada.io"), ("error", "context deadline exceeded")]),
    Entry::new("kubefed.cluster-not-reachable", F::Karmada,
        "ClusterNotReachable",
        "kubernetes-retired/kubefed", "pkg/controller/kubefedcluster/clusterclient.go", "v0.1+")
        .to(K::ClusterNotReachable, "cluster-unreachable", Error).group("member")
        .says("the hub cannot reach the member cluster's API endpoint", "check the member's endpoint, CA bundle and credentials from the hub"),
    Entry::new("kubefed.health-retrieval-failed", F::Karmada,
        "RetrievingClusterHealthFailed",
        "kubernetes-retired/kubefed", "pkg/controller/kubefedcluster/controller.go", "v0.1+")
        .to(K::ClusterNotReachable, "cluster-unreachable", Error).group("member")
        .says("the hub cannot retrieve the member cluster's health", "check the member's endpoint, CA bundle and credentials from the hub"),
    Entry::new("ocm.preflight-hub-kubeconfig", F::Ocm,
        "[ERROR HubKubeconfig check]: {error}",
        "open-cluster-management-io/clusteradm", "pkg/cmd/join/preflight/checks.go", "v0.4+").join(),
    // ------------------------------------------------------------------ Rancher agents
    Entry::new("rancher.ping-dns", F::Rancher,
        "ERROR: {url:w}/ping is not accessible (Could not resolve host: {host:w})",
        "rancher/rancher", "package/run.sh", "v2.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("rancher")
        .says("the Rancher agent cannot resolve {host}", "make {host} resolvable from the pods (a DNS record, CoreDNS upstream, or hostAliases on the cattle-cluster-agent Deployment)"),
    Entry::new("rancher.ping-failed-localhost", F::Rancher,
        "ERROR: {scheme:w}://localhost{port}/ping is not accessible ({detail})",
        "rancher/rancher", "package/run.sh", "v2.x")
        .to(K::Known, "agent-registration-failed", Error).group("rancher")
        .says("the Rancher agent is told to reach Rancher at {scheme}://localhost{port}: inside the agent's pod (or on its node) localhost is the agent itself, not the Rancher server, so Rancher's server-url is a loopback address ({detail})", RANCHER_LOOPBACK_REMEDY)
        .samples(&[("scheme", "https"), ("port", ""), ("detail", "Failed to connect to localhost port 443: Connection refused")]),
    Entry::new("rancher.ping-failed-loopback", F::Rancher,
        "ERROR: {scheme:w}://127.0.0.1{port}/ping is not accessible ({detail})",
        "rancher/rancher", "package/run.sh", "v2.x")
        .to(K::Known, "agent-registration-failed", Error).group("rancher")
        .says("the Rancher agent is told to reach Rancher at {scheme}://127.0.0.1{port}: inside the agent's pod (or on its node) that is the agent itself, not the Rancher server, so Rancher's server-url is a loopback address ({detail})", RANCHER_LOOPBACK_REMEDY)
        .samples(&[("scheme", "https"), ("port", ":8443"), ("detail", "Failed to connect to 127.0.0.1 port 8443: Connection refused")]),
    Entry::new("rancher.ping-failed", F::Rancher,
        "ERROR: {url:w}/ping is not accessible ({detail})",
        "rancher/rancher", "package/run.sh", "v2.x")
        .to(K::Known, "agent-registration-failed", Error).group("rancher")
        .says("the Rancher agent cannot reach {url}/ping ({detail})", "from the node and from a pod run `curl -vk {url}/ping`; open the path, or fix Rancher's server-url setting")
        .samples(&[("detail", "Failed to connect to rancher.example.com port 443: Connection timed out")]),
    Entry::new("rancher.ca-checksum", F::Rancher,
        "ERROR: Configured cacerts checksum ({got:w}) does not match given --ca-checksum ({want:w})",
        "rancher/rancher", "package/run.sh", "v2.x")
        .to(K::Known, "agent-registration-failed", Error).group("rancher")
        .says("the Rancher server's CA changed (or a TLS-terminating proxy re-signs): its checksum {got} differs from the agent's {want}", "re-run the registration command copied from the Rancher UI now (it carries the current --ca-checksum); behind a TLS-terminating proxy, configure Rancher with that proxy's CA")
        .samples(&[("got", "1f0e"), ("want", "9ab3")]),
    Entry::new("rancher.cacerts-not-x509", F::Rancher,
        "ERROR: Value from {url:w}/v3/settings/cacerts does not look like an x509 certificate ({detail})",
        "rancher/rancher", "package/run.sh", "v2.x")
        .to(K::Known, "agent-registration-failed", Error).group("rancher")
        .says("{url}/v3/settings/cacerts does not return a certificate ({detail}): the agent reaches something other than Rancher (a proxy or a login page)", "check what {url} serves from the node (`curl -k {url}/v3/settings/cacerts`) and point the agent at Rancher itself")
        .samples(&[("detail", "unexpected response")]),
    // rancher/rancher pkg/dialer/factory.go: the server has no tunnel session from the
    // downstream cluster's agent (`fmt.Errorf("waiting for cluster agent to connect")`); the
    // v2prov planner (pkg/capr/planner) shows the same words in the cluster's status.
    Entry::new("rancher.waiting-for-cluster-agent", F::Rancher,
        "waiting for cluster agent to connect",
        "rancher/rancher", "pkg/dialer/factory.go (clusterDialer); pkg/capr/planner (status)", "v2.0+")
        .to(K::Known, "agent-registration-failed", Error)
        .says("the Rancher server has no tunnel from the downstream cluster's cattle-cluster-agent: the agent is not running there or cannot reach Rancher's server-url (seen during provisioning for a few minutes; a cause when it persists)", "in the downstream cluster `kubectl -n cattle-system get pods -l app=cattle-cluster-agent` and `kubectl -n cattle-system logs -l app=cattle-cluster-agent`: its first error (server-url not resolvable or loopback, /ping not reachable, CA checksum) names the fix; the agent must reach Rancher's server-url over 443 from the pods"),
    // Rancher's health check of a downstream cluster reads a namespace with the credential it
    // stored for the cluster (rancher/rancher pkg/controllers/managementuser/healthsyncer/
    // healthsyncer.go, pkg/controllers/user/healthsyncer before v2.6: `Failed to communicate
    // with API server during namespace check`, shown as the cluster condition `Cluster health
    // check failed: ...`): a wrapper, the inner error carries the meaning (a 401 is Rancher's
    // stored cattle token, classify::join_agent)
    Entry::new("rancher.health-check-namespace", F::Rancher,
        "Failed to communicate with API server during namespace check: {error}",
        "rancher/rancher", "pkg/controllers/managementuser/healthsyncer/healthsyncer.go (updateClusterHealth)", "v2.0+")
        .samples(&[("error", "Unauthorized")]),
    // remotedialer's line once the agent's websocket to Rancher is up (rancher/remotedialer
    // client.go ConnectToProxyWithDialer, `Connected to proxy`): a step done
    Entry::new("rancher.connected-to-proxy", F::Rancher,
        "Connected to proxy",
        "rancher/remotedialer", "client.go (ConnectToProxyWithDialer)", "v0.3+").complete(),
    // ------------------------------------------------------------------ Rancher agent: websocket and TLS checks (sweep)
    // rancher/remotedialer client.go ConnectToProxy: the agent's websocket to
    // wss://<server-url>/v3/connect[/register] is refused by Rancher (`Failed to connect to
    // proxy. Response status: %v - %v. Response body: %s`) or never answered (`Failed to
    // connect to proxy. Empty dialer response`, the dial error in logrus' error field);
    // `Remotedialer proxy error` when an open tunnel breaks. A 400 `the object has been
    // modified` is an optimistic-concurrency conflict of the registration, retried (seen while
    // the cluster provisions successfully).
    Entry::new("rancher.proxy-conflict", F::Rancher,
        "Failed to connect to proxy. Response status: {code:w} - {status}. Response body: Operation cannot be fulfilled on {object}: the object has been modified",
        "rancher/remotedialer", "client.go (ConnectToProxy)", "all")
        .to(K::Known, "agent-registration-failed", Info).group("rancher-proxy")
        .says("Rancher answered the agent's registration with a conflict on {object} (two updates of the same object): the agent retries and this passes on its own", "nothing if the cluster becomes Active; if it repeats for minutes, restart the agent pod (`kubectl -n cattle-system rollout restart deploy/cattle-cluster-agent`)")
        .samples(&[("code", "400"), ("status", "400 Bad Request"), ("object", "nodes.management.cattle.io \"m-0000\"")]),
    Entry::new("rancher.proxy-unauthorized", F::Rancher,
        "Failed to connect to proxy. Response status: 401 - 401 Unauthorized. Response body: {body} error=\"",
        "rancher/remotedialer", "client.go (ConnectToProxy)", "all")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-proxy")
        .says("Rancher rejects the agent's registration token ({body}): the cluster was deleted or re-imported in Rancher, or the agent's cattle-credentials secret belongs to an earlier registration", "register the cluster again with the command Rancher shows now (Cluster Management > the cluster > Registration), which re-creates the cattle-credentials secret; for a deleted cluster import it anew after removing the old cattle-system namespace")
        .samples(&[("body", "failed authentication")]),
    Entry::new("rancher.proxy-refused", F::Rancher,
        "Failed to connect to proxy. Response status: {code:w} - {status}. Response body: {body} error=\"",
        "rancher/remotedialer", "client.go (ConnectToProxy)", "all")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-proxy")
        .says("Rancher refuses the agent's websocket ({status}: {body}): the cluster the agent registers for is unknown to this Rancher (deleted, or the agent was installed from another Rancher) or a proxy in between answers instead of Rancher", "register the cluster again with the command Rancher shows now (Cluster Management > the cluster > Registration); if the answer is not Rancher's, let the websocket (wss://<server-url>/v3/connect) through the proxy or load balancer")
        .samples(&[("code", "400"), ("status", "400 Bad Request"), ("body", "cluster not found")]),
    // rancher/remotedialer client.go before the status was printed (Rancher 2.0-2.4 agents:
    // `logrus.WithError(err).Error("Failed to connect to proxy")`): gorilla/websocket's
    // ErrBadHandshake is an answer to the upgrade that is not 101 Switching Protocols
    Entry::new("rancher.proxy-bad-handshake", F::Rancher,
        "Failed to connect to proxy{sep}error=\"websocket: bad handshake\"",
        "rancher/remotedialer", "client.go (ConnectToProxy, before the response status was logged); gorilla/websocket client.go (ErrBadHandshake)", "Rancher 2.0-2.4 agents")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-proxy")
        .says("the agent's websocket to Rancher (wss://<server-url>/v3/connect) is answered with an HTTP error instead of the upgrade: Rancher refuses the registration (the cluster was deleted or re-imported, or the agent's cattle-credentials belong to an earlier registration), or a proxy or load balancer in front of Rancher does not pass websockets; this agent version does not print the answer's status", "check the answer by hand from the cluster: `curl -sk -o /dev/null -w '%{http_code}' -H 'Connection: Upgrade' -H 'Upgrade: websocket' https://<server-url>/v3/connect` (401/400: register the cluster again with the command Rancher shows now; a proxy's page: let websockets through); upgrade the agent to print Rancher's answer")
        .samples(&[("sep", "\" ")]),
    // the same websocket refused by the agent's own TLS check of Rancher's server-url (the
    // x509 error in logrus' error field): the certificate is Rancher's, not the API server's
    // (Rancher docs, installation-references/tls-settings: `agent-tls-mode` strict trusts only
    // the CA of the `cacerts` setting, system-store the OS trust store; the registration's
    // CATTLE_CA_CHECKSUM pins the CA Rancher serves at /cacerts)
    Entry::new("rancher.proxy-tls", F::Rancher,
        "Failed to connect to proxy{sep}error=\"{error}x509: {reason}\"",
        "rancher/remotedialer", "client.go (ConnectToProxy: the websocket dial's TLS error)", "all")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-proxy").exclusive()
        .says(RANCHER_TLS_CAUSE, RANCHER_TLS_REMEDY)
        .samples(&[("sep", ". Empty dialer response\" "), ("error", "tls: failed to verify certificate: "), ("reason", "certificate signed by unknown authority")]),
    Entry::new("rancher.remotedialer-tls", F::Rancher,
        "Remotedialer proxy error{sep}error=\"{error}x509: {reason}\"",
        "rancher/remotedialer", "client.go (ClientConnect)", "all")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-proxy").exclusive()
        .says(RANCHER_TLS_CAUSE, RANCHER_TLS_REMEDY)
        .samples(&[("sep", "; reconecting...\" "), ("error", ""), ("reason", "certificate signed by unknown authority")]),
    Entry::new("rancher.proxy-empty-response", F::Rancher,
        "Failed to connect to proxy. Empty dialer response{sep}error=\"{error}\"",
        "rancher/remotedialer", "client.go (ConnectToProxy)", "all")
        .samples(&[("sep", "\" "), ("error", "dial tcp 10.0.0.1:443: connect: connection refused")]),
    Entry::new("rancher.remotedialer-error", F::Rancher,
        "Remotedialer proxy error{sep}error=\"{error}\"",
        "rancher/remotedialer", "client.go (ClientConnect)", "all")
        .to(K::Known, "agent-registration-failed", Warning).group("rancher-proxy")
        .says("the agent's websocket tunnel to Rancher failed ({error}): Rancher cannot reach this cluster through the agent until it reconnects", "read the agent's line before it (`Failed to connect to proxy. Response status: ...` names Rancher's answer); if none, check that the agent reaches Rancher's server-url over 443 (a proxy or load balancer must pass websockets) and restart the agent pod")
        .samples(&[("sep", "\" "), ("error", "websocket: bad handshake")]),
    Entry::new("rancher.agent-config-unauthorized", F::Rancher,
        "Error while getting agent config: invalid response 401: {body}",
        "rancher/rancher", "pkg/rkenodeconfigclient/client.go", "v2.5+")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-config")
        .says("Rancher rejects the agent's token when it asks for its configuration (401: {body}): the cluster was deleted or re-registered in Rancher, or the agent's cattle-credentials secret belongs to an earlier registration", "register the cluster again with the command Rancher shows now (Cluster Management > the cluster > Registration), which re-creates the cattle-credentials secret; for an imported Harvester or RKE2 cluster re-run the registration URL from Rancher")
        .samples(&[("body", "Unauthorized 401: must authenticate")]),
    Entry::new("rancher.agent-config-error", F::Rancher,
        "Error while getting agent config: invalid response {code:w}: {body}",
        "rancher/rancher", "pkg/rkenodeconfigclient/client.go", "v2.5+")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-config")
        .says("Rancher answers the agent's configuration request with HTTP {code} ({body}): the agent is registered but Rancher cannot serve its configuration", "read Rancher's own log for the cluster (`kubectl -n cattle-system logs -l app=rancher` in Rancher's cluster) and re-run the registration command if the cluster was changed in Rancher")
        .samples(&[("code", "500"), ("body", "internal error")]),
    // rancher/rancher cmd/agent/main.go: the agent's TLS check of server-url before it
    // connects; the x509 error it wraps carries the class (cluster-tls-untrusted), these add
    // Rancher's reading of it
    Entry::new("rancher.agent-chain-incomplete", F::Rancher,
        "Certificate chain is not complete, please check if all needed intermediate certificates are included in the server certificate{detail}error: {error}",
        "rancher/rancher", "cmd/agent/main.go", "v2.3+")
        .samples(&[("detail", " (in the correct order) and if the cacerts setting in Rancher either contains the correct CA certificate. Certificate information is displayed above. "), ("error", "Get \"https://rancher.example.com\": x509: certificate signed by unknown authority")]),
    Entry::new("rancher.agent-cert-not-valid", F::Rancher,
        "Server certificate is not valid, please check if the host has the correct time configured{detail}error: {error}",
        "rancher/rancher", "cmd/agent/main.go", "v2.3+")
        .samples(&[("detail", " and if the server certificate has a notAfter date and time in the future. Certificate information is displayed above. "), ("error", "Get \"https://rancher.example.com\": x509: certificate has expired or is not yet valid")]),
    Entry::new("rancher.agent-cert-san", F::Rancher,
        "Server certificate does not contain correct DNS and/or IP address entries in the Subject Alternative Names (SAN).{detail}error: {error}",
        "rancher/rancher", "cmd/agent/main.go", "v2.3+")
        .samples(&[("detail", " Certificate information is displayed above. "), ("error", "Get \"https://10.0.0.1\": x509: cannot validate certificate for 10.0.0.1 because it doesn't contain any IP SANs")]),
    Entry::new("rancher.agent-issuer-mismatch", F::Rancher,
        "Issuer of last certificate found in chain ({found}) does not match with CA certificate Issuer ({ca}).",
        "rancher/rancher", "cmd/agent/main.go", "v2.3+")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-ca")
        .says("the certificate chain Rancher serves ends at the issuer {found}, but the CA the agent was given (Rancher's cacerts setting) is issued by {ca}: the server certificate lacks its intermediates, or cacerts holds another CA", "serve the full chain on Rancher's ingress (server certificate first, then intermediates) and set Rancher's cacerts setting to the CA that issued it (empty for a publicly trusted CA); then re-run the registration command")
        .samples(&[("found", "CN=rancher-intermediate"), ("ca", "CN=other-ca")]),
    // the older chain check of the same function (v2.1-v2.4, with upstream's typo
    // `Certficate`): a certificate whose subject is not the issuer of the one before it, the
    // chain Rancher serves is out of order or misses an intermediate
    Entry::new("rancher.agent-chain-order", F::Rancher,
        "Subject ({subject}) does not match with previous certificate Issuer ({issuer}).",
        "rancher/rancher", "cmd/agent/main.go (pkg/agent/main.go before v2.2)", "v2.1-v2.4")
        .to(K::Known, "agent-registration-failed", Error).group("rancher-ca")
        .says("the certificate chain Rancher's server-url serves is out of order or incomplete: a certificate with subject {subject} follows one issued by {issuer}, so the agent cannot build a chain to the CA it was given", "serve the full chain on Rancher's ingress or load balancer in order (server certificate first, then each intermediate), with Rancher's cacerts setting holding the root that issued it (empty for a publicly trusted CA); then re-run the registration command")
        .samples(&[("subject", "CN=rancher.example.com"), ("issuer", "CN=Other Intermediate")]),
    // package/run.sh: CATTLE_CA_CHECKSUM given (a private CA) while Rancher's cacerts setting is
    // empty, and the hint after a checksum mismatch (context)
    Entry::new("rancher.ca-checksum-no-cacerts", F::Rancher,
        "The environment variable CATTLE_CA_CHECKSUM is set but there is no CA certificate configured at {url:w}/v3/settings/cacerts",
        "rancher/rancher", "package/run.sh", "v2.4+")
        .to(K::Known, "agent-registration-failed", Error).group("rancher")
        .says("the agent was registered with a CA checksum (Rancher used a private CA then), but Rancher at {url} now serves no CA in its cacerts setting: Rancher's certificate was changed to a publicly trusted one (or the setting was cleared) after the registration command was copied", "copy the registration command from Rancher again (Cluster Management > the cluster > Registration): without a private CA it carries no --ca-checksum (CATTLE_CA_CHECKSUM empty); if Rancher still uses a private CA, set its cacerts setting to that CA"),
    Entry::new("rancher.ca-checksum-hint", F::Rancher,
        "Please check if the correct certificate is configured at {url:w}/v3/settings/cacerts",
        "rancher/rancher", "package/run.sh", "v2.x").complete(),
    Entry::new("rancher.agent-could-not-connect", F::Rancher,
        "Could not connect to {url:w}: {error}",
        "rancher/rancher", "cmd/agent/main.go", "v2.3+")
        .samples(&[("url", "https://rancher.example.com"), ("error", "dial tcp 10.0.0.1:443: connect: connection refused")]),
    // curl's own failure line, `curl: (<exit code>) <message>` (curl/curl src/tool_operate.c
    // / tool_main: `curl: (%d) %s`): a person's probe next to the real client's error; the
    // message carries the meaning (its own entries: `Could not resolve host`), the line is
    // read as context
    Entry::new("curl.exit", F::Client,
        "curl: ({code:w}) {error}",
        "curl/curl", "src/tool_operate.c (`curl: (%d) %s`)", "curl 7.x-8.x").complete()
        .samples(&[("code", "35"), ("error", "error:0A000126:SSL routines::unexpected eof while reading")]),
    Entry::new("curl.could-not-resolve", F::Rancher,
        "Could not resolve host: {host:w}",
        "curl/curl", "lib/hostip.c", "curl 7.x-8.x")
        .to(K::NoSuchHost, "cluster-unreachable", Error).group("conn")
        .says("the name {host} does not resolve", "fix the DNS record of {host}, or use hostAliases in the agent's pod spec"),
    // ------------------------------------------------------------------ Argo CD
    // the argocd CLI's gRPC-web client (argoproj/argo-cd pkg/apiclient/grpcproxy.go:
    // `%s %s failed with status code %d`): what answered is no Argo CD API server (the
    // Kubernetes API server given as --server, or a proxy / ingress refusing the call)
    // a gateway's answer (502/503/504 from the ingress or load balancer in front of
    // argocd-server): argocd-server did not answer in time, most often because its own
    // connection to the cluster being added hangs (argoproj/argo-cd#24773)
    Entry::new("argocd.grpcweb-gateway", F::ArgoCd,
        "/cluster.ClusterService/{method:w} failed with status code 50{digit:w}",
        "argoproj/argo-cd", "pkg/apiclient/grpcproxy.go (executeRequest)", "v1.0+")
        .to(K::Known, "agent-registration-failed", Error).group("argocd-server")
        .says("the proxy or ingress in front of argocd-server gave up on the call (HTTP 50{digit}): argocd-server did not answer in time, most often because argocd-server itself cannot reach the API server of the cluster being added (the CLI reached it from your machine, argocd-server dials it from inside its own cluster: firewall, private endpoint, authorized networks)", "check that argocd-server's pod can reach the new cluster's API endpoint (`kubectl -n argocd exec deploy/argocd-server -- curl -sk https://<api-endpoint>/version`), open the path (private endpoint / authorized networks / firewall), and raise the ingress timeout if the call is only slow; `kubectl -n argocd logs deploy/argocd-server` shows the dial error")
        .samples(&[("method", "Create"), ("digit", "4")]),
    Entry::new("argocd.grpcweb-status", F::ArgoCd,
        "/cluster.ClusterService/{method:w} failed with status code {code:w}",
        "argoproj/argo-cd", "pkg/apiclient/grpcproxy.go (executeRequest)", "v1.0+")
        .to(K::Known, "agent-registration-failed", Error).group("argocd-server")
        .says("the argocd CLI's call to the Argo CD API server was answered with HTTP {code} by something that is not Argo CD's API: the address given with --server (or `argocd login`) is the Kubernetes API server of the cluster to add, or a proxy / ingress in front of argocd-server refuses gRPC-web", "point the CLI at the Argo CD server, not at the cluster: `argocd login <argocd-server-address>` (its ingress or `kubectl -n argocd port-forward svc/argocd-server 8080:443`), then `argocd cluster add <kubeconfig-context>`: the cluster to add is chosen by the kubeconfig context; behind an ingress that does not pass gRPC add --grpc-web")
        .samples(&[("method", "Create"), ("code", "403")]),
    Entry::new("argocd.rest-config-invalid", F::ArgoCd,
        "REST config invalid: {error}",
        "argoproj/argo-cd", "util/kube/kube.go (gitops-engine pkg/utils/kube/kube.go)", "v1.0+"),
    Entry::new("argocd.rpc-unknown", F::ArgoCd,
        "rpc error: code = Unknown desc = {error}",
        "grpc/grpc-go", "status/status.go", "any"),
    // argocd-server's reply when its own connection to the new cluster was cut before an answer:
    // Argo CD v1 returned the bare io.ErrUnexpectedEOF of the dial/TLS read (`unexpected EOF`)
    // through gRPC (`rpc error: code = Unknown desc = %s`, grpc/grpc-go status/status.go); the
    // CLI's local steps (ServiceAccount, ClusterRole, binding) already ran with the user's own
    // connection (argoproj/argo-cd cmd/argocd/commands/cluster.go NewClusterAddCommand)
    Entry::new("argocd.rpc-unexpected-eof", F::ArgoCd,
        "rpc error: code = Unknown desc = unexpected EOF",
        "argoproj/argo-cd", "cmd/argocd/commands/cluster.go (argocd-server's ClusterService.Create reply through grpc-go status/status.go)", "v1.0+")
        .to(K::ConnectionClosed, "cluster-unreachable", Error).group("conn").at_end(),
    // `argocd cluster add` with a context the kubeconfig lacks, lowercase since v2.x
    // (argoproj/argo-cd cmd/argocd/commands/cluster.go `context %s does not exist in kubeconfig`)
    Entry::new("argocd.context-missing-lower", F::ArgoCd,
        "context {context:w} does not exist in kubeconfig",
        "argoproj/argo-cd", "cmd/argocd/commands/cluster.go", "v2.5+")
        .to(K::ConfigInvalid, "cluster-unreachable", Error).group("config"),
    // `argocd cluster add`'s own progress lines (argoproj/argo-cd util/clusterauth/clusterauth.go
    // `ServiceAccount %q created in namespace %q`, `... already exists in namespace %q`,
    // `Created bearer token secret for ServiceAccount %q` (v2.4+); cmd/argocd/commands/
    // cluster.go `Cluster '%s' added`): a step done, read as such
    Entry::new("argocd.sa-created", F::ArgoCd,
        "ServiceAccount {sa:w} created in namespace {namespace:w}",
        "argoproj/argo-cd", "util/clusterauth/clusterauth.go (CreateServiceAccount)", "v1.2+").complete()
        .samples(&[("sa", "\"argocd-manager\""), ("namespace", "\"kube-system\"")]),
    Entry::new("argocd.sa-exists", F::ArgoCd,
        "ServiceAccount {sa:w} already exists in namespace {namespace:w}",
        "argoproj/argo-cd", "util/clusterauth/clusterauth.go (CreateServiceAccount)", "v1.2+").complete()
        .samples(&[("sa", "\"argocd-manager\""), ("namespace", "\"kube-system\"")]),
    Entry::new("argocd.token-secret-created", F::ArgoCd,
        "Created bearer token secret for ServiceAccount {sa:w}",
        "argoproj/argo-cd", "util/clusterauth/clusterauth.go (createServiceAccountToken)", "v2.4+ (v2.3.7+, v2.2.12+)").complete()
        .samples(&[("sa", "\"argocd-manager\"")]),
    Entry::new("argocd.cluster-added", F::ArgoCd,
        "Cluster '{server:w}' added",
        "argoproj/argo-cd", "cmd/argocd/commands/cluster.go (NewClusterAddCommand)", "v1.0+").complete()
        .samples(&[("server", "https://10.0.0.10:6443")]),
    // the application controller's cluster cache (argoproj/argo-cd controller/cache/cache.go
    // `error synchronizing cache state : %w`, `failed to get cluster info for %q: %w`;
    // gitops-engine pkg/cache/cluster.go `failed to sync cluster %s: %w`, `failed to load initial
    // state of resource %s: %w`): wrappers, the inner error carries the meaning
    Entry::new("argocd.cache-sync-failed", F::ArgoCd,
        "error synchronizing cache state : {error}",
        "argoproj/argo-cd", "controller/cache/cache.go (getSyncedCluster)", "v2.0+"),
    Entry::new("argocd.cluster-info-failed", F::ArgoCd,
        "failed to get cluster info for {server}: {error}",
        "argoproj/argo-cd", "controller/cache/cache.go", "v2.0+")
        .samples(&[("server", "\"https://10.0.0.1:6443\"")]),
    Entry::new("argocd.cluster-sync-failed", F::ArgoCd,
        "failed to sync cluster {server:w}: {error}",
        "argoproj/gitops-engine", "pkg/cache/cluster.go (EnsureSynced)", "v1.8+")
        .samples(&[("server", "https://10.0.0.1:6443")]),
    Entry::new("argocd.initial-state-failed", F::ArgoCd,
        "failed to load initial state of resource {kind:w}: {error}",
        "argoproj/gitops-engine", "pkg/cache/cluster.go (sync)", "v1.8+")
        .samples(&[("kind", "Deployment.apps")]),
    // ------------------------------------------------------------------ ServiceAccount token Secrets (Kubernetes 1.24+)
    // Kubernetes 1.24 stopped creating a `kubernetes.io/service-account-token` Secret for every
    // ServiceAccount (LegacyServiceAccountTokenNoAutoGeneration, kubernetes/kubernetes
    // pkg/controller/serviceaccount/tokens_controller.go no longer runs for new accounts);
    // cluster-join tools written before it create a ServiceAccount in the member cluster and
    // wait for that Secret in its `.secrets` list, so they fail on every 1.24+ member:
    // Argo CD CLI (util/clusterauth/clusterauth.go GetServiceAccountBearerToken, v0.x
    // common/installer.go: fixed in v2.4.0, v2.3.7, v2.2.12, which create the Secret
    // themselves), karmadactl join (pkg/util/serviceaccount.go WaitForServiceAccountSecretCreation
    // + pkg/util/secret.go GetTargetSecret, v0.5-v1.2; v1.3 creates the Secret), Rancher's
    // cattle-cluster-agent (pkg/agent/cluster/cluster.go getTokenFromAPI) and hosted-cluster
    // drivers (pkg/kontainer-engine/drivers/util/utils.go GenerateServiceAccountToken) before
    // v2.6.7. The tools that create the Secret then wait for the token controller to fill it.
    Entry::new("argocd.sa-secret-wait-timeout", F::ArgoCd,
        "Failed to wait for service account secret: timed out waiting for the condition",
        "argoproj/argo-cd", "util/clusterauth/clusterauth.go (GetServiceAccountBearerToken); common/installer.go before v1.2", "v0.10-v2.3.6 (v2.2.0-v2.2.11)")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says(SA_TOKEN_ARGOCD_CAUSE, SA_TOKEN_ARGOCD_REMEDY),
    Entry::new("argocd.sa-token-not-filled", F::ArgoCd,
        "failed to get token for serviceaccount {sa:w}: timed out waiting for the condition",
        "argoproj/argo-cd", "util/clusterauth/clusterauth.go (GetServiceAccountBearerToken)", "v2.4+ (v2.3.7+, v2.2.12+)")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says(SA_TOKEN_NOT_FILLED_CAUSE, SA_TOKEN_NOT_FILLED_REMEDY)
        .samples(&[("sa", "\"argocd-manager\"")]),
    Entry::new("karmada.join.sa-secret-missing", F::Karmada,
        "from cluster({cluster:w}), error: failed to get serviceAccount secret, error: no specific secret found in namespace: {namespace:w}",
        "karmada-io/karmada", "pkg/karmadactl/join.go, pkg/util/serviceaccount.go (WaitForServiceAccountSecretCreation), pkg/util/secret.go (GetTargetSecret)", "v1.0-v1.2")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token").subject("Cluster/{cluster}")
        .says(SA_TOKEN_KARMADA_CAUSE, SA_TOKEN_KARMADA_REMEDY)
        .samples(&[("cluster", "member1"), ("namespace", "karmada-cluster")]),
    Entry::new("karmada.sa-secret-missing", F::Karmada,
        "no specific secret found in namespace: {namespace:w}",
        "karmada-io/karmada", "pkg/util/secret.go (GetTargetSecret); pkg/karmadactl/join.go `Failed to get service account secret from  cluster` (v0.x), pkg/controllers/unifiedauth (impersonation secret)", "v0.5-v1.2")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says(SA_TOKEN_KARMADA_CAUSE, SA_TOKEN_KARMADA_REMEDY)
        .samples(&[("namespace", "karmada-cluster")]),
    Entry::new("karmada.sa-token-not-filled", F::Karmada,
        "failed to get serviceAccount secret, error: timed out waiting for the condition",
        "karmada-io/karmada", "pkg/util/serviceaccount.go (WaitForServiceAccountSecretCreation)", "v1.0+")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says(SA_TOKEN_NOT_FILLED_CAUSE_KARMADA, SA_TOKEN_NOT_FILLED_REMEDY),
    // kubefedctl join v0.1-v0.9 (kubernetes-retired/kubefed pkg/kubefedctl/join.go
    // populateSecretInHostCluster, klog -v 2): polls the ServiceAccount's `.secrets` for a
    // token Secret; v0.10.0 creates it (`Created service account token secret`)
    Entry::new("kubefed.join.sa-secret-timeout", F::Karmada,
        "Could not get service account secret from joining cluster: timed out waiting for the condition",
        "kubernetes-retired/kubefed", "pkg/kubefedctl/join.go (populateSecretInHostCluster)", "v0.1-v0.9.2")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says("kubefedctl join (v0.9 or older) created its ServiceAccount in the joining cluster and waited for the kubernetes.io/service-account-token Secret listed in it; Kubernetes 1.24 and later no longer create such a Secret for a ServiceAccount (LegacyServiceAccountTokenNoAutoGeneration), so this kubefedctl cannot join a 1.24+ cluster (v0.10.0 creates the Secret itself)", "use kubefedctl v0.10.0 (KubeFed is retired: plan a move to a maintained federation such as Karmada or OCM); with this version, create a Secret of type kubernetes.io/service-account-token annotated kubernetes.io/service-account.name=<sa> in the joining cluster's KubeFed namespace and list it in the ServiceAccount (`kubectl -n kube-federation-system patch serviceaccount <sa> -p '{{\"secrets\":[{{\"name\":\"<sa>-token\"}}]}}'`), then join again"),
    Entry::new("rancher.agent-no-sa-secret", F::Rancher,
        "no secret exists for service account {namespace:w}/{sa:w}",
        "rancher/rancher", "pkg/agent/cluster/cluster.go (getTokenFromAPI)", "v2.5-v2.6.6")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says(SA_TOKEN_RANCHER_CAUSE, SA_TOKEN_RANCHER_REMEDY)
        .samples(&[("namespace", "cattle-system"), ("sa", "cattle")]),
    // the Rancher server itself (HA peer manager) installed on a 1.24+ cluster
    Entry::new("rancher.server-no-sa-secret", F::Rancher,
        "no secret assigned to service account {namespace:w}/{sa:w}",
        "rancher/rancher", "pkg/tunnelserver/peermanager.go", "v2.6.0-v2.6.6")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says("the Rancher server (v2.6.6 or older) reads the token Secret of its ServiceAccount {namespace}/{sa} to reach its peers; Kubernetes 1.24 and later no longer create such a Secret for a ServiceAccount (LegacyServiceAccountTokenNoAutoGeneration), so this Rancher version cannot start on a 1.24+ cluster (Rancher supports 1.24 from v2.6.7)", "install Rancher v2.6.7 or later on this cluster (`helm upgrade rancher rancher-stable/rancher --version 2.6.7`, or any later version), or run this Rancher on a Kubernetes version it supports")
        .samples(&[("namespace", "cattle-system"), ("sa", "rancher")]),
    Entry::new("rancher.hosted-sa-token", F::Rancher,
        "failed to fetch serviceAccountToken",
        "rancher/rancher", "pkg/kontainer-engine/drivers/util/utils.go (GenerateServiceAccountToken)", "v2.0-v2.6.6")
        .to(K::Known, "agent-registration-failed", Error).group("sa-token")
        .says(SA_TOKEN_RANCHER_HOSTED_CAUSE, SA_TOKEN_RANCHER_REMEDY),
    // ------------------------------------------------------------------ Karmada: the wrong API server
    // Karmada's own API (cluster.karmada.io through karmada-aggregated-apiserver's APIService
    // v1alpha1.cluster.karmada.io; policy.karmada.io, work.karmada.io, ... as CRDs) is served by
    // karmada-apiserver only (karmada-io/karmada pkg/karmadactl/cmdinit/karmada/deploy.go,
    // charts/karmada). karmadactl join/unjoin/register and `kubectl karmada` take the Karmada
    // control plane's kubeconfig in --kubeconfig (--karmada-context); given the host cluster's
    // (or a member's), the API server there answers 404 for every Karmada resource
    // (apimachinery NewGenericServerResponse `the server could not find the requested resource
    // (%s %s)`) or has no mapping for its kinds (pkg/api/meta NoKindMatchError).
    Entry::new("karmada.api-not-served", F::Karmada,
        "the server could not find the requested resource ({verb:w} {resource:w}.karmada.io{rest})",
        "karmada-io/karmada", "pkg/karmadactl/join/join.go, pkg/karmadactl/unjoin/unjoin.go (apimachinery pkg/api/errors NewGenericServerResponse)", "v0.5+")
        .to(K::Known, "agent-registration-failed", Error).group("karmada-api")
        .says(KARMADA_WRONG_API_CAUSE, KARMADA_WRONG_API_REMEDY)
        .samples(&[("verb", "get"), ("resource", "clusters.cluster"), ("rest", "")]),
    // kubectl get/describe of a resource type the API server does not serve
    // (kubernetes/kubernetes staging/src/k8s.io/cli-runtime/pkg/resource/builder.go
    // mappingFor `the server doesn't have a resource type %q`): context on its own; in a
    // Karmada text with one of Karmada's resources, classify concludes karmada.api-not-served;
    // elsewhere the type is read as an unknown inner `{error}` (reported as not recognised,
    // never dropped: classify wrapped_unknown)
    Entry::new("kubectl.no-resource-type", F::Client,
        "the server doesn't have a resource type {error:w}",
        K8S, "staging/src/k8s.io/cli-runtime/pkg/resource/builder.go (mappingFor)", "v1.8+")
        .samples(&[("error", "\"clusters\"")]),
    Entry::new("karmada.kind-not-served", F::Karmada,
        "no matches for kind \"{kind:w}\" in version \"{group:w}.karmada.io/",
        "karmada-io/karmada", "apimachinery pkg/api/meta/errors.go (NoKindMatchError) for Karmada's kinds", "v0.5+")
        .to(K::Known, "agent-registration-failed", Error).group("karmada-api")
        .says(KARMADA_WRONG_API_CAUSE, KARMADA_WRONG_API_REMEDY)
        .samples(&[("kind", "PropagationPolicy"), ("group", "policy")]),
    // ------------------------------------------------------------------ platform policies refusing a request
    // GKE's authorizer for its own policies (Autopilot and, since 1.32, managed namespaces
    // and RBAC bindings of every cluster) appends its reason to the Forbidden status
    // (`GKE Warden authz [denied by <policy>]: <detail>`); its admission counterpart is a
    // validating webhook (`warden-validating.common-webhooks.networking.gke.io`,
    // `gkepolicy.common-webhooks.networking.gke.io`: `GKE Warden rejected the request ...`,
    // `GKE Policy Controller rejected the request ...`). The RBAC or webhook entry of the same
    // line concludes; classify::client reads the policy (see rules::cluster_forbidden).
    Entry::new("gke.warden-authz", F::Client,
        "GKE Warden authz [denied by {policy:w}]: {detail}",
        "GKE (platform, closed source)", "GKE Autopilot security policies (cloud.google.com/kubernetes-engine/docs/concepts/autopilot-security)", "GKE 1.21+ (Autopilot), 1.32+ (all clusters)")
        .samples(&[("policy", "managed-namespaces-limitation"), ("detail", "the namespace \"kube-system\" is managed and the request's verb \"create\" is denied")]),
    // ------------------------------------------------------------------ configuration management
    // Ansible's default stdout callback prints a failed task's result as `fatal: [%s]: FAILED!
    // => %s` (ansible/ansible lib/ansible/plugins/callback/default.py, v2_runner_on_failed);
    // the result's `msg`/`stderr` is read on its own (the JSON is unwrapped by the classifier),
    // so the wrapper line is context. `UNREACHABLE!` (the host itself) is not context.
    Entry::new("ansible.task-failed", F::ConfigManagement,
        "fatal: [{host}]: FAILED!",
        "ansible/ansible", "lib/ansible/plugins/callback/default.py (v2_runner_on_failed)", "2.x")
        .samples(&[("host", "node-01")]),
];
