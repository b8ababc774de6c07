//! `NodePool`: the nodes a label selector picks (CubeStudio pools such as `org=public`,
//! `gpu=true`, `train=true`), their totals, their free capacity given the pods bound to them, and
//! a consistency report (OS, kernel, container runtime, kubelet, GPU driver, CUDA, GPU model).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{ResourceError, SelectorError};
use crate::node::{NodeAttribute, NodeInfo};
use crate::objects::{LabelSelector, Pod, PodSpec};
use crate::selector::parse_label_selector;
use crate::snapshot::ClusterSnapshot;
use crate::{ResourceList, ResourceName};

/// A set of nodes picked by a label selector.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodePool {
    /// The selector that defines the pool (empty = every node).
    pub selector: LabelSelector,
    /// The nodes it picked, in input order.
    pub nodes: Vec<NodeInfo>,
}

/// What the pods bound to one node request, and what is left.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeUsage {
    /// Node name.
    pub node: String,
    /// `status.allocatable`.
    pub allocatable: ResourceList,
    /// Sum of the requests of non-terminal pods bound to the node (`spec.nodeName`).
    pub requested: ResourceList,
    /// `allocatable - requested` per resource; negative when over-committed, and a resource
    /// requested but not advertised appears negated.
    pub free: ResourceList,
    /// Number of non-terminal pods bound to the node.
    pub pods: usize,
}

impl NodeUsage {
    /// Resources whose free amount is negative (more requested than allocatable, or requested
    /// and not advertised at all).
    pub fn overcommitted(&self) -> Vec<&ResourceName> {
        self.free
            .iter()
            .filter(|(_, q)| q.is_negative())
            .map(|(n, _)| n)
            .collect()
    }
}

/// Free capacity of a pool.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct PoolUsage {
    /// One entry per node of the pool, in pool order.
    pub nodes: Vec<NodeUsage>,
    /// Sum of requests over the pool.
    pub requested: ResourceList,
    /// Sum over nodes of the free amount, each node's negative amounts counted as zero (an
    /// over-committed node frees nothing on the others).
    pub free: ResourceList,
}

/// Nodes grouped by the value they hold for one attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AttributeDrift {
    /// The attribute.
    pub attribute: NodeAttribute,
    /// Each distinct value with the nodes holding it (sorted by value, nodes in pool order).
    pub values: BTreeMap<String, Vec<String>>,
    /// Nodes that do not state the attribute (not counted as a distinct value).
    pub unknown: Vec<String>,
}

/// The attributes that differ across a pool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ConsistencyReport {
    /// One entry per attribute with two or more distinct values, in [`NodeAttribute::ALL`]
    /// order.
    pub drifts: Vec<AttributeDrift>,
}

impl ConsistencyReport {
    /// True when no attribute differs.
    pub fn is_consistent(&self) -> bool {
        self.drifts.is_empty()
    }
    /// The drift of one attribute, if it differs.
    pub fn drift(&self, attribute: NodeAttribute) -> Option<&AttributeDrift> {
        self.drifts.iter().find(|d| d.attribute == attribute)
    }
}

/// A simple pod request for pool arithmetic: per resource, max(sum of app containers' requests,
/// largest init container's requests), each container's requests defaulted from its limits as
/// API defaulting does (a container with only `limits: {nvidia.com/gpu: 1}` requests one GPU).
/// It ignores sidecars, pod overhead and pod-level resources; the exact rule (upstream
/// `PodRequests`) lives in `cube-quota`: pass it to [`NodePool::usage_with`] for exact numbers.
pub fn simple_pod_requests(spec: &PodSpec) -> ResourceList {
    let effective = |c: &crate::objects::Container| -> ResourceList {
        let mut r = c.resources.requests.clone();
        for (k, v) in &c.resources.limits {
            if !r.contains(k.as_str()) {
                r.insert(k.clone(), v.clone());
            }
        }
        r
    };
    let mut sum = ResourceList::new();
    for c in &spec.containers {
        // an overflow here is not reachable with the exact Quantity; keep what was summed
        let _ = sum.add_assign(&effective(c));
    }
    spec.init_containers
        .iter()
        .fold(sum, |acc, c| acc.max(&effective(c)))
}

