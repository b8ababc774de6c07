//! The breadth sweep of issue 8: for each source (kubelet, NVIDIA stack, client-go/kubectl,
//! cluster-join agents and mount helpers) the lines people paste, as printed by the upstream
//! versions named in each entry, read to their entry and to the rule that concludes; and the
//! healthy or expected lines of the same programs, which must stay quiet.

use super::match_line;
use crate::rules::testutil::run_log;

/// (exact line, catalog entry, rule that must fire on the line alone, a word of its finding).
const LINES: &[(&str, &str, &str, &str)] = &[
    // kubelet: eviction manager, structured (v1.21+) and printf (v1.8-v1.20) wordings
    (
        "I1201 10:00:00.000000    1234 eviction_manager.go:360] \"Eviction manager: must evict pod(s) to reclaim\" resourceName=\"memory\"",
        "kubelet.eviction-must-evict",
        "node-runtime-unhealthy",
        "memory pressure",
    ),
    (
        "I0915 10:00:00.000000    1234 eviction_manager.go:338] eviction manager: attempting to reclaim nodefs",
        "kubelet.eviction-reclaim-legacy",
        "node-runtime-unhealthy",
        "nodefs pressure",
    ),
    (
        "E1201 10:00:00.000000    1234 eviction_manager.go:395] \"Eviction manager: unable to evict any pods from the node\"",
        "kubelet.eviction-unable",
        "node-runtime-unhealthy",
        "no pod it may evict",
    ),
    (
        "  Warning  EvictionThresholdMet  3m  kubelet  Attempting to reclaim ephemeral-storage",
        "kubelet.eviction-threshold-met",
        "node-runtime-unhealthy",
        "ephemeral-storage",
    ),
    (
        "Message:          Pod The node had condition: [DiskPressure].",
        "kubelet.evicted-node-condition",
        "node-runtime-unhealthy",
        "DiskPressure",
    ),
    (
        "Message:          Pod ephemeral local storage usage exceeds the total limit of containers 1Gi.",
        "kubelet.evicted-pod-ephemeral-limit",
        "node-runtime-unhealthy",
        "own limit",
    ),
    (
        "  Warning  Evicted  3m  kubelet  Container app exceeded its local ephemeral storage limit \"500Mi\".",
        "kubelet.evicted-container-ephemeral-limit",
        "node-runtime-unhealthy",
        "500Mi",
    ),
    (
        "  Warning  Evicted  3m  kubelet  Usage of EmptyDir volume \"cache\" exceeds the limit \"1Gi\".",
        "kubelet.evicted-emptydir-limit",
        "node-runtime-unhealthy",
        "sizeLimit",
    ),
    // kubelet: image garbage collection (v1.25+ and v1.8-v1.24 wordings)
    (
        "E1201 10:00:00.000000    1234 kubelet.go:1400] \"Image garbage collection failed multiple times in a row\" err=\"failed to garbage collect required amount of images. Attempted to free 5000000000 bytes, but only found 0 bytes eligible to free.\"",
        "kubelet.image-gc-cannot-free",
        "node-runtime-unhealthy",
        "5000000000",
    ),
    (
        "Apr 02 13:15:01 worker3 kubelet[1114]: E0402 13:15:01.809804    1114 kubelet.go:1302] Image garbage collection failed multiple times in a row: failed to garbage collect required amount of images. Wanted to free 966184140 bytes, but freed 0 bytes",
        "kubelet.image-gc-cannot-free-legacy",
        "node-runtime-unhealthy",
        "966184140",
    ),
    // kubelet: start-up
    (
        "F1201 10:00:00.000000    1234 server.go:198] failed to load Kubelet config file /var/lib/kubelet/config.yaml, error failed to read kubelet config file \"/var/lib/kubelet/config.yaml\", error: open /var/lib/kubelet/config.yaml: no such file or directory",
        "kubelet.config-file-missing",
        "node-not-ready",
        "kubeadm join",
    ),
    (
        "E1201 10:00:00.000000    1234 run.go:74] \"command failed\" err=\"failed to run Kubelet: validate service connection: CRI v1 runtime API is not implemented for endpoint \\\"unix:///run/containerd/containerd.sock\\\": rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService\"",
        "kubelet.cri-v1-not-implemented",
        "node-runtime-unhealthy",
        "disabled_plugins",
    ),
    (
        "E1201 10:00:00.000000    1234 run.go:74] \"command failed\" err=\"failed to run Kubelet: failed to create kubelet: get remote runtime typed version failed: rpc error: code = Unimplemented desc = unknown service runtime.v1alpha2.RuntimeService\"",
        "kubelet.cri-v1alpha2-unknown",
        "node-runtime-unhealthy",
        "v1alpha2",
    ),
    (
        "E1201 10:00:00.000000    1234 run.go:72] \"command failed\" err=\"failed to validate kubelet configuration, error: kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is unsupported and will be removed in a future release\"",
        "kubelet.cgroup-v1-refused",
        "node-runtime-unhealthy",
        "cgroup2fs",
    ),
    (
        "May 15 21:29:28 node-01 kubelet[6810]: F0515 21:29:28.765602    6810 kubelet.go:1383] Failed to start ContainerManager system validation failed - Following Cgroup subsystem not mounted: [memory]",
        "kubelet.cgroup-subsystem-not-mounted",
        "node-runtime-unhealthy",
        "cgroup_memory=1",
    ),
    (
        "E1201 10:00:00.000000    1234 kubelet.go:2373] \"Container runtime not ready\" runtimeReady=\"RuntimeReady=false reason:DockerDaemonNotReady message:docker: failed to get docker version: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\"",
        "kubelet.runtime-not-ready",
        "node-runtime-unhealthy",
        "DockerDaemonNotReady",
    ),
    // the pod sandbox's network (containerd, dockershim) and image
    (
        "  Warning  FailedCreatePodSandBox  3m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"0000\": plugin type=\"flannel\" failed (add): loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory",
        "containerd.sandbox-network-failed",
        "node-runtime-unhealthy",
        "subnet.env",
    ),
    (
        "  Warning  FailedCreatePodSandBox  3m  kubelet  Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod \"web-1_default\" network: open /run/flannel/subnet.env: no such file or directory",
        "dockershim.cni-setup-failed",
        "node-runtime-unhealthy",
        "CNI plugin",
    ),
    (
        "  Warning  FailedCreatePodSandBox  3m  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image \"registry.k8s.io/pause:3.8\": failed to pull image \"registry.k8s.io/pause:3.8\": dial tcp 10.0.0.9:443: i/o timeout",
        "containerd.sandbox-image",
        "node-runtime-unhealthy",
        "sandbox_image",
    ),
    // volumes: v1.28+ deadline, v1.9-v1.16 wording, NewMounter
    (
        "  Warning  FailedMount  3m  kubelet  Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[]: context deadline exceeded",
        "mount.unable-to-attach-or-mount-deadline",
        "storage-mount-failed",
        "data",
    ),
    (
        "  Warning  FailedMount  3m  kubelet  Unable to mount volumes for pod \"web-1_default(0000)\": timeout expired waiting for volumes to attach or mount for pod \"default\"/\"web-1\". list of unmounted volumes=[data]. list of unattached volumes=[data default-token-abcde]",
        "mount.unable-to-mount-legacy",
        "storage-mount-failed",
        "data",
    ),
    (
        "  Warning  FailedMount  3m  kubelet  MountVolume.NewMounter initialization failed for volume \"pv-local\" : path \"/mnt/data\" does not exist",
        "mount.new-mounter-failed",
        "storage-mount-failed",
        "/mnt/data",
    ),
    // NVIDIA device plugin: start, config, CDI
    (
        "E1201 10:00:00.000000       1 server.go:138] Could not start device plugin for 'nvidia.com/gpu': listen unix /var/lib/kubelet/device-plugins/nvidia-gpu.sock: bind: address already in use",
        "nvidia.start-plugin-failed",
        "gpu-plugin-log-error",
        "second plugin",
    ),
    (
        "F1201 10:00:00.000000       1 server.go:195] GRPC server for 'nvidia.com/gpu' has repeatedly crashed recently. Quitting",
        "nvidia.grpc-crashed-quitting",
        "gpu-plugin-log-error",
        "nvidia.com/gpu",
    ),
    (
        "2022/06/01 10:00:00 Could not contact Kubelet. Did you enable the device plugin feature gate?",
        "nvidia.kubelet-not-contacted-v012",
        "gpu-plugin-log-error",
        "register",
    ),
    (
        "E1201 10:00:00.000000       1 main.go:177] error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: error building device map: error building device map from config.resources: error building GPU device map: GPU name 'NVIDIA A100-SXM4-40GB' does not match any resource patterns",
        "nvidia.name-matches-no-pattern",
        "gpu-plugin-log-error",
        "NVIDIA A100-SXM4-40GB",
    ),
    (
        "E1201 10:00:00.000000       1 main.go:177] error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: error building device map: error updating device map with replicas from replicatedResources config: requested 4 devices to be replicated, but only 2 devices available",
        "nvidia.replicas-exceed-devices",
        "gpu-plugin-log-error",
        "replicate 4",
    ),
    (
        "E1201 10:00:00.000000       1 main.go:123] error starting plugins: unable to load config: unable to finalize config: unable to load config: unable to parse config file: error parsing config file: unmarshal error: error unmarshaling JSON: while decoding JSON: json: unknown field \"sharing\"",
        "nvidia.config-unparsable",
        "gpu-plugin-log-error",
        "configuration",
    ),
    (
        "E1201 10:00:00.000000       1 main.go:177] error starting plugins: unable to create cdi spec file: failed to get CDI spec: failed to create discoverer for common entities: failed to create discoverer for driver files: failed to locate driver libraries: error locating \"libcuda.so\": not found",
        "nvidia.cdi-handler-failed",
        "gpu-plugin-log-error",
        "driver root",
    ),
    // NVIDIA driver, toolkit and operator on the node
    (
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
        "nvidia-smi.driver-unreachable",
        "gpu-plugin-log-error",
        "kernel driver",
    ),
    (
        "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
        "docker.gpus-no-driver",
        "gpu-plugin-log-error",
        "nvidia-ctk runtime configure",
    ),
    (
        "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all: unknown",
        "cdi.unresolvable-devices",
        "gpu-plugin-log-error",
        "nvidia-ctk cdi generate",
    ),
    (
        "time=\"2024-01-01T10:00:00Z\" level=info msg=\"GPU resources are not yet discovered by the node, retry: 5\"",
        "gpu-operator.gpu-not-discovered-retry",
        "gpu-plugin-log-error",
        "device plugin",
    ),
    (
        "E: Unable to locate package linux-headers-5.15.0-1041-azure",
        "apt.no-kernel-headers",
        "gpu-plugin-log-error",
        "5.15.0-1041-azure",
    ),
    // client-go / kubectl / Go
    (
        "Unable to connect to the server: x509: cannot validate certificate for 10.0.0.1 because it doesn't contain any IP SANs",
        "go.x509-no-ip-sans",
        "cluster-tls-untrusted",
        "IP SAN",
    ),
    (
        "Unable to connect to the server: x509: certificate is not valid for any names, but wanted to match kubernetes.example.com",
        "go.x509-no-names",
        "cluster-tls-untrusted",
        "kubernetes.example.com",
    ),
    (
        "Unable to connect to the server: x509: certificate relies on legacy Common Name field, use SANs or temporarily enable Common Name matching with GODEBUG=x509ignoreCN=0",
        "go.x509-legacy-cn",
        "cluster-tls-untrusted",
        "Common Name",
    ),
    (
        "Unable to connect to the server: dial tcp 10.0.0.1:6443: getsockopt: connection refused",
        "go.dial-refused-legacy",
        "cluster-unreachable",
        "connection refused",
    ),
    (
        "Unable to connect to the server: dial tcp 10.0.0.1:6443: getsockopt: no route to host",
        "go.no-route-legacy",
        "cluster-unreachable",
        "10.0.0.1:6443",
    ),
    (
        "Unable to connect to the server: net/http: request canceled (Client.Timeout exceeded while awaiting headers)",
        "go.client-timeout-headers",
        "cluster-unreachable",
        "timeout",
    ),
    (
        "Unable to connect to the server: getting credentials: exec: executable aws not found",
        "client.exec-plugin-not-found",
        "cluster-unreachable",
        "aws eks update-kubeconfig",
    ),
    (
        "Unable to connect to the server: getting credentials: exec: executable kubelogin failed with exit code 1",
        "client.exec-plugin-failed",
        "cluster-unauthorized",
        "kubelogin",
    ),
    (
        "error: exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"",
        "client.exec-plugin-api-version",
        "cluster-unreachable",
        "v1beta1",
    ),
    (
        "error: error loading config file \"/home/user/.kube/config\": open /home/user/.kube/config: permission denied",
        "client.kubeconfig-load-failed",
        "cluster-unreachable",
        "chown",
    ),
    // Rancher's agent: the websocket to Rancher
    (
        "time=\"2024-01-01T10:00:00Z\" level=error msg=\"Failed to connect to proxy. Response status: 401 - 401 Unauthorized. Response body: failed authentication\" error=\"websocket: bad handshake\"",
        "rancher.proxy-unauthorized",
        "agent-registration-failed",
        "Registration",
    ),
    (
        "time=\"2024-01-01T10:00:00Z\" level=error msg=\"Failed to connect to proxy. Response status: 400 - 400 Bad Request. Response body: cluster not found\" error=\"websocket: bad handshake\"",
        "rancher.proxy-refused",
        "agent-registration-failed",
        "cluster not found",
    ),
    (
        "time=\"2024-01-01T10:00:00Z\" level=error msg=\"Issuer of last certificate found in chain (CN=rancher-intermediate) does not match with CA certificate Issuer (CN=other-ca). Please check if the configured server certificate contains all needed intermediate certificates\"",
        "rancher.agent-issuer-mismatch",
        "agent-registration-failed",
        "cacerts",
    ),
    (
        "time=\"2024-01-01T10:00:00Z\" level=fatal msg=\"Certificate chain is not complete, please check if all needed intermediate certificates are included in the server certificate (in the correct order) and if the cacerts setting in Rancher either contains the correct CA certificate (in the case of using self signed certificates) or is empty (in the case of using a certificate signed by a recognized CA). Certificate information is displayed above. error: Get \\\"https://rancher.example.com\\\": x509: certificate signed by unknown authority\"",
        "rancher.agent-chain-incomplete",
        "cluster-tls-untrusted",
        "authority",
    ),
    (
        "Error from server: Get \"https://10.0.0.11:10250/containerLogs/ns/pod-1/app\": remote error: tls: internal error",
        "apiserver.kubelet-serving-cert-missing",
        "apiserver-kubelet-unreachable",
        "certificate approve",
    ),
    (
        "Sep 03 15:54:42 minikube kubelet[25959]: E0903 15:54:42.118101   25959 run.go:74] \"command failed\" err=\"failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \\\"unix:///var/run/cri-dockerd.sock\\\": rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService\"",
        "kubelet.cri-v1-unimplemented-v126",
        "node-runtime-unhealthy",
        "cri-dockerd",
    ),
    (
        "Sep 18 06:22:09 lb kubelet[31948]: E0918 06:22:09.544483   31948 remote_runtime.go:189] \"Version from runtime service failed\" err=\"rpc error: code = Unimplemented desc = unknown service runtime.v1alpha2.RuntimeService\"",
        "kubelet.cri-version-failed",
        "node-runtime-unhealthy",
        "v1alpha2",
    ),
    (
        "time=\"2025-08-13T14:18:42Z\" level=warning msg=\"Error while getting agent config: invalid response 401: {\\\"type\\\":\\\"error\\\",\\\"status\\\":\\\"401\\\",\\\"message\\\":\\\"Unauthorized 401: must authenticate\\\"}\\n\"",
        "rancher.agent-config-unauthorized",
        "agent-registration-failed",
        "must authenticate",
    ),
    (
        "error: failed to register as cluster with name member1 already exists",
        "karmada.register.name-exists",
        "agent-registration-failed",
        "unregister",
    ),
    (
        "time=\"2023-05-04T04:43:13Z\" level=fatal msg=\"Error: unable to restart containerd: unable to signal containerd: unable to dial: dial unix /runtime/sock-dir/containerd.sock: connect: no such file or directory\"",
        "toolkit.restart-runtime-failed",
        "gpu-plugin-log-error",
        "CONTAINERD_SOCKET",
    ),
    (
        "time=\"2024-12-07T03:35:24Z\" level=warning msg=\"Error signaling containerd, attempt 1/6: unable to dial: dial unix /runtime/sock-dir/containerd.sock: connect: connection refused\"",
        "toolkit.signal-runtime-retry",
        "gpu-plugin-log-error",
        "k3s",
    ),
    (
        "failed to run Kubelet: failed to create kubelet: failed to get docker version: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
        "docker.daemon-not-running",
        "node-runtime-unhealthy",
        "systemctl enable --now docker",
    ),
    (
        "E0101 10:00:00.000000    1234 run.go:74] \"command failed\" err=\"failed to run Kubelet: unable to determine runtime API version: rpc error: code = Unavailable desc = connection error: desc = \\\"transport: Error while dialing dial unix /var/run/containerd/containerd.sock: connect: no such file or directory\\\"\"",
        "kubelet.runtime-api-version-unknown",
        "node-runtime-unhealthy",
        "containerRuntimeEndpoint",
    ),
    (
        "FATA[0000] Context kind-member1 does not exist in kubeconfig",
        "argocd.context-missing",
        "cluster-unreachable",
        "kubeconfig",
    ),
    (
        "Failed to initialize NVML: Driver/library version mismatch",
        "nvidia-smi.version-mismatch",
        "gpu-plugin-log-error",
        "reboot",
    ),
    (
        "Error in configuration: unable to read client-cert /home/user/.minikube/client.crt for minikube due to open /home/user/.minikube/client.crt: no such file or directory",
        "client.kubeconfig-file-unreadable",
        "cluster-unreachable",
        "--flatten",
    ),
    (
        "  Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32 Mounting command: mount Mounting arguments: -t nfs 10.0.0.5:/exports /var/lib/kubelet/pods/0000/volumes/kubernetes.io~nfs/data Output: mount: /var/lib/kubelet/pods/0000/volumes/kubernetes.io~nfs/data: unknown filesystem type 'nfs'.",
        "mount.unknown-fs-type",
        "storage-mount-failed",
        "nfs-common",
    ),
    (
        "E1201 10:00:00.000000    1234 cni.go:388] \"Error validating CNI config list\" configList=\"{\\\"name\\\":\\\"cbr0\\\"}\" err=\"[failed to find plugin \\\"flannel\\\" in path [/opt/cni/bin]]\"",
        "cni.plugin-binary-missing",
        "node-runtime-unhealthy",
        "/opt/cni/bin",
    ),
];

