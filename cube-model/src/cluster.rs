//! Registered clusters and target-cluster selection for tasks.
//!
//! A [`Cluster`] carries labels (`env=prod`, `location=beijing`), an API server URL, taints in the
//! style of Karmada's cluster taints (`{key, value, effect}`; `NoSchedule` and `NoExecute` keep
//! tasks away unless tolerated, `PreferNoSchedule` only ranks the cluster last), a kubeconfig
//! reference (a path and a context name, never credentials) and a default flag.
//!
//! [`ClusterRegistry::select`] picks the clusters for a task: a selector string
//! (`env=prod,location in (beijing)`, kubectl syntax) or, when the task names none, the default
//! cluster; then taints are checked against the task's tolerations (upstream
//! `ToleratesTaint` semantics, as Karmada's `TaintToleration` plugin does for clusters).
//!
//! Pure data: connecting to a cluster is `cube-cluster`'s business.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{ClusterSelectError, RegistryProblem};
use crate::objects::{Labels, Taint, Toleration};
use crate::selector::{
    Selector, parse_selector, validate_dns1123_subdomain, validate_label_value,
    validate_qualified_name,
};

/// Where the credentials of a cluster live: a kubeconfig file and a context in it. The file is
/// read by `cube-cluster`; this type never holds a token, key or certificate.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KubeconfigRef {
    /// Path of the kubeconfig file.
    pub path: String,
    /// Context to use; `None` = the file's `current-context`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// A registered cluster.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Cluster {
    /// Unique name (a DNS-1123 subdomain).
    pub name: String,
    /// Labels tasks select on (`env=prod`, `location=beijing`).
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub labels: Labels,
    /// API server URL (`https://10.0.0.1:6443`). Must not carry credentials (`user:pass@`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_server: String,
    /// Cluster taints (`dedicated=dev:NoSchedule`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    /// Where its kubeconfig is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubeconfig: Option<KubeconfigRef>,
    /// The cluster tasks go to when they name no selector.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

/// `scheme://user:pass@host` -> `scheme://REDACTED@host`.
fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (Some(s), r),
        None => (None, url),
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = rest.get(..authority_end).unwrap_or(rest);
    match authority.rfind('@') {
        Some(at) => {
            let tail = rest.get(at + 1..).unwrap_or_default();
            match scheme {
                Some(s) => format!("{s}://REDACTED@{tail}"),
                None => format!("REDACTED@{tail}"),
            }
        }
        None => url.to_owned(),
    }
}

fn url_has_userinfo(url: &str) -> bool {
    redact_url(url) != url
}

impl fmt::Debug for Cluster {
    /// As derived, with any `user:password@` in the API server URL redacted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cluster")
            .field("name", &self.name)
            .field("labels", &self.labels)
            .field("api_server", &redact_url(&self.api_server))
            .field("taints", &self.taints)
            .field("kubeconfig", &self.kubeconfig)
            .field("default", &self.default)
            .finish()
    }
}

impl Cluster {
    /// A cluster with a name and nothing else.
    pub fn new(name: impl Into<String>) -> Self {
        Cluster {
            name: name.into(),
            ..Cluster::default()
        }
    }
    /// Adds a label.
    #[must_use]
    pub fn label(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.labels.insert(key.into(), value.into());
        self
    }
    /// Adds a taint.
    #[must_use]
    pub fn taint(
        mut self,
        key: impl Into<String>,
        value: impl Into<String>,
        effect: impl Into<String>,
    ) -> Self {
        self.taints.push(Taint {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
            time_added: None,
        });
        self
    }
    /// Sets the API server URL.
    #[must_use]
    pub fn api_server(mut self, url: impl Into<String>) -> Self {
        self.api_server = url.into();
        self
    }
    /// Marks the cluster as the default.
    #[must_use]
    pub fn default_cluster(mut self) -> Self {
        self.default = true;
        self
    }

