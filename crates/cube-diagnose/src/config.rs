//! Engine configuration: disabled rules, severity overrides, thresholds. Loadable with serde
//! (JSON or YAML).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::{DiagnoseError, Severity};

/// Thresholds used by rules. Every field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Thresholds {
    /// `quota-near-limit` fires when `used / hard` is at least this percentage (default 90).
    pub quota_near_limit_percent: u32,
    /// `node-clock-skew` fires when a node's Ready heartbeat is this many seconds in the future of
    /// the newest heartbeat seen (default 120).
    pub clock_skew_secs: i64,
    /// Maximum number of nodes listed per reason in `pod-unschedulable` evidence (default 10).
    pub max_nodes_in_evidence: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            quota_near_limit_percent: 90,
            clock_skew_secs: 120,
            max_nodes_in_evidence: 10,
        }
    }
}

/// What the engine runs and how it grades the results.
///
/// ```
/// let cfg = cube_diagnose::Config::from_json(br#"{"disabled":["quota-near-limit"],
///     "severities":{"node-drift":"error"},"thresholds":{"quotaNearLimitPercent":80}}"#).unwrap();
/// assert!(cfg.disabled.contains("quota-near-limit"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Config {
    /// Rule ids that do not run.
    pub disabled: BTreeSet<String>,
    /// Severity overrides by rule id (apply to every finding of that rule).
    pub severities: BTreeMap<String, Severity>,
    /// Thresholds.
    pub thresholds: Thresholds,
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
        serde_saphyr::from_str(text).map_err(|e| DiagnoseError::Config {
            message: e.to_string(),
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
    fn bad_config_is_an_error() {
        assert!(Config::from_json(br#"{"severities":{"b":"fatal"}}"#).is_err());
    }
}
