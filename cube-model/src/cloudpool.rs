//! GPU node pools named by a cloud CLI's JSON output, as people paste it next to `kubectl`
//! output: `az aks list` / `az aks show` (`agentPoolProfiles[]`: `name`, `count`, `vmSize`),
//! `az aks nodepool list` (the same fields per pool), `aws eks describe-nodegroup`
//! (`nodegroup`: `nodegroupName`, `instanceTypes[]`, `scalingConfig.desiredSize`), `eksctl get
//! nodegroup -o json` (`Name`, `InstanceType`, `DesiredCapacity`) and `gcloud container
//! node-pools list|describe --format=json` (`name`, `initialNodeCount`, `config.machineType`,
//! `config.accelerators[].acceleratorType`). Field names from the Azure CLI's
//! ManagedClusterAgentPoolProfile, the EKS API's Nodegroup, eksctl's nodegroup summary and the
//! GKE API's NodePool/NodeConfig.
//!
//! A pool is a GPU pool when its VM size / instance type is one of the GPU families of the GPU
//! vocabulary ([`crate::gpu::GpuVocabulary::builtin`], the instance-type markers) or when GKE
//! attaches accelerators to it. Pure: reads a parsed JSON value, bounded in depth and count.

use serde::{Deserialize, Serialize};

use crate::node::GpuVendor;

/// One GPU node pool a cloud CLI's output names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct CloudPool {
    /// The input (and line) it was read from.
    pub source: String,
    /// The pool's name (`nodepool1`), or empty.
    pub name: String,
    /// The VM size, instance type or machine type (`Standard_NC6`, `g4dn.xlarge`).
    pub instance_type: String,
    /// The accelerator GKE attaches (`nvidia-tesla-t4`), or empty.
    pub accelerator: String,
    /// Nodes in the pool, when the output says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// The GPU vendor, when the type says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vendor: Option<GpuVendor>,
    /// Which output shape it came from (`az aks`, `aws eks`, `eksctl`, `gcloud`).
    pub cli: String,
}

impl std::fmt::Display for CloudPool {
    /// `nodepool1 Standard_NC6 x1` (name, type, count when known).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.name.is_empty() {
            write!(f, "{} ", self.name)?;
        }
        f.write_str(&self.instance_type)?;
        if let Some(c) = self.count {
            write!(f, " x{c}")?;
        }
        Ok(())
    }
}

/// Names at most five pools (`a Standard_NC6 x1, b g4dn.xlarge and 3 more`), for messages.
pub fn list(pools: &[&CloudPool]) -> String {
    let shown: Vec<String> = pools.iter().take(5).map(ToString::to_string).collect();
    match pools.len().saturating_sub(shown.len()) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// Most pools read from one value; deeper or larger outputs are not cloud CLI listings.
const MAX_POOLS: usize = 256;
const MAX_DEPTH: usize = 8;

/// The GPU node pools of a cloud CLI's JSON output (see the module documentation); empty when
/// the value names none. `source` labels them.
pub fn read(value: &serde_json::Value, source: &str) -> Vec<CloudPool> {
    let mut out = Vec::new();
    walk(value, source, 0, &mut out);
    out
}

/// The vendor of a GPU VM size / instance type, by the GPU vocabulary's instance-type markers;
/// `None` (outer) when the type is no GPU type.
pub fn gpu_instance_type(instance_type: &str) -> Option<Option<GpuVendor>> {
    crate::gpu::GpuVocabulary::builtin()
        .find(
            crate::gpu::MarkerKind::Label,
            "node.kubernetes.io/instance-type",
            instance_type,
        )
        .filter(|m| !m.exclude)
        .map(|m| m.vendor)
}

fn str_of<'a>(v: &'a serde_json::Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str().filter(|s| !s.is_empty())
}

fn u64_of(v: &serde_json::Value, key: &str) -> Option<u64> {
    v.get(key)?.as_u64()
}