    /// The first `NoSchedule` or `NoExecute` taint no toleration tolerates.
    pub fn untolerated_taint(&self, tolerations: &[Toleration]) -> Option<&Taint> {
        crate::selector::find_untolerated_taint(
            &self.taints,
            tolerations,
            crate::selector::is_scheduling_taint,
        )
    }

    /// True when a `PreferNoSchedule` taint is not tolerated (the cluster is ranked last).
    pub fn has_untolerated_preference(&self, tolerations: &[Toleration]) -> bool {
        crate::selector::find_untolerated_taint(&self.taints, tolerations, |t| {
            t.effect == "PreferNoSchedule"
        })
        .is_some()
    }
}

/// `key=value:Effect` (or `key:Effect`), as kubectl prints taints.
pub fn format_taint(t: &Taint) -> String {
    if t.value.is_empty() {
        format!("{}:{}", t.key, t.effect)
    } else {
        format!("{}={}:{}", t.key, t.value, t.effect)
    }
}

/// The registered clusters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterRegistry {
    /// Clusters, in registration order (selection keeps this order).
    pub clusters: Vec<Cluster>,
}

impl ClusterRegistry {
    /// A registry of these clusters.
    pub fn new(clusters: Vec<Cluster>) -> Self {
        ClusterRegistry { clusters }
    }

    /// The cluster of this name.
    pub fn get(&self, name: &str) -> Option<&Cluster> {
        self.clusters.iter().find(|c| c.name == name)
    }

    /// The default cluster.
    ///
    /// # Errors
    /// [`ClusterSelectError::NoDefaultCluster`] or
    /// [`ClusterSelectError::MultipleDefaultClusters`].
    pub fn default_cluster(&self) -> Result<&Cluster, ClusterSelectError> {
        let defaults: Vec<&Cluster> = self.clusters.iter().filter(|c| c.default).collect();
        match defaults.as_slice() {
            [one] => Ok(one),
            [] => Err(ClusterSelectError::NoDefaultCluster),
            many => Err(ClusterSelectError::MultipleDefaultClusters {
                names: many.iter().map(|c| c.name.clone()).collect(),
            }),
        }
    }

    /// Target clusters for a task.
    ///
    /// - `selector` `None` or blank: the default cluster;
    /// - otherwise the clusters whose labels match the selector string (kubectl syntax);
    /// - then clusters with a `NoSchedule`/`NoExecute` taint that `tolerations` do not tolerate
    ///   are left out; clusters with an untolerated `PreferNoSchedule` taint come last.
    ///
    /// Order: registration order, preferred clusters first.
    ///
    /// # Errors
    /// - [`ClusterSelectError::InvalidSelector`] for a bad selector string;
    /// - [`ClusterSelectError::NoDefaultCluster`] / `MultipleDefaultClusters` when falling back;
    /// - [`ClusterSelectError::NoMatchingCluster`] naming the requirements no cluster satisfies
    ///   (each requirement no single cluster has; or all of them when only the combination
    ///   fails);
    /// - [`ClusterSelectError::AllTainted`] naming each matching cluster and its untolerated taint.
    pub fn select(
        &self,
        selector: Option<&str>,
        tolerations: &[Toleration],
    ) -> Result<Vec<&Cluster>, ClusterSelectError> {
        let (shown, matched): (String, Vec<&Cluster>) =
            match selector.map(str::trim).filter(|s| !s.is_empty()) {
                None => ("<default>".to_owned(), vec![self.default_cluster()?]),
                Some(s) => {
                    let sel = parse_selector(s).map_err(ClusterSelectError::InvalidSelector)?;
                    (s.to_owned(), self.matching(&sel)?)
                }
            };
        let mut ok: Vec<&Cluster> = Vec::new();
        let mut later: Vec<&Cluster> = Vec::new();
        let mut tainted = Vec::new();
        for c in matched {
            if let Some(t) = c.untolerated_taint(tolerations) {
                tainted.push((c.name.clone(), format_taint(t)));
            } else if c.has_untolerated_preference(tolerations) {
                later.push(c);
            } else {
                ok.push(c);
            }
        }
        ok.extend(later);
        if ok.is_empty() {
            return Err(ClusterSelectError::AllTainted {
                selector: shown,
                clusters: tainted,
            });
        }
        Ok(ok)
    }

