//! Whose device plugin a log is, for any accelerator vendor ([`crate::catalog::accelerators`]),
//! and its error lines read as that plugin's errors.
//!
//! A device plugin's own log names the resource it serves in its registration line: plugins
//! built on kubevirt's device-plugin-manager print `<name>: Registration for endpoint
//! <namespace>_<name>` (pkg/dpm/plugin.go; the socket is named after the resource), and the
//! plugins of the vendor table name their resource (`cambricon.com/mlu`) when they register.
//! Once a text is known to be the log of the plugin of resource R:
//!
//! - the catalog's plugin entries of that text get the details `plugin` (the vendor's plugin,
//!   `the AMD GPU device plugin (ROCm/k8s-device-plugin)`) and `resource` (R) their causes
//!   name;
//! - every line that is an error by its own marking (klog `E`/`F`, `level=error`) and that no
//!   catalog entry matches becomes a [`SignalKind::DevicePluginError`] of that plugin (details
//!   `plugin`, `resource`, `error`), instead of an unrecognised line: it is the plugin failing,
//!   and R may not become allocatable. Healthy start-up lines (info) stay what they are.
//!
//! The kubelet's own lines about a plugin (`Got registration request from device plugin with
//! resource`) do not make a text a plugin's log: the kubelet's other errors are not the
//! plugin's.

use super::{Signal, SignalKind};
use crate::catalog::accelerators::{by_resource, endpoint_resource, plugin_name};
use cube_model::accelerator::by_catalog_entry;

/// The plugin a hinted entry of the NVIDIA family names when the log is no other vendor's.
const NVIDIA_PLUGIN: &str = "the NVIDIA device plugin";

/// Catalog entries of plugin families that serve several resources: kubevirt's
/// device-plugin-manager (any vendor) and Intel's device plugins (GPU, QAT, SGX, DSA, ...).
/// Their lines are a plugin's but do not say whose.
const FAMILY_PREFIXES: &[&str] = &["dpm.", "intel."];

/// Catalog entries of the vendors' own plugin messages, whose causes name `{plugin}` and
/// `{resource}`: the families above and the prefixes of the vendor table
/// ([`cube_model::accelerator::Accelerator::catalog_prefixes`]; adding a vendor is a row there).
fn own_entry(entry: &str) -> bool {
    FAMILY_PREFIXES.iter().any(|p| entry.starts_with(p)) || by_catalog_entry(entry).is_some()
}

/// The resource of the plugin whose own log `text` is, read from its registration lines.
fn plugin_resource(out: &[Signal], text: &str) -> Option<String> {
    for s in out.iter().filter(|s| own_entry(s.detail("entry"))) {
        for key in ["endpoint", "socket"] {
            if let Some(r) = endpoint_resource(s.detail(key)) {
                return Some(r);
            }
        }
        let r = s.detail("resource");
        if r.contains('/') {
            return Some(r.to_owned());
        }
    }
    for l in text.lines() {
        if l.contains("Got registration request from device plugin")
            || l.contains("Device plugin connected")
            || l.contains("Registered client")
        {
            continue; // the kubelet's side
        }
        let lower = l.to_ascii_lowercase();
        if !(lower.contains("regist") || lower.contains("endpoint") || lower.contains(".sock")) {
            continue;
        }
        for w in l.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '=')) {
            let w = w.trim_matches(|c: char| matches!(c, ',' | ';' | ')' | '(' | '[' | ']'));
            if let Some(r) = endpoint_resource(w) {
                return Some(r);
            }
            let w = w.trim_end_matches('.');
            if w.contains('/')
                && !w.contains("//")
                && by_resource(w).is_some_and(|a| a.vendor != "NVIDIA")
            {
                return Some(w.to_owned());
            }
        }
    }
    // the vendor's own catalog entries say whose plugin it is (the vendor table's
    // catalog_prefixes column)
    if let Some(a) = out.iter().find_map(|s| by_catalog_entry(s.detail("entry"))) {
        return Some(a.resource.to_owned());
    }
    // words only one vendor's plugin logs (its logger's service name, its library)
    cube_model::accelerator::by_log_marker(text).map(|a| a.resource.to_owned())
}

/// Entries whose cause ends with `{hint}` and whose remedy is `{fix}`: a plugin's failure to
/// serve or register, whose inner error says which of several causes it is.
const HINTED: &[&str] = &[
    "intel.serve-failed",
    "dpm.registration-failed",
    "dpm.dial-failed",
    "dpm.grpc-setup-failed",
    "nvidia.fs-watcher",
    "nvidia.fs-watcher-legacy",
];

