//! Device-plugin logs: NVIDIA (NVML), AMD (`/dev/kfd`), HAMi (registration, unregistered nodes).

use super::{Hit, SignalKind, details};

pub(crate) fn classify_line(l: &str) -> Vec<Hit> {
    let mut out = Vec::new();
    if l.contains("Failed to initialize NVML") || l.contains("could not load NVML library") {
        let driver_hint = l.contains("could not load NVML library").to_string();
        out.push((
            SignalKind::NvmlInitFailed,
            details(&[("library_missing", driver_hint)]),
        ));
    } else if l.contains("Fail to glob topology properties")
        || (l.contains("/dev/kfd")
            && (l.contains("no such file") || l.contains("not found") || l.contains("absent")))
    {
        out.push((SignalKind::AmdKfdMissing, details(&[])));
    } else if l.contains("Successfully registered annotation")
        || l.contains("Registered device plugin")
        || l.contains("nvml registered device")
    {
        out.push((SignalKind::DevicePluginRegistered, details(&[])));
    }
    if l.contains("node unregistered") {
        out.push((SignalKind::HamiNodeUnregistered, details(&[])));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify_line_alone};

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
    }
}
