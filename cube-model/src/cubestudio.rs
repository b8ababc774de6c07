//! CubeStudio conventions: GPU request strings on tasks and a project's "expand" JSON.
//!
//! # GPU request strings
//!
//! A task states its GPUs as `N`, `N(MODEL)`, `N(vendor)` or `N(vendor,MODEL)`: `2`, `2(V100)`,
//! `1(nvidia,V100)`, `0.5`, `8(vgpu)`. Full-width parentheses and comma (`（`, `）`, `，`),
//! full-width digits and whitespace anywhere are accepted. [`GpuRequest::parse`] turns one into an
//! exact count (fractions kept, as a [`Quantity`]), a resource name and a model selector (the
//! `gpu-type` node label value). Where CubeStudio silently used 0 (garbage, a negative count, empty
//! parentheses, an unknown vendor, text after the parentheses), this parser returns a typed
//! [`GpuRequestError`].
//!
//! In `N(X)`, `X` is a vendor when it is a key of the vendor map (case-insensitive), else a
//! model. The default vendor map ([`GpuVendorMap::default`]):
//!
//! | key | resource name | notes |
//! |---|---|---|
//! | `nvidia`, `gpu` (and no vendor) | `nvidia.com/gpu` | NVIDIA device plugin |
//! | `amd` | `amd.com/gpu` | ROCm device plugin |
//! | `intel` | `gpu.intel.com/i915` | Intel GPU plugin |
//! | `vgpu` | `nvidia.com/gpu` | vGPU via HAMi, whose default `resourceName` counts vGPUs as `nvidia.com/gpu`; the request is marked [`GpuRequest::vgpu`] so pods select CubeStudio's `vgpu=true` nodes |
//!
//! Decision (the workspace conventions name the `vgpu` key but not its resource): we map `vgpu` to
//! HAMi's default `nvidia.com/gpu` and keep a `vgpu` flag, because that is what a current HAMi
//! install advertises; deployments that renamed the resource (or use Tencent's gpu-manager
//! `tencent.com/vcuda-core`) pass their own map to [`GpuRequest::parse_with`].
//!
//! Kubernetes only accepts whole numbers for extended resources: a fractional count
//! ([`GpuRequest::is_fractional`]) must be served by a sharing scheme (vGPU memory/cores), which is
//! the caller's decision; the parser keeps the exact fraction.
//!
//! # Project expand JSON
//!
//! A CubeStudio project carries an "expand" JSON object with the keys `cluster`, `org`,
//! `node_selector` (`org=public,gpu=true`), `volume_mount` and `namespace`.
//! [`ProjectExpand::to_placement`] reads it into a resource group's [`Placement`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{ExpandError, GpuRequestError};
use crate::group::{GroupNamespace, Placement, ResourceGroup};
use crate::node::{CUBE_GPU_LABEL, CUBE_GPU_TYPE_LABEL, CUBE_VGPU_LABEL};
use crate::objects::{Labels, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
use crate::resource::names;
use crate::selector::{Operator, parse_selector, validate_label_value};
use crate::{Quantity, ResourceList, ResourceName};

/// One entry of a [`GpuVendorMap`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuVendorEntry {
    /// The resource name requests of this vendor use.
    pub resource_name: ResourceName,
    /// True when the vendor key means vGPU (pods then select `vgpu=true` nodes).
    pub vgpu: bool,
}

/// Vendor keys (lowercase) of GPU request strings and what they map to; see the module docs for
/// the default table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuVendorMap {
    /// Vendor key (lowercase) -> entry.
    pub vendors: BTreeMap<String, GpuVendorEntry>,
    /// The vendor key used when a request names none.
    pub default_vendor: String,
}

impl Default for GpuVendorMap {
    fn default() -> Self {
        let e = |name: &str, vgpu: bool| GpuVendorEntry {
            resource_name: ResourceName::from(name),
            vgpu,
        };
        GpuVendorMap {
            vendors: [
                ("nvidia".to_owned(), e(names::NVIDIA_GPU, false)),
                ("gpu".to_owned(), e(names::NVIDIA_GPU, false)),
                ("amd".to_owned(), e(names::AMD_GPU, false)),
                ("intel".to_owned(), e(names::INTEL_GPU_I915, false)),
                ("vgpu".to_owned(), e(names::NVIDIA_GPU, true)),
            ]
            .into_iter()
            .collect(),
            default_vendor: "nvidia".to_owned(),
        }
    }
}