impl NodePool {
    /// The nodes matching `selector` (an empty selector picks every node).
    pub fn select(selector: LabelSelector, nodes: &[NodeInfo]) -> NodePool {
        let picked = nodes
            .iter()
            .filter(|n| selector.matches(&n.labels))
            .cloned()
            .collect();
        NodePool {
            selector,
            nodes: picked,
        }
    }

    /// The nodes matching a selector string such as `org=public,gpu=true`.
    ///
    /// # Errors
    /// [`SelectorError`] when the string is not a label selector.
    pub fn select_str(selector: &str, nodes: &[NodeInfo]) -> Result<NodePool, SelectorError> {
        Ok(Self::select(parse_label_selector(selector)?, nodes))
    }

    /// The pool over the nodes of a snapshot.
    pub fn from_snapshot(selector: LabelSelector, snapshot: &ClusterSnapshot) -> NodePool {
        let nodes: Vec<NodeInfo> = snapshot.nodes.iter().map(NodeInfo::from_node).collect();
        Self::select(selector, &nodes)
    }

    /// Node names, in pool order.
    pub fn node_names(&self) -> impl Iterator<Item = &str> {
        self.nodes.iter().map(|n| n.name.as_str())
    }

    /// True when a node of this name is in the pool.
    pub fn contains(&self, node_name: &str) -> bool {
        self.nodes.iter().any(|n| n.name == node_name)
    }

    /// Sum of `status.capacity` over the pool.
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn total_capacity(&self) -> Result<ResourceList, ResourceError> {
        ResourceList::sum(self.nodes.iter().map(|n| &n.capacity))
    }

    /// Sum of `status.allocatable` over the pool.
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn total_allocatable(&self) -> Result<ResourceList, ResourceError> {
        ResourceList::sum(self.nodes.iter().map(|n| &n.allocatable))
    }

    /// GPU resource names advertised in some node's allocatable (even with quantity 0).
    pub fn gpu_resource_names(&self) -> std::collections::BTreeSet<ResourceName> {
        self.nodes
            .iter()
            .flat_map(|n| n.gpu.allocatable.names().cloned())
            .collect()
    }

    /// Usage with [`simple_pod_requests`].
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn usage(&self, pods: &[Pod]) -> Result<PoolUsage, ResourceError> {
        self.usage_with(pods, |p| simple_pod_requests(&p.spec))
    }

    /// Requested and free capacity per node and in total. `pods` may be every pod of the cluster:
    /// only non-terminal pods whose `spec.nodeName` is a pool node count (Succeeded and Failed
    /// pods hold no node resources). `pod_requests` gives one pod's effective requests (for
    /// example `cube_quota`'s exact pod requests, or precomputed values looked up by pod key).
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn usage_with(
        &self,
        pods: &[Pod],
        pod_requests: impl Fn(&Pod) -> ResourceList,
    ) -> Result<PoolUsage, ResourceError> {
        let index: BTreeMap<&str, usize> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect();
        let mut requested = vec![ResourceList::new(); self.nodes.len()];
        let mut counts = vec![0usize; self.nodes.len()];
        for pod in pods.iter().filter(|p| !p.is_terminal()) {
            if let Some(&i) = index.get(pod.spec.node_name.as_str()) {
                requested[i].add_assign(&pod_requests(pod))?;
                counts[i] += 1;
            }
        }
        let mut out = PoolUsage::default();
        for ((node, req), pods) in self.nodes.iter().zip(requested).zip(counts) {
            let free = node.allocatable.sub(&req)?;
            out.requested.add_assign(&req)?;
            let non_negative: ResourceList = free
                .iter()
                .map(|(n, q)| {
                    let q = if q.is_negative() {
                        crate::Quantity::ZERO
                    } else {
                        q.clone()
                    };
                    (n.clone(), q)
                })
                .collect();
            out.free.add_assign(&non_negative)?;
            out.nodes.push(NodeUsage {
                node: node.name.clone(),
                allocatable: node.allocatable.clone(),
                requested: req,
                free,
                pods,
            });
        }
        Ok(out)
    }