    /// Target clusters for a placement that may name a cluster explicitly (CubeStudio's
    /// `cluster` key) and/or give a selector: a named cluster must exist, match the selector when
    /// one is given, and not carry an untolerated `NoSchedule`/`NoExecute` taint; without a name
    /// this is [`ClusterRegistry::select`].
    ///
    /// # Errors
    /// [`ClusterSelectError::UnknownCluster`], [`ClusterSelectError::NoMatchingCluster`],
    /// [`ClusterSelectError::AllTainted`], or what [`ClusterRegistry::select`] returns.
    pub fn select_placement(
        &self,
        cluster: Option<&str>,
        selector: Option<&str>,
        tolerations: &[Toleration],
    ) -> Result<Vec<&Cluster>, ClusterSelectError> {
        let Some(name) = cluster.map(str::trim).filter(|s| !s.is_empty()) else {
            return self.select(selector, tolerations);
        };
        let c = self
            .get(name)
            .ok_or_else(|| ClusterSelectError::UnknownCluster {
                name: name.to_owned(),
            })?;
        let mut shown = name.to_owned();
        if let Some(s) = selector.map(str::trim).filter(|s| !s.is_empty()) {
            let sel = parse_selector(s).map_err(ClusterSelectError::InvalidSelector)?;
            let unsatisfied: Vec<String> = sel
                .requirements()
                .iter()
                .filter(|r| !r.matches(&c.labels))
                .map(ToString::to_string)
                .collect();
            if !unsatisfied.is_empty() {
                return Err(ClusterSelectError::NoMatchingCluster {
                    selector: format!("{name}: {sel}"),
                    unsatisfied,
                });
            }
            shown = format!("{name}: {sel}");
        }
        if let Some(t) = c.untolerated_taint(tolerations) {
            return Err(ClusterSelectError::AllTainted {
                selector: shown,
                clusters: vec![(c.name.clone(), format_taint(t))],
            });
        }
        Ok(vec![c])
    }

    fn matching(&self, sel: &Selector) -> Result<Vec<&Cluster>, ClusterSelectError> {
        let matched: Vec<&Cluster> = self
            .clusters
            .iter()
            .filter(|c| sel.matches(&c.labels))
            .collect();
        if !matched.is_empty() {
            return Ok(matched);
        }
        let lone: Vec<String> = sel
            .requirements()
            .iter()
            .filter(|r| !self.clusters.iter().any(|c| r.matches(&c.labels)))
            .map(ToString::to_string)
            .collect();
        let unsatisfied = if lone.is_empty() {
            sel.requirements().iter().map(ToString::to_string).collect()
        } else {
            lone
        };
        Err(ClusterSelectError::NoMatchingCluster {
            selector: sel.to_string(),
            unsatisfied,
        })
    }

