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

/// The resource of the plugin whose own log `text` is, read from its registration lines.
fn plugin_resource(out: &[Signal], text: &str) -> Option<String> {
    if let Some(r) = out
        .iter()
        .filter(|s| s.detail("entry") == "dpm.registered")
        .find_map(|s| endpoint_resource(s.detail("endpoint")))
    {
        return Some(r);
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
    // the vendor's own catalog entries say whose plugin it is
    if out.iter().any(|s| {
        s.detail("entry").starts_with("amd.") && !s.detail("entry").starts_with("amd.labeller")
    }) {
        return Some(cube_model::resource::names::AMD_GPU.to_owned());
    }
    None
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
    let own = |s: &Signal| {
        let e = s.detail("entry");
        e.starts_with("dpm.") || (e.starts_with("amd.") && !e.starts_with("amd.labeller"))
    };
    if !out.iter().any(own) && !text.contains("egist") {
        return;
    }
    let resource = plugin_resource(out, text);
    let plugin = match &resource {
        Some(r) => plugin_name(r),
        None => String::new(),
    };
    for s in out.iter_mut() {
        if own(s) {
            let name = s.detail("name").to_owned();
            let amd = s.detail("entry").starts_with("amd.");
            s.details.entry("plugin".to_owned()).or_insert_with(|| {
                if !plugin.is_empty() {
                    plugin.clone()
                } else if amd {
                    "the AMD GPU device plugin (ROCm/k8s-device-plugin)".to_owned()
                } else if name.is_empty() {
                    "the device plugin".to_owned()
                } else {
                    format!("the device plugin `{name}`")
                }
            });
            s.details.entry("resource".to_owned()).or_insert_with(|| {
                resource
                    .clone()
                    .unwrap_or_else(|| "its extended resource".to_owned())
            });
        }
    }
    let Some(resource) = resource else { return };
    for s in out.iter_mut() {
        if s.kind == SignalKind::Unrecognised && s.detail("marked") == "error" {
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

    #[test]
    fn unknown_errors_of_any_vendors_plugin_are_plugin_errors() {
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
