//! Engine configuration: disabled rules, severity overrides, thresholds. Loadable with serde
//! (JSON or YAML).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::{DiagnoseError, Severity};

/// Thresholds used by rules. Every field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Thresholds {
    /// `quota-near-limit` fires when `used / hard` is at least this percentage (default 90).
    pub quota_near_limit_percent: u32,
    /// `node-clock-skew` fires when a node's Ready heartbeat is this many seconds in the future of
    /// the newest heartbeat seen (default 120).
    pub clock_skew_secs: i64,
    /// Maximum number of nodes listed per reason in `pod-unschedulable` evidence (default 10).
    pub max_nodes_in_evidence: usize,
    /// `priority-unguarded` reports PriorityClasses whose value is above this (default: none
    /// set, the highest class a quota is scoped to, else the highest non-system class the
    /// groups use).
    pub priority_unguarded_above: Option<i32>,
    /// PriorityClasses the API server's ResourceQuota admission configuration limits
    /// (`limitedResources` with `matchScopes` PriorityClass In): a namespace needs a quota
    /// scoped to them to use them at all, so `priority-unguarded` does not report them.
    pub limited_priority_classes: Vec<String>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            quota_near_limit_percent: 90,
            clock_skew_secs: 120,
            max_nodes_in_evidence: 10,
            priority_unguarded_above: None,
            limited_priority_classes: Vec::new(),
        }
    }
}

/// What the engine runs, how it grades the results and what it suppresses.
///
/// ```
/// let cfg = cube_diagnose::Config::from_json(br#"{"disabled":["quota-near-limit"],
///     "severities":{"node-drift":"error"},"thresholds":{"quotaNearLimitPercent":80}}"#).unwrap();
/// assert!(cfg.disabled.contains("quota-near-limit"));
/// ```
///
/// Unknown keys (`thresholdz`) are rejected when reading; unknown rule ids are rejected by
/// [`Config::check_rule_ids`] (and [`crate::Engine::try_with_config`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Config {
    /// Rule ids that do not run.
    pub disabled: BTreeSet<String>,
    /// Severity overrides by rule id (apply to every finding of that rule).
    pub severities: BTreeMap<String, Severity>,
    /// Thresholds.
    pub thresholds: Thresholds,
    /// Extra GPU markers tried before the built-in vocabulary (`gpuLabels: [{key: org, value:
    /// gpu-pool, vendor: nvidia}]`; `kind: annotation|taint` for other fields; `exclude: true`
    /// for a label that must not count, such as `{key: accelerator, value: fpga, exclude: true}`);
    /// see [`cube_model::gpu::GpuMarker`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gpu_labels: Vec<cube_model::gpu::GpuMarker>,
    /// Per-subject suppressions (`- {ruleId: node-drift, subject: "Node/gpu-*", reason: ...}`);
    /// see [`crate::suppress`]. Suppressed findings are listed, never dropped.
    pub suppressions: Vec<crate::SuppressionRule>,
    /// When equal findings of one rule are folded into one (`grouping: {groupOver: 100,
    /// maxSubjects: 20}`); see [`crate::group`].
    pub grouping: crate::Grouping,
}