/// Healthy or expected lines of the same programs: recognised, and no finding above info.
const QUIET: &[&str] = &[
    "E1201 10:00:00.000000    1234 kubelet.go:1343] \"Image garbage collection failed once. Stats initialization may not have completed yet\" err=\"failed to get imageFs info: unable to find data in memory cache\"",
    "E0330 01:26:49.556884    4210 kubelet.go:1282] Image garbage collection failed once. Stats initialization may not have completed yet: failed to get imageFs info: unable to find data in memory cache",
    "E1201 10:00:00.000000    1234 kubelet.go:2350] \"Skipping pod synchronization\" err=\"[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]\"",
    "E1201 10:00:00.000000    1234 controller.go:193] \"Failed to update lease\" err=\"Operation cannot be fulfilled on leases.coordination.k8s.io \\\"node-01\\\": the object has been modified; please apply your changes to the latest version and try again\"",
    "  Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed for volume \"kube-api-access-abcde\" : object \"default\"/\"kube-root-ca.crt\" not registered",
    "W1201 10:00:00.000000       1 server.go:155] Failed to start health check: failed to create event set: ERROR_NOT_SUPPORTED; continuing with health checks disabled",
    "time=\"2022-08-04T09:21:48Z\" level=error msg=\"Failed to connect to proxy. Response status: 400 - 400 Bad Request. Response body: Operation cannot be fulfilled on nodes.management.cattle.io \\\"m-0000\\\": the object has been modified; please apply your changes to the latest version and try again\" error=\"websocket: bad handshake\"",
    "E0314 08:32:34.998853    9322 summary.go:92] Failed to get system container stats for \"/system.slice/kubelet.service\": failed to get cgroup stats for \"/system.slice/kubelet.service\": failed to get container info for \"/system.slice/kubelet.service\": unknown container \"/system.slice/kubelet.service\"",
    "E1201 10:00:00.000000    1234 file_linux.go:61] \"Unable to read config path\" err=\"path does not exist, ignoring\" path=\"/etc/kubernetes/manifests\"",
    "E1201 10:00:00.000000    1234 cri_stats_provider.go:448] \"Failed to get the info of the filesystem with mountpoint\" err=\"unable to find data in memory cache\" mountpoint=\"/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs\"",
];

#[test]
fn every_swept_line_reads_to_its_entry_and_rule() {
    super::version_wordings::check_lines(LINES);
}

#[test]
fn healthy_and_expected_lines_stay_quiet() {
    for text in QUIET {
        assert!(!match_line(text).is_empty(), "{text}: not recognised");
        for r in crate::rules::catalog() {
            let f = run_log(r.id(), text);
            assert!(
                f.iter().all(|f| f.severity <= crate::Severity::Info),
                "{text}: {} says {:?}",
                r.id(),
                f.iter().map(|f| &f.message).collect::<Vec<_>>()
            );
        }
    }
}
