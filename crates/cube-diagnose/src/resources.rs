//! Resource arithmetic the rules share: effective pod requests, list sums, GPU resource names.
//!
//! `pod_requests` follows Kubernetes' `PodRequests` (component-helpers `resource/helpers.go`):
//! app containers summed; init containers walked in order with restartable ("sidecar") init
//! containers accumulating; the result is the per-resource max of the two, plus `spec.overhead`;
//! pod-level `spec.resources` replaces cpu/memory/hugepages. It stays here until
//! `cube_quota::requests::pod_requests` is available on main.

use cube_model::objects::Pod;
use cube_model::{Quantity, ResourceList};

/// Adds `b` into `a` per resource name (exact; an overflowing sum keeps the old value).
pub fn add_into(a: &mut ResourceList, b: &ResourceList) {
    for (name, q) in b {
        let sum = match a.get(name.as_str()) {
            Some(old) => old.checked_add(q).unwrap_or_else(|| old.clone()),
            None => q.clone(),
        };
        a.insert(name.clone(), sum);
    }
}

fn max_into(a: &mut ResourceList, b: &ResourceList) {
    for (name, q) in b {
        let bigger = match a.get(name.as_str()) {
            Some(old) if old >= q => continue,
            _ => q.clone(),
        };
        a.insert(name.clone(), bigger);
    }
}

/// Effective requests of a pod (see the module docs).
pub fn pod_requests(pod: &Pod) -> ResourceList {
    let mut sum = ResourceList::new();
    for c in &pod.spec.containers {
        add_into(&mut sum, &c.resources.requests);
    }
    let mut sidecars = ResourceList::new();
    let mut init_max = ResourceList::new();
    for c in &pod.spec.init_containers {
        if c.is_sidecar() {
            add_into(&mut sum, &c.resources.requests);
            add_into(&mut sidecars, &c.resources.requests);
            max_into(&mut init_max, &sidecars);
        } else {
            let mut candidate = c.resources.requests.clone();
            add_into(&mut candidate, &sidecars);
            max_into(&mut init_max, &candidate);
        }
    }
    max_into(&mut sum, &init_max);
    if let Some(pod_level) = &pod.spec.resources {
        for (name, q) in &pod_level.requests {
            let n = name.as_str();
            if n == "cpu" || n == "memory" || n.starts_with("hugepages-") {
                sum.insert(name.clone(), q.clone());
            }
        }
    }
    if let Some(overhead) = &pod.spec.overhead {
        add_into(&mut sum, overhead);
    }
    sum
}

/// The quantity of `name` in `list`, zero when absent.
pub fn get_or_zero<'l>(list: &'l ResourceList, name: &str) -> &'l Quantity {
    list.get(name).unwrap_or(&Quantity::ZERO)
}

/// True for extended resource names that denote GPUs or GPU slices: `nvidia.com/gpu`,
/// `nvidia.com/mig-*`, `nvidia.com/gpu.shared`, `amd.com/gpu`, `gpu.intel.com/*`,
/// `*.com/vgpu`, HAMi's `nvidia.com/gpumem`/`gpucores`, legacy `alpha.kubernetes.io/nvidia-gpu`.
pub fn is_gpu_resource(name: &str) -> bool {
    let n = name
        .strip_prefix("requests.")
        .or_else(|| name.strip_prefix("limits."))
        .unwrap_or(name);
    let Some((domain, res)) = n.split_once('/') else {
        return false;
    };
    let gpu_domain = domain.contains("nvidia")
        || domain.contains("amd.com")
        || domain.contains("intel.com")
        || domain.contains("hami")
        || domain.contains("aliyun")
        || domain == "alpha.kubernetes.io";
    gpu_domain && (res.contains("gpu") || res.starts_with("mig-") || res.contains("vgpu"))
}

/// A quota key reduced to the resource it constrains (`requests.nvidia.com/gpu` ->
/// `nvidia.com/gpu`, `limits.memory` -> `memory`, `nvidia.com/gpu` -> `nvidia.com/gpu`).
pub fn quota_key_resource(key: &str) -> &str {
    key.strip_prefix("requests.")
        .or_else(|| key.strip_prefix("limits."))
        .unwrap_or(key)
}

/// True for native resource names (no `/`, or a `kubernetes.io/` domain), as upstream's
/// `IsNativeResource`.
pub fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_model::objects::{Container, Pod};

    fn c(req: &[(&str, &str)], sidecar: bool) -> Container {
        let mut c = Container::default();
        for (k, v) in req {
            c.resources.requests.insert(*k, v.parse().unwrap());
        }
        if sidecar {
            c.restart_policy = Some("Always".into());
        }
        c
    }

    #[track_caller]
    fn check(pod: &Pod, name: &str, want: &str) {
        assert_eq!(
            pod_requests(pod)
                .get(name)
                .map(ToString::to_string)
                .as_deref(),
            Some(want)
        );
    }

    #[test]
    fn sidecars_accumulate_in_order() {
        let mut p = Pod::default();
        p.spec.init_containers = vec![
            c(&[("cpu", "5")], false),
            c(&[("cpu", "1")], true),
            c(&[("cpu", "2")], true),
            c(&[("cpu", "5")], false),
            c(&[("cpu", "3")], true),
        ];
        p.spec.containers = vec![c(&[("cpu", "1")], false)];
        check(&p, "cpu", "8");
    }

    #[test]
    fn gpu_names() {
        assert!(is_gpu_resource("nvidia.com/gpu"));
        assert!(is_gpu_resource("requests.nvidia.com/mig-1g.10gb"));
        assert!(is_gpu_resource("amd.com/gpu"));
        assert!(is_gpu_resource("alpha.kubernetes.io/nvidia-gpu"));
        assert!(!is_gpu_resource("cpu"));
        assert!(!is_gpu_resource("cerit.io/gpu-mem") && !is_gpu_resource("example.com/foo"));
    }
}
