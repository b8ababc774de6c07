//! Equal findings of many subjects folded into one (issue 9: a live page of 1,000,000 Pending
//! pods made one `pod-missing-requests` finding per pod, a report of gigabytes and a peak of
//! about 3 GB).
//!
//! Findings of one rule are *equal* when they have the same severity, the same subject kind and
//! namespace, and the same message, remedy and remedy commands once each finding's own subject
//! name is masked out (`pod team-a/p1 has containers without requests (c: cpu)` and the same
//! sentence about `p2` are equal; a sentence naming another container, another node or another
//! cause is not). When more than [`Grouping::group_over`] findings of a rule are equal, they are
//! reported as one finding: the first one in report order (smallest subject), carrying a
//! [`FindingGroup`] with the count and the first [`Grouping::max_subjects`] subjects, and a
//! message that says how many subjects it stands for. Fewer equal findings stay one finding each.
//! The summary still counts every subject ([`crate::Summary::of`]), so the score and the exit
//! code do not change; nothing is dropped without a word (the omitted subjects are counted in
//! [`FindingGroup::omitted`]).
//!
//! The engine groups while a rule reports ([`crate::Rule::check_each`]): per group it keeps at
//! most `group_over` findings, then one finding, the listed subjects and one 64-bit hash per
//! subject (duplicates are not counted twice), so a rule that reports a million equal findings
//! through `check_each` never holds them all.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use crate::{Evidence, Finding, Subject};

/// When equal findings are folded into one (part of [`crate::Config`], key `grouping`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Grouping {
    /// More than this many equal findings of one rule become one finding (default 100: a
    /// report of a few dozen nodes or pods keeps one finding each; a single finding is never
    /// folded). `usize::MAX` never groups.
    pub group_over: usize,
    /// Subjects listed in a folded finding's [`FindingGroup::subjects`] (default 20, at least
    /// 1); the others are counted in [`FindingGroup::omitted`].
    pub max_subjects: usize,
}

impl Default for Grouping {
    fn default() -> Self {
        Grouping {
            group_over: 100,
            max_subjects: 20,
        }
    }
}

/// The subjects a folded finding stands for (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FindingGroup {
    /// How many subjects have this finding, the finding's own subject included.
    pub count: usize,
    /// The first subjects in report order (the finding's own subject first), at most
    /// [`Grouping::max_subjects`].
    pub subjects: Vec<Subject>,
    /// Subjects not listed: `count - subjects.len()`.
    pub omitted: usize,
}

/// `text` with every whole-word occurrence of `name` (not inside a longer name: the characters
/// around it are no letter, digit, `-`, `_` or `.`) replaced by U+0001.
fn mask(text: &str, name: &str) -> String {
    if name.is_empty() {
        return text.to_owned();
    }
    let is_name_char = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut prev: Option<char> = None;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().next_back().or(prev);
        let after = rest[at + name.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(is_name_char) || after.is_some_and(is_name_char) {
            out.push_str(name);
        } else {
            out.push('\u{1}');
        }
        prev = name.chars().next_back();
        rest = &rest[at + name.len()..];
    }
    out.push_str(rest);
    out
}

/// The grouping key of a finding (its rule is the grouper's).
fn key_of(f: &Finding) -> String {
    let name = f.subject.name.as_str();
    let mut key = String::with_capacity(f.message.len() + f.remedy.len() + 64);
    key.push_str(f.severity.as_str());
    for part in [&f.subject.kind, &f.subject.namespace] {
        key.push('\u{2}');
        key.push_str(part);
    }
    key.push('\u{2}');
    key.push_str(&mask(&f.message, name));
    key.push('\u{2}');
    key.push_str(&mask(&f.remedy, name));
    for c in &f.remedy_commands {
        key.push('\u{3}');
        key.push_str(&mask(c, name));
    }
    key
}

