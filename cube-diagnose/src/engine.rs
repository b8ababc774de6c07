//! The engine: runs the built-in catalog plus user rules over a [`Context`], applies the
//! configuration, sorts the findings and scores the result.

use serde::{Deserialize, Serialize};

use crate::{Category, Config, Context, Finding, Rule, Severity};

/// Rules whose warnings (or errors) say part of the input could not be read: a report with one
/// is incomplete ([`Report::incomplete`], exit 3), never an all-clear.
const INCOMPLETE_RULES: &[&str] = &["snapshot-incomplete", "log-line-unrecognised"];

/// Static description of a rule, as listed in reports and SARIF `tool.driver.rules`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RuleInfo {
    /// Rule id.
    pub id: String,
    /// Category.
    pub category: Category,
    /// Default severity (after configuration overrides).
    pub default_severity: Severity,
    /// Documentation paragraph.
    pub documentation: String,
}

/// Counts per severity and a 0..=100 health score.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Summary {
    /// Number of error findings.
    pub errors: usize,
    /// Number of warning findings.
    pub warnings: usize,
    /// Number of info findings.
    pub infos: usize,
    /// `max(0, 100 - 10*errors - 3*warnings - 0*infos)`: 100 is a clean cluster.
    pub score: u32,
    /// Number of suppressed findings (listed in [`Report::suppressed`]; not in the counts above
    /// nor the score).
    #[serde(default)]
    pub suppressed: usize,
}

impl Summary {
    /// Summarizes findings; a folded finding ([`Finding::group`]) counts once per subject it
    /// stands for, so folding changes neither the counts nor the score.
    pub fn of(findings: &[Finding]) -> Self {
        let mut s = Summary::default();
        for f in findings {
            let n = f.group.as_ref().map_or(1, |g| g.count.max(1));
            match f.severity {
                Severity::Error => s.errors += n,
                Severity::Warning => s.warnings += n,
                Severity::Info => s.infos += n,
            }
        }
        let penalty = s
            .errors
            .saturating_mul(10)
            .saturating_add(s.warnings.saturating_mul(3));
        s.score = 100u32.saturating_sub(u32::try_from(penalty).unwrap_or(u32::MAX));
        s
    }
}

/// The result of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Report {
    /// Rules that ran, in catalog order.
    pub rules: Vec<RuleInfo>,
    /// Findings, sorted by severity (errors first), then rule id, then subject.
    pub findings: Vec<Finding>,
    /// Counts and score.
    pub summary: Summary,
    /// Problems with the inputs (load problems, unusable inputs); set with
    /// [`Report::with_input_problems`]. A fatal one makes [`Report::exit_code`] 2.
    #[serde(default)]
    pub input_problems: Vec<crate::input::InputProblem>,
    /// True when part of the picture could not be read (a kind missing, a limit hit:
    /// [`cube_model::ClusterSnapshot::is_incomplete`]; an input nothing recognised; error lines
    /// of a log, by their own marking, that match no known message); [`Report::exit_code`] is
    /// then 3, never 0.
    #[serde(default)]
    pub incomplete: bool,
    /// True when nothing at all could be read: no object, no listed kind and no log text, and
    /// at least one kind that could not be read (a live collection whose every list was
    /// forbidden or failed, G7). The report is then incomplete (exit 3) and carries no score:
    /// [`Summary::score`] is 0 and the table says `no score: nothing could be read`, never an
    /// all-clear over an empty picture.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nothing_read: bool,
    /// Findings suppressed by an object's `cube-rs.io/ignore` annotation or a configured
    /// suppression, with why (see [`crate::suppress`]); counted in [`Summary::suppressed`].
    #[serde(default)]
    pub suppressed: Vec<crate::Suppressed>,
}

