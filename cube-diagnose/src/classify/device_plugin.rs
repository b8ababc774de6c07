//! Derivations for device-plugin texts: why NVML cannot start (library missing: the NVIDIA
//! runtime does not inject the driver; `Unknown Error`: the container lost its device nodes,
//! e.g. after `systemctl daemon-reload` with the systemd cgroup driver), what the NVIDIA
//! container toolkit's hook error points to, and the conclusions that depend on other lines of
//! the same log (`in_context`).

use std::collections::BTreeMap;

use super::{Signal, SignalKind};
use crate::Severity;
use crate::catalog::Match;

pub(crate) fn refine(
    kind: SignalKind,
    m: &Match,
    l: &str,
    d: &mut BTreeMap<String, String>,
) -> SignalKind {
    // Println's separator can leave a space in front of the error (`error:  could not ...`)
    if let Some(e) = d.get_mut("error") {
        *e = e.trim().to_owned();
    }
    let err = match m.value("error").trim() {
        "" => l,
        e => e,
    };
    // lines printed only when the plugin finds no NVML platform (platform detection, hints)
    let no_platform = matches!(
        m.entry.id,
        "nvidia.incompatible-platform"
            | "nvidia.incompatible-strategy"
            | "nvidia.platform-detection-failed"
            | "nvidia.invalid-discovery-strategy"
            | "nvidia.hint-runtime"
            | "nvidia.hint-prerequisites"
            | "nvidia.hint-quick-start"
            | "nvidia.hint-not-gpu-node"
    );
    let missing = no_platform
        || err.contains("could not load NVML")
        || err.contains("ERROR_LIBRARY_NOT_FOUND")
        || err.contains("libnvidia-ml.so");
    d.insert("library_missing".to_owned(), missing.to_string());
    let cause = if missing {
        "library-missing"
    } else if err.contains("Unknown Error") {
        "device-access-lost"
    } else if err.contains("Driver Not Loaded") || err.contains("ERROR_DRIVER_NOT_LOADED") {
        "driver-not-loaded"
    } else if err.contains("Not Supported") {
        "not-supported"
    } else if err.contains("version mismatch") {
        // NVML_ERROR_LIB_RM_VERSION_MISMATCH (`Driver/library version mismatch`, nvml.h): the
        // loaded kernel module and the user-space libraries are different driver versions
        "version-mismatch"
    } else {
        "other"
    };
    d.insert("cause".to_owned(), cause.to_owned());
    kind
}

/// The NVIDIA container toolkit's hook error (`nvidia-container-cli: <stage> error: <error>`):
/// what the error text points to, as the `hint` detail of the entry's cause.
pub(crate) fn refine_toolkit(m: &Match, d: &mut BTreeMap<String, String>) {
    let err = m.value("error");
    let hint = if err.contains("driver not loaded") {
        ": the NVIDIA kernel module is not loaded on the host (or the driver container has not finished installing it)"
    } else if err.contains("version mismatch") {
        ": the loaded kernel module and the user-space driver libraries are different versions: the driver was upgraded (often by unattended upgrades) while the old module stays loaded"
    } else if err.contains("driver error") {
        ": the driver does not answer the toolkit's request (the driver container is not ready, or the kernel module does not match the libraries at the toolkit's driver root)"
    } else if err.contains("load library failed") || err.contains("libnvidia-ml") {
        ": the toolkit finds no driver libraries at its driver root (driver not installed there, or `root` in /etc/nvidia-container-runtime/config.toml points elsewhere)"
    } else if err.contains("unsatisfied condition") {
        ": the image requires a newer CUDA than the node's driver supports"
    } else if cgroup_v2_device_rules(err) {
        // libnvidia-container src/nvc_mount.c (cgroup v2: the device rules are an eBPF program
        // attached to the container's cgroup; the kernel's verifier rejects the program built)
        ": libnvidia-container cannot add the container's device rules on this node's cgroup v2 (the eBPF device filter program it builds is rejected by the kernel)"
    } else {
        ""
    };
    d.insert("hint".to_owned(), hint.to_owned());
    let fix = if err.contains("version mismatch") {
        // one remedy for every wording of NVML_ERROR_LIB_RM_VERSION_MISMATCH (plugin log,
        // toolkit hook, host nvidia-smi)
        crate::catalog::NVML_VERSION_MISMATCH_REMEDY
    } else if cgroup_v2_device_rules(err) {
        "update the NVIDIA container toolkit (libnvidia-container) on the node to a release that supports this kernel's cgroup v2 device filters (on Talos: the nvidia-container-toolkit extension matching the Talos release), then restart the plugin pod; as a stopgap boot the node with cgroup v1 (systemd.unified_cgroup_hierarchy=0)"
    } else {
        crate::catalog::TOOLKIT_REMEDY
    };
    d.insert("fix".to_owned(), fix.to_owned());
}

