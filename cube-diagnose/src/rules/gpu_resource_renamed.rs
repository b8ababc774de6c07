//! `gpu-resource-renamed`: a node advertises its GPUs under the name a sharing configuration
//! gives them (`nvidia.com/gpu.shared`), so pods and quotas must use that name. Information:
//! the configuration working as set up, said once so that nobody asks for the old name.
//!
//! NVIDIA/k8s-device-plugin (README "Shared Access to GPUs", api/config/v1/replicas.go,
//! api/config/v1/consts.go `DefaultSharedResourceNameSuffix = ".shared"`): with
//! `sharing.timeSlicing.renameByDefault: true` (or `sharing.mps.renameByDefault: true`) each
//! shared resource is advertised as `<resource-name>.shared` instead of `<resource-name>`; the
//! kubelet keeps the old name at 0 once the plugin stops registering it.

use crate::resources::is_gpu_resource;
use crate::rules::{node_subject, obj};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    GpuResourceRenamed,
    "gpu-resource-renamed",
    Gpu,
    Info,
    "A node advertises GPUs under a shared name (`nvidia.com/gpu.shared`: the NVIDIA device plugin's time-slicing or MPS configuration with renameByDefault: true) and the plain name (`nvidia.com/gpu`) at 0 or not at all: pods must request the shared name and quotas must limit `requests.<shared name>`; a quota on the plain name does not count them. The count is the number of shared replicas (GPUs, or MIG devices, times replicas; computed when the node's nvidia.com/gpu.count and nvidia.com/gpu.replicas labels say it). Information only; when a pod, quota or scheduler message asks for the plain name, gpu-resource-name-mismatch reports that instead.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    // something asks for the old name: gpu-resource-name-mismatch carries the cause (one
    // cause, one finding)
    let mismatch: Vec<String> = {
        use crate::Rule;
        crate::rules::gpu_resource_name_mismatch::GpuResourceNameMismatch
            .check(ctx)
            .into_iter()
            .map(|f| f.message)
            .collect()
    };
    for n in &ctx.snapshot().nodes {
        let listed = n.status.allocatable.iter().chain(n.status.capacity.iter());
        let Some((shared, q)) = listed
            .filter(|(k, q)| {
                k.as_str().ends_with(".shared") && is_gpu_resource(k.as_str()) && !q.is_zero()
            })
            .map(|(k, q)| (k.as_str(), q))
            .next()
        else {
            continue;
        };
        let plain = shared.trim_end_matches(".shared");
        let plain_q = n
            .status
            .allocatable
            .get(plain)
            .or_else(|| n.status.capacity.get(plain));
        if plain_q.is_some_and(|p| !p.is_zero()) {
            // both advertised: a per-resource `rename` or two plugins, not the default rename
            continue;
        }
        if mismatch.iter().any(|m| {
            m.contains(shared) && (m.contains(n.metadata.name.as_str()) || m.contains("renamed"))
        }) {
            continue;
        }
        let o = obj("Node", "", &n.metadata.name);
        let labels = &n.metadata.labels;
        let count = labels
            .get("nvidia.com/gpu.count")
            .and_then(|v| v.parse::<i64>().ok());
        let replicas = labels
            .get("nvidia.com/gpu.replicas")
            .and_then(|v| v.parse::<i64>().ok());
        let how = match (count, replicas) {
            (Some(c), Some(r)) if c * r == q.value() => format!(
                " ({c} GPUs x {r} replicas, from the nvidia.com/gpu.count and nvidia.com/gpu.replicas labels)"
            ),
            _ => {
                " (shared replicas: GPUs, or MIG devices, times the configured replicas)".to_owned()
            }
        };
        let mut f = Finding::new(
            GpuResourceRenamed::ID,
            Severity::Info,
            node_subject(n),
            format!(
                "node {} advertises its GPUs as {shared} {q}{how}, {plain} {}: the device plugin's sharing configuration renames {plain} to {shared} (renameByDefault: true), so pods must request {shared}, and a ResourceQuota must limit requests.{shared} (one on requests.{plain} does not count them)",
                n.metadata.name,
                match plain_q {
                    Some(p) => format!("at {p}"),
                    None => "not at all".to_owned(),
                }
            ),
        )
        .with_evidence(Evidence::field(
            &o,
            format!("status.allocatable.{shared}"),
            q.to_string(),
        ));
        if let Some(p) = plain_q {
            f = f.with_evidence(Evidence::field(
                &o,
                format!("status.allocatable.{plain}"),
                p.to_string(),
            ));
        }
        out.push(f.with_remedy(format!(
            "request `{shared}: 1` in the pods' resources (limits), and quota `requests.{shared}`; or set renameByDefault: false in the device plugin's sharing config to keep advertising {plain}"
        )));
    }
    out
}
