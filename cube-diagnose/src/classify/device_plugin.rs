//! Derivations for device-plugin texts: why NVML cannot start (library missing: the NVIDIA
//! runtime does not inject the driver; `Unknown Error`: the container lost its device nodes,
//! e.g. after `systemctl daemon-reload` with the systemd cgroup driver).

use std::collections::BTreeMap;

use super::SignalKind;
use crate::catalog::Match;

pub(crate) fn refine(
    kind: SignalKind,
    m: &Match,
    l: &str,
    d: &mut BTreeMap<String, String>,
) -> SignalKind {
    let err = match m.value("error") {
        "" => l,
        e => e,
    };
    let missing = err.contains("could not load NVML library")
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
    } else {
        "other"
    };
    d.insert("cause".to_owned(), cause.to_owned());
    kind
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify, classify_line_alone};

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
}