/// The cause (`: ...`, appended to the entry's) and the remedy a plugin's serve/register error
/// points to: inotify instances used up (`too many open files` from fsnotify.NewWatcher,
/// fsnotify `inotify_init1` EMFILE: intel/intel-device-plugins-for-kubernetes#2075,
/// NVIDIA/gpu-operator#441), the kubelet socket refused by SELinux or the pod's privileges
/// (`kubelet.sock: connect: permission denied`, intel/intel-device-plugins-for-kubernetes#1628
/// on Fedora), a socket already served by a second instance, or the kubelet's socket missing.
fn serve_hint(err: &str) -> (&'static str, &'static str) {
    let e = err.to_ascii_lowercase();
    if e.contains("too many open files") {
        (
            ": the node has run out of inotify instances (the plugin watches the kubelet's device-plugins directory with inotify; every process that watches files takes one, and fs.inotify.max_user_instances is often 128)",
            "raise the node's inotify limits (`sysctl -w fs.inotify.max_user_instances=8192 fs.inotify.max_user_watches=524288`, persisted in /etc/sysctl.d/), then restart the plugin pod",
        )
    } else if e.contains("permission denied") {
        (
            ": the plugin may not connect to the kubelet's socket: SELinux (enforcing on Fedora / RHEL / CentOS nodes) denies the container's label, or the container lacks the privileges the socket needs",
            "on the node `ausearch -m avc -ts recent` (or `journalctl -t setroubleshoot`) shows an SELinux denial: run the plugin container with an SELinux type allowed to use the kubelet's socket (securityContext.seLinuxOptions.type: spc_t) or privileged, as the vendor's chart offers; then restart the plugin pod",
        )
    } else if e.contains("already in use") || e.contains("address already in use") {
        (
            ": another instance of the plugin already serves this socket on the node",
            "keep one plugin per resource and node (a second DaemonSet, or an operator-managed plugin next to a manually installed one, serves the same resource): delete the duplicate and restart the plugin pod",
        )
    } else if e.contains("kubelet.sock")
        || e.contains("connection refused")
        || e.contains("no such file")
    {
        (
            ": the kubelet's registration socket is not where the plugin looks (the device-plugins directory is not mounted from the kubelet's root directory) or the kubelet was restarting",
            "check that the plugin pod mounts the kubelet's device-plugins directory (/var/lib/kubelet/device-plugins; another path under a kubelet --root-dir, k3s/rke2 and MicroK8s) and that kubelet.sock exists there; restart the plugin pod after the kubelet restarts",
        )
    } else {
        (
            "",
            "read the error and the plugin's lines before it; check that the plugin pod mounts the kubelet's device-plugins directory (/var/lib/kubelet/device-plugins; another path under a kubelet --root-dir) and that kubelet.sock exists there; restart the plugin pod",
        )
    }
}

/// The message of a klog / glog line without its header (`E0708 02:16:53.334443 1 main.go:151]
/// `), else the line.
fn message(l: &str) -> &str {
    let b = l.as_bytes();
    let klog = b.len() > 5
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit);
    match l.find("] ") {
        Some(p) if klog => l[p + 2..].trim(),
        _ => l.trim(),
    }
}