/// A hash of everything a finding says (for duplicates: the engine drops equal findings).
fn hash_of(f: &Finding) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    f.subject.hash(&mut h);
    f.message.hash(&mut h);
    f.remedy.hash(&mut h);
    f.remedy_commands.hash(&mut h);
    for e in &f.evidence {
        match e {
            Evidence::Field {
                object,
                path,
                value,
            } => (0u8, object, path, value).hash(&mut h),
            Evidence::Log { source, line, text } => (1u8, source, line, text).hash(&mut h),
        }
    }
    h.finish()
}

/// Equal findings seen so far.
struct Group {
    /// Distinct findings, in arrival order, while the group is small.
    members: Vec<Finding>,
    /// Distinct findings seen (hashes), once the group is folded.
    seen: HashSet<u64>,
    /// Once folded: the finding of the smallest subject, and the smallest subjects.
    folded: Option<(Finding, BTreeSet<Subject>)>,
}

/// Folds equal findings of one rule as they arrive (see the module docs).
pub(crate) struct Grouper {
    policy: Grouping,
    index: HashMap<String, usize>,
    groups: Vec<Group>,
}

impl Grouper {
    pub(crate) fn new(policy: Grouping) -> Self {
        Grouper {
            policy,
            index: HashMap::new(),
            groups: Vec::new(),
        }
    }

    /// Takes one finding of the rule.
    pub(crate) fn add(&mut self, f: Finding) {
        let key = key_of(&f);
        let at = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                self.index.insert(key, self.groups.len());
                self.groups.push(Group {
                    members: Vec::new(),
                    seen: HashSet::new(),
                    folded: None,
                });
                self.groups.len() - 1
            }
        };
        let max_subjects = self.policy.max_subjects.max(1);
        let group_over = self.policy.group_over;
        let g = &mut self.groups[at];
        match &mut g.folded {
            None => {
                if g.members.contains(&f) {
                    return;
                }
                g.members.push(f);
                if g.members.len() > group_over && g.members.len() > 1 {
                    let members = std::mem::take(&mut g.members);
                    g.seen = members.iter().map(hash_of).collect();
                    let mut subjects = BTreeSet::new();
                    for m in &members {
                        keep_smallest(&mut subjects, m.subject.clone(), max_subjects);
                    }
                    let rep = members
                        .into_iter()
                        .min_by(|a, b| a.subject.cmp(&b.subject).then(a.message.cmp(&b.message)))
                        .expect("more than one member");
                    g.folded = Some((rep, subjects));
                }
            }
            Some((rep, subjects)) => {
                if !g.seen.insert(hash_of(&f)) {
                    return;
                }
                keep_smallest(subjects, f.subject.clone(), max_subjects);
                if f.subject < rep.subject {
                    *rep = f;
                }
            }
        }
    }

    /// Every finding: small groups as they are, folded groups as one finding each.
    pub(crate) fn finish(self) -> Vec<Finding> {
        let mut out = Vec::new();
        for g in self.groups {
            match g.folded {
                None => out.extend(g.members),
                Some((mut rep, subjects)) => {
                    let count = g.seen.len();
                    let subjects: Vec<Subject> = subjects.into_iter().collect();
                    let omitted = count.saturating_sub(subjects.len());
                    rep.message = folded_message(&rep, count, &subjects, omitted);
                    rep.group = Some(FindingGroup {
                        count,
                        subjects,
                        omitted,
                    });
                    out.push(rep);
                }
            }
        }
        out
    }
}

/// Keeps the `max` smallest subjects.
fn keep_smallest(set: &mut BTreeSet<Subject>, s: Subject, max: usize) {
    if set.len() < max {
        set.insert(s);
    } else if set.last().is_some_and(|last| s < *last) && set.insert(s) {
        set.pop_last();
    }
}

/// Subjects named in a folded finding's message (the full bounded list is in the group).
const NAMED_IN_MESSAGE: usize = 5;