    /// Which attributes differ across the pool (OS image, kernel, container runtime name and
    /// major version, kubelet minor, GPU driver, CUDA, GPU model) and which nodes hold which
    /// value. Nodes that do not state an attribute are listed as unknown and do not make it
    /// differ.
    pub fn consistency(&self) -> ConsistencyReport {
        let mut drifts = Vec::new();
        for attr in NodeAttribute::ALL {
            let mut d = AttributeDrift {
                attribute: attr,
                values: BTreeMap::new(),
                unknown: Vec::new(),
            };
            for n in &self.nodes {
                match n.attribute(attr) {
                    Some(v) => d.values.entry(v).or_default().push(n.name.clone()),
                    None => d.unknown.push(n.name.clone()),
                }
            }
            if d.values.len() > 1 {
                drifts.push(d);
            }
        }
        ConsistencyReport { drifts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{Container, Node};

    fn node(
        name: &str,
        labels: &[(&str, &str)],
        runtime: &str,
        kernel: &str,
        alloc: &[(&str, &str)],
    ) -> NodeInfo {
        let mut n = Node::default();
        n.metadata.name = name.into();
        n.metadata.labels = labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        n.status.node_info.container_runtime_version = runtime.into();
        n.status.node_info.kernel_version = kernel.into();
        n.status.node_info.os_image = "Ubuntu 22.04.4 LTS".into();
        n.status.node_info.kubelet_version = "v1.30.2".into();
        n.status.allocatable = alloc
            .iter()
            .map(|(k, v)| (*k, v.parse().unwrap()))
            .collect();
        n.status.capacity = n.status.allocatable.clone();
        NodeInfo::from_node(&n)
    }

    fn pod(node: &str, phase: &str, requests: &[(&str, &str)], init: &[(&str, &str)]) -> Pod {
        let mut p = Pod::default();
        p.spec.node_name = node.into();
        p.status.phase = phase.into();
        let mut c = Container::default();
        c.resources.requests = requests
            .iter()
            .map(|(k, v)| (*k, v.parse().unwrap()))
            .collect();
        p.spec.containers.push(c);
        if !init.is_empty() {
            let mut i = Container::default();
            i.resources.requests = init.iter().map(|(k, v)| (*k, v.parse().unwrap())).collect();
            p.spec.init_containers.push(i);
        }
        p
    }

    fn nodes() -> Vec<NodeInfo> {
        vec![
            node(
                "gpu-1",
                &[
                    ("org", "public"),
                    ("gpu", "true"),
                    ("nvidia.com/cuda.driver.major", "535"),
                    ("nvidia.com/cuda.driver.minor", "54"),
                    ("nvidia.com/cuda.driver.rev", "03"),
                ],
                "containerd://1.7.12",
                "5.15.0-105-generic",
                &[
                    ("cpu", "32"),
                    ("memory", "256Gi"),
                    ("nvidia.com/gpu", "8"),
                    ("pods", "110"),
                ],
            ),
            node(
                "gpu-2",
                &[
                    ("org", "public"),
                    ("gpu", "true"),
                    ("nvidia.com/cuda.driver.major", "550"),
                    ("nvidia.com/cuda.driver.minor", "54"),
                    ("nvidia.com/cuda.driver.rev", "15"),
                ],
                "docker://20.10.20",
                "5.15.0-105-generic",
                &[
                    ("cpu", "32"),
                    ("memory", "256Gi"),
                    ("nvidia.com/gpu", "8"),
                    ("pods", "110"),
                ],
            ),
            node(
                "cpu-1",
                &[("org", "public"), ("cpu", "true")],
                "containerd://1.7.12",
                "5.4.0-166-generic",
                &[("cpu", "64"), ("memory", "512Gi"), ("pods", "110")],
            ),
        ]
    }

    #[test]
    fn selects_and_totals() {
        let all = nodes();
        let gpu = NodePool::select_str("org=public,gpu=true", &all).unwrap();
        assert_eq!(gpu.node_names().collect::<Vec<_>>(), ["gpu-1", "gpu-2"]);
        let total = gpu.total_allocatable().unwrap();
        assert_eq!(total.get("nvidia.com/gpu"), Some(&"16".parse().unwrap()));
        assert_eq!(total.get("memory"), Some(&"512Gi".parse().unwrap()));
        assert_eq!(
            gpu.gpu_resource_names()
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>(),
            ["nvidia.com/gpu"]
        );
        assert_eq!(
            NodePool::select_str("org=public", &all)
                .unwrap()
                .nodes
                .len(),
            3
        );
        assert!(NodePool::select_str("org in (", &all).is_err());
    }

    #[test]
    fn usage_counts_bound_non_terminal_pods() {
        let all = nodes();
        let gpu = NodePool::select_str("gpu=true", &all).unwrap();
        let pods = vec![
            pod(
                "gpu-1",
                "Running",
                &[("cpu", "4"), ("nvidia.com/gpu", "2")],
                &[("cpu", "8")],
            ),
            pod("gpu-1", "Succeeded", &[("nvidia.com/gpu", "8")], &[]),
            pod(
                "gpu-2",
                "Pending",
                &[("nvidia.com/gpu", "9"), ("example.com/fpga", "1")],
                &[],
            ),
            pod("cpu-1", "Running", &[("cpu", "60")], &[]),
            pod("", "Pending", &[("cpu", "1")], &[]),
        ];
        let u = gpu.usage(&pods).unwrap();
        assert_eq!(u.nodes[0].pods, 1);
        assert_eq!(
            u.nodes[0].requested.get("cpu"),
            Some(&"8".parse().unwrap()),
            "init max"
        );
        assert_eq!(
            u.nodes[0].free.get("nvidia.com/gpu"),
            Some(&"6".parse().unwrap())
        );
        assert_eq!(
            u.nodes[1]
                .overcommitted()
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>(),
            ["example.com/fpga", "nvidia.com/gpu"]
        );
        // gpu-2 over-committed: frees 0 GPUs, not -1
        assert_eq!(u.free.get("nvidia.com/gpu"), Some(&"6".parse().unwrap()));
        assert_eq!(
            u.requested.get("nvidia.com/gpu"),
            Some(&"11".parse().unwrap())
        );
        // a closure for exact requests replaces the simple helper
        let u = gpu
            .usage_with(&pods, |_| {
                [("cpu", "1".parse().unwrap())].into_iter().collect()
            })
            .unwrap();
        assert_eq!(u.requested.get("cpu"), Some(&"2".parse().unwrap()));
    }

    #[test]
    fn consistency_names_each_value_and_its_nodes() {
        let all = nodes();
        let report = NodePool::select(LabelSelector::default(), &all).consistency();
        let rt = report.drift(NodeAttribute::ContainerRuntimeName).unwrap();
        assert_eq!(rt.values["containerd"], ["gpu-1", "cpu-1"]);
        assert_eq!(rt.values["docker"], ["gpu-2"]);
        let k = report.drift(NodeAttribute::Kernel).unwrap();
        assert_eq!(k.values["5.4.0-166-generic"], ["cpu-1"]);
        let d = report.drift(NodeAttribute::GpuDriver).unwrap();
        assert_eq!(d.values["535.54.03"], ["gpu-1"]);
        assert_eq!(d.values["550.54.15"], ["gpu-2"]);
        assert_eq!(d.unknown, ["cpu-1"]);
        assert!(report.drift(NodeAttribute::OsImage).is_none());
        assert!(report.drift(NodeAttribute::KubeletMinor).is_none());
        let one = NodePool::select_str("cpu=true", &all).unwrap();
        assert!(one.consistency().is_consistent());
    }
}
