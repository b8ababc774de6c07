//! Server-side apply's field ownership, as far as cube-rs needs it: the set of fields an applied
//! configuration sets, the `FieldsV1` encoding of `metadata.managedFields`, and value
//! comparison that treats equal quantities as equal.
//!
//! Mirrored upstream behaviour (kubernetes `k8s.io/apimachinery/pkg/util/managedfields` and
//! `sigs.k8s.io/structured-merge-diff`):
//! - an apply's field set is every leaf its configuration sets: maps (`metadata.labels`,
//!   `spec.hard`) are granular, one field per key; lists are atomic, one field for the whole
//!   list, which is what the schemas say for every list cube-rs writes
//!   (`ResourceQuotaSpec.scopes`, `LimitRangeSpec.limits`, `Role.rules`,
//!   `RoleBinding.subjects`, all `+listType=atomic`); associative lists of other kinds are not
//!   modelled (their `k:{...}` path elements are kept as opaque path segments);
//! - identity and server-owned fields are never owned: `apiVersion`, `kind`, `status`, and
//!   `metadata.{name, namespace, uid, resourceVersion, generation, creationTimestamp,
//!   deletionTimestamp, deletionGracePeriodSeconds, selfLink, managedFields}`
//!   (`internal/stripmeta.go`);
//! - `FieldsV1` is a JSON tree whose keys are `f:<field>` (and `k:`/`v:`/`i:` for list items)
//!   with `{}` at the leaves, and `".": {}` marking a map or struct that is itself owned.
//! - Field paths print as `.spec.hard.requests.cpu`, as conflicts name them
//!   (`fieldpath.Path.String`).

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value};

/// One field: the keys from the object root (`["spec", "hard", "pods"]`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldPath(pub Vec<String>);

impl FieldPath {
    /// A path of these keys.
    pub fn new<I, S>(keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        FieldPath(keys.into_iter().map(Into::into).collect())
    }

    /// True when `self` is `other` or lies under it.
    pub fn starts_with(&self, other: &FieldPath) -> bool {
        self.0.starts_with(&other.0)
    }
}

impl fmt::Display for FieldPath {
    /// `.spec.hard.pods`, as server-side apply conflicts print paths.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in &self.0 {
            write!(f, ".{k}")?;
        }
        Ok(())
    }
}

/// A set of owned fields (the leaves of a `FieldsV1` tree).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSet(pub BTreeSet<FieldPath>);

const STRIPPED_TOP: &[&str] = &["apiVersion", "kind", "status"];
const STRIPPED_META: &[&str] = &[
    "name",
    "namespace",
    "generateName",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "selfLink",
    "managedFields",
];

fn collect_leaves(v: &Value, path: &mut Vec<String>, out: &mut BTreeSet<FieldPath>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, child) in m {
                if path.is_empty() && STRIPPED_TOP.contains(&k.as_str()) {
                    continue;
                }
                if path.len() == 1 && path[0] == "metadata" && STRIPPED_META.contains(&k.as_str()) {
                    continue;
                }
                path.push(k.clone());
                collect_leaves(child, path, out);
                path.pop();
            }
        }
        Value::Null => {}
        _ => {
            if !path.is_empty() {
                out.insert(FieldPath(path.clone()));
            }
        }
    }
}

impl FieldSet {
    /// The fields an applied configuration sets (see the module docs for what is left out).
    pub fn of_config(config: &Value) -> FieldSet {
        let mut out = BTreeSet::new();
        collect_leaves(config, &mut Vec::new(), &mut out);
        FieldSet(out)
    }

    /// The leaves of a `FieldsV1` tree. `f:` keys become field names; `k:`, `v:` and `i:`
    /// list-item keys are kept as written; a `"."` entry makes its parent a leaf too.
    pub fn from_fields_v1(tree: &Value) -> FieldSet {
        fn walk(v: &Value, path: &mut Vec<String>, out: &mut BTreeSet<FieldPath>) {
            let Some(m) = v.as_object() else {
                return;
            };
            if m.is_empty() {
                if !path.is_empty() {
                    out.insert(FieldPath(path.clone()));
                }
                return;
            }
            for (k, child) in m {
                if k == "." {
                    if !path.is_empty() {
                        out.insert(FieldPath(path.clone()));
                    }
                    continue;
                }
                let seg = k.strip_prefix("f:").unwrap_or(k).to_owned();
                path.push(seg);
                walk(child, path, out);
                path.pop();
            }
        }
        let mut out = BTreeSet::new();
        walk(tree, &mut Vec::new(), &mut out);
        FieldSet(out)
    }