/// A hook error about the cgroup v2 device rules (`failed to add device rules`, `device filter
/// program`, `load program: invalid argument`).
fn cgroup_v2_device_rules(err: &str) -> bool {
    err.contains("failed to add device rules")
        || err.contains("device filter program")
        || err.contains("bpf_prog_query")
}

/// The NVIDIA plugin's hint lines (`If this is a GPU node, did you ...?`, `You can check the
/// prerequisites at: ...`, `You can learn how to set the runtime at: ...`, `If this is not a GPU
/// node, ...`) belong to the error line before them: v0.7+ prints them after an NVML failure,
/// but v1.10-v1.11 (main.go) also after `Could not contact Kubelet, retrying. Did you enable the
/// device plugin feature gate?`. A hint that follows a kubelet-registration error is that
/// error's (its NVML conclusion is dropped); one that follows an NVML failure stays with it;
/// one that follows no error of the plugin at all is kept (the NVML failure line was cut off
/// the paste: v0.7+ print the hints only then).
fn attach_hints(out: &mut Vec<Signal>) {
    let is_hint = |s: &Signal| s.detail("entry").starts_with("nvidia.hint-");
    let mut drop = Vec::new();
    for (i, s) in out.iter().enumerate() {
        if !is_hint(s) {
            continue;
        }
        let before = out[..i].iter().rev().find(|p| {
            p.source == s.source
                && !is_hint(p)
                && (p.kind == SignalKind::NvmlInitFailed
                    || p.detail("entry").starts_with("nvidia.register")
                    || p.detail("entry") == "nvidia.kubelet-not-contacted")
        });
        if before.is_some_and(|p| p.kind != SignalKind::NvmlInitFailed) {
            drop.push(i);
        }
    }
    for i in drop.into_iter().rev() {
        out.remove(i);
    }
}