impl Config {
    /// Reads a configuration from JSON.
    ///
    /// # Errors
    /// [`DiagnoseError::Config`] when the text is not a valid configuration.
    pub fn from_json(bytes: &[u8]) -> Result<Self, DiagnoseError> {
        serde_json::from_slice(bytes).map_err(|e| DiagnoseError::Config {
            message: e.to_string(),
        })
    }
    /// Reads a configuration from YAML (JSON is YAML too).
    ///
    /// # Errors
    /// [`DiagnoseError::Config`] when the text is not a valid configuration.
    pub fn from_yaml(text: &str) -> Result<Self, DiagnoseError> {
        cube_model::yaml::from_str(
            text,
            &cube_model::Limits::default(),
            serde_saphyr::Options::default(),
        )
        .map_err(|e| DiagnoseError::Config {
            message: e.to_string(),
        })
    }
    /// Checks that every rule id in `disabled` and `severities` is one of `known` (the engine's
    /// rule ids), so a typo (`node-drift-typo`) is not silently ignored.
    ///
    /// # Errors
    /// [`DiagnoseError::Config`] naming the unknown ids and where they appear.
    pub fn check_rule_ids<'k>(
        &self,
        known: impl IntoIterator<Item = &'k str>,
    ) -> Result<(), DiagnoseError> {
        let known: BTreeSet<&str> = known.into_iter().collect();
        let mut unknown: Vec<String> = self
            .disabled
            .iter()
            .filter(|id| !known.contains(id.as_str()))
            .map(|id| format!("disabled: {id}"))
            .collect();
        unknown.extend(
            self.suppressions
                .iter()
                .filter(|r| r.rule_id != "*" && !known.contains(r.rule_id.as_str()))
                .map(|r| format!("suppressions: {}", r.rule_id)),
        );
        unknown.extend(
            self.severities
                .keys()
                .filter(|id| !known.contains(id.as_str()))
                .map(|id| format!("severities: {id}")),
        );
        if unknown.is_empty() {
            return Ok(());
        }
        Err(DiagnoseError::Config {
            message: format!(
                "unknown rule id(s): {} (known ids: {})",
                unknown.join(", "),
                known.into_iter().collect::<Vec<_>>().join(", ")
            ),
        })
    }
    /// Disables a rule.
    #[must_use]
    pub fn disable(mut self, rule_id: &str) -> Self {
        self.disabled.insert(rule_id.to_owned());
        self
    }
    /// Overrides a rule's severity.
    #[must_use]
    pub fn severity(mut self, rule_id: &str, severity: Severity) -> Self {
        self.severities.insert(rule_id.to_owned(), severity);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_and_json_agree() {
        let y = Config::from_yaml(
            "disabled: [a]\nseverities: {b: info}\nthresholds: {quotaNearLimitPercent: 75}\n",
        )
        .unwrap();
        let j = Config::from_json(br#"{"disabled":["a"],"severities":{"b":"info"},"thresholds":{"quotaNearLimitPercent":75}}"#).unwrap();
        assert_eq!(y, j);
        assert_eq!(y.thresholds.clock_skew_secs, 120);
    }

    #[test]
    fn unknown_keys_are_rejected_by_name() {
        let e = Config::from_yaml("thresholdz: {quotaNearLimitPercent: 80}\n").unwrap_err();
        assert!(e.to_string().contains("thresholdz"), "{e}");
        let e = Config::from_json(br#"{"thresholds":{"quotaNearLimit":80}}"#).unwrap_err();
        assert!(e.to_string().contains("quotaNearLimit"), "{e}");
    }

    #[test]
    fn unknown_rule_ids_are_rejected_by_name() {
        let cfg = Config::from_yaml("disabled: [node-drift-typo, node-drift]\n").unwrap();
        let e = cfg.check_rule_ids(["node-drift"]).unwrap_err();
        assert!(e.to_string().contains("disabled: node-drift-typo"), "{e}");
        assert!(!e.to_string().contains("disabled: node-drift,"), "{e}");
        let cfg = Config::default().severity("nope", Severity::Info);
        assert!(
            cfg.check_rule_ids(["node-drift"])
                .unwrap_err()
                .to_string()
                .contains("severities: nope")
        );
        assert!(
            Config::default()
                .disable("node-drift")
                .check_rule_ids(["node-drift"])
                .is_ok()
        );
    }

    #[test]
    fn gpu_labels_extend_the_vocabulary() {
        let c = Config::from_yaml("gpuLabels:\n- {key: org, value: gpu-pool, vendor: nvidia}\n- {kind: taint, key: dedicated, value: ml}\n").unwrap();
        assert_eq!(c.gpu_labels.len(), 2);
        assert_eq!(c.gpu_labels[1].kind, cube_model::gpu::MarkerKind::Taint);
        assert!(Config::from_yaml("gpuLabels: [{key: org, vendr: nvidia}]\n").is_err());
    }

    #[test]
    fn bad_config_is_an_error() {
        assert!(Config::from_json(br#"{"severities":{"b":"fatal"}}"#).is_err());
    }
}