impl Report {
    /// A report of these findings as they are (no rules listed, no input problems, complete,
    /// nothing suppressed), with their [`Summary`]: for a service that renders findings of its own
    /// rules with [`crate::render`]. `Report` is `#[non_exhaustive]`; this is how code outside
    /// the crate builds one.
    pub fn from_findings(findings: Vec<Finding>) -> Self {
        Report {
            rules: Vec::new(),
            summary: Summary::of(&findings),
            findings,
            input_problems: Vec::new(),
            incomplete: false,
            nothing_read: false,
            suppressed: Vec::new(),
        }
    }
    /// The process exit code for this report (the same codes in every example program, see
    /// `examples/README.md`): 2 when an input could not be used at all (a fatal
    /// [`crate::input::InputProblem`]; the other inputs were still diagnosed), else 3 when the
    /// picture is incomplete ([`Report::incomplete`]: a kind could not be read, a limit was
    /// hit), else 1 when any finding is an error, else 0. 0 therefore always means "all read,
    /// nothing wrong". (2 for usage errors is decided by the caller.)
    pub fn exit_code(&self) -> i32 {
        if self.input_problems.iter().any(|p| p.fatal) {
            2
        } else if self.incomplete {
            3
        } else if self.summary.errors > 0 {
            1
        } else {
            0
        }
    }
    /// Attaches the input problems (usually [`crate::Inputs::input_problems`]).
    #[must_use]
    pub fn with_input_problems(mut self, problems: Vec<crate::input::InputProblem>) -> Self {
        self.input_problems = problems;
        for p in &mut self.input_problems {
            p.redact_secrets();
        }
        self
    }
    /// Sets each finding's (and suppressed finding's) [`Finding::location`] from the inputs'
    /// object index (usually [`crate::Inputs::locations`]); findings already located keep theirs.
    #[must_use]
    pub fn with_locations(mut self, locations: &crate::locate::Locations) -> Self {
        let all = self
            .findings
            .iter_mut()
            .chain(self.suppressed.iter_mut().map(|s| &mut s.finding));
        for f in all {
            if f.location.is_none() {
                f.location = locations.locate(f);
            }
        }
        self
    }
    /// Findings of one rule.
    pub fn by_rule<'r>(&'r self, id: &'r str) -> impl Iterator<Item = &'r Finding> + 'r {
        self.findings.iter().filter(move |f| f.rule_id == id)
    }
    /// Each distinct remedy once, with the subjects it is for: findings of one severity and one
    /// rule in one namespace (or all cluster-scoped) whose remedy prose and commands are the
    /// same share one group, so the same fix for several pods of a namespace is printed once,
    /// naming them all. Groups are in the order of their first finding.
    pub fn remedy_groups(&self) -> Vec<RemedyGroup> {
        let mut groups: Vec<RemedyGroup> = Vec::new();
        let mut index: std::collections::HashMap<(Severity, &str, &str, &str, &[String]), usize> =
            std::collections::HashMap::new();
        // (group, subject) pairs already listed: one hash look-up per finding, where a scan of
        // the group's subjects made 10,000 findings of one remedy quadratic (issue 9)
        let mut listed: std::collections::HashSet<(usize, &crate::finding::Subject)> =
            std::collections::HashSet::new();
        // findings built outside the engine may still hold heredocs in their prose; the
        // engine's are normalized already and are borrowed, not copied (a million findings of
        // one remedy held a second copy of every remedy while the report was written)
        use std::borrow::Cow;
        let normalized: Vec<(Cow<'_, str>, Cow<'_, [String]>)> = self
            .findings
            .iter()
            .map(|f| {
                let plain = !f.remedy.contains('`') && !f.remedy.contains("<<");
                let distinct = f
                    .remedy_commands
                    .iter()
                    .enumerate()
                    .all(|(i, c)| !f.remedy_commands[..i].contains(c));
                if plain && distinct {
                    // what split_remedy would return: the prose as it is, no command of its own
                    return (
                        Cow::Borrowed(f.remedy.as_str()),
                        Cow::Borrowed(f.remedy_commands.as_slice()),
                    );
                }
                let (prose, mut commands) = crate::finding::split_remedy(&f.remedy);
                for c in &f.remedy_commands {
                    if !commands.contains(c) {
                        commands.push(c.clone());
                    }
                }
                (Cow::Owned(prose), Cow::Owned(commands))
            })
            .collect();
        for (f, (remedy, commands)) in self.findings.iter().zip(&normalized) {
            if remedy.is_empty() && commands.is_empty() {
                continue;
            }
            let key = (
                f.severity,
                f.rule_id.as_str(),
                f.subject.namespace.as_str(),
                remedy.as_ref(),
                commands.as_ref(),
            );
            let i = match index.get(&key) {
                Some(&i) => i,
                None => {
                    index.insert(key, groups.len());
                    groups.push(RemedyGroup {
                        rule_id: f.rule_id.clone(),
                        severity: f.severity,
                        namespace: f.subject.namespace.clone(),
                        subjects: Vec::new(),
                        remedy: remedy.to_string(),
                        commands: commands.to_vec(),
                    });
                    groups.len() - 1
                }
            };
            // a folded finding stands for its listed subjects (its own first)
            let subjects = match &f.group {
                Some(g) => g.subjects.iter().collect::<Vec<_>>(),
                None => vec![&f.subject],
            };
            for s in subjects {
                if listed.insert((i, s)) {
                    groups[i].subjects.push(s.clone());
                }
            }
        }
        groups
    }
}