/// Conclusions that depend on other lines of the same text, applied to the signals of one
/// source in line order:
///
/// - NVIDIA `No devices found. Waiting indefinitely.` after an NVML failure line is the null
///   manager idling (failOnInitError false), not a plugin that initialised NVML and found no
///   GPU: the failure line concludes, this one is dropped.
/// - Intel `failed to read by-path dir`: on its own an info (by-path links are only mounts);
///   with V(4) scan lines in the same log that reject entries (`Not compatible device: ...`)
///   but never add a card (`Adding ... to GPU cardN`, `GPU scan update: ...->N` with N > 0),
///   a warning that the host has no Intel GPU bound to i915/xe; `Non-Intel GPU: cardN` says
///   the cards are another vendor's.
pub(crate) fn in_context(out: &mut Vec<Signal>, text: &str) {
    attach_hints(out);
    amd_never_lists(out, text);
    retry_explained(out);
    let first_nvml = out
        .iter()
        .filter(|s| s.kind == SignalKind::NvmlInitFailed)
        .map(|s| s.line)
        .min();
    if let Some(first) = first_nvml {
        out.retain(|s| {
            !(s.kind == SignalKind::Known
                && s.detail("entry") == "nvidia.no-devices"
                && s.line > first)
        });
    }
    if !out
        .iter()
        .any(|s| s.detail("entry") == "intel.bypath-missing")
    {
        return;
    }
    let mut rejected: Vec<String> = Vec::new();
    let mut non_intel: Vec<String> = Vec::new();
    let mut card_found = false;
    for l in text.lines() {
        if let Some(p) = l.find("Not compatible device: ") {
            let name = l[p + "Not compatible device: ".len()..].trim().to_owned();
            if !rejected.contains(&name) {
                rejected.push(name);
            }
        }
        if let Some(p) = l.find("Non-Intel GPU: ") {
            let name = l[p + "Non-Intel GPU: ".len()..].trim().to_owned();
            if !non_intel.contains(&name) {
                non_intel.push(name);
            }
        }
        if (l.contains("Adding /dev/dri/") && l.contains(" to GPU "))
            || l.find("GPU scan update: ")
                .and_then(|p| l[p..].split("->").nth(1))
                .and_then(|r| r.split_whitespace().next())
                .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 0))
        {
            card_found = true;
        }
    }
    let (note, severity) = if card_found {
        (
            ": it skips the by-path mounts but finds its cards, so this line alone is harmless"
                .to_owned(),
            Severity::Info,
        )
    } else if !non_intel.is_empty() {
        (
            format!(
                " and every DRM card it finds is another vendor's ({}): the node has no Intel GPU the plugin can serve, so no gpu.intel.com resource is advertised",
                non_intel.join(", ")
            ),
            Severity::Warning,
        )
    } else if !rejected.is_empty() {
        (
            format!(
                " and its scan finds no card: it rejects only {} and never adds a card*, so no Intel GPU is bound to i915/xe on this host and no gpu.intel.com resource is advertised",
                rejected
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Severity::Warning,
        )
    } else {
        (": it only skips the by-path mounts; if the node advertises no gpu.intel.com resource, the host has no DRM device nodes (no GPU bound to i915/xe)".to_owned(), Severity::Info)
    };
    for s in out
        .iter_mut()
        .filter(|s| s.detail("entry") == "intel.bypath-missing")
    {
        s.details.insert("note".to_owned(), note.clone());
        s.details
            .insert("severity".to_owned(), severity.as_str().to_owned());
    }
}

#[cfg(test)]
mod hint_tests {
    use crate::classify::{SignalKind as K, classify_all};