    /// The `FieldsV1` tree of the set (`{"f:spec":{"f:hard":{"f:pods":{}}}}`).
    pub fn to_fields_v1(&self) -> Value {
        let mut root = Map::new();
        for p in &self.0 {
            let mut node = &mut root;
            for k in &p.0 {
                let key = if k.starts_with("k:") || k.starts_with("v:") || k.starts_with("i:") {
                    k.clone()
                } else {
                    format!("f:{k}")
                };
                let entry = node.entry(key).or_insert_with(|| Value::Object(Map::new()));
                if !entry.is_object() {
                    *entry = Value::Object(Map::new());
                }
                let Value::Object(m) = entry else {
                    break;
                };
                node = m;
            }
        }
        Value::Object(root)
    }

    /// True when the path is in the set.
    pub fn contains(&self, path: &FieldPath) -> bool {
        self.0.contains(path)
    }

    /// True when the path, or a path under it, is in the set.
    pub fn covers(&self, path: &FieldPath) -> bool {
        self.0.iter().any(|p| p.starts_with(path))
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Fields in order.
    pub fn iter(&self) -> impl Iterator<Item = &FieldPath> {
        self.0.iter()
    }
}

/// One `metadata.managedFields` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedEntry {
    /// `manager` (`cube-rs`, `kubectl-edit`, `kube-controller-manager`).
    pub manager: String,
    /// `Apply` or `Update`.
    pub operation: String,
    /// `apiVersion` the manager used.
    pub api_version: String,
    /// `time` (RFC 3339), as recorded.
    pub time: Option<String>,
    /// `subresource` (`status`), `""` for the main resource.
    pub subresource: String,
    /// The owned fields.
    pub fields: FieldSet,
}

impl ManagedEntry {
    /// How server-side apply conflicts name a manager (`conflict.go` `printManager`):
    /// `"cube-rs"` for an Apply entry, `"kubectl-edit" using v1 at 2026-01-01T00:00:00Z` for an
    /// Update entry, with `with subresource "status"` when on a subresource.
    pub fn conflict_name(&self) -> String {
        let mut s = format!("{:?}", self.manager);
        if !self.subresource.is_empty() {
            s = format!("{s} with subresource {:?}", self.subresource);
        }
        if self.operation == "Update" {
            return match &self.time {
                Some(t) => format!("{s} using {} at {t}", self.api_version),
                None => format!("{s} using {}", self.api_version),
            };
        }
        s
    }

    /// The entry as JSON (`fieldsType: FieldsV1`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("manager".into(), Value::from(self.manager.clone()));
        m.insert("operation".into(), Value::from(self.operation.clone()));
        m.insert("apiVersion".into(), Value::from(self.api_version.clone()));
        if let Some(t) = &self.time {
            m.insert("time".into(), Value::from(t.clone()));
        }
        m.insert("fieldsType".into(), Value::from("FieldsV1"));
        m.insert("fieldsV1".into(), self.fields.to_fields_v1());
        if !self.subresource.is_empty() {
            m.insert("subresource".into(), Value::from(self.subresource.clone()));
        }
        Value::Object(m)
    }
}