/// One remedy and every subject it is for (see [`Report::remedy_groups`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RemedyGroup {
    /// The rule whose findings carry this remedy.
    pub rule_id: String,
    /// Their severity.
    pub severity: Severity,
    /// Their namespace (empty for cluster-scoped subjects).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// The subjects, in report order.
    pub subjects: Vec<crate::Subject>,
    /// The remedy prose ([`Finding::remedy`]).
    pub remedy: String,
    /// The remedy's commands ([`Finding::remedy_commands`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
}

/// Runs rules over a context.
///
/// ```
/// use cube_diagnose::{Context, Engine};
/// let snapshot = cube_model::ClusterSnapshot::default();
/// let report = Engine::new().run(&Context::new(&snapshot));
/// assert_eq!(report.exit_code(), 0);
/// ```
pub struct Engine {
    rules: Vec<Box<dyn Rule>>,
    config: Config,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field(
                "rules",
                &self
                    .rules
                    .iter()
                    .map(|r| r.id().to_owned())
                    .collect::<Vec<_>>(),
            )
            .field("config", &self.config)
            .finish()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// The built-in catalog with the default configuration.
    pub fn new() -> Self {
        Engine {
            rules: crate::rules::catalog(),
            config: Config::default(),
        }
    }
    /// No rules at all (add some with [`Engine::with_rule`]).
    pub fn empty() -> Self {
        Engine {
            rules: Vec::new(),
            config: Config::default(),
        }
    }
    /// Adds a user rule.
    #[must_use]
    pub fn with_rule(mut self, rule: Box<dyn Rule>) -> Self {
        self.rules.push(rule);
        self
    }
    /// Sets the configuration.
    #[must_use]
    pub fn with_config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }
    /// Sets the configuration after checking its rule ids against this engine's rules
    /// ([`Config::check_rule_ids`]).
    ///
    /// # Errors
    /// [`crate::DiagnoseError::Config`] naming an unknown rule id.
    pub fn try_with_config(mut self, config: Config) -> Result<Self, crate::DiagnoseError> {
        config.check_rule_ids(self.rules.iter().map(|r| r.id()))?;
        self.config = config;
        Ok(self)
    }
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Descriptions of the enabled rules.
    pub fn rule_infos(&self) -> Vec<RuleInfo> {
        self.enabled()
            .map(|r| RuleInfo {
                id: r.id().to_owned(),
                category: r.category(),
                default_severity: self
                    .config
                    .severities
                    .get(r.id())
                    .copied()
                    .unwrap_or(r.default_severity()),
                documentation: r.documentation().to_owned(),
            })
            .collect()
    }
    fn enabled(&self) -> impl Iterator<Item = &Box<dyn Rule>> {
        self.rules
            .iter()
            .filter(|r| !self.config.disabled.contains(r.id()))
    }
    /// Runs every enabled rule. The context's thresholds are replaced by the configuration's.
    pub fn run(&self, ctx: &Context<'_>) -> Report {
        let mut findings = Vec::new();
        let thresholds_match = ctx.thresholds() == &self.config.thresholds;
        let owned;
        let ctx = if thresholds_match && self.config.gpu_labels.is_empty() {
            ctx
        } else {
            let c = ctx.clone_with_thresholds(self.config.thresholds.clone());
            owned = if self.config.gpu_labels.is_empty() {
                c
            } else {
                c.with_gpu_markers(&self.config.gpu_labels)
            };
            &owned
        };
        let mut suppressed = Vec::new();
        let annotated = crate::suppress::Annotated::of(ctx.snapshot());
        for rule in self.enabled() {
            let over = self.config.severities.get(rule.id()).copied();
            // suppressed first (per finding), then equal findings folded as they come
            let mut grouper = crate::group::Grouper::new(self.config.grouping);
            rule.check_each(ctx, &mut |mut f| {
                if let Some(s) = over {
                    f.severity = s;
                }
                f.redact_secrets();
                f.normalize_remedy();
                match crate::suppress::suppression_of(&f, &annotated, &self.config.suppressions) {
                    Some(suppression) => suppressed.push(crate::Suppressed {
                        finding: f,
                        suppression,
                    }),
                    None => grouper.add(f),
                }
            });
            findings.extend(grouper.finish());
        }
        let by_order = |a: &Finding, b: &Finding| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.rule_id.cmp(&b.rule_id))
                .then_with(|| a.subject.cmp(&b.subject))
                .then_with(|| a.message.cmp(&b.message))
        };
        findings.sort_by(by_order);
        findings.dedup();
        suppressed.sort_by(|a, b| by_order(&a.finding, &b.finding));
        suppressed.dedup();
        crate::rules::pod_missing_requests::drop_explained(&mut findings);
        let mut kept = findings;
        // every finding counts in the summary, listed or not
        let mut summary = Summary::of(&kept);
        let limits = ctx.snapshot().limits();
        let max = usize::try_from(limits.max_findings_per_report).unwrap_or(usize::MAX);
        if kept.len() > max {
            let left_out = kept.split_off(max);
            kept.push(truncation_finding(&left_out, limits));
        }
        // the picture is incomplete when part of the snapshot could not be read, or a finding
        // says an input or error line could not be read (an unrecognised input, error lines
        // of a log that match no known message)
        let incomplete = ctx.snapshot().is_incomplete()
            || kept.iter().any(|f| {
                f.severity >= Severity::Warning && INCOMPLETE_RULES.contains(&f.rule_id.as_str())
            });
        summary.suppressed = suppressed.len();
        // G7: every list forbidden or failed and nothing else given: no score at all (a
        // clean-looking 100/100 over a cluster that could not be read is a false all-clear)
        let nothing_read = nothing_read(ctx);
        if nothing_read {
            summary.score = 0;
        }
        Report {
            rules: self.rule_infos(),
            findings: kept,
            summary,
            input_problems: Vec::new(),
            incomplete: incomplete || nothing_read,
            nothing_read,
            suppressed,
        }
    }
}