impl GpuVendorMap {
    /// Adds or replaces a vendor key (stored lowercase).
    #[must_use]
    pub fn with(mut self, key: &str, resource_name: &str, vgpu: bool) -> Self {
        self.vendors.insert(
            key.to_lowercase(),
            GpuVendorEntry {
                resource_name: ResourceName::from(resource_name),
                vgpu,
            },
        );
        self
    }
    fn lookup(&self, key: &str) -> Option<(&str, &GpuVendorEntry)> {
        let lower = key.to_lowercase();
        self.vendors
            .get_key_value(&lower)
            .map(|(k, v)| (k.as_str(), v))
    }
}

/// A parsed GPU request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GpuRequest {
    /// How many GPUs, exactly (`0.5` stays one half).
    pub count: Quantity,
    /// The resource name to request (`nvidia.com/gpu`, `amd.com/gpu`, ...).
    pub resource_name: ResourceName,
    /// The vendor key used (lowercase; the map's default when the string names none).
    pub vendor: String,
    /// The model selector: the `gpu-type` node label value (`V100`), if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// True for a vGPU vendor key (`8(vgpu)`).
    pub vgpu: bool,
}

/// ASCII form of full-width parentheses, comma and digits, trimmed; other characters unchanged
/// (whitespace inside a token is kept, so `1 0` and `Tesla V100` are reported, not glued).
fn normalize(input: &str) -> String {
    input
        .trim()
        .chars()
        .map(|c| match c {
            '（' => '(',
            '）' => ')',
            '，' | '、' => ',',
            '０'..='９' => char::from_u32(u32::from(c) - 0xFF10 + u32::from('0')).unwrap_or(c),
            '．' => '.',
            _ => c,
        })
        .collect()
}

/// A plain decimal count: digits, optionally `.` and digits (`2`, `0.5`, `.5`, `1.`).
fn parse_count(input: &str, text: &str) -> Result<Quantity, GpuRequestError> {
    if let Some(rest) = text.strip_prefix('-')
        && parse_count(input, rest).is_ok()
    {
        return Err(GpuRequestError::NegativeCount {
            input: input.to_owned(),
            count: text.to_owned(),
        });
    }
    let digits = text.strip_prefix('+').unwrap_or(text);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let ok = !(int.is_empty() && frac.is_empty())
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
        && digits.bytes().filter(|b| *b == b'.').count() <= 1;
    if !ok {
        return Err(GpuRequestError::InvalidCount {
            input: input.to_owned(),
            count: text.to_owned(),
        });
    }
    digits.parse().map_err(|_| GpuRequestError::InvalidCount {
        input: input.to_owned(),
        count: text.to_owned(),
    })
}

impl GpuRequest {
    /// Parses with the default vendor map.
    ///
    /// # Errors
    /// See [`GpuRequest::parse_with`].
    pub fn parse(input: &str) -> Result<GpuRequest, GpuRequestError> {
        Self::parse_with(input, &GpuVendorMap::default())
    }

    /// Parses a blank string (no GPU, CubeStudio's default) as `None`, anything else as
    /// [`GpuRequest::parse`].
    ///
    /// # Errors
    /// See [`GpuRequest::parse_with`].
    pub fn parse_optional(input: &str) -> Result<Option<GpuRequest>, GpuRequestError> {
        if input.trim().is_empty() {
            Ok(None)
        } else {
            Self::parse(input).map(Some)
        }
    }

