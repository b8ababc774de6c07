//! Resource names (`cpu`, `memory`, `nvidia.com/gpu`, `requests.cpu`, ...) and resource lists.
//!
//! CONTRACT: the items below are the API other crates build on; issue 2 item 3 extends them.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;

use crate::Quantity;

/// A Kubernetes resource name such as `cpu`, `memory`, `nvidia.com/gpu`,
/// `hugepages-2Mi`, or a quota key such as `requests.nvidia.com/gpu`.
///
/// Ordered and compared as the plain string (upstream sorts names as strings).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ResourceName(String);

impl ResourceName {
    /// Wraps a name without checking it (see `validate` for the upstream rules).
    pub fn new(name: impl Into<String>) -> Self {
        ResourceName(name.into())
    }
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for ResourceName {
    fn borrow(&self) -> &str {
        &self.0
    }
}
impl fmt::Display for ResourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl fmt::Debug for ResourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
impl From<&str> for ResourceName {
    fn from(s: &str) -> Self {
        ResourceName(s.to_owned())
    }
}
impl From<String> for ResourceName {
    fn from(s: String) -> Self {
        ResourceName(s)
    }
}

/// A map from resource name to quantity, as `v1.ResourceList` (`requests`, `limits`,
/// `capacity`, `allocatable`, quota `hard` / `used`). Iterates in name order.
#[derive(Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ResourceList(BTreeMap<ResourceName, Quantity>);

impl ResourceList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    /// The quantity for `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Quantity> {
        self.0.get(name)
    }
    /// Sets `name` to `quantity`, returning the previous value.
    pub fn insert(
        &mut self,
        name: impl Into<ResourceName>,
        quantity: Quantity,
    ) -> Option<Quantity> {
        self.0.insert(name.into(), quantity)
    }
    /// Removes `name`.
    pub fn remove(&mut self, name: &str) -> Option<Quantity> {
        self.0.remove(name)
    }
    /// True when `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Entries in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&ResourceName, &Quantity)> {
        self.0.iter()
    }
    /// Names in order.
    pub fn names(&self) -> impl Iterator<Item = &ResourceName> {
        self.0.keys()
    }
}

impl fmt::Debug for ResourceList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k.as_str(), v.to_string())))
            .finish()
    }
}

impl<N: Into<ResourceName>> FromIterator<(N, Quantity)> for ResourceList {
    fn from_iter<T: IntoIterator<Item = (N, Quantity)>>(iter: T) -> Self {
        ResourceList(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<'a> IntoIterator for &'a ResourceList {
    type Item = (&'a ResourceName, &'a Quantity);
    type IntoIter = std::collections::btree_map::Iter<'a, ResourceName, Quantity>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