/// Nothing could be read: the snapshot holds no object and no listed kind (not even an empty
/// list read whole), some kind could not be read, and no log text was given.
fn nothing_read(ctx: &Context<'_>) -> bool {
    let s = ctx.snapshot();
    !s.missing_kinds.is_empty()
        && s.kinds_listed.is_empty()
        && s.object_count() == 0
        && ctx.logs().is_empty()
}

/// Rule id of the finding that says a report was cut at
/// [`cube_model::Limits::max_findings_per_report`].
pub const REPORT_TRUNCATED: &str = "report-truncated";

/// The `report-truncated` finding for the findings `left_out` of a report: how many (a folded
/// finding counting for its subjects), how many per rule, the limit and how to raise it. It is
/// the last finding of the report and is not counted in the summary (the findings it stands
/// for are).
fn truncation_finding(left_out: &[Finding], limits: &cube_model::Limits) -> Finding {
    let mut per_rule: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut total = 0usize;
    for f in left_out {
        let n = f.group.as_ref().map_or(1, |g| g.count.max(1));
        *per_rule.entry(f.rule_id.as_str()).or_default() += n;
        total += n;
    }
    let mut rules: Vec<(&str, usize)> = per_rule.into_iter().collect();
    rules.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let named: Vec<String> = rules.iter().map(|(r, n)| format!("{r} {n}")).collect();
    let hit = limits.exceeded(
        cube_model::Limit::FindingsPerReport,
        "this report",
        Some(
            limits
                .max_findings_per_report
                .saturating_add(left_out.len() as u64),
        ),
    );
    Finding::new(
        REPORT_TRUNCATED,
        Severity::Warning,
        crate::Subject::cluster(""),
        format!(
            "{total} more finding(s) are not listed (counted in the summary): {hit}; not listed, per rule: {}",
            named.join(", ")
        ),
    )
    .with_remedy(format!(
        "fix the listed problems first, or list every finding: {}",
        cube_model::Limit::FindingsPerReport.how_to_raise()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Finding, Subject};

    /// G7: every kind missing and nothing read (a live collection whose every list was
    /// forbidden): exit 3, `nothing_read`, score 0 and the table says so without a score; one
    /// kind read whole, even empty, or any object is a picture with parts, not nothing.
    #[test]
    fn nothing_read_has_no_score() {
        let mut s = cube_model::ClusterSnapshot::default();
        for kind in ["Node", "Pod", "ResourceQuota"] {
            s.missing_kinds
                .insert(kind.to_owned(), "forbidden: 403 Forbidden".to_owned());
        }
        let r = Engine::new().run(&Context::new(&s));
        assert!(r.nothing_read && r.incomplete);
        assert_eq!(r.exit_code(), 3);
        assert_eq!(r.summary.score, 0);
        let t = crate::render::to_table(&r, false);
        assert!(t.contains("no score: nothing could be read"), "{t}");
        assert!(!t.contains("/100"), "{t}");
        let j = crate::render::to_json(&r).expect("json");
        assert!(j.contains("\"nothingRead\": true"), "{j}");
        // a kind listed whole (an empty list) is something read
        s.kinds_listed.insert("Pod".to_owned());
        let r = Engine::new().run(&Context::new(&s));
        assert!(!r.nothing_read && r.incomplete);
        assert!(
            !crate::render::to_json(&r)
                .expect("json")
                .contains("nothingRead")
        );
        // nothing missing and nothing read is not this case either (an empty input is an input
        // problem of its own)
        let r = Engine::new().run(&Context::new(&cube_model::ClusterSnapshot::default()));
        assert!(!r.nothing_read);
    }

    /// One remedy for 40,000 pods (a server answering a page of Pending pods) is grouped in
    /// linear time (issue 9: a scan of the group's subjects per finding made 1,000,000 pods
    /// never end), every subject listed once.
    #[test]
    fn remedy_groups_of_many_subjects_are_linear() {
        let findings = |n: usize| {
            (0..n)
                .flat_map(|i| {
                    let f = Finding::new(
                        "pod-pending",
                        Severity::Warning,
                        Subject::namespaced("Pod", "default", &format!("p{i}")),
                        "pending",
                    )
                    .with_remedy("add nodes");
                    // the same subject twice: listed once
                    [f.clone(), f]
                })
                .collect::<Vec<_>>()
        };
        // the fastest of three runs: a machine shared with other builds stalls single runs
        let time = |n: usize| {
            let report = Report::from_findings(findings(n));
            (0..3)
                .map(|_| {
                    let start = std::time::Instant::now();
                    let groups = report.remedy_groups();
                    let took = start.elapsed();
                    assert_eq!(groups.len(), 1);
                    assert_eq!(groups[0].subjects.len(), n);
                    took
                })
                .min()
                .unwrap_or_default()
        };
        let small = time(5_000);
        let large = time(40_000);
        // 8x the subjects: about 8x the time, where the scan took 64x
        assert!(
            large < small.max(std::time::Duration::from_millis(20)) * 24,
            "40,000 subjects took {large:?}, 5,000 took {small:?}"
        );
    }

    struct Always;
    impl Rule for Always {
        fn id(&self) -> &str {
            "my-rule"
        }
        fn category(&self) -> Category {
            Category::Custom
        }
        fn default_severity(&self) -> Severity {
            Severity::Warning
        }
        fn documentation(&self) -> &str {
            "Always fires."
        }
        fn check(&self, ctx: &Context<'_>) -> Vec<Finding> {
            vec![Finding::new(
                "my-rule",
                Severity::Warning,
                Subject::cluster(""),
                format!("{} nodes", ctx.snapshot().nodes.len()),
            )]
        }
    }

    #[test]
    fn user_rule_runs_and_config_applies() {
        let snap = cube_model::ClusterSnapshot::default();
        let ctx = Context::new(&snap);
        let r = Engine::empty().with_rule(Box::new(Always)).run(&ctx);
        assert_eq!(r.findings.len(), 1);
        assert_eq!(r.exit_code(), 0);
        let r = Engine::empty()
            .with_rule(Box::new(Always))
            .with_config(Config::default().severity("my-rule", Severity::Error))
            .run(&ctx);
        assert_eq!(r.findings[0].severity, Severity::Error);
        assert_eq!(r.exit_code(), 1);
        assert_eq!(r.summary.score, 90);
        let r = Engine::empty()
            .with_rule(Box::new(Always))
            .with_config(Config::default().disable("my-rule"))
            .run(&ctx);
        assert!(r.findings.is_empty() && r.rules.is_empty());
    }

    #[test]
    fn catalog_matches_the_architecture_table() {
        let want = [
            "node-not-ready",
            "node-duplicate-hostname",
            "node-drift",
            "node-clock-skew",
            "node-cordoned",
            "join-token-invalid",
            "join-ca-hash-mismatch",
            "join-apiserver-unreachable",
            "join-csr-not-approved",
            "gpu-not-advertised",
            "device-plugin-not-scheduled",
            "gpu-resource-name-mismatch",
            "gpu-resource-renamed",
            "gpu-mig-misconfigured",
            "quota-not-enforced",
            "pod-missing-requests",
            "quota-without-limitrange",
            "limitrange-rejected",
            "pod-extended-resource-invalid",
            "limitrange-gpu-default",
            "quota-near-limit",
            "priority-without-quota",
            "priority-unguarded",
            "priority-class-rejected",
            "quota-without-priority",
            "pod-unschedulable",
            "workload-unavailable",
            "namespace-terminating",
            "pod-crashlooping",
            "container-oom-killed",
            "pod-failed",
            "pod-stuck",
            "image-pull-failed",
            "pod-probe-failed",
            "node-overcommitted",
            "rbac-dangling-roleref",
            "storage-no-default-class",
            "storage-node-local",
            "storage-mount-failed",
            "storage-provisioning-failed",
            "admission-webhook-unreachable",
            "admission-webhook-denied",
            "apiservice-unavailable",
            "api-resource-missing",
            "etcd-space-exceeded",
            "etcd-unhealthy",
            "apiserver-kubelet-unreachable",
            "cluster-unreachable",
            "cluster-kubeconfig-invalid",
            "cluster-insecure-tls",
            "cluster-kubeconfig-warning",
            "cluster-tls-untrusted",
            "cluster-unauthorized",
            "cluster-forbidden",
            "cluster-over-privileged",
            "snapshot-incomplete",
            "snapshot-coverage",
            "snapshot-mixed-clusters",
            "join-preflight-failed",
            "join-cluster-info-invalid",
            "node-kubelet-cert-expired",
            "node-runtime-unhealthy",
            "gpu-plugin-log-error",
            "agent-registration-failed",
            "pod-resource-claims-dropped",
            "kubeadm-phase-failed",
            "certificate-expired",
            "cli-usage-error",
            "log-line-unrecognised",
        ];
        let got: Vec<String> = Engine::new()
            .rule_infos()
            .into_iter()
            .map(|i| i.id)
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn catalog_ids_are_unique_and_documented() {
        let infos = Engine::new().rule_infos();
        let mut ids: Vec<_> = infos.iter().map(|i| i.id.clone()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), infos.len());
        assert!(infos.iter().all(|i| i.documentation.len() > 40));
    }
}

#[cfg(test)]
mod grouping_tests {
    use super::*;
    use crate::Subject;

    /// Emits `n` equal findings in each of two namespaces through `check_each`; its `check`
    /// panics, so the engine must take the findings as they come.
    struct Many(usize);
    impl Rule for Many {
        fn id(&self) -> &str {
            "many"
        }
        fn category(&self) -> Category {
            Category::Custom
        }
        fn default_severity(&self) -> Severity {
            Severity::Error
        }
        fn documentation(&self) -> &str {
            "test"
        }
        fn check(&self, _: &Context<'_>) -> Vec<Finding> {
            panic!("the engine takes findings one by one (check_each)")
        }
        fn check_each(&self, _: &Context<'_>, emit: &mut dyn FnMut(Finding)) {
            for ns in ["a", "b"] {
                for i in 0..self.0 {
                    let name = format!("p{i:05}");
                    emit(
                        Finding::new(
                            "many",
                            Severity::Error,
                            Subject::namespaced("Pod", ns, &name),
                            format!("pod {ns}/{name} is broken"),
                        )
                        .with_remedy(format!("fix namespace {ns}")),
                    );
                }
            }
        }
    }

    /// A finding per object, each with its own cause and remedy: nothing to fold.
    struct Distinct(usize);
    impl Rule for Distinct {
        fn id(&self) -> &str {
            "distinct"
        }
        fn category(&self) -> Category {
            Category::Custom
        }
        fn default_severity(&self) -> Severity {
            Severity::Warning
        }
        fn documentation(&self) -> &str {
            "test"
        }
        fn check(&self, _: &Context<'_>) -> Vec<Finding> {
            panic!("the engine takes findings one by one (check_each)")
        }
        fn check_each(&self, _: &Context<'_>, emit: &mut dyn FnMut(Finding)) {
            for i in 0..self.0 {
                emit(
                    Finding::new(
                        "distinct",
                        Severity::Warning,
                        Subject::cluster_scoped("Node", &format!("n{i:06}")),
                        format!("node n{i:06} has problem number {i}"),
                    )
                    .with_remedy(format!("fix node n{i:06} by step {i}")),
                );
            }
        }
    }

    /// 200,000 distinct problems made a report of 200,000 entries in every format: the report
    /// lists at most `findings-per-report` findings, errors first; the rest are counted in the
    /// summary and named per rule by one `report-truncated` finding that names the limit.
    #[test]
    fn distinct_findings_past_the_limit_are_counted_not_listed() {
        let mut snapshot = cube_model::ClusterSnapshot::default();
        let ctx = Context::new(&snapshot);
        let report = Engine::empty()
            .with_rule(Box::new(Distinct(200_000)))
            .with_rule(Box::new(Many(3)))
            .run(&ctx);
        let max = cube_model::Limits::default().max_findings_per_report as usize;
        assert_eq!(report.findings.len(), max + 1);
        assert_eq!(report.summary.warnings, 200_000);
        assert_eq!(report.summary.errors, 6);
        // errors first: none of them is cut
        assert_eq!(
            report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .count(),
            6
        );
        let last = report.findings.last().expect("truncation");
        assert_eq!(last.rule_id, REPORT_TRUNCATED);
        assert!(
            last.message.contains("190006 more finding(s)")
                && last.message.contains("distinct 190006")
                && last.message.contains("findings-per-report"),
            "{}",
            last.message
        );
        assert_eq!(report.exit_code(), 1);
        // the limit is the caller's
        let mut limits = cube_model::Limits::default();
        limits.max_findings_per_report = 10;
        snapshot.set_limits(limits);
        let ctx = Context::new(&snapshot);
        let small = Engine::empty().with_rule(Box::new(Distinct(50))).run(&ctx);
        assert_eq!(small.findings.len(), 11);
        assert!(small.findings[10].message.starts_with("40 more finding(s)"));
        // under the limit nothing changes
        let few = Engine::empty().with_rule(Box::new(Distinct(10))).run(&ctx);
        assert_eq!(few.findings.len(), 10);
        assert!(few.findings.iter().all(|f| f.rule_id != REPORT_TRUNCATED));
    }

    #[test]
    fn equal_findings_are_folded_counted_and_listed_within_bounds() {
        let snapshot = cube_model::ClusterSnapshot::default();
        let ctx = Context::new(&snapshot);
        let report = Engine::empty().with_rule(Box::new(Many(1000))).run(&ctx);
        assert_eq!(report.findings.len(), 2, "one finding per namespace");
        // counts and score are those of every subject
        assert_eq!(report.summary.errors, 2000);
        assert_eq!(report.summary.score, 0);
        assert_eq!(report.exit_code(), 1);
        for (f, ns) in report.findings.iter().zip(["a", "b"]) {
            let g = f.group.as_ref().expect("folded");
            assert_eq!((g.count, g.subjects.len(), g.omitted), (1000, 20, 980));
            assert_eq!(f.subject, Subject::namespaced("Pod", ns, "p00000"));
            assert_eq!(g.subjects[19].name, "p00019");
            assert!(
                f.message.contains(&format!(
                    "the same finding for 1000 Pod objects in namespace {ns}"
                )),
                "{}",
                f.message
            );
        }
        // the JSON keeps the shape (schema v1, field added) and every subject is named once in
        // the remedy groups (bounded by the listed subjects)
        let json = crate::render::to_json(&report).expect("json");
        assert!(json.contains("\"group\""), "{json}");
        let remedies = report.remedy_groups();
        assert_eq!(remedies.len(), 2);
        assert_eq!(remedies[0].subjects.len(), 20);
        // at or under the threshold, one finding each, as before
        let few = Engine::empty().with_rule(Box::new(Many(20))).run(&ctx);
        assert_eq!(few.findings.len(), 40);
        assert!(few.findings.iter().all(|f| f.group.is_none()));
        // the configuration sets both bounds
        let mut config = Config::default();
        config.grouping.group_over = 5000;
        let never = Engine::empty()
            .with_rule(Box::new(Many(1000)))
            .with_config(config.clone())
            .run(&ctx);
        assert_eq!(never.findings.len(), 2000);
        config.grouping = crate::Grouping {
            group_over: 10,
            max_subjects: 3,
        };
        let tight = Engine::empty()
            .with_rule(Box::new(Many(1000)))
            .with_config(config)
            .run(&ctx);
        let g = tight.findings[0].group.as_ref().expect("folded");
        assert_eq!((g.count, g.subjects.len(), g.omitted), (1000, 3, 997));
    }

    #[test]
    fn suppression_applies_to_each_subject_before_folding() {
        let snapshot = cube_model::ClusterSnapshot::default();
        let ctx = Context::new(&snapshot);
        let config: Config = Config::from_yaml(
            "suppressions:\n- {ruleId: many, subject: \"Pod/b/*\", reason: known}\n",
        )
        .expect("config");
        let report = Engine::empty()
            .with_rule(Box::new(Many(150)))
            .with_config(config)
            .run(&ctx);
        assert_eq!(report.findings.len(), 1);
        assert_eq!(report.findings[0].subject.namespace, "a");
        assert_eq!(
            report.suppressed.len(),
            150,
            "suppressed findings stay listed"
        );
        assert_eq!(report.summary.suppressed, 150);
        assert_eq!(report.summary.errors, 150);
        assert_eq!(
            report.findings[0].group.as_ref().map(|g| g.count),
            Some(150)
        );
    }
}