    /// Parses `N`, `N(X)` or `N(vendor,MODEL)` with a vendor map.
    ///
    /// # Errors
    /// [`GpuRequestError::Empty`], `MissingCount` (`(V100)`), `InvalidCount` (`two`, `1e3`,
    /// `1k`), `NegativeCount` (`-1`), `UnbalancedParentheses`, `EmptyParentheses` (`2()`),
    /// `EmptyItem` (`2(,V100)`), `TooManyItems` (`2(a,b,c)`), `UnknownVendor` (`2(acme,V100)`),
    /// `InvalidModel` (a model that is not a valid label value), `TrailingText` (`2(V100)x`).
    pub fn parse_with(input: &str, map: &GpuVendorMap) -> Result<GpuRequest, GpuRequestError> {
        let s = normalize(input);
        let err_input = input.to_owned();
        if s.is_empty() {
            return Err(GpuRequestError::Empty);
        }
        let (count_text, inner) = match s.find('(') {
            None => {
                if s.contains(')') {
                    return Err(GpuRequestError::UnbalancedParentheses { input: err_input });
                }
                (s.as_str(), None)
            }
            Some(open) => {
                let after = s.get(open + 1..).unwrap_or_default();
                let Some(close) = after.find(')') else {
                    return Err(GpuRequestError::UnbalancedParentheses { input: err_input });
                };
                let inner = after.get(..close).unwrap_or_default().trim();
                let trailing = after.get(close + 1..).unwrap_or_default().trim();
                if inner.contains('(') {
                    return Err(GpuRequestError::UnbalancedParentheses { input: err_input });
                }
                if !trailing.is_empty() {
                    return Err(GpuRequestError::TrailingText {
                        input: err_input,
                        text: trailing.to_owned(),
                    });
                }
                (s.get(..open).unwrap_or_default().trim(), Some(inner))
            }
        };
        if count_text.is_empty() {
            return Err(GpuRequestError::MissingCount { input: err_input });
        }
        let count = parse_count(input, count_text)?;

        let (mut vendor, mut model) = (None, None);
        if let Some(inner) = inner {
            if inner.is_empty() {
                return Err(GpuRequestError::EmptyParentheses { input: err_input });
            }
            let items: Vec<&str> = inner.split(',').map(str::trim).collect();
            if items.iter().any(|i| i.is_empty()) {
                return Err(GpuRequestError::EmptyItem { input: err_input });
            }
            match items.as_slice() {
                [one] => match map.lookup(one) {
                    Some(v) => vendor = Some(v),
                    None => model = Some((*one).to_owned()),
                },
                [v, m] => {
                    vendor = Some(
                        map.lookup(v)
                            .ok_or_else(|| GpuRequestError::UnknownVendor {
                                input: err_input.clone(),
                                vendor: (*v).to_owned(),
                            })?,
                    );
                    model = Some((*m).to_owned());
                }
                _ => return Err(GpuRequestError::TooManyItems { input: err_input }),
            }
        }
        if let Some(m) = &model {
            let errs = validate_label_value(m);
            if !errs.is_empty() {
                return Err(GpuRequestError::InvalidModel {
                    input: err_input,
                    model: m.clone(),
                    reason: errs.join("; "),
                });
            }
        }
        let (vendor_key, entry) = match vendor {
            Some(v) => v,
            None => {
                map.lookup(&map.default_vendor)
                    .ok_or_else(|| GpuRequestError::UnknownVendor {
                        input: err_input.clone(),
                        vendor: map.default_vendor.clone(),
                    })?
            }
        };
        Ok(GpuRequest {
            count,
            resource_name: entry.resource_name.clone(),
            vendor: vendor_key.to_owned(),
            model,
            vgpu: entry.vgpu,
        })
    }

    /// True when the count is not a whole number (`0.5`).
    pub fn is_fractional(&self) -> bool {
        // value() is the ceiling, so it equals the count exactly only for whole numbers
        Quantity::from_value(self.count.value(), crate::Format::DecimalSI) != self.count
    }

    /// True when no GPU is requested (count 0).
    pub fn is_zero(&self) -> bool {
        self.count.is_zero()
    }

    /// `{resource_name: count}` (empty for a zero count).
    pub fn resources(&self) -> ResourceList {
        if self.is_zero() {
            ResourceList::new()
        } else {
            [(self.resource_name.clone(), self.count.clone())]
                .into_iter()
                .collect()
        }
    }

