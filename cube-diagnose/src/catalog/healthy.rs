//! The healthy catalog: messages programs print when a step worked (a device plugin registered
//! with the kubelet, a node registered or joined, a validator passed, an agent is up, a systemd
//! unit is running). Each is a template taken from the upstream file that prints it, like the
//! error catalog ([`super::ENTRIES`]); the conclusion is always "known, healthy": no finding,
//! and the line counts as read, so a paste of such output is an answer (exit 0), never "not
//! recognised".
//!
//! Two tiers: an outcome (`.healthy()`: `Registered device plugin`, `all validations are
//! successful`, `Active: active (running)`) makes an input read on its own; a progress line
//! (`.progress()`: `Loading NVML`, `Starting OS watcher.`, `Loaded: loaded (...)`) is known and
//! counted in the input's note, but proves nothing worked, so a paste of progress lines only
//! (a `systemctl status` of a unit in `activating (auto-restart)`, a plugin that stops after
//! `Starting to serve`) is not taken for an answer.
//!
//! What a healthy entry may never do is hide an error: it is not matched on a line that is an
//! error by its own marking or by its words ([`super::marked_error`],
//! [`super::looks_like_error`]), it carries no conclusion, and the other lines of the same paste
//! are read as before (an error line after a healthy prefix still gives its finding). Messages
//! that a program prints at info level but that report a failure (`No devices found. Waiting
//! indefinitely.`, `Could not register device plugin`, `Failed to start one or more plugins`)
//! are never here.

use super::{Entry, Family as F};

const K8S: &str = "kubernetes/kubernetes";
const NVDP: &str = "NVIDIA/k8s-device-plugin";
const GKE: &str = "GoogleCloudPlatform/container-engine-accelerators";
const HAMI: &str = "Project-HAMi/HAMi";
const OPERATOR: &str = "NVIDIA/gpu-operator";
const K3S: &str = "k3s-io/k3s";
const SYSTEMD: &str = "systemd/systemd";
const SYSTEMCTL_SHOW: &str = "src/systemctl/systemctl-show.c (print_status_info)";