    #[test]
    fn hints_follow_the_error_they_come_after() {
        let registration = "2018/09/28 16:48:44 Loading NVML\n2018/09/28 16:48:44 Fetching devices.\n2018/09/28 16:48:44 Could not register device plugin: rpc error: code = Unimplemented desc = unknown service deviceplugin.Registration\n2018/09/28 16:48:44 Could not contact Kubelet, retrying. Did you enable the device plugin feature gate?\n2018/09/28 16:48:44 You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites\n2018/09/28 16:48:44 You can learn how to set the runtime at: https://github.com/NVIDIA/k8s-device-plugin#quick-start\n";
        let s = classify_all("p.log", registration);
        assert!(!s.iter().any(|s| s.kind == K::NvmlInitFailed), "{s:#?}");
        // `deviceplugin.Registration` is the v1alpha API's service: the plugin is the older side
        assert!(
            s.iter()
                .any(|s| s.detail("entry") == "nvidia.register-unimplemented-v1alpha")
        );
        let v1beta1 = registration.replace("deviceplugin.Registration", "v1beta1.Registration");
        assert!(
            classify_all("p.log", &v1beta1)
                .iter()
                .any(|s| s.detail("entry") == "nvidia.register-unimplemented")
        );
        let nvml = "Failed to initialize NVML: could not load NVML library.\nIf this is a GPU node, did you set the docker default runtime to `nvidia`?\nYou can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites\n";
        let s = classify_all("p.log", nvml);
        assert_eq!(
            s.iter().filter(|s| s.kind == K::NvmlInitFailed).count(),
            3,
            "{s:#?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify, classify_all, classify_line_alone};

    #[test]
    fn nvml_and_registration() {
        assert_eq!(
            classify_line_alone(
                "2022/05/13 23:09:23 Failed to initialize NVML: could not load NVML library."
            ),
            vec![K::NvmlInitFailed]
        );
        assert_eq!(
            classify_line_alone(
                "I1110 register.go:197] Successfully registered annotation. Next check in 30s seconds..."
            ),
            vec![K::DevicePluginRegistered]
        );
        assert!(classify_line_alone("2022/05/13 23:09:23 Loading NVML").is_empty());
        let s = classify("p", "Failed to initialize NVML: Unknown Error.");
        assert_eq!(s[0].detail("cause"), "device-access-lost");
        assert_eq!(s[0].detail("library_missing"), "false");
    }

    #[test]
    fn every_wording_of_the_nvml_failure_concludes() {
        for line in [
            "I0403 09:12:40.102884 1 factory.go:107] Detected non-NVML platform: could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
            "2023/03/01 10:00:00 Detected non-NVML platform: could not load NVML: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
            "E0403 09:12:40.102926 1 factory.go:115] Incompatible platform detected",
            "E0506 17:45:45.421956 1 factory.go:112] Incompatible strategy detected auto",
            "E0403 09:12:40.108320 1 main.go:123] error starting plugins: error creating plugin manager: unable to create plugin manager: platform detection failed",
            "E0506 17:45:45.442750 1 main.go:173] error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: invalid device discovery strategy",
            "F1030 05:12:02.805498 1 main.go:44] failed to initialize NVML: could not load NVML library",
            "E0403 09:12:40.102945 1 factory.go:119] If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes",
        ] {
            let s = classify("p", line);
            assert_eq!(
                s.iter().map(|s| s.kind).collect::<Vec<_>>(),
                vec![K::NvmlInitFailed],
                "{line}"
            );
            assert_eq!(s[0].detail("library_missing"), "true", "{line}");
        }
    }

    #[test]
    fn no_devices_depends_on_the_lines_before_it() {
        let alone = classify(
            "p",
            "I1012 14:03:22.412714 1 main.go:287] No devices found. Waiting indefinitely.",
        );
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].kind, K::Known);
        // after an NVML failure it is the null manager idling: the failure line concludes
        let after = classify(
            "p",
            "I1012 14:03:22.412661 1 factory.go:107] Detected non-NVML platform: could not load NVML library: libnvidia-ml.so.1: cannot open shared object file\nE1012 14:03:22.412701 1 factory.go:115] Incompatible platform detected\nI1012 14:03:22.412714 1 main.go:287] No devices found. Waiting indefinitely.",
        );
        assert!(
            after.iter().all(|s| s.kind == K::NvmlInitFailed),
            "{after:#?}"
        );
        assert_eq!(after.len(), 2);
    }

    #[test]
    fn intel_by_path_is_weighed_with_the_scan_lines() {
        let bypath = "W0412 15:28:48.082741 1 gpu_plugin.go:303] failed to read by-path dir: open /dev/dri/by-path: no such file or directory";
        let sev = |text: &str| {
            let s = classify_all("i", text);
            let b = s
                .iter()
                .find(|s| s.detail("entry") == "intel.bypath-missing")
                .expect("by-path signal");
            assert!(!s.iter().any(|s| s.kind == K::Unrecognised), "{s:#?}");
            (b.detail("severity").to_owned(), b.detail("note").to_owned())
        };
        assert_eq!(sev(bypath).0, "info");
        let (sev_none, note) = sev(&format!(
            "{bypath}\nI0412 15:28:48.082794 1 gpu_plugin.go:388] Not compatible device: version"
        ));
        assert_eq!(sev_none, "warning");
        assert!(note.contains("'version'"), "{note}");
        let (sev_other, note) = sev(&format!(
            "{bypath}\nI0412 1 gpu_plugin.go:388] Not compatible device: version\nI0412 1 gpu_plugin.go:394] Non-Intel GPU: card0"
        ));
        assert_eq!(sev_other, "warning");
        assert!(note.contains("card0"), "{note}");
        let (sev_ok, _) = sev(&format!(
            "{bypath}\nI0412 1 gpu_plugin.go:388] Not compatible device: version\nI0412 1 gpu_plugin.go:360] GPU scan update: 0->1 'i915' resources found"
        ));
        assert_eq!(sev_ok, "info");
        // the V(4) rejection alone is noise: no conclusion at all
        assert!(
            classify(
                "i",
                "I0412 15:28:53.082860 1 gpu_plugin.go:388] Not compatible device: version"
            )
            .is_empty()
        );
    }

