//! Errors of `cube-model`: one crate enum [`Error`] plus small per-operation enums callers branch on.
//!
//! Messages are lowercase without a trailing period; each variant carries the input it is about.

/// Why a label selector string or object is not valid (apimachinery `labels.Parse`,
/// `labels.NewRequirement`, `metav1.LabelSelectorAsSelector`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SelectorError {
    /// The string does not follow the selector grammar; `found` and `expected` use upstream's
    /// wording (`found ',', expected: identifier after ','`).
    #[error("unable to parse selector {selector:?}: found '{found}', expected: {expected}")]
    Syntax {
        /// The whole selector as given.
        selector: String,
        /// The token found (empty at the end of the string).
        found: String,
        /// What the parser expected there.
        expected: &'static str,
    },
    /// A key is not a qualified name.
    #[error("invalid selector {selector:?}: key {key:?}: {reason}")]
    InvalidKey {
        /// The whole selector as given (or shown).
        selector: String,
        /// The offending key.
        key: String,
        /// Upstream's validation messages, joined by `; `.
        reason: String,
    },
    /// A value is not a valid label value.
    #[error("invalid selector {selector:?}: key {key:?}: value {value:?}: {reason}")]
    InvalidValue {
        /// The whole selector as given (or shown).
        selector: String,
        /// The key the value belongs to.
        key: String,
        /// The offending value.
        value: String,
        /// Upstream's validation messages, joined by `; `.
        reason: String,
    },
    /// Wrong number or kind of values for the operator (`in` with no values, `Gt` with a
    /// non-integer, a `matchFields` key other than `metadata.name`, ...).
    #[error("invalid selector {selector:?}: key {key:?}: {reason}")]
    InvalidRequirement {
        /// The whole selector as given (or shown).
        selector: String,
        /// The key of the requirement.
        key: String,
        /// Upstream's message.
        reason: String,
    },
    /// An operator the target form cannot express (`>`/`<` in a `metav1.LabelSelector`).
    #[error(
        "invalid selector {selector:?}: key {key:?}: {operator:?} isn't supported in label selectors"
    )]
    UnsupportedOperator {
        /// The selector.
        selector: String,
        /// The key of the requirement.
        key: String,
        /// The operator as written (`gt`, `lt`).
        operator: &'static str,
    },
    /// A `matchExpressions` operator that is not one of the API's names (case-sensitive).
    #[error(
        "invalid selector {selector:?}: key {key:?}: {operator:?} is not a valid label selector operator"
    )]
    UnknownOperator {
        /// The selector as shown.
        selector: String,
        /// The key of the requirement.
        key: String,
        /// The operator found.
        operator: String,
    },
}

/// A resource name that Kubernetes would reject (upstream `ValidateResourceName`,
/// `ValidateContainerResourceName`, `ValidateResourceQuotaResourceName`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {context} resource name {name:?}: {}", reasons.join("; "))]
#[non_exhaustive]
pub struct ResourceNameError {
    /// The name as written.
    pub name: String,
    /// Which rule set was applied: `resource`, `container` or `quota`.
    pub context: &'static str,
    /// Every reason, in upstream's wording.
    pub reasons: Vec<String>,
}

/// Arithmetic on resource lists that could not be done exactly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// A sum or difference is not representable.
    #[error("{operation} overflows for resource {resource:?}")]
    Overflow {
        /// The resource name.
        resource: String,
        /// `add` or `sub`.
        operation: &'static str,
    },
}

/// Why no target cluster could be chosen for a task (see `cluster::ClusterRegistry::select`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterSelectError {
    /// The task's cluster selector is not a valid selector string.
    #[error("invalid cluster selector")]
    InvalidSelector(#[source] SelectorError),
    /// The task names no selector and no cluster is marked default.
    #[error("the task names no cluster selector and no cluster is marked default")]
    NoDefaultCluster,
    /// Several clusters are marked default.
    #[error("more than one cluster is marked default: {}", names.join(", "))]
    MultipleDefaultClusters {
        /// The default clusters.
        names: Vec<String>,
    },
    /// The task names a cluster that is not registered.
    #[error("no cluster named {name:?} is registered")]
    UnknownCluster {
        /// The name asked for.
        name: String,
    },
    /// No registered cluster has the labels the selector requires.
    #[error("no cluster matches selector {selector:?}: no cluster satisfies {}", unsatisfied.join(", "))]
    NoMatchingCluster {
        /// The selector, normalised.
        selector: String,
        /// The requirements (`location=guangzhou`, `gpu`) that no single cluster satisfies; all
        /// requirements when each alone is satisfiable but no cluster has them together.
        unsatisfied: Vec<String>,
    },
    /// Every matching cluster has a `NoSchedule`/`NoExecute` taint the task does not tolerate.
    #[error("every cluster matching {selector:?} has an untolerated taint: {}", clusters.iter().map(|(c, t)| format!("{c} ({t})")).collect::<Vec<_>>().join(", "))]
    AllTainted {
        /// The selector (`<default>` for the default-cluster fallback).
        selector: String,
        /// Each matching cluster with its first untolerated taint (`key=value:Effect`).
        clusters: Vec<(String, String)>,
    },
}