    /// Every problem of the registry: names not DNS-1123 subdomains or repeated, bad label keys
    /// or values, taints with an unknown effect or bad key, more than one default, API server
    /// URLs carrying credentials, empty kubeconfig paths.
    pub fn validate(&self) -> Vec<RegistryProblem> {
        let mut out = Vec::new();
        let mut push = |path: String, message: String| out.push(RegistryProblem { path, message });
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in self.clusters.iter().enumerate() {
            let at = format!("clusters[{i}]");
            for e in validate_dns1123_subdomain(&c.name) {
                push(format!("{at}.name"), e);
            }
            if !seen.insert(c.name.as_str()) {
                push(
                    format!("{at}.name"),
                    format!("duplicate cluster name {:?}", c.name),
                );
            }
            for (k, v) in &c.labels {
                for e in validate_qualified_name(k) {
                    push(format!("{at}.labels[{k}]"), e);
                }
                for e in validate_label_value(v) {
                    push(format!("{at}.labels[{k}]"), e);
                }
            }
            for (j, t) in c.taints.iter().enumerate() {
                for e in validate_qualified_name(&t.key) {
                    push(format!("{at}.taints[{j}].key"), e);
                }
                if !matches!(
                    t.effect.as_str(),
                    "NoSchedule" | "PreferNoSchedule" | "NoExecute"
                ) {
                    push(
                        format!("{at}.taints[{j}].effect"),
                        format!(
                            "unsupported value {:?}: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
                            t.effect
                        ),
                    );
                }
            }
            if url_has_userinfo(&c.api_server) {
                push(
                    format!("{at}.apiServer"),
                    "must not carry credentials (user:password@); use the kubeconfig reference"
                        .to_owned(),
                );
            }
            if c.kubeconfig
                .as_ref()
                .is_some_and(|k| k.path.trim().is_empty())
            {
                push(
                    format!("{at}.kubeconfig.path"),
                    "must not be empty".to_owned(),
                );
            }
        }
        let defaults: Vec<&str> = self
            .clusters
            .iter()
            .filter(|c| c.default)
            .map(|c| c.name.as_str())
            .collect();
        if defaults.len() > 1 {
            push(
                "clusters".to_owned(),
                format!("more than one default cluster: {}", defaults.join(", ")),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> ClusterRegistry {
        ClusterRegistry::new(vec![
            Cluster::new("bj-prod")
                .label("env", "prod")
                .label("location", "beijing")
                .api_server("https://10.0.0.1:6443")
                .default_cluster(),
            Cluster::new("sh-prod")
                .label("env", "prod")
                .label("location", "shanghai")
                .taint("maintenance", "", "PreferNoSchedule"),
            Cluster::new("bj-dev")
                .label("env", "dev")
                .label("location", "beijing")
                .taint("dedicated", "dev", "NoSchedule"),
        ])
    }

    fn names(v: &[&Cluster]) -> Vec<String> {
        v.iter().map(|c| c.name.clone()).collect()
    }

    fn tol(key: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.into(),
            operator: "Equal".into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        }
    }

    #[test]
    fn selects_by_labels_and_falls_back_to_default() {
        let r = registry();
        assert_eq!(names(&r.select(None, &[]).unwrap()), ["bj-prod"]);
        assert_eq!(names(&r.select(Some("  "), &[]).unwrap()), ["bj-prod"]);
        assert_eq!(
            names(
                &r.select(Some("env=prod,location in (beijing)"), &[])
                    .unwrap()
            ),
            ["bj-prod"]
        );
        // PreferNoSchedule ranks last, never excludes
        assert_eq!(
            names(&r.select(Some("env=prod"), &[]).unwrap()),
            ["bj-prod", "sh-prod"]
        );
        let t = [Toleration {
            key: "maintenance".into(),
            operator: "Exists".into(),
            ..Default::default()
        }];
        assert_eq!(
            names(&r.select(Some("env"), &t).unwrap()),
            ["bj-prod", "sh-prod"]
        );
    }

    #[test]
    fn taints_exclude_unless_tolerated() {
        let r = registry();
        match r.select(Some("env=dev"), &[]) {
            Err(ClusterSelectError::AllTainted { clusters, .. }) => {
                assert_eq!(
                    clusters,
                    [("bj-dev".to_owned(), "dedicated=dev:NoSchedule".to_owned())]
                );
            }
            other => panic!("{other:?}"),
        }
        let ok = r
            .select(Some("env=dev"), &[tol("dedicated", "dev", "NoSchedule")])
            .unwrap();
        assert_eq!(names(&ok), ["bj-dev"]);
        assert!(
            r.select(Some("env=dev"), &[tol("dedicated", "prod", "")])
                .is_err()
        );
        assert_eq!(
            names(&r.select(Some("location=beijing"), &[]).unwrap()),
            ["bj-prod"]
        );
    }

    #[test]
    fn refuses_with_the_labels_no_cluster_has() {
        let r = registry();
        let err = r
            .select(Some("env=prod,location=guangzhou,gpu"), &[])
            .unwrap_err();
        match &err {
            ClusterSelectError::NoMatchingCluster { unsatisfied, .. } => {
                assert_eq!(unsatisfied, &["gpu", "location=guangzhou"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("location=guangzhou"), "{err}");
        // each requirement alone is satisfiable; only the combination fails
        match r
            .select(Some("env=dev,location=shanghai"), &[])
            .unwrap_err()
        {
            ClusterSelectError::NoMatchingCluster { unsatisfied, .. } => {
                assert_eq!(unsatisfied, ["env=dev", "location=shanghai"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            r.select(Some("env in (prod"), &[]),
            Err(ClusterSelectError::InvalidSelector(_))
        ));
        let none = ClusterRegistry::new(vec![Cluster::new("a")]);
        assert!(matches!(
            none.select(None, &[]),
            Err(ClusterSelectError::NoDefaultCluster)
        ));
    }

    #[test]
    fn named_cluster_placement() {
        let r = registry();
        assert_eq!(
            names(&r.select_placement(Some("sh-prod"), None, &[]).unwrap()),
            ["sh-prod"]
        );
        assert_eq!(
            names(
                &r.select_placement(None, Some("env=dev"), &[tol("dedicated", "dev", "")])
                    .unwrap()
            ),
            ["bj-dev"]
        );
        assert!(matches!(
            r.select_placement(Some("nope"), None, &[]),
            Err(ClusterSelectError::UnknownCluster { .. })
        ));
        match r.select_placement(Some("sh-prod"), Some("location=beijing"), &[]) {
            Err(ClusterSelectError::NoMatchingCluster { unsatisfied, .. }) => {
                assert_eq!(unsatisfied, ["location=beijing"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            r.select_placement(Some("bj-dev"), None, &[]),
            Err(ClusterSelectError::AllTainted { .. })
        ));
    }

    #[test]
    fn yaml_and_json_round_trip_and_validate() {
        let yaml = r#"
clusters:
  - name: bj-prod
    labels: {env: prod, location: beijing}
    apiServer: https://10.0.0.1:6443
    kubeconfig: {path: /etc/cube/bj-prod.kubeconfig, context: admin@bj-prod}
    default: true
  - name: bj-dev
    labels: {env: dev}
    taints:
      - {key: dedicated, value: dev, effect: NoSchedule}
"#;
        let r: ClusterRegistry = serde_saphyr::from_str(yaml).unwrap();
        assert_eq!(r.clusters.len(), 2);
        assert_eq!(
            r.clusters[0]
                .kubeconfig
                .as_ref()
                .unwrap()
                .context
                .as_deref(),
            Some("admin@bj-prod")
        );
        assert!(r.validate().is_empty(), "{:?}", r.validate());
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<ClusterRegistry>(&json).unwrap(), r);
        let y = serde_saphyr::to_string(&r).unwrap();
        assert_eq!(serde_saphyr::from_str::<ClusterRegistry>(&y).unwrap(), r);

        let bad = ClusterRegistry::new(vec![
            Cluster::new("A_B")
                .api_server("https://admin:s3cret@10.0.0.1:6443")
                .default_cluster(),
            Cluster::new("x").taint("k", "", "NoWay").default_cluster(),
            Cluster::new("x"),
        ]);
        let problems = bad.validate();
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "clusters[0].name",
                "clusters[0].apiServer",
                "clusters[1].taints[0].effect",
                "clusters[2].name",
                "clusters"
            ]
        );
        let dbg = format!("{:?}", bad.clusters[0]);
        assert!(!dbg.contains("s3cret"), "{dbg}");
        assert!(dbg.contains("REDACTED@10.0.0.1:6443"), "{dbg}");
    }
}