fn folded_message(rep: &Finding, count: usize, subjects: &[Subject], omitted: usize) -> String {
    let kind = &rep.subject.kind;
    let place = if rep.subject.namespace.is_empty() {
        String::new()
    } else {
        format!(" in namespace {}", rep.subject.namespace)
    };
    let others: Vec<&str> = subjects
        .iter()
        .filter(|s| **s != rep.subject)
        .take(NAMED_IN_MESSAGE)
        .map(|s| s.name.as_str())
        .collect();
    let more = count.saturating_sub(1).saturating_sub(others.len());
    let mut text = format!(
        "{} [the same finding for {count} {kind} objects{place}: also {}",
        rep.message,
        others.join(", ")
    );
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text.push_str(&format!(
        "; {} listed in the finding's group{}]",
        subjects.len(),
        if omitted > 0 {
            format!(", {omitted} counted only")
        } else {
            String::new()
        }
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn pod(ns: &str, name: &str) -> Finding {
        Finding::new(
            "pod-missing-requests",
            Severity::Warning,
            Subject::namespaced("Pod", ns, name),
            format!("pod {ns}/{name} has containers without requests (c: cpu)"),
        )
        .with_evidence(Evidence::field(
            format!("Pod/{ns}/{name}"),
            "spec.containers[].resources.requests",
            "c: cpu <absent>",
        ))
        .with_remedy(format!("set requests on {name}"))
    }

    #[test]
    fn masking_is_by_whole_name() {
        assert_eq!(mask("pod a/p1 (p10) p1", "p1"), "pod a/\u{1} (p10) \u{1}");
        assert_eq!(mask("containers c", "c"), "containers \u{1}");
        assert_eq!(mask("x", ""), "x");
    }

    #[test]
    fn small_groups_stay_and_large_ones_fold_with_a_bounded_list() {
        let mut g = Grouper::new(Grouping {
            group_over: 3,
            max_subjects: 4,
        });
        for i in 0..3 {
            g.add(pod("small", &format!("s{i}")));
        }
        // 10 equal findings arriving out of order, one duplicate
        for i in [5, 3, 9, 0, 1, 2, 4, 6, 8, 7, 7] {
            g.add(pod("big", &format!("b{i}")));
        }
        // another cause in the same namespace: not equal
        g.add(pod("big", "other").with_remedy("something else"));
        let out = g.finish();
        assert_eq!(out.len(), 3 + 1 + 1, "{out:#?}");
        let folded: Vec<&Finding> = out.iter().filter(|f| f.group.is_some()).collect();
        assert_eq!(folded.len(), 1);
        let f = folded[0];
        let grp = f.group.as_ref().expect("group");
        assert_eq!(grp.count, 10);
        assert_eq!(grp.omitted, 6);
        let names: Vec<&str> = grp.subjects.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["b0", "b1", "b2", "b3"]);
        assert_eq!(
            f.subject.name, "b0",
            "the smallest subject stands for the group"
        );
        assert!(
            f.message.starts_with("pod big/b0 has containers"),
            "{}",
            f.message
        );
        assert!(
            f.message.contains(
                "the same finding for 10 Pod objects in namespace big: also b1, b2, b3 and 6 more"
            ),
            "{}",
            f.message
        );
        // the representative keeps its own evidence and remedy
        assert_eq!(f.remedy, "set requests on b0");
    }

    #[test]
    fn grouping_never_merges_other_namespaces_severities_or_causes() {
        let mut g = Grouper::new(Grouping {
            group_over: 1,
            max_subjects: 20,
        });
        g.add(pod("a", "p1"));
        g.add(pod("b", "p1"));
        let mut err = pod("a", "p2");
        err.severity = Severity::Error;
        g.add(err);
        g.add(Finding::new(
            "pod-missing-requests",
            Severity::Warning,
            Subject::namespaced("Pod", "a", "p3"),
            "pod a/p3 has containers without requests (c: memory)",
        ));
        assert!(g.finish().iter().all(|f| f.group.is_none()));
    }
}