    #[test]
    fn toolkit_hook_errors_name_their_layer() {
        let s = classify(
            "e",
            "Warning  Failed  4m  kubelet  Error: failed to start container \"cuda-vector-add\": Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli.real: initialization error: driver error: failed to process request: unknown",
        );
        assert_eq!(s.len(), 1, "{s:#?}");
        assert_eq!(s[0].detail("stage"), "initialization");
        assert!(s[0].detail("hint").contains("does not answer"));
        let s = classify(
            "e",
            "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.2, please update your driver to a newer version, or use an earlier cuda container: unknown",
        );
        assert!(s[0].detail("hint").contains("newer CUDA"));
    }
}

/// The ROCm plugin's banner concludes "never lists a resource" (catalog `amd.plugin-never-lists`)
/// only when the same log shows nothing after the device-plugin manager's start-up: no resource
/// list (kubevirt/device-plugin-manager pkg/dpm/manager.go `Received new list of plugins`), no
/// plugin server or registration (pkg/dpm/plugin.go), no GPU enumeration
/// (ROCm/k8s-device-plugin internal/pkg/plugin/plugin.go `Found N AMDGPUs`, `Watching GPU`),
/// and no other plugin error that explains the log better (`Error occured:` of
/// getResourceList, a known AMD error).
fn amd_never_lists(out: &mut Vec<Signal>, text: &str) {
    const ENTRY: &str = "amd.plugin-never-lists";
    if !out.iter().any(|s| s.detail("entry") == ENTRY) {
        return;
    }
    const PROGRESS: &[&str] = &[
        "Received new list of plugins",
        "Adding a new plugin",
        "Starting plugin server",
        "Registration for endpoint",
        "AMDGPUs",
        "Watching GPU",
        "Serving requests",
    ];
    let progressed = text.lines().any(|l| PROGRESS.iter().any(|p| l.contains(p)));
    let explained = out.iter().any(|s| {
        let e = s.detail("entry");
        e != ENTRY
            && (s.kind == SignalKind::AmdKfdMissing
                || s.kind == SignalKind::DevicePluginError
                || (s.kind == SignalKind::Unrecognised && s.detail("marked") == "error")
                || (s.kind == SignalKind::Known
                    && crate::catalog::entry(e).is_some_and(|c| c.rule == "gpu-plugin-log-error")))
    });
    if progressed || explained {
        out.retain(|s| s.detail("entry") != ENTRY);
    }
}

/// The shared retry line (`Failed to start one or more plugins. Retrying in 30s...`, catalog
/// `plugin.start-retry`) is the consequence of the error the plugin logs just before it
/// (NVIDIA/k8s-device-plugin cmd/nvidia-device-plugin/main.go: `Failed to start plugin: %v`,
/// then the retry): when the same text shows that error as a known plugin error, one finding
/// (the cause's) carries it and the retry line is only its evidence context.
fn retry_explained(out: &mut Vec<Signal>) {
    const RETRY: &str = "plugin.start-retry";
    let explained = out.iter().any(|s| {
        let e = s.detail("entry");
        e != RETRY
            && s.kind == SignalKind::Known
            && crate::catalog::entry(e).is_some_and(|c| {
                c.rule == "gpu-plugin-log-error"
                    && c.family == crate::catalog::Family::NvidiaDevicePlugin
                    && c.severity == Severity::Error
            })
    });
    if explained {
        out.retain(|s| s.detail("entry") != RETRY);
    }
}

#[cfg(test)]
mod mps_and_rocm_tests {
    use crate::classify::{SignalKind as K, classify_all};

