//! Conversions from `k8s_openapi` objects to this crate's slim objects.
//!
//! The path is `k8s_openapi` object -> `serde_json::Value` -> ours: both sides use the API's
//! camelCase field names, so the conversion is exactly what reading `kubectl get -o json` would
//! give. This crate never enables a k8s-openapi version feature; the caller's choice applies.
//!
//! A `k8s_openapi` `Quantity` is an unchecked string; ours is parsed. [`node_from_k8s`] therefore
//! drops resource entries whose quantity does not parse and reports them, so one bad value never
//! loses the rest of the node.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Error;
use crate::node::NodeInfo;
use crate::objects;

/// Converts any serializable `k8s_openapi` object into one of our objects via `serde_json::Value`.
///
/// # Errors
/// [`Error::Convert`] naming `kind` and the field path when the value does not fit (for example a
/// quantity that does not parse).
pub fn from_k8s<K: Serialize, T: DeserializeOwned>(
    kind: &'static str,
    obj: &K,
) -> Result<T, Error> {
    let value = serde_json::to_value(obj).map_err(|e| Error::Convert {
        kind,
        field: String::new(),
        message: e.to_string(),
    })?;
    from_value(kind, value)
}

fn from_value<T: DeserializeOwned>(
    kind: &'static str,
    value: serde_json::Value,
) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(|e| Error::Convert {
        kind,
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

/// A resource entry dropped while converting (its quantity did not parse).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DroppedQuantity {
    /// `status.capacity` or `status.allocatable`.
    pub field: &'static str,
    /// The resource name.
    pub resource: String,
    /// The value as written.
    pub value: String,
}

/// Converts a `k8s_openapi` Node into ours, dropping (and returning) capacity/allocatable entries
/// whose quantity does not parse; every other field converts as in [`from_k8s`].
pub fn node_from_k8s(
    node: &k8s_openapi::api::core::v1::Node,
) -> (objects::Node, Vec<DroppedQuantity>) {
    let mut dropped = Vec::new();
    let Ok(mut value) = serde_json::to_value(node) else {
        return (objects::Node::default(), dropped);
    };
    for field in ["capacity", "allocatable"] {
        let Some(map) = value
            .get_mut("status")
            .and_then(|s| s.get_mut(field))
            .and_then(|m| m.as_object_mut())
        else {
            continue;
        };
        map.retain(|name, v| {
            let s = v.as_str().unwrap_or_default();
            let ok = s.trim().parse::<crate::Quantity>().is_ok();
            if !ok {
                dropped.push(DroppedQuantity {
                    field: if field == "capacity" {
                        "status.capacity"
                    } else {
                        "status.allocatable"
                    },
                    resource: name.clone(),
                    value: s.to_owned(),
                });
            }
            ok
        });
    }
    match from_value::<objects::Node>("Node", value) {
        Ok(n) => (n, dropped),
        // only reachable if k8s_openapi serialized something our types cannot hold; keep the name
        Err(_) => {
            let mut n = objects::Node::default();
            n.metadata.name = node.metadata.name.clone().unwrap_or_default();
            (n, dropped)
        }
    }
}

impl TryFrom<&k8s_openapi::api::core::v1::Node> for objects::Node {
    type Error = Error;
    /// See [`from_k8s`].
    fn try_from(node: &k8s_openapi::api::core::v1::Node) -> Result<Self, Error> {
        from_k8s("Node", node)
    }
}

impl TryFrom<&k8s_openapi::api::core::v1::Pod> for objects::Pod {
    type Error = Error;
    /// See [`from_k8s`].
    fn try_from(pod: &k8s_openapi::api::core::v1::Pod) -> Result<Self, Error> {
        from_k8s("Pod", pod)
    }
}

impl From<&k8s_openapi::api::core::v1::Node> for NodeInfo {
    /// Reads a `k8s_openapi` Node (entries with unparsable quantities are left out; use
    /// [`node_from_k8s`] to see them).
    fn from(node: &k8s_openapi::api::core::v1::Node) -> Self {
        NodeInfo::from_node(&node_from_k8s(node).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1 as k;
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity as KQ;

    fn k8s_node() -> k::Node {
        let mut n = k::Node::default();
        n.metadata.name = Some("gpu-1".into());
        n.metadata.labels = Some(
            [(
                "nvidia.com/gpu.product".to_owned(),
                "A100-SXM4-80GB".to_owned(),
            )]
            .into_iter()
            .collect(),
        );
        let capacity = Some(
            [
                ("nvidia.com/gpu".to_owned(), KQ("8".into())),
                ("cpu".to_owned(), KQ("bogus".into())),
            ]
            .into_iter()
            .collect(),
        );
        n.status = Some(k::NodeStatus {
            capacity,
            allocatable: Some(
                [("nvidia.com/gpu".to_owned(), KQ("7".into()))]
                    .into_iter()
                    .collect(),
            ),
            node_info: Some(k::NodeSystemInfo {
                container_runtime_version: "containerd://1.7.12".into(),
                kubelet_version: "v1.30.1".into(),
                ..Default::default()
            }),
            ..Default::default()
        });
        n
    }

    #[test]
    fn node_info_from_k8s_openapi_node() {
        let kn = k8s_node();
        let info = NodeInfo::from(&kn);
        assert_eq!(info.name, "gpu-1");
        assert_eq!(
            info.gpu.capacity.get("nvidia.com/gpu"),
            Some(&"8".parse().unwrap())
        );
        assert_eq!(
            info.gpu.allocatable.get("nvidia.com/gpu"),
            Some(&"7".parse().unwrap())
        );
        assert_eq!(info.gpu.model.as_deref(), Some("A100-SXM4-80GB"));
        assert_eq!(info.container_runtime.version, "1.7.12");
        assert!(!info.capacity.contains("cpu"));
        let (_, dropped) = node_from_k8s(&kn);
        assert_eq!(
            dropped,
            [DroppedQuantity {
                field: "status.capacity",
                resource: "cpu".into(),
                value: "bogus".into()
            }]
        );
        let err = objects::Node::try_from(&kn).unwrap_err();
        assert!(err.to_string().contains("status.capacity"), "{err}");
    }
}