/// One problem found by `cluster::ClusterRegistry::validate`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct RegistryProblem {
    /// Field path (`clusters[1].taints[0].effect`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RegistryProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Why a CubeStudio GPU request string (`2`, `2(V100)`, `1(nvidia,V100)`, `0.5`, `8(vgpu)`) is
/// not valid; in each case CubeStudio itself silently used 0 GPUs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GpuRequestError {
    /// The string is blank (use `GpuRequest::parse_optional` when blank means "no GPU").
    #[error("empty gpu request")]
    Empty,
    /// Nothing before the parentheses (`(V100)`).
    #[error("gpu request {input:?} has no count")]
    MissingCount {
        /// The input as given.
        input: String,
    },
    /// The count is not a plain decimal number (`two`, `1e3`, `1k`).
    #[error("gpu request {input:?}: count {count:?} is not a decimal number")]
    InvalidCount {
        /// The input as given.
        input: String,
        /// The count text after normalisation.
        count: String,
    },
    /// The count is negative.
    #[error("gpu request {input:?}: count {count:?} is negative")]
    NegativeCount {
        /// The input as given.
        input: String,
        /// The count text after normalisation.
        count: String,
    },
    /// Parentheses do not pair up (`2(V100`, `2)`, `2((V100))`).
    #[error("gpu request {input:?} has unbalanced parentheses")]
    UnbalancedParentheses {
        /// The input as given.
        input: String,
    },
    /// `2()`.
    #[error("gpu request {input:?} has empty parentheses")]
    EmptyParentheses {
        /// The input as given.
        input: String,
    },
    /// An empty item inside the parentheses (`2(,V100)`).
    #[error("gpu request {input:?} has an empty item in parentheses")]
    EmptyItem {
        /// The input as given.
        input: String,
    },
    /// More than `vendor,MODEL` inside the parentheses.
    #[error("gpu request {input:?} has more than two items in parentheses (expected vendor,MODEL)")]
    TooManyItems {
        /// The input as given.
        input: String,
    },
    /// The vendor of `N(vendor,MODEL)` is not in the vendor map.
    #[error("gpu request {input:?}: unknown gpu vendor {vendor:?}")]
    UnknownVendor {
        /// The input as given.
        input: String,
        /// The vendor text.
        vendor: String,
    },
    /// The model is not a valid label value (it selects the `gpu-type` node label).
    #[error("gpu request {input:?}: model {model:?} is not a valid label value: {reason}")]
    InvalidModel {
        /// The input as given.
        input: String,
        /// The model text.
        model: String,
        /// Why.
        reason: String,
    },
    /// Text after the closing parenthesis.
    #[error("gpu request {input:?} has text {text:?} after the parentheses")]
    TrailingText {
        /// The input as given.
        input: String,
        /// The trailing text.
        text: String,
    },
}

/// Why a CubeStudio project "expand" JSON cannot be read into a placement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExpandError {
    /// Not a JSON object.
    #[error("project expand is not a json object: {message}")]
    InvalidJson {
        /// The parser's message.
        message: String,
    },
    /// A known key holds an array or an object.
    #[error("project expand key {key:?} must be a string, found {found}")]
    NotAString {
        /// The key.
        key: &'static str,
        /// The JSON found.
        found: String,
    },
    /// `node_selector` is not a selector string.
    #[error("project expand node_selector is not valid")]
    InvalidNodeSelector(#[source] SelectorError),
    /// `org` and the `org=` term of `node_selector` differ.
    #[error("project expand org {org:?} conflicts with node_selector org={node_selector_org}")]
    OrgConflict {
        /// The `org` key.
        org: String,
        /// The `org` value in `node_selector`.
        node_selector_org: String,
    },
}

/// Every error `cube-model`'s typed models return (selectors, resource names, GPU request strings,
/// cluster selection, conversions, serde).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A label selector is not valid.
    #[error(transparent)]
    Selector(#[from] SelectorError),
    /// A resource name is not valid.
    #[error(transparent)]
    ResourceName(#[from] ResourceNameError),
    /// Resource arithmetic failed.
    #[error(transparent)]
    Resource(#[from] ResourceError),
    /// No target cluster for a task.
    #[error(transparent)]
    ClusterSelect(#[from] ClusterSelectError),
    /// A GPU request string is not valid.
    #[error(transparent)]
    GpuRequest(#[from] GpuRequestError),
    /// A project expand JSON is not valid.
    #[error(transparent)]
    Expand(#[from] ExpandError),
    /// A `k8s_openapi` object (or JSON value) did not convert into ours.
    #[error("cannot convert {kind}: field {field:?}: {message}")]
    Convert {
        /// The object kind (`Node`, `Pod`).
        kind: &'static str,
        /// Field path of the first problem (empty when unknown).
        field: String,
        /// What went wrong.
        message: String,
    },
}