/// The `metadata.managedFields` entries of an object (entries without `FieldsV1` are skipped).
pub fn managed_entries(object: &Value) -> Vec<ManagedEntry> {
    object["metadata"]["managedFields"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|e| e["fieldsType"].as_str().is_none_or(|t| t == "FieldsV1"))
                .map(|e| {
                    let s = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
                    ManagedEntry {
                        manager: s("manager"),
                        operation: s("operation"),
                        api_version: s("apiVersion"),
                        time: e["time"].as_str().map(str::to_owned),
                        subresource: s("subresource"),
                        fields: FieldSet::from_fields_v1(&e["fieldsV1"]),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The fields `manager` owns through `Apply` on the main resource.
pub fn applied_fields(object: &Value, manager: &str) -> FieldSet {
    managed_entries(object)
        .into_iter()
        .filter(|e| e.manager == manager && e.operation == "Apply" && e.subresource.is_empty())
        .fold(FieldSet::default(), |mut acc, e| {
            acc.0.extend(e.fields.0);
            acc
        })
}

/// The value at a path (`None` when a step is missing or not an object).
pub fn value_at<'a>(object: &'a Value, path: &FieldPath) -> Option<&'a Value> {
    let mut cur = object;
    for k in &path.0 {
        cur = cur.as_object()?.get(k)?;
    }
    Some(cur)
}

/// Sets the value at a path, creating objects on the way (a non-object on the way is
/// replaced).
pub fn set_at(object: &mut Value, path: &FieldPath, value: Value) {
    let Some((last, parents)) = path.0.split_last() else {
        return;
    };
    let mut cur = object;
    for k in parents {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let Value::Object(m) = cur else {
            return;
        };
        cur = m
            .entry(k.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if !cur.is_object() {
        *cur = Value::Object(Map::new());
    }
    if let Value::Object(m) = cur {
        m.insert(last.clone(), value);
    }
}

/// Removes the value at a path; maps left empty by the removal are removed too (as
/// structured-merge-diff does when an applier stops setting the last key of a map it created).
pub fn remove_at(object: &mut Value, path: &FieldPath) {
    fn go(cur: &mut Value, keys: &[String]) -> bool {
        let Some((first, rest)) = keys.split_first() else {
            return false;
        };
        let Value::Object(m) = cur else {
            return false;
        };
        if rest.is_empty() {
            m.remove(first);
        } else if let Some(child) = m.get_mut(first)
            && go(child, rest)
        {
            m.remove(first);
        }
        m.is_empty()
    }
    // Never remove the top-level object itself.
    let _ = go(object, &path.0);
}

/// The path segment standing for "an item of a list" when walking values (no Kubernetes
/// schema has a field of that name).
pub const LIST_ITEM: &str = "[]";

/// Keys whose values are resource lists (`name -> Quantity`), at any depth.
const QUANTITY_MAP_KEYS: &[&str] = &[
    "hard",
    "used",
    "max",
    "min",
    "default",
    "defaultRequest",
    "maxLimitRequestRatio",
    "capacity",
    "allocatable",
    "requests",
    "limits",
];

/// True when the value at `path` is a quantity: the key before the last is one of the resource
/// list keys (`spec.hard.<name>`, `spec.limits` items' `max.<name>`, ...). Items of a list are
/// walked with the [`LIST_ITEM`] segment, so `spec.limits[].type` is not taken for a quantity of
/// a `limits` map.
pub fn is_quantity_path(path: &[String]) -> bool {
    path.len() >= 2
        && path
            .get(path.len() - 2)
            .is_some_and(|k| QUANTITY_MAP_KEYS.contains(&k.as_str()))
}

/// Equal as the API server would store them: structurally, with quantities under resource-list
/// keys compared by value (`"1000m"` equals `"1"`, `"1Gi"` equals `"1073741824"`).
pub fn semantically_equal(path: &[String], a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) if x != y && is_quantity_path(path) => {
            match (
                cube_model::Quantity::parse(x),
                cube_model::Quantity::parse(y),
            ) {
                (Ok(p), Ok(q)) => p == q,
                _ => false,
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get(k).is_some_and(|w| {
                        let mut p = path.to_vec();
                        p.push(k.clone());
                        semantically_equal(&p, v, w)
                    })
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| semantically_equal(path, v, w))
        }
        (Value::Number(x), Value::Number(y)) => {
            x == y || (x.as_f64().is_some() && x.as_f64() == y.as_f64())
        }
        _ => a == b,
    }
}

/// Rewrites quantities under resource-list keys to their canonical form, as the API server
/// stores them (`"1000m"` -> `"1"`, `"2048Mi"` -> `"2Gi"`); strings that do not parse are kept.
pub fn canonicalize_quantities(v: &mut Value) {
    fn go(v: &mut Value, path: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, child) in m.iter_mut() {
                    path.push(k.clone());
                    go(child, path);
                    path.pop();
                }
            }
            Value::Array(a) => {
                path.push(LIST_ITEM.to_owned());
                for child in a {
                    go(child, path);
                }
                path.pop();
            }
            Value::String(s) if is_quantity_path(path) => {
                if let Ok(q) = cube_model::Quantity::parse(s) {
                    *s = q.to_canonical_string();
                }
            }
            Value::Number(n) if is_quantity_path(path) => {
                if let Ok(q) = cube_model::Quantity::parse(&n.to_string()) {
                    *v = Value::from(q.to_canonical_string());
                }
            }
            _ => {}
        }
    }
    go(v, &mut Vec::new());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn config_fields_skip_identity_and_status() {
        let cfg = json!({
            "apiVersion": "v1", "kind": "ResourceQuota",
            "metadata": {"name": "q", "namespace": "a", "labels": {"cube-rs.io/group": "g"}},
            "spec": {"hard": {"pods": "10", "requests.cpu": "4"}, "scopes": ["NotTerminating"]},
            "status": {"used": {"pods": "1"}}
        });
        let set = FieldSet::of_config(&cfg);
        let paths: Vec<String> = set.iter().map(ToString::to_string).collect();
        assert_eq!(
            paths,
            [
                ".metadata.labels.cube-rs.io/group",
                ".spec.hard.pods",
                ".spec.hard.requests.cpu",
                ".spec.scopes"
            ]
        );
        let tree = set.to_fields_v1();
        assert_eq!(
            tree,
            json!({"f:metadata": {"f:labels": {"f:cube-rs.io/group": {}}},
                   "f:spec": {"f:hard": {"f:pods": {}, "f:requests.cpu": {}}, "f:scopes": {}}})
        );
        assert_eq!(FieldSet::from_fields_v1(&tree), set);
    }

    #[test]
    fn fields_v1_dot_entries_and_list_keys() {
        let tree = json!({"f:metadata": {"f:labels": {".": {}, "f:a": {}}},
                          "f:spec": {"f:containers": {"k:{\"name\":\"x\"}": {".": {}, "f:image": {}}}}});
        let set = FieldSet::from_fields_v1(&tree);
        let paths: Vec<String> = set.iter().map(ToString::to_string).collect();
        assert_eq!(
            paths,
            [
                ".metadata.labels",
                ".metadata.labels.a",
                ".spec.containers.k:{\"name\":\"x\"}",
                ".spec.containers.k:{\"name\":\"x\"}.image"
            ]
        );
    }

    #[test]
    fn quantities_compare_by_value_only_in_resource_lists() {
        let p = |s: &str| s.split('.').map(str::to_owned).collect::<Vec<_>>();
        assert!(semantically_equal(
            &p("spec.hard.requests.cpu"),
            &json!("1000m"),
            &json!("1")
        ));
        assert!(!semantically_equal(
            &p("metadata.labels.x"),
            &json!("1000m"),
            &json!("1")
        ));
        let mut v = json!({"spec": {"hard": {"memory": "2048Mi", "cpu": "1000m"}, "limits": [{"type": "Container", "max": {"cpu": "2000m"}}]}});
        canonicalize_quantities(&mut v);
        assert_eq!(v["spec"]["hard"]["memory"], "2Gi");
        assert_eq!(v["spec"]["hard"]["cpu"], "1");
        assert_eq!(v["spec"]["limits"][0]["max"]["cpu"], "2");
        assert_eq!(v["spec"]["limits"][0]["type"], "Container");
        assert!(semantically_equal(
            &p("spec.limits"),
            &json!([{"type": "Container", "max": {"cpu": "2"}}]),
            &json!([{"type": "Container", "max": {"cpu": "2000m"}}])
        ));
    }

    #[test]
    fn remove_prunes_emptied_maps() {
        let mut v = json!({"metadata": {"labels": {"a": "1"}, "name": "x"}});
        remove_at(&mut v, &FieldPath::new(["metadata", "labels", "a"]));
        assert_eq!(v, json!({"metadata": {"name": "x"}}));
    }

    #[test]
    fn conflict_names_like_the_api_server() {
        let e = ManagedEntry {
            manager: "kubectl-edit".into(),
            operation: "Update".into(),
            api_version: "v1".into(),
            time: Some("2026-01-01T00:00:00Z".into()),
            subresource: String::new(),
            fields: FieldSet::default(),
        };
        assert_eq!(
            e.conflict_name(),
            "\"kubectl-edit\" using v1 at 2026-01-01T00:00:00Z"
        );
    }
}