    /// NVIDIA/k8s-device-plugin#679 (v0.15, MPS), shortened.
    #[test]
    fn mps_daemon_errors_name_the_control_daemon_and_explain_the_retry() {
        let text = "I0423 06:04:56.480927 39 factory.go:104] Detected NVML platform: found NVML library\nE0423 06:04:56.558122 39 main.go:301] Failed to start plugin: error waiting for MPS daemon: error checking MPS daemon health: failed to send command to MPS daemon: exit status 1\nI0423 06:04:56.558152 39 main.go:208] Failed to start one or more plugins. Retrying in 30s...\n";
        let s = classify_all("p", text);
        let mps: Vec<_> = s
            .iter()
            .filter(|s| s.detail("entry").starts_with("nvidia.mps-"))
            .collect();
        assert!(!mps.is_empty(), "{s:#?}");
        let e = crate::catalog::entry(mps[0].detail("entry")).expect("entry");
        assert!(e.remedy.contains("mps-control-daemon") && e.remedy.contains("mps.capable"));
        assert!(
            !s.iter().any(|s| s.detail("entry") == "plugin.start-retry"),
            "the retry is explained by the MPS error: {s:#?}"
        );
        assert!(!s.iter().any(|s| s.kind == K::Unrecognised), "{s:#?}");
        // the validation errors of the plugin and of the control daemon
        for (line, entry) in [
            (
                "E0120 07:09:15.605081 1 main.go:132] error starting plugins: unable to load config: unable to validate flags: using MPS requires --mps-root to be specified",
                "nvidia.mps-requires-root",
            ),
            (
                "E0120 1 main.go:132] unable to validate flags: using --mig-strategy=mixed is not supported with MPS",
                "nvidia.mps-mig-mixed",
            ),
            (
                "E0120 1 main.go:301] Failed to start plugin: sharing using MPS is not supported for MIG devices",
                "nvidia.mps-mig-devices",
            ),
            (
                "E0120 1 main.go:212] Failed to start MPS daemon: error setting compute mode EXCLUSIVE_PROCESS: exit status 1",
                "nvidia.mps-daemon-start-failed",
            ),
            (
                "I0120 1 main.go:131] Failed to start one or more MPS deamons. Retrying in 30s...",
                "nvidia.mps-daemons-retry",
            ),
            (
                "E0120 1 main.go:98] invalid MPS configuration: invalid device maximum allowed replicas exceeded: 64 > 48",
                "nvidia.mps-replicas-exceeded",
            ),
        ] {
            let s = classify_all("p", &format!("{line}\n"));
            assert!(
                s.iter().any(|s| s.detail("entry") == entry),
                "{line}: {s:#?}"
            );
        }
    }

    /// ROCm/k8s-device-plugin#40: the log stops after the device-plugin manager's start-up.
    #[test]
    fn rocm_plugin_that_never_lists_its_resource() {
        let start = "I0724 03:19:09.793051 1 main.go:305] AMD GPU device plugin for Kubernetes\nI0724 03:19:09.793086 1 main.go:305] ./k8s-device-plugin version v1.18.1-21-g2e5bbc7\nI0724 03:19:09.793105 1 manager.go:42] Starting device plugin manager\nI0724 03:19:09.793416 1 manager.go:66] Handling incoming signals\n";
        let s = classify_all("p", start);
        let never = s
            .iter()
            .find(|s| s.detail("entry") == "amd.plugin-never-lists")
            .expect("never lists");
        assert!(never.detail("resource").contains("amd.com"), "{never:#?}");
        let e = crate::catalog::entry("amd.plugin-never-lists").expect("entry");
        assert!(e.cause.contains("/sys/class/kfd") && e.remedy.contains("Talos"));
        // a log that goes on to list and register its resource is healthy
        let healthy = format!(
            "{start}I0724 03:19:09.800000 1 manager.go:71] Received new list of plugins: [gpu]\nI0724 03:19:19.800000 1 plugin.go:141] gpu: Registration for endpoint amd.com_gpu\n"
        );
        assert!(
            !classify_all("p", &healthy)
                .iter()
                .any(|s| s.detail("entry") == "amd.plugin-never-lists")
        );
        // an error of its own explains the log better
        let failed = format!("{start}E0724 03:19:09.800000 1 main.go:145] Error occured: boom\n");
        assert!(
            !classify_all("p", &failed)
                .iter()
                .any(|s| s.detail("entry") == "amd.plugin-never-lists")
        );
    }
}