fn walk(v: &serde_json::Value, source: &str, depth: usize, out: &mut Vec<CloudPool>) {
    if depth > MAX_DEPTH || out.len() >= MAX_POOLS {
        return;
    }
    match v {
        serde_json::Value::Array(items) => {
            for item in items {
                walk(item, source, depth + 1, out);
            }
        }
        serde_json::Value::Object(map) => {
            if let Some(pool) = pool_of(v, source) {
                out.push(pool);
                return;
            }
            for child in map.values() {
                walk(child, source, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// One pool object of any of the shapes, when it is a GPU pool.
fn pool_of(v: &serde_json::Value, source: &str) -> Option<CloudPool> {
    let gpu = |t: &str| gpu_instance_type(t);
    // Azure: agentPoolProfiles[] / az aks nodepool list
    if let Some(size) = str_of(v, "vmSize") {
        let vendor = gpu(size)?;
        return Some(CloudPool {
            source: source.to_owned(),
            name: str_of(v, "name").unwrap_or("").to_owned(),
            instance_type: size.to_owned(),
            count: u64_of(v, "count"),
            vendor,
            cli: "az aks".to_owned(),
            ..CloudPool::default()
        });
    }
    // EKS API: nodegroup.instanceTypes[]
    if let Some(types) = v.get("instanceTypes").and_then(|t| t.as_array()) {
        let (t, vendor) = types
            .iter()
            .filter_map(|t| t.as_str())
            .find_map(|t| gpu(t).map(|vendor| (t, vendor)))?;
        return Some(CloudPool {
            source: source.to_owned(),
            name: str_of(v, "nodegroupName").unwrap_or("").to_owned(),
            instance_type: t.to_owned(),
            count: v
                .get("scalingConfig")
                .and_then(|s| u64_of(s, "desiredSize")),
            vendor,
            cli: "aws eks".to_owned(),
            ..CloudPool::default()
        });
    }
    // eksctl get nodegroup -o json
    if let Some(t) = str_of(v, "InstanceType") {
        let vendor = gpu(t)?;
        return Some(CloudPool {
            source: source.to_owned(),
            name: str_of(v, "Name").unwrap_or("").to_owned(),
            instance_type: t.to_owned(),
            count: u64_of(v, "DesiredCapacity"),
            vendor,
            cli: "eksctl".to_owned(),
            ..CloudPool::default()
        });
    }
    // GKE: NodePool with config.machineType and config.accelerators[]
    let config = v.get("config")?;
    let machine = str_of(config, "machineType")?;
    let accelerator = config
        .get("accelerators")
        .and_then(|a| a.as_array())
        .and_then(|a| a.iter().find_map(|x| str_of(x, "acceleratorType")))
        .unwrap_or("");
    let vendor = if accelerator.is_empty() {
        gpu(machine)?
    } else {
        Some(GpuVendor::Nvidia)
    };
    Some(CloudPool {
        source: source.to_owned(),
        name: str_of(v, "name").unwrap_or("").to_owned(),
        instance_type: machine.to_owned(),
        accelerator: accelerator.to_owned(),
        count: u64_of(v, "initialNodeCount"),
        vendor,
        cli: "gcloud".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_pools_of_each_cli_and_not_the_cpu_ones() {
        let aks: serde_json::Value = serde_json::from_str(
            r#"[{"agentPoolProfiles":[{"count":1,"name":"nodepool1","vmSize":"Standard_NC6"},{"count":3,"name":"cpu","vmSize":"Standard_D4s_v3"}]}]"#,
        )
        .unwrap();
        let p = read(&aks, "a");
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].name.as_str(), p[0].count), ("nodepool1", Some(1)));
        assert_eq!(p[0].vendor, Some(GpuVendor::Nvidia));
        let eks: serde_json::Value = serde_json::from_str(
            r#"{"nodegroup":{"nodegroupName":"gpu","instanceTypes":["g4dn.xlarge"],"scalingConfig":{"desiredSize":2}}}"#,
        )
        .unwrap();
        let p = read(&eks, "e");
        assert_eq!(
            (p[0].instance_type.as_str(), p[0].count),
            ("g4dn.xlarge", Some(2))
        );
        let eksctl: serde_json::Value = serde_json::from_str(
            r#"[{"Name":"ng-1","InstanceType":"p3.2xlarge","DesiredCapacity":1},{"Name":"ng-2","InstanceType":"m5.large"}]"#,
        )
        .unwrap();
        assert_eq!(read(&eksctl, "x").len(), 1);
        let gke: serde_json::Value = serde_json::from_str(
            r#"[{"name":"gpu-pool","initialNodeCount":1,"config":{"machineType":"n1-standard-4","accelerators":[{"acceleratorCount":"1","acceleratorType":"nvidia-tesla-t4"}]}},{"name":"default-pool","config":{"machineType":"e2-medium"}}]"#,
        )
        .unwrap();
        let p = read(&gke, "g");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].accelerator, "nvidia-tesla-t4");
        let amd: serde_json::Value =
            serde_json::from_str(r#"[{"vmSize":"Standard_NV32as_v4","name":"r"}]"#).unwrap();
        assert_eq!(read(&amd, "m")[0].vendor, Some(GpuVendor::Amd));
        assert!(read(&serde_json::json!({"vmSize":"Standard_B2s"}), "c").is_empty());
    }
}