    /// The node labels the task's pods should select under CubeStudio's conventions:
    /// `gpu=true` (or `vgpu=true` for vGPU) when GPUs are requested, plus `gpu-type=<MODEL>`
    /// when a model is given. Empty for a zero count.
    pub fn node_selector(&self) -> Labels {
        let mut out = Labels::new();
        if self.is_zero() {
            return out;
        }
        let key = if self.vgpu {
            CUBE_VGPU_LABEL
        } else {
            CUBE_GPU_LABEL
        };
        out.insert(key.to_owned(), "true".to_owned());
        if let Some(m) = &self.model {
            out.insert(CUBE_GPU_TYPE_LABEL.to_owned(), m.clone());
        }
        out
    }
}

impl std::str::FromStr for GpuRequest {
    type Err = GpuRequestError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GpuRequest::parse(s)
    }
}

// ------------------------------------------------------------------ project expand

/// A CubeStudio project's "expand" JSON. Values are strings in CubeStudio; numbers and booleans
/// are read as their text. Other keys are kept in `other`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectExpand {
    /// Cluster name the project's work goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// Resource group (`org` node label value; CubeStudio's default group is `public`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub org: Option<String>,
    /// Node selector string (`org=public,gpu=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<String>,
    /// Volume mounts (`kubeflow-user-workspace(pvc):/mnt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume_mount: Option<String>,
    /// Namespace the project's pods run in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Keys this crate does not interpret.
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_json::Value>,
}

fn value_text(key: &'static str, v: serde_json::Value) -> Result<Option<String>, ExpandError> {
    match v {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(s) if s.trim().is_empty() => Ok(None),
        serde_json::Value::String(s) => Ok(Some(s.trim().to_owned())),
        serde_json::Value::Number(n) => Ok(Some(n.to_string())),
        serde_json::Value::Bool(b) => Ok(Some(b.to_string())),
        other => Err(ExpandError::NotAString {
            key,
            found: other.to_string(),
        }),
    }
}

