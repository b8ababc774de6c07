//! The `Rule` trait: the open extension point of the engine (built-in rules and user rules).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Context, Finding, Severity};

/// The area a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Category {
    /// Node health and consistency.
    Node,
    /// Joining nodes (kubeadm, kubelet TLS bootstrap).
    Join,
    /// GPUs and device plugins.
    Gpu,
    /// ResourceQuota, LimitRange, PriorityClass.
    Quota,
    /// Scheduling and node capacity.
    Scheduling,
    /// RBAC objects.
    Rbac,
    /// Storage classes, volumes, mounts.
    Storage,
    /// Importing clusters (kubeconfig, connection, permissions).
    Import,
    /// Anything a user rule defines.
    Custom,
}

impl Category {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Node => "node",
            Category::Join => "join",
            Category::Gpu => "gpu",
            Category::Quota => "quota",
            Category::Scheduling => "scheduling",
            Category::Rbac => "rbac",
            Category::Storage => "storage",
            Category::Import => "import",
            Category::Custom => "custom",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A diagnostic rule. Built-in rules live in [`crate::rules`], one module each; callers add their
/// own with [`crate::Engine::with_rule`].
///
/// `check` must be pure (no I/O) and at worst O(n log n) in the size of the snapshot: use the
/// indexes of [`Context`] (pods by node and by namespace, nodes by name) instead of nested scans.
pub trait Rule: Send + Sync {
    /// Stable id, kebab-case (`node-not-ready`). Ids are API: add, never rename.
    fn id(&self) -> &str;
    /// The area the rule belongs to.
    fn category(&self) -> Category;
    /// The severity of its typical finding (a rule may emit other severities for milder cases;
    /// a configured override replaces all of them).
    fn default_severity(&self) -> Severity;
    /// One paragraph: when the rule fires, why it matters, what to do.
    fn documentation(&self) -> &str;
    /// Runs the rule.
    fn check(&self, ctx: &Context<'_>) -> Vec<Finding>;
    /// Runs the rule, handing each finding to `emit` as it is made. The engine calls this one:
    /// it folds equal findings as they come ([`crate::group`]), so a rule that reports one
    /// finding per pod of a million and implements this method never holds a million findings.
    /// The default calls [`Rule::check`].
    fn check_each(&self, ctx: &Context<'_>, emit: &mut dyn FnMut(Finding)) {
        for f in self.check(ctx) {
            emit(f);
        }
    }
}