/// See the module docs; applied to the signals of one text.
pub(crate) fn in_context(out: &mut [Signal], text: &str) {
    let hinted = out.iter().any(|s| {
        HINTED.contains(&s.detail("entry"))
            || s.detail("entry") == "kubelet.device-plugin-bad-version"
    });
    if !hinted && !out.iter().any(|s| own_entry(s.detail("entry"))) && !text.contains("egist") {
        return;
    }
    let resource = plugin_resource(out, text);
    let plugin = resource.as_deref().map(plugin_name).unwrap_or_default();
    for s in out.iter_mut() {
        if s.detail("entry") == "kubelet.device-plugin-bad-version" {
            let named = plugin_name(s.detail("resource"));
            s.details.insert("plugin".to_owned(), named);
        }
        if HINTED.contains(&s.detail("entry")) {
            let (hint, fix) = serve_hint(&s.text);
            s.details.insert("hint".to_owned(), hint.to_owned());
            s.details.insert("fix".to_owned(), fix.to_owned());
            if s.detail("entry").starts_with("nvidia.") {
                let named = if plugin.is_empty() {
                    NVIDIA_PLUGIN.to_owned()
                } else {
                    plugin.clone()
                };
                s.details.insert("plugin".to_owned(), named);
            }
        }
    }
    for s in out.iter_mut() {
        let entry = s.detail("entry").to_owned();
        if !own_entry(&entry) {
            continue;
        }
        let name = s.detail("name").to_owned();
        let kind_of = s.detail("type").to_owned();
        s.details.entry("plugin".to_owned()).or_insert_with(|| {
            if !plugin.is_empty() {
                plugin.clone()
            } else if let Some(a) = by_catalog_entry(&entry) {
                format!("the {}", a.plugin)
            } else if entry.starts_with("intel.") {
                "the Intel device plugin".to_owned()
            } else if name.is_empty() {
                "the device plugin".to_owned()
            } else {
                format!("the device plugin `{name}`")
            }
        });
        s.details.entry("resource".to_owned()).or_insert_with(|| {
            resource.clone().unwrap_or_else(|| {
                if !kind_of.is_empty() {
                    format!("its `{kind_of}` resource")
                } else {
                    "its extended resource".to_owned()
                }
            })
        });
    }
    let Some(resource) = resource else { return };
    // another vendor's plugin forked from NVIDIA's prints some of its lines (`No devices
    // found. Waiting indefinitely.`): in that log they are this plugin's, not NVIDIA's
    let other_vendor = by_resource(&resource).is_none_or(|a| a.vendor != "NVIDIA");
    for s in out.iter_mut() {
        let unknown = s.kind == SignalKind::Unrecognised && s.detail("marked") == "error";
        let nvidia_worded = other_vendor
            && s.kind == SignalKind::Known
            && !HINTED.contains(&s.detail("entry"))
            && crate::catalog::entry(s.detail("entry")).is_some_and(|e| {
                e.family == crate::catalog::Family::NvidiaDevicePlugin
                    && e.rule == "gpu-plugin-log-error"
            });
        if unknown || nvidia_worded {
            s.kind = SignalKind::DevicePluginError;
            let error = message(&s.text).to_owned();
            s.details.insert("error".to_owned(), error);
            s.details.insert("plugin".to_owned(), plugin.clone());
            s.details.insert("resource".to_owned(), resource.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::classify::{SignalKind as K, classify_all};

    /// ROCm/k8s-device-plugin#21, verbatim.
    const ROCM: &str = "I0708 02:16:43.300491 1 manager.go:71] Received new list of plugins: [gpu]\nI0708 02:16:43.300587 1 manager.go:110] Adding a new plugin \"gpu\"\nI0708 02:16:43.300602 1 plugin.go:64] gpu: Starting plugin server\nI0708 02:16:43.300606 1 plugin.go:95] gpu: Starting the DPI gRPC server\nI0708 02:16:43.300852 1 plugin.go:113] gpu: Serving requests...\nI0708 02:16:53.301785 1 plugin.go:129] gpu: Registering the DPI with Kubelet\nI0708 02:16:53.302111 1 plugin.go:141] gpu: Registration for endpoint amd.com_gpu\nI0708 02:16:53.304758 1 amdgpu.go:100] /sys/module/amdgpu/drivers/pci:amdgpu/0000:28:00.0\nI0708 02:16:53.334427 1 main.go:149] Watching GPU with bus ID: 0000:28:00.0 NUMA Node: []\nE0708 02:16:53.334443 1 main.go:151] No NUMA node found with bus ID: 0000:28:00.0\n";

    #[test]
    fn rocm_plugin_log_names_plugin_and_resource() {
        let s = classify_all("p", ROCM);
        assert!(!s.iter().any(|s| s.kind == K::Unrecognised), "{s:#?}");
        let numa = s
            .iter()
            .find(|s| s.detail("entry") == "amd.no-numa-node")
            .expect("numa line");
        assert_eq!(numa.detail("resource"), "amd.com/gpu");
        assert!(numa.detail("plugin").contains("AMD GPU device plugin"));
        let reg = s
            .iter()
            .find(|s| s.kind == K::DevicePluginRegistered)
            .expect("registration");
        assert_eq!(reg.detail("resource"), "amd.com/gpu");
    }

    /// The kubelet's side (kubernetes pkg/kubelet/cm/devicemanager/plugin/v1beta1/server.go
    /// Register, klog structured InfoS).
    #[test]
    fn kubelet_refusing_a_plugin() {
        let s = classify_all(
            "k",
            "I0823 09:22:35.030339 1309759 server.go:144] \"Got registration request from device plugin with resource\" resourceName=\"amd.com/gpu\"\nI0823 09:22:35.030374 1309759 server.go:150] \"Bad registration request from device plugin with resource\" resourceName=\"amd.com/gpu\" err=\"requested API version \\\"v1alpha\\\" is not supported by kubelet. Supported versions are [\\\"v1beta1\\\"]\"\n",
        );
        let bad = s
            .iter()
            .find(|s| s.detail("entry") == "kubelet.device-plugin-bad-version")
            .expect("bad version");
        assert!(bad.detail("plugin").contains("AMD"), "{bad:#?}");
        assert!(!s.iter().any(|s| s.kind == K::Unrecognised));
    }

    /// Habana's slog JSON records (HabanaAI/habanalabs-k8s-device-plugin main.go initLogger:
    /// JSON handler with `service=habana-device-plugin`; main logs run's error at ERROR).
    #[test]
    fn habana_plugin_records() {
        let text = "{\"time\":\"2024-05-02T10:00:00.000Z\",\"level\":\"INFO\",\"msg\":\"Started Habana device plugin manager\",\"service\":\"habana-device-plugin\",\"version\":\"1.16.0\"}\n{\"time\":\"2024-05-02T10:00:00.001Z\",\"level\":\"INFO\",\"msg\":\"Starting FS watcher...\",\"service\":\"habana-device-plugin\"}\n{\"time\":\"2024-05-02T10:00:00.002Z\",\"level\":\"ERROR\",\"msg\":\"failed to create FS watcher: too many open files\",\"service\":\"habana-device-plugin\"}\n";
        let s = classify_all("p", text);
        let w = s
            .iter()
            .find(|s| s.detail("entry") == "nvidia.fs-watcher")
            .expect("fs watcher line");
        assert_eq!(w.kind, K::Known, "{s:#?}");
        assert!(w.detail("plugin").contains("Habana"), "{w:#?}");
        assert!(w.detail("hint").contains("inotify"));
        let hlml = classify_all(
            "p",
            "{\"time\":\"2024-05-02T10:00:00.002Z\",\"level\":\"ERROR\",\"msg\":\"failed to initialize HLML: hlml: not initialized\",\"service\":\"habana-device-plugin\"}\n",
        );
        assert!(
            hlml.iter()
                .any(|s| s.detail("entry") == "habana.hlml-init-failed"),
            "{hlml:#?}"
        );
        // the NVIDIA plugin's own line stays NVIDIA's
        let nv = classify_all(
            "p",
            "2022/11/14 14:40:53 Starting FS watcher.\n2022/11/14 14:40:53 Error: failed to create FS watcher: too many open files\n",
        );
        let w = nv
            .iter()
            .find(|s| s.detail("entry") == "nvidia.fs-watcher")
            .expect("fs watcher");
        assert_eq!(w.detail("plugin"), "the NVIDIA device plugin");
    }

    #[test]
    fn rocm_plugin_finding_no_gpu() {
        let s = classify_all(
            "p",
            "I0401 10:00:00.000000 1 plugin.go:233] Found 0 AMDGPUs\n",
        );
        let f = s
            .iter()
            .find(|s| s.detail("entry") == "amd.found-no-gpus")
            .expect("found none");
        assert_eq!(f.detail("resource"), "amd.com/gpu");
        let healthy = classify_all(
            "p",
            "I0401 10:00:00.000000 1 plugin.go:233] Found 8 AMDGPUs\n",
        );
        assert!(healthy.iter().all(|s| s.kind != K::Known), "{healthy:#?}");
    }

    #[test]
    fn unknown_errors_of_any_vendors_plugin_are_plugin_errors() {
        // Cambricon's plugin (logrus), with the NVIDIA fork's idle line
        let s = classify_all(
            "p",
            "time=\"2023-01-01T00:00:00Z\" level=info msg=\"Starting to serve on socket /var/lib/kubelet/device-plugins/cambricon.sock\"\ntime=\"2023-01-01T00:00:00Z\" level=info msg=\"Registered resource cambricon.com/mlu\"\ntime=\"2023-01-01T00:00:01Z\" level=info msg=\"No devices found. Waiting indefinitely.\"\n",
        );
        let idle = s
            .iter()
            .find(|s| s.detail("error").contains("No devices found"))
            .expect("idle line");
        assert_eq!(idle.kind, K::DevicePluginError, "{s:#?}");
        assert!(idle.detail("plugin").contains("Cambricon"));
        // Intel's plugin library names its socket `<namespace>-<type>.sock`
        let s = classify_all(
            "p",
            "I0412 15:28:48.082741 1 server.go:285] Start server for i915 at: /var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock\nE0412 15:28:58.082741 1 manager.go:116] Failed to serve gpu.intel.com/i915: Cannot register to kubelet service: rpc error: code = Unavailable desc = connection error\n",
        );
        let f = s
            .iter()
            .find(|s| s.detail("entry") == "intel.serve-failed")
            .expect("serve failed");
        assert!(
            f.detail("plugin").contains("Intel GPU device plugin"),
            "{f:#?}"
        );
        // a dpm-based plugin of another vendor, with an error line nobody catalogued
        let text = "I1201 1 plugin.go:141] mlu: Registration for endpoint cambricon.com_mlu\nE1201 10:00:01.000002 1 main.go:88] cndev init failed: driver version mismatch\n";
        let s = classify_all("p", text);
        let e = s
            .iter()
            .find(|s| s.kind == K::DevicePluginError)
            .expect("plugin error");
        assert_eq!(e.detail("resource"), "cambricon.com/mlu");
        assert!(e.detail("plugin").contains("Cambricon"), "{e:#?}");
        assert_eq!(
            e.detail("error"),
            "cndev init failed: driver version mismatch"
        );
        assert!(!s.iter().any(|s| s.kind == K::Unrecognised));
        // an unknown vendor: named by its resource
        let s = classify_all(
            "p",
            "I1201 1 plugin.go:141] fpga: Registration for endpoint example.org_fpga\nE1201 10:00:01.000002 1 x.go:1] bitstream load failed\n",
        );
        let e = s
            .iter()
            .find(|s| s.kind == K::DevicePluginError)
            .expect("error");
        assert_eq!(e.detail("plugin"), "the device plugin of example.org/fpga");
        // healthy start-up: nothing but the registration
        let healthy = "I1201 1 plugin.go:141] mlu: Registration for endpoint cambricon.com_mlu\nI1201 1 main.go:88] 4 devices found\n";
        assert!(
            classify_all("p", healthy)
                .iter()
                .all(|s| s.kind == K::DevicePluginRegistered),
        );
        // the kubelet's registration line does not make the kubelet's errors the plugin's
        let kubelet = "I1201 1 server.go:144] \"Got registration request from device plugin with resource\" resourceName=\"amd.com/gpu\"\nE1201 10:00:01.000002 1 kubelet.go:1] something else failed badly\n";
        assert!(
            !classify_all("k", kubelet)
                .iter()
                .any(|s| s.kind == K::DevicePluginError)
        );
    }
}

/// Nodes and plugin DaemonSets of other accelerators in the GPU reporting chain
/// (`cube_model::accelerator`): an Ascend node is no GPU node, and the Ascend plugin does not
/// serve an NVIDIA node.
#[cfg(test)]
mod chain_tests {
    use crate::rules::testutil::run_rule;

    const CLUSTER: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: npu-1
    labels: {kubernetes.io/hostname: npu-1, accelerator: huawei-Ascend910, gpu: "true"}
  status:
    capacity: {cpu: "192", memory: 1Ti, pods: "110", huawei.com/Ascend910: "8"}
    allocatable: {cpu: "192", memory: 1Ti, pods: "110", huawei.com/Ascend910: "8"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: v1
  kind: Node
  metadata:
    name: gpu-1
    labels: {kubernetes.io/hostname: gpu-1, nvidia.com/gpu.present: "true"}
  status:
    capacity: {cpu: "64", memory: 512Gi, pods: "110"}
    allocatable: {cpu: "64", memory: 512Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: ascend-device-plugin-daemonset, namespace: kube-system}
  spec:
    selector: {matchLabels: {name: ascend-device-plugin-ds}}
    template:
      metadata: {labels: {name: ascend-device-plugin-ds}}
      spec:
        containers: [{name: device-plugin-01, image: "ascend-k8sdeviceplugin:v6.0.0"}]
  status: {desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 2, numberAvailable: 2}
"#;

    #[test]
    fn other_accelerators_are_not_gpu_nodes_nor_gpu_plugins() {
        let f = run_rule("gpu-not-advertised", CLUSTER);
        assert!(
            !f.iter().any(|f| f.subject.name == "npu-1"),
            "an Ascend node is not a GPU node: {f:#?}"
        );
        let gpu = f
            .iter()
            .find(|f| f.subject.name == "gpu-1")
            .expect("the NVIDIA node still lacks its plugin");
        assert!(
            !gpu.message
                .contains("ascend-device-plugin-daemonset selects"),
            "{}",
            gpu.message
        );
    }
}