impl ProjectExpand {
    /// Reads the expand JSON text.
    ///
    /// # Errors
    /// [`ExpandError::InvalidJson`] when the text is not a JSON object;
    /// [`ExpandError::NotAString`] when a known key holds an array or object.
    pub fn from_json(text: &str) -> Result<ProjectExpand, ExpandError> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ExpandError::InvalidJson {
                message: e.to_string(),
            })?;
        let serde_json::Value::Object(map) = v else {
            return Err(ExpandError::InvalidJson {
                message: "expected a JSON object".to_owned(),
            });
        };
        let mut out = ProjectExpand::default();
        for (k, v) in map {
            match k.as_str() {
                "cluster" => out.cluster = value_text("cluster", v)?,
                "org" => out.org = value_text("org", v)?,
                "node_selector" => out.node_selector = value_text("node_selector", v)?,
                "volume_mount" => out.volume_mount = value_text("volume_mount", v)?,
                "namespace" => out.namespace = value_text("namespace", v)?,
                _ => {
                    out.other.insert(k, v);
                }
            }
        }
        Ok(out)
    }

    /// The placement this expand describes: `key=value` terms of `node_selector` become the
    /// pod `nodeSelector`, set-based terms (`in`, `notin`, `!=`, `key`, `!key`, `>`, `<`) one
    /// required node-affinity term; `org` adds `org=<org>`; `cluster` and `volume_mount` are
    /// carried over.
    ///
    /// # Errors
    /// [`ExpandError::InvalidNodeSelector`] for a bad selector string;
    /// [`ExpandError::OrgConflict`] when `org` and an `org=` term of `node_selector` differ.
    pub fn to_placement(&self) -> Result<Placement, ExpandError> {
        let mut placement = Placement {
            cluster: self.cluster.clone(),
            volume_mount: self.volume_mount.clone(),
            ..Placement::default()
        };
        let mut term = NodeSelectorTerm::default();
        if let Some(s) = &self.node_selector {
            let sel = parse_selector(s).map_err(ExpandError::InvalidNodeSelector)?;
            for r in sel.requirements() {
                let (op, values) = match r.operator() {
                    Operator::Equals | Operator::DoubleEquals => {
                        let v = r.values().first().cloned().unwrap_or_default();
                        match placement.node_selector.get(r.key()) {
                            Some(existing) if *existing != v => ("In", vec![v]),
                            _ => {
                                placement.node_selector.insert(r.key().to_owned(), v);
                                continue;
                            }
                        }
                    }
                    Operator::In => ("In", r.values().to_vec()),
                    Operator::NotIn | Operator::NotEquals => ("NotIn", r.values().to_vec()),
                    Operator::Exists => ("Exists", vec![]),
                    Operator::DoesNotExist => ("DoesNotExist", vec![]),
                    Operator::GreaterThan => ("Gt", r.values().to_vec()),
                    Operator::LessThan => ("Lt", r.values().to_vec()),
                };
                term.match_expressions.push(NodeSelectorRequirement {
                    key: r.key().to_owned(),
                    operator: op.to_owned(),
                    values,
                });
            }
        }
        if let Some(org) = &self.org {
            match placement.node_selector.get("org") {
                Some(existing) if existing != org => {
                    return Err(ExpandError::OrgConflict {
                        org: org.clone(),
                        node_selector_org: existing.to_owned(),
                    });
                }
                _ => {
                    placement
                        .node_selector
                        .insert("org".to_owned(), org.clone());
                }
            }
        }
        if !term.match_expressions.is_empty() {
            placement.node_affinity = Some(NodeSelector {
                node_selector_terms: vec![term],
            });
        }
        Ok(placement)
    }

    /// Applies the expand to a group: sets its placement (keeping its tolerations and cluster
    /// selector) and adds the namespace if the group lacks it.
    ///
    /// # Errors
    /// As [`ProjectExpand::to_placement`].
    pub fn apply_to(&self, group: &mut ResourceGroup) -> Result<(), ExpandError> {
        let mut p = self.to_placement()?;
        p.tolerations = std::mem::take(&mut group.placement.tolerations);
        p.cluster_selector = group.placement.cluster_selector.take();
        group.placement = p;
        if let Some(ns) = &self.namespace
            && !group.namespaces.iter().any(|n| &n.name == ns)
        {
            group.namespaces.push(GroupNamespace {
                name: ns.clone(),
                ..GroupNamespace::default()
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(
        input: &str,
        count: &str,
        resource: &str,
        vendor: &str,
        model: Option<&str>,
        vgpu: bool,
    ) {
        let r = GpuRequest::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(
            r.count,
            count.parse::<Quantity>().unwrap(),
            "{input:?} count"
        );
        assert_eq!(r.resource_name.as_str(), resource, "{input:?} resource");
        assert_eq!(r.vendor, vendor, "{input:?} vendor");
        assert_eq!(r.model.as_deref(), model, "{input:?} model");
        assert_eq!(r.vgpu, vgpu, "{input:?} vgpu");
    }

    #[track_caller]
    fn check_err(input: &str, expected: fn(&GpuRequestError) -> bool) {
        match GpuRequest::parse(input) {
            Ok(r) => panic!("{input:?} parsed as {r:?}"),
            Err(e) => assert!(expected(&e), "{input:?}: unexpected {e:?}"),
        }
    }

    #[test]
    fn parses_cubestudio_forms() {
        check("2", "2", "nvidia.com/gpu", "nvidia", None, false);
        check(
            "2(V100)",
            "2",
            "nvidia.com/gpu",
            "nvidia",
            Some("V100"),
            false,
        );
        check(
            "1(nvidia,V100)",
            "1",
            "nvidia.com/gpu",
            "nvidia",
            Some("V100"),
            false,
        );
        check("0.5", "500m", "nvidia.com/gpu", "nvidia", None, false);
        check("8(vgpu)", "8", "nvidia.com/gpu", "vgpu", None, true);
        check("2(AMD)", "2", "amd.com/gpu", "amd", None, false);
        check(
            "1(amd,MI300X)",
            "1",
            "amd.com/gpu",
            "amd",
            Some("MI300X"),
            false,
        );
        check(
            "2（V100）",
            "2",
            "nvidia.com/gpu",
            "nvidia",
            Some("V100"),
            false,
        );
        check(
            "1（nvidia，A100）",
            "1",
            "nvidia.com/gpu",
            "nvidia",
            Some("A100"),
            false,
        );
        check(
            " 4 ( nvidia , T4 ) ",
            "4",
            "nvidia.com/gpu",
            "nvidia",
            Some("T4"),
            false,
        );
        check("２", "2", "nvidia.com/gpu", "nvidia", None, false);
        check(
            "\u{3000}2（ V100 ）\u{3000}",
            "2",
            "nvidia.com/gpu",
            "nvidia",
            Some("V100"),
            false,
        );
        check(".25", "250m", "nvidia.com/gpu", "nvidia", None, false);
        check("0", "0", "nvidia.com/gpu", "nvidia", None, false);
        check(
            "0.0000000001",
            "1n",
            "nvidia.com/gpu",
            "nvidia",
            None,
            false,
        );
    }

    #[test]
    fn typed_errors_where_cubestudio_used_zero() {
        use GpuRequestError as E;
        check_err("", |e| matches!(e, E::Empty));
        check_err("  ", |e| matches!(e, E::Empty));
        check_err("two", |e| matches!(e, E::InvalidCount { .. }));
        check_err("1e3", |e| matches!(e, E::InvalidCount { .. }));
        check_err("1k", |e| matches!(e, E::InvalidCount { .. }));
        check_err("1.2.3", |e| matches!(e, E::InvalidCount { .. }));
        check_err(".", |e| matches!(e, E::InvalidCount { .. }));
        check_err("-1", |e| matches!(e, E::NegativeCount { .. }));
        check_err("-0.5(V100)", |e| matches!(e, E::NegativeCount { .. }));
        check_err("2()", |e| matches!(e, E::EmptyParentheses { .. }));
        check_err("2（）", |e| matches!(e, E::EmptyParentheses { .. }));
        check_err("2(V100", |e| matches!(e, E::UnbalancedParentheses { .. }));
        check_err("2)", |e| matches!(e, E::UnbalancedParentheses { .. }));
        check_err("2((V100))", |e| {
            matches!(e, E::UnbalancedParentheses { .. })
        });
        check_err("2(V100)x", |e| matches!(e, E::TrailingText { .. }));
        check_err("2(,V100)", |e| matches!(e, E::EmptyItem { .. }));
        check_err("2(a,b,c)", |e| matches!(e, E::TooManyItems { .. }));
        check_err(
            "2(acme,V100)",
            |e| matches!(e, E::UnknownVendor { vendor, .. } if vendor == "acme"),
        );
        check_err("(V100)", |e| matches!(e, E::MissingCount { .. }));
        check_err("1(Tesla V100/32G)", |e| matches!(e, E::InvalidModel { .. }));
        check_err("1(Tesla V100)", |e| matches!(e, E::InvalidModel { .. }));
        check_err("1 0", |e| matches!(e, E::InvalidCount { .. }));
        let msg = GpuRequest::parse("2(acme,V100)").unwrap_err().to_string();
        assert!(
            msg.contains("acme") && msg.contains("2(acme,V100)"),
            "{msg}"
        );
        assert_eq!(GpuRequest::parse_optional(" ").unwrap(), None);
    }

    #[test]
    fn request_helpers_and_custom_map() {
        let r = GpuRequest::parse("0.5(vgpu,T4)").unwrap();
        assert!(r.is_fractional());
        assert_eq!(
            r.node_selector().into_iter().collect::<Vec<_>>(),
            [
                ("gpu-type".to_owned(), "T4".to_owned()),
                ("vgpu".to_owned(), "true".to_owned())
            ]
        );
        let r = GpuRequest::parse("2(V100)").unwrap();
        assert!(!r.is_fractional());
        assert_eq!(
            r.resources().get("nvidia.com/gpu"),
            Some(&"2".parse().unwrap())
        );
        assert!(GpuRequest::parse("0").unwrap().resources().is_empty());
        assert!(GpuRequest::parse("0").unwrap().node_selector().is_empty());
        let map = GpuVendorMap::default().with("vgpu", "tencent.com/vcuda-core", true);
        let r = GpuRequest::parse_with("1(VGPU)", &map).unwrap();
        assert_eq!(r.resource_name.as_str(), "tencent.com/vcuda-core");
        assert!(GpuRequest::parse("0.0000000001").unwrap().is_fractional());
    }

    #[test]
    fn expand_json_into_placement() {
        let e = ProjectExpand::from_json(
            r#"{"cluster":"dev","org":"public","node_selector":"org=public,gpu=true,gpu-type in (V100,A100)","volume_mount":"kubeflow-user-workspace(pvc):/mnt","namespace":"jupyter","index":3}"#,
        )
        .unwrap();
        assert_eq!(e.namespace.as_deref(), Some("jupyter"));
        assert_eq!(e.other["index"], serde_json::json!(3));
        let p = e.to_placement().unwrap();
        assert_eq!(p.cluster.as_deref(), Some("dev"));
        assert_eq!(p.node_selector.get("org"), Some("public"));
        assert_eq!(p.node_selector.get("gpu"), Some("true"));
        let term = &p.node_affinity.as_ref().unwrap().node_selector_terms[0];
        assert_eq!(term.match_expressions[0].key, "gpu-type");
        assert_eq!(term.match_expressions[0].values, ["A100", "V100"]);
        assert_eq!(
            p.volume_mount.as_deref(),
            Some("kubeflow-user-workspace(pvc):/mnt")
        );

        let mut g = ResourceGroup {
            name: "public".into(),
            owner: "admin".into(),
            ..Default::default()
        };
        e.apply_to(&mut g).unwrap();
        assert_eq!(g.namespaces[0].name, "jupyter");
        assert!(
            g.placement.selects_node(
                &[("org", "public"), ("gpu", "true"), ("gpu-type", "V100")]
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect(),
                "n1"
            )
        );

        assert!(matches!(
            ProjectExpand::from_json(r#"{"org":"a","node_selector":"org=b"}"#)
                .unwrap()
                .to_placement(),
            Err(ExpandError::OrgConflict { .. })
        ));
        assert!(matches!(
            ProjectExpand::from_json(r#"{"node_selector":"org in ("}"#)
                .unwrap()
                .to_placement(),
            Err(ExpandError::InvalidNodeSelector(_))
        ));
        assert!(matches!(
            ProjectExpand::from_json("[1]"),
            Err(ExpandError::InvalidJson { .. })
        ));
        assert!(matches!(
            ProjectExpand::from_json(r#"{"org":["x"]}"#),
            Err(ExpandError::NotAString { key: "org", .. })
        ));
        let blank = ProjectExpand::from_json(r#"{"org":"","cluster":null}"#).unwrap();
        assert_eq!(blank.org, None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        #[test]
        fn parser_never_panics(s in "\\PC{0,24}") {
            let _ = GpuRequest::parse(&s);
        }
        #[test]
        fn parser_never_panics_on_near_misses(s in "[0-9.（）()，,a-zA-Z -]{0,16}") {
            if let Ok(r) = GpuRequest::parse(&s) {
                proptest::prop_assert!(!r.count.is_negative());
            }
        }
        #[test]
        fn expand_reader_never_panics(s in "\\PC{0,40}", sel in "[a-z=,!() ]{0,20}") {
            let _ = ProjectExpand::from_json(&s).map(|e| e.to_placement());
            let json = serde_json::json!({"node_selector": sel, "org": "public"}).to_string();
            if let Ok(e) = ProjectExpand::from_json(&json) {
                let _ = e.to_placement();
            }
        }
        #[test]
        fn counts_round_trip(n in 0u32..10_000, m in 0u32..1000) {
            let text = format!("{n}.{m:03}(nvidia,V100)");
            let r = GpuRequest::parse(&text).unwrap();
            proptest::prop_assert_eq!(r.count.milli_value(), i64::from(n) * 1000 + i64::from(m));
        }
    }
}