/// The healthy messages, grouped by program.
pub static HEALTHY: &[Entry] = &[
    // ------------------------------------------------------------------ NVIDIA device plugin
    // cmd/nvidia-device-plugin/main.go (start, loadConfig, startPlugins) and
    // internal/plugin/server.go (Start, Serve, Register); v1.0.0-beta..v0.7 printed with the
    // standard `log` package from main.go / server.go
    Entry::new(
        "nvidia.ok.loading-nvml",
        F::NvidiaDevicePlugin,
        "Loading NVML",
        NVDP,
        "main.go",
        "v1.0.0-beta-v0.9",
    )
    .progress()
    .at_end(),
    Entry::new(
        "nvidia.ok.fetching-devices",
        F::NvidiaDevicePlugin,
        "Fetching devices.",
        NVDP,
        "main.go",
        "v1.0.0-beta-v0.6",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.fs-watcher",
        F::NvidiaDevicePlugin,
        "Starting FS watcher",
        NVDP,
        "cmd/nvidia-device-plugin/main.go (main.go before v0.10)",
        "v1.0.0-beta+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.os-watcher",
        F::NvidiaDevicePlugin,
        "Starting OS watcher.",
        NVDP,
        "cmd/nvidia-device-plugin/main.go (main.go before v0.10)",
        "v1.0.0-beta+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.starting-plugins",
        F::NvidiaDevicePlugin,
        "Starting Plugins.",
        NVDP,
        "cmd/nvidia-device-plugin/main.go",
        "v0.7+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.loading-configuration",
        F::NvidiaDevicePlugin,
        "Loading configuration.",
        NVDP,
        "cmd/nvidia-device-plugin/main.go",
        "v0.12+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.default-patterns",
        F::NvidiaDevicePlugin,
        "Updating config with default resource matching patterns.",
        NVDP,
        "cmd/nvidia-device-plugin/main.go",
        "v0.12+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.retrieving-plugins",
        F::NvidiaDevicePlugin,
        "Retrieving plugins.",
        NVDP,
        "cmd/nvidia-device-plugin/main.go",
        "v0.15+",
    )
    .progress(),
    // the misspelling of v0.7-v0.14
    Entry::new(
        "nvidia.ok.retreiving-plugins",
        F::NvidiaDevicePlugin,
        "Retreiving plugins.",
        NVDP,
        "cmd/nvidia-device-plugin/main.go",
        "v0.7-v0.14",
    )
    .progress(),
    // v0.18+ cmd/nvidia-device-plugin/plugin-manager.go (resolveStrategy); `Detected platform:
    // unknown` is the failure (entries.rs nvidia.platform-unknown)
    Entry::new(
        "nvidia.ok.platform-nvml",
        F::NvidiaDevicePlugin,
        "Detected platform: nvml",
        NVDP,
        "cmd/nvidia-device-plugin/plugin-manager.go (resolveStrategy)",
        "v0.18+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.discovery-strategy",
        F::NvidiaDevicePlugin,
        "Using device discovery strategy: {strategy:w}",
        NVDP,
        "cmd/nvidia-device-plugin/plugin-manager.go (GetPlugins)",
        "v0.18+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.shutdown-nvml",
        F::NvidiaDevicePlugin,
        "Shutdown of NVML returned: {ret}",
        NVDP,
        "main.go (v1.0.0-beta-v0.6)",
        "v1.0.0-beta-v0.6",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.nvml-detected",
        F::NvidiaDevicePlugin,
        "Detected NVML platform: found NVML library",
        NVDP,
        "internal/info (platform detection)",
        "v0.14+",
    )
    .progress(),
    Entry::new(
        "nvidia.ok.grpc-server",
        F::NvidiaDevicePlugin,
        "Starting GRPC server for '{resource:w}'",
        NVDP,
        "internal/plugin/server.go (Serve)",
        "v0.7+",
    )
    .progress()
    .samples(&[("resource", "nvidia.com/gpu")]),
    Entry::new(
        "nvidia.ok.serving",
        F::NvidiaDevicePlugin,
        "Starting to serve '{resource:w}' on {socket:w}",
        NVDP,
        "internal/plugin/server.go (Start)",
        "v0.7+",
    )
    .progress()
    .samples(&[
        ("resource", "nvidia.com/gpu"),
        ("socket", "/var/lib/kubelet/device-plugins/nvidia-gpu.sock"),
    ]),
    Entry::new(
        "nvidia.ok.serving-legacy",
        F::NvidiaDevicePlugin,
        "Starting to serve on {socket:w}",
        NVDP,
        "server.go (Start)",
        "v1.0.0-beta-v0.6",
    )
    .progress()
    .samples(&[("socket", "/var/lib/kubelet/device-plugins/nvidia.sock")]),
    // ------------------------------------------------------------------ GKE NVIDIA device plugin
    Entry::new(
        "gke-gpu.ok.started",
        F::NvidiaDevicePlugin,
        "device-plugin started",
        GKE,
        "cmd/nvidia_gpu/nvidia_gpu.go",
        "all",
    )
    .progress(),
    Entry::new(
        "gke-gpu.ok.found-gpu",
        F::NvidiaDevicePlugin,
        "Found Nvidia GPU {device:w}",
        GKE,
        "pkg/gpu/nvidia/manager.go (discoverGPUs)",
        "all",
    )
    .healthy()
    .samples(&[("device", "\"nvidia0\"")]),
    Entry::new(
        "gke-gpu.ok.api",
        F::NvidiaDevicePlugin,
        "will use {api:w} API",
        GKE,
        "pkg/gpu/nvidia/manager.go (Serve)",
        "all",
    )
    .progress()
    .samples(&[("api", "beta")]),
    Entry::new(
        "gke-gpu.ok.server-at",
        F::NvidiaDevicePlugin,
        "starting device-plugin server at: {socket:w}",
        GKE,
        "pkg/gpu/nvidia/manager.go (Serve)",
        "all",
    )
    .progress()
    .samples(&[("socket", "/device-plugin/nvidiaGPU-1678011121.sock")]),
    Entry::new(
        "gke-gpu.ok.serving",
        F::NvidiaDevicePlugin,
        "device-plugin server started serving",
        GKE,
        "pkg/gpu/nvidia/manager.go (Serve)",
        "all",
    )
    .progress(),
    Entry::new(
        "gke-gpu.ok.registered",
        F::NvidiaDevicePlugin,
        "device-plugin registered with the kubelet",
        GKE,
        "pkg/gpu/nvidia/manager.go (Serve)",
        "all",
    )
    .healthy(),
    Entry::new(
        "gke-gpu.ok.list-and-watch",
        F::NvidiaDevicePlugin,
        "device-plugin: ListAndWatch start",
        GKE,
        "pkg/gpu/nvidia/beta_plugin.go",
        "all",
    )
    .progress(),
    Entry::new(
        "gke-gpu.ok.nvml",
        F::NvidiaDevicePlugin,
        "nvml initialized successfully. Driver version: {version:w}",
        GKE,
        "pkg/gpu/nvidia/metrics/metrics.go",
        "2020+",
    )
    .healthy()
    .samples(&[("version", "535.104.05")]),
    Entry::new(
        "gke-gpu.ok.found-count",
        F::NvidiaDevicePlugin,
        "Found {count:w} GPU devices",
        GKE,
        "pkg/gpu/nvidia/metrics/devices.go, health_check/health_checker.go",
        "2020+",
    )
    .healthy()
    .samples(&[("count", "1")]),
    Entry::new(
        "gke-gpu.ok.metrics-server",
        F::NvidiaDevicePlugin,
        "Starting metrics server",
        GKE,
        "pkg/gpu/nvidia/metrics/metrics.go, cmd/nvidia_gpu/nvidia_gpu.go",
        "2020+",
    )
    .progress(),
    Entry::new(
        "gke-gpu.ok.health-checker",
        F::NvidiaDevicePlugin,
        "Starting GPU Health Checker",
        GKE,
        "pkg/gpu/nvidia/health_check/health_checker.go",
        "2021+",
    )
    .progress(),
    Entry::new(
        "gke-gpu.ok.annotations",
        F::NvidiaDevicePlugin,
        "Successfully published NVIDIA driver version annotations",
        GKE,
        "cmd/nvidia_gpu/nvidia_gpu.go",
        "2025+",
    )
    .healthy(),
    // ------------------------------------------------------------------ HAMi
    // the device plugin (a fork of NVIDIA's: the lines above) and the scheduler extender
    Entry::new(
        "hami.ok.working-on-node",
        F::Hami,
        "Start working on node {node:w}",
        HAMI,
        "cmd/device-plugin/nvidia/main.go",
        "v2.0+",
    )
    .progress(),
    Entry::new(
        "hami.ok.watch-and-register",
        F::Hami,
        "Starting WatchAndRegister",
        HAMI,
        "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go",
        "v2.0+",
    )
    .progress(),
    Entry::new(
        "hami.ok.updating-annotations",
        F::Hami,
        "Updating node annotations with {count:w} device(s)",
        HAMI,
        "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go",
        "v2.4+",
    )
    .progress()
    .samples(&[("count", "4")]),
    Entry::new(
        "hami.ok.annotation-updated",
        F::Hami,
        "Successfully updated node annotation. Next check in {interval:w}",
        HAMI,
        "pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go",
        "v2.4+",
    )
    .healthy()
    .samples(&[("interval", "30s...")]),
    Entry::new(
        "hami.ok.initializing-devices",
        F::Hami,
        "Initializing devices with configuration",
        HAMI,
        "pkg/scheduler/config/config.go",
        "v2.5+",
    )
    .progress(),
    Entry::new(
        "hami.ok.device-initialized",
        F::Hami,
        "{device:w} device initialized successfully",
        HAMI,
        "pkg/scheduler/config/config.go",
        "v2.5+",
    )
    .healthy()
    .samples(&[("device", "NVIDIA")]),
    Entry::new(
        "hami.ok.all-devices-initialized",
        F::Hami,
        "All devices initialized successfully",
        HAMI,
        "pkg/scheduler/config/config.go",
        "v2.5+",
    )
    .healthy(),
    Entry::new(
        "hami.ok.initializing-nvidia",
        F::Hami,
        "initializing nvidia device",
        HAMI,
        "pkg/device/nvidia/device.go",
        "v2.4+",
    )
    .progress(),
    Entry::new(
        "hami.ok.https-server",
        F::Hami,
        "Starting HTTPS server",
        HAMI,
        "cmd/scheduler/main.go",
        "v2.0+",
    )
    .progress(),
    Entry::new(
        "hami.ok.node-lock-timeout",
        F::Hami,
        "Set node lock timeout",
        HAMI,
        "cmd/scheduler/main.go",
        "v2.5+",
    )
    .progress(),
    // ------------------------------------------------------------------ GPU operator validators
    // the validator DaemonSet's main container prints this once every init container
    // (driver, toolkit, cuda, plugin validation) succeeded:
    // assets/state-operator-validation/0500_daemonset.yaml `echo all validations are successful`;
    // the texts must end the line, so the container's own command (`Args: echo all validations
    // are successful; sleep infinity` in a `describe` of a validator still initialising,
    // NVIDIA/gpu-operator#579) is not taken for its output
    Entry::new(
        "gpu-operator.all-validations-successful",
        F::GpuOperator,
        "all validations are successful",
        OPERATOR,
        "assets/state-operator-validation/0500_daemonset.yaml",
        "v1.9+",
    )
    .healthy()
    .at_end(),
    Entry::new(
        "gpu-operator.ok.cuda-workload",
        F::GpuOperator,
        "cuda workload validation is successful",
        OPERATOR,
        "validator/manifests/cuda-workload-validation.yaml",
        "v1.9+",
    )
    .healthy()
    .at_end(),
    Entry::new(
        "gpu-operator.ok.plugin-workload",
        F::GpuOperator,
        "device-plugin workload validation is successful",
        OPERATOR,
        "validator/manifests/plugin-workload-validation.yaml",
        "v1.9+",
    )
    .healthy()
    .at_end(),
    Entry::new(
        "gpu-operator.ok.pod-ran",
        F::GpuOperator,
        "pod {pod:w} have run successfully",
        OPERATOR,
        "cmd/nvidia-validator/main.go (waitForPod)",
        "v1.9+",
    )
    .healthy(),
    Entry::new(
        "gpu-operator.ok.preinstalled-driver",
        F::GpuOperator,
        "Detected a pre-installed driver on the host",
        OPERATOR,
        "cmd/nvidia-validator/main.go",
        "v23.9+",
    )
    .healthy(),
    // ------------------------------------------------------------------ CUDA samples
    // NVIDIA/cuda-samples Samples/0_Introduction/vectorAdd/vectorAdd.cu: the image the GPU
    // operator's cuda-validation and NVIDIA's docs run (nvcr.io/nvidia/k8s/cuda-sample:vectoradd)
    Entry::new(
        "cuda-sample.vectoradd.start",
        F::AcceleratorCheck,
        "[Vector addition of {count:w} elements]",
        "NVIDIA/cuda-samples",
        "Samples/0_Introduction/vectorAdd/vectorAdd.cu",
        "all",
    )
    .progress()
    .samples(&[("count", "50000")]),
    Entry::new(
        "cuda-sample.vectoradd.copy-in",
        F::AcceleratorCheck,
        "Copy input data from the host memory to the CUDA device",
        "NVIDIA/cuda-samples",
        "Samples/0_Introduction/vectorAdd/vectorAdd.cu",
        "all",
    )
    .progress(),
    Entry::new(
        "cuda-sample.vectoradd.launch",
        F::AcceleratorCheck,
        "CUDA kernel launch with {blocks:w} blocks of {threads:w} threads",
        "NVIDIA/cuda-samples",
        "Samples/0_Introduction/vectorAdd/vectorAdd.cu",
        "all",
    )
    .progress()
    .samples(&[("blocks", "196"), ("threads", "256")]),
    Entry::new(
        "cuda-sample.vectoradd.copy-out",
        F::AcceleratorCheck,
        "Copy output data from the CUDA device to the host memory",
        "NVIDIA/cuda-samples",
        "Samples/0_Introduction/vectorAdd/vectorAdd.cu",
        "all",
    )
    .progress(),
    Entry::new(
        "cuda-sample.test-passed",
        F::AcceleratorCheck,
        "Test PASSED",
        "NVIDIA/cuda-samples",
        "Samples/0_Introduction/vectorAdd/vectorAdd.cu",
        "all",
    )
    .healthy()
    .at_end(),
    // ------------------------------------------------------------------ kubelet
    // structured (klog InfoS, v1.21+: `"Successfully registered node" node="node-01"`) and the
    // older printf wording (`Successfully registered node node-01`) both hold the text
    Entry::new(
        "kubelet.ok.registered-node",
        F::Kubelet,
        "Successfully registered node",
        K8S,
        "pkg/kubelet/kubelet_node_status.go (registerWithAPIServer)",
        "v1.0+",
    )
    .healthy(),
    Entry::new(
        "kubelet.ok.attempting-register",
        F::Kubelet,
        "Attempting to register node",
        K8S,
        "pkg/kubelet/kubelet_node_status.go (registerWithAPIServer)",
        "v1.0+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.started",
        F::Kubelet,
        "\"Started kubelet\"",
        K8S,
        "pkg/kubelet/kubelet.go (Run) / server.go",
        "v1.21+",
    )
    .healthy(),
    Entry::new(
        "kubelet.ok.started-legacy",
        F::Kubelet,
        "] Started kubelet",
        K8S,
        "pkg/kubelet/kubelet.go (Run)",
        "v1.8-v1.20",
    )
    .healthy(),
    Entry::new(
        "kubelet.ok.main-sync-loop",
        F::Kubelet,
        "Starting kubelet main sync loop",
        K8S,
        "pkg/kubelet/kubelet.go (syncLoop)",
        "v1.0+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.sync-pod-status",
        F::Kubelet,
        "Starting to sync pod status with apiserver",
        K8S,
        "pkg/kubelet/status/status_manager.go (Start)",
        "v1.0+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.version",
        F::Kubelet,
        "\"Kubelet version\" kubeletVersion=",
        K8S,
        "cmd/kubelet/app/server.go (run)",
        "v1.21+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.node-ready",
        F::Kubelet,
        "Fast updating node status as it just became ready",
        K8S,
        "pkg/kubelet/kubelet_node_status.go",
        "v1.24+",
    )
    .healthy(),
    Entry::new(
        "kubelet.ok.watching-apiserver",
        F::Kubelet,
        "\"Watching apiserver\"",
        K8S,
        "pkg/kubelet/config/apiserver.go",
        "v1.21+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.static-pod-path",
        F::Kubelet,
        "Adding static pod path",
        K8S,
        "pkg/kubelet/kubelet.go (makePodSourceConfig)",
        "v1.0+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.apiserver-source",
        F::Kubelet,
        "Adding apiserver pod source",
        K8S,
        "pkg/kubelet/kubelet.go (makePodSourceConfig)",
        "v1.0+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.runtime-initialized",
        F::Kubelet,
        "\"Container runtime initialized\"",
        K8S,
        "pkg/kubelet/kuberuntime/kuberuntime_manager.go",
        "v1.21+",
    )
    .healthy(),
    Entry::new(
        "kubelet.ok.desired-state",
        F::Kubelet,
        "Finished populating initial desired state of world",
        K8S,
        "pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go",
        "v1.21+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.pod-cidr",
        F::Kubelet,
        "\"Updating Pod CIDR\"",
        K8S,
        "pkg/kubelet/kubelet_network.go",
        "v1.21+",
    )
    .progress(),
    Entry::new(
        "kubelet.ok.pod-startup",
        F::Kubelet,
        "\"Observed pod startup duration\"",
        K8S,
        "pkg/kubelet/util/pod_startup_latency_tracker.go",
        "v1.27+",
    )
    .healthy(),
    Entry::new(
        "kubelet.ok.mount-succeeded",
        F::Kubelet,
        "MountVolume.SetUp succeeded for volume",
        K8S,
        "pkg/volume/util/operationexecutor/operation_generator.go",
        "v1.8+",
    )
    .healthy(),
    // ------------------------------------------------------------------ k3s / rke2 agents
    Entry::new(
        "k3s.ok.agent-up",
        F::K3s,
        "agent is up and running",
        K3S,
        "pkg/agent/run.go (run: `<program> agent is up and running`)",
        "v1.19+",
    )
    .healthy()
    .join(),
    Entry::new(
        "k3s.ok.node-labelled",
        F::K3s,
        "Annotations and labels have been set successfully on node: {node:w}",
        K3S,
        "pkg/agent/run.go (configureNode)",
        "v1.19+",
    )
    .healthy()
    .join(),
    Entry::new(
        "k3s.ok.node-labelled-already",
        F::K3s,
        "Annotations and labels have already set on node: {node:w}",
        K3S,
        "pkg/agent/run.go (configureNode)",
        "v1.19-v1.29",
    )
    .healthy()
    .join(),
    // k3s/rke2 startup (rke2 runs k3s' code under its own program name, version.Program):
    // k3s-io/k3s pkg/cli/server/server.go (run: `Starting <program> <version>`, and once the
    // API server / etcd answer `Kube API server is now running`, `ETCD server is now running`,
    // `<program> is up and running`), pkg/cli/agent/agent.go (`Starting <program> agent
    // <version>`), pkg/agent/containerd/containerd.go (`Containerd is now running`, lowercase
    // from v1.21), pkg/agent/loadbalancer/loadbalancer.go (`Running load balancer ...`),
    // pkg/daemons/agent/agent_linux.go and pkg/daemons/executor/embed.go (`Running kubelet
    // ...`, `Running kube-apiserver ...`), pkg/agent/tunnel/tunnel.go (`Tunnel authorizer set
    // Kubelet Port`: the kubelet is up and the tunnel authorises it), pkg/cluster/bootstrap.go
    // (`Reconciling bootstrap data between datastore and disk`), pkg/server/server.go (`Wrote
    // kubeconfig`, `Node token is available at`), rancher/remotedialer (server.go `Handling
    // backend connection request [<node>]`: an agent's tunnel accepted by the server; client.go
    // `Connecting to proxy`). Outcomes are `.healthy()`, steps `.progress()`.
    Entry::new(
        "k3s.ok.server-up",
        F::K3s,
        "{program:w} is up and running",
        K3S,
        "pkg/cli/server/server.go (run: `version.Program + \" is up and running\"`)",
        "v1.0+",
    )
    .healthy()
    .join()
    .samples(&[("program", "rke2")]),
    Entry::new(
        "k3s.ok.apiserver-running",
        F::K3s,
        "Kube API server is now running",
        K3S,
        "pkg/cli/server/server.go (run)",
        "v1.19+",
    )
    .healthy(),
    Entry::new(
        "k3s.ok.etcd-running",
        F::K3s,
        "ETCD server is now running",
        K3S,
        "pkg/cli/server/server.go (run)",
        "v1.19+",
    )
    .healthy(),
    Entry::new(
        "k3s.ok.containerd-running",
        F::K3s,
        "ontainerd is now running",
        K3S,
        "pkg/agent/containerd/containerd.go (Run: `Containerd is now running`, `containerd is now running` from v1.21)",
        "v1.0+",
    )
    .healthy(),
    Entry::new(
        "k3s.ok.tunnel-kubelet-port",
        F::K3s,
        "Tunnel authorizer set Kubelet Port {port:w}",
        K3S,
        "pkg/agent/tunnel/tunnel.go (setKubeletPort)",
        "v1.21+",
    )
    .healthy()
    .join()
    .samples(&[("port", "0.0.0.0:10250")]),
    Entry::new(
        "k3s.ok.backend-connection",
        F::K3s,
        "Handling backend connection request [{node:w}]",
        "rancher/remotedialer",
        "server.go (ServeHTTP), the k3s/rke2 server accepting an agent's tunnel",
        "all",
    )
    .healthy()
    .samples(&[("node", "node-02")]),
    Entry::new(
        "k3s.ok.starting-agent",
        F::K3s,
        "Starting {program:w} agent {version:w}",
        K3S,
        "pkg/cli/agent/agent.go (Run)",
        "v0.5+",
    )
    .progress()
    .join()
    .samples(&[("program", "k3s"), ("version", "v1.28.6+k3s2")]),
    Entry::new(
        "k3s.ok.starting-k3s",
        F::K3s,
        "Starting k3s {version:w}",
        K3S,
        "pkg/cli/server/server.go (run)",
        "v0.5+",
    )
    .progress()
    .samples(&[("version", "v1.28.6+k3s2")]),
    Entry::new(
        "k3s.ok.starting-rke2",
        F::K3s,
        "Starting rke2 {version:w}",
        "rancher/rke2",
        "pkg/cli/cmds (k3s' pkg/cli/server/server.go run under version.Program rke2)",
        "v1.18+",
    )
    .progress()
    .samples(&[("version", "v1.28.6+rke2r1")]),
    Entry::new(
        "k3s.ok.load-balancer",
        F::K3s,
        "Running load balancer {name:w} {address:w} -> {servers}",
        K3S,
        "pkg/agent/loadbalancer/loadbalancer.go (New)",
        "v1.21+",
    )
    .progress()
    .join()
    .samples(&[
        ("name", "k3s-agent-load-balancer"),
        ("address", "127.0.0.1:6444"),
        ("servers", "[10.0.0.10:6443] [default: 10.0.0.10:6443]"),
    ]),
    Entry::new(
        "k3s.ok.running-kubelet",
        F::K3s,
        "Running kubelet --{args}",
        K3S,
        "pkg/daemons/agent/agent_linux.go (startKubelet)",
        "v0.5+",
    )
    .progress()
    .samples(&[("args", "address=0.0.0.0 --node-ip=10.0.0.12")]),
    Entry::new(
        "k3s.ok.running-apiserver",
        F::K3s,
        "Running kube-apiserver --{args}",
        K3S,
        "pkg/daemons/executor/embed.go (APIServer)",
        "v0.5+",
    )
    .progress()
    .samples(&[("args", "advertise-port=6443 --allow-privileged=true")]),
    Entry::new(
        "k3s.ok.reconciling-bootstrap",
        F::K3s,
        "Reconciling bootstrap data between datastore and disk",
        K3S,
        "pkg/cluster/bootstrap.go (ReconcileBootstrapData)",
        "v1.19+",
    )
    .progress(),
    Entry::new(
        "k3s.ok.wrote-kubeconfig",
        F::K3s,
        "Wrote kubeconfig {path:w}",
        K3S,
        "pkg/server/server.go (writeKubeConfig)",
        "v0.5+",
    )
    .progress()
    .samples(&[("path", "/etc/rancher/k3s/k3s.yaml")]),
    Entry::new(
        "k3s.ok.node-token",
        F::K3s,
        "ode token is available at {path:w}",
        K3S,
        "pkg/server/server.go (printTokens: `Node token is available at`, `Server node token is available at`)",
        "v0.5+",
    )
    .progress()
    .samples(&[("path", "/var/lib/rancher/k3s/server/token")]),
    Entry::new(
        "k3s.ok.connecting-to-proxy",
        F::K3s,
        "Connecting to proxy",
        "rancher/remotedialer",
        "client.go (ConnectToProxyWithDialer)",
        "all",
    )
    .progress(),
    Entry::new(
        "k3s.ok.flannel-pod-cidr",
        F::K3s,
        "Flannel found PodCIDR assigned for node {node:w}",
        K3S,
        "pkg/agent/flannel/setup.go",
        "v1.0+",
    )
    .healthy(),
    // ------------------------------------------------------------------ systemd
    // `systemctl status` of a unit that runs: print_status_info writes `Active: active
    // (running) since ...` (`active (exited)` for a oneshot unit that finished), `Loaded:
    // loaded (...)`, and `Process: <pid> Exec...=... (code=exited, status=0/SUCCESS)` for a
    // step that succeeded; the journal's `Started <description>.` is the job's done message
    // (src/core/unit.c unit_status_string / job.c job_done_messages)
    Entry::new(
        "systemd.ok.active-running",
        F::Systemd,
        "Active: active (running)",
        SYSTEMD,
        SYSTEMCTL_SHOW,
        "all",
    )
    .healthy(),
    Entry::new(
        "systemd.ok.active-exited",
        F::Systemd,
        "Active: active (exited)",
        SYSTEMD,
        SYSTEMCTL_SHOW,
        "all",
    )
    .healthy(),
    Entry::new(
        "systemd.ok.loaded",
        F::Systemd,
        "Loaded: loaded (",
        SYSTEMD,
        SYSTEMCTL_SHOW,
        "all",
    )
    .progress(),
    Entry::new(
        "systemd.ok.process-success",
        F::Systemd,
        "(code=exited, status=0/SUCCESS)",
        SYSTEMD,
        SYSTEMCTL_SHOW,
        "all",
    )
    .progress(),
    Entry::new(
        "systemd.ok.started",
        F::Systemd,
        "systemd[{pid:w}]: Started {unit}",
        SYSTEMD,
        "src/core/job.c (job_done_messages)",
        "all",
    )
    .healthy()
    .samples(&[
        ("pid", "1"),
        ("unit", "kubelet: The Kubernetes Node Agent."),
    ]),
];
