//! `limitrange-rejected`: the LimitRanger admission plugin rejected a pod (or claim) because a
//! container's or the pod's requests/limits fall outside a LimitRange's `min` / `max` /
//! `maxLimitRequestRatio`.
//!
//! Upstream texts: kubernetes/kubernetes `plugin/pkg/admission/limitranger/admission.go`
//! (`minConstraint`, `maxConstraint`, `maxRequestConstraint`, `limitRequestRatioConstraint`):
//! `minimum <res> usage per <Container|Pod|PersistentVolumeClaim> is <min>, but request is <v>`
//! (`..., but limit is <v>`, `<min>.  No request is specified`), `maximum <res> usage per <type>
//! is <max>, but limit is <v>` (`..., but request is <v>`, `<max>.  No limit is specified`,
//! `<max>.  No request is specified` for claims), `<res> max limit to request ratio per <type> is
//! <r>, but provided ratio is <f>` (`..., but no request is specified or request is 0`, `...,
//! but no limit is specified or limit is 0`). Up to about v1.11 (and OpenShift 3.x) every text
//! ends with a `.`; several violations are joined by `utilerrors.NewAggregate` as `[a, b, c]`.
//! The LimitRange rejects at admission: the controller's FailedCreate event repeats, no pod
//! exists, and the workload shows 0 ready (ReplicaFailure).

use crate::classify::{Signal, SignalKind};
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    LimitRangeRejected,
    "limitrange-rejected",
    Quota,
    Error,
    "The LimitRanger admission plugin rejects the workload's pods: a container's (or the pod's, or a claim's) request or limit is below a LimitRange's min, above its max, has no limit where a max is set, or exceeds its maxLimitRequestRatio ('maximum memory usage per Container is 4Gi, but limit is 8Gi', 'minimum cpu usage per Pod is 39m, but request is 11m', '... max limit to request ratio ...'; every version's wording, with or without the final dot, several joined as [a, b]). No pod is created until the pod template or the LimitRange changes. The finding names the namespace, each bound, the LimitRange holding it when the input has it, and the remedy.",
    check
);

/// One LimitRanger violation read from a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Violation {
    /// `minimum`, `maximum` or `ratio`.
    pub bound: &'static str,
    /// Resource (`memory`, `cpu`, `storage`, `nvidia.com/gpu`).
    pub resource: String,
    /// `Container`, `Pod` or `PersistentVolumeClaim`.
    pub per: String,
    /// The LimitRange's value.
    pub limit: String,
    /// `request` or `limit` (what was compared), empty for a ratio.
    pub which: String,
    /// What the object has (`8Gi`), or `none` when it sets nothing.
    pub actual: String,
}

impl Violation {
    /// One sentence.
    fn describe(&self) -> String {
        match self.bound {
            "ratio" => format!(
                "{} limit/request per {} may be at most {}, {}",
                self.resource,
                self.per,
                self.limit,
                if self.actual == "none" {
                    format!("but no {} is set (or it is 0)", self.which)
                } else {
                    format!("but it is {}", self.actual)
                }
            ),
            b => format!(
                "{} {} per {} is {}{}",
                b,
                self.resource,
                self.per,
                self.limit,
                if self.actual.is_empty() {
                    format!(
                        ", and the {}s are {} it",
                        self.which,
                        if b == "maximum" { "above" } else { "below" }
                    )
                } else if self.actual == "none" {
                    format!(", but no {} is set", self.which)
                } else {
                    format!(", but the {} is {}", self.which, self.actual)
                }
            ),
        }
    }

    /// The change to the workload that satisfies it.
    fn fix(&self) -> String {
        let field = |w: &str| {
            if self.per == "PersistentVolumeClaim" {
                format!("the claim's requests.{}", self.resource)
            } else if self.per == "Pod" {
                format!("the sum of the containers' {w}s.{}", self.resource)
            } else {
                format!("{w}s.{} of each container", self.resource)
            }
        };
        match (self.bound, self.actual.as_str()) {
            ("maximum", "none") => format!(
                "set {} (at most {}), or give the LimitRange a default {} so admission fills it",
                field(&self.which),
                self.limit,
                self.resource
            ),
            ("maximum", _) => format!("lower {} to at most {}", field(&self.which), self.limit),
            ("minimum", "none") => format!("set {} (at least {})", field(&self.which), self.limit),
            ("minimum", _) => format!(
                "raise {} to at least {}{}",
                field(&self.which),
                self.limit,
                ""
            ),
            _ => format!(
                "set both requests.{r} and limits.{r} with limit/request at most {}",
                self.limit,
                r = self.resource
            ),
        }
    }
}

/// Strips a trailing `.` and surrounding brackets/commas of an aggregate item's value.
fn clean(v: &str) -> String {
    v.trim()
        .trim_start_matches('[')
        .trim_end_matches([']', ',', '.', '"', '\''])
        .to_owned()
}

/// `<type> is <value><tail>` after `usage per ` / `ratio per `: the type, the value (without
/// the `,` or `.` that follows it) and the rest.
fn split_bound(rest: &str) -> Option<(&str, &str, &str)> {
    let (per, after) = rest.split_once(" is ")?;
    if per.contains(char::is_whitespace) || per.is_empty() {
        return None;
    }
    let end = after
        .find(|c: char| c == ',' || c.is_whitespace())
        .unwrap_or(after.len());
    let value = after[..end].trim_end_matches('.');
    (!value.is_empty()).then_some((per, value, &after[end..]))
}

/// The word before `<res> usage per` (`Maximum`, `minimum`).
fn bound_word(before: &str) -> &str {
    before.split_whitespace().rev().nth(1).unwrap_or("")
}

/// v1.0 spelled the bound capitalised (`Minimum`/`Maximum`).
fn bound_word_is_v1_0(w: &str) -> bool {
    let w = w.trim_start_matches(['[', '"', '\'']);
    w == "Minimum" || w == "Maximum"
}

/// v1.0 named the limit type lower-case (`pod`, `container`); the API's names are `Pod`,
/// `Container`, `PersistentVolumeClaim`.
fn capitalise_type(t: &str) -> String {
    match t {
        "pod" => "Pod".to_owned(),
        "container" => "Container".to_owned(),
        _ => t.to_owned(),
    }
}

/// Every LimitRanger violation in `text`, in order (case-insensitive on the first word: some
/// tools print the message capitalised).
pub(crate) fn violations(text: &str) -> Vec<Violation> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    // `minimum|maximum <res> usage per <type> is <v>...`
    for (at, _) in lower.match_indices(" usage per ") {
        let before = &text[..at];
        let words: Vec<&str> = before.split_whitespace().rev().take(2).collect();
        let [res, bound] = words.as_slice() else {
            continue;
        };
        let bound = match clean(bound).to_ascii_lowercase().as_str() {
            "minimum" => "minimum",
            "maximum" => "maximum",
            _ => continue,
        };
        let rest = &text[at + " usage per ".len()..];
        let Some((per, value, tail)) = split_bound(rest) else {
            continue;
        };
        let tl = tail.to_ascii_lowercase();
        let (which, actual) = if let Some(r) = tl.strip_prefix(", but requested ") {
            // v1.0 (`Maximum CPU usage per pod is 2, but requested 3`): the limits' sum
            let n = r.split_whitespace().next().unwrap_or("").len();
            let start = tail.len() - r.len();
            ("limit".to_owned(), clean(&tail[start..start + n]))
        } else if tl.starts_with(", but ") {
            let mut w = tail[", but ".len()..].split_whitespace();
            let which = w.next().unwrap_or("").to_ascii_lowercase();
            let _is = w.next();
            (which, clean(w.next().unwrap_or("")))
        } else if let Some(t) = tl.trim_start_matches(['.', ' ']).strip_prefix("no ") {
            (
                t.split_whitespace().next().unwrap_or("").to_owned(),
                "none".to_owned(),
            )
        } else if bound_word_is_v1_0(bound_word(before))
            && tl.trim_matches(['.', ']', '"', '\'', ' ']).is_empty()
        {
            // v1.0 (`Maximum memory usage per pod is 500Mi`): the containers' limits (their
            // sum per pod, the largest per container) are outside the bound; no value shown
            ("limit".to_owned(), String::new())
        } else {
            continue;
        };
        out.push(Violation {
            bound,
            resource: clean(res).to_ascii_lowercase(),
            per: capitalise_type(&clean(per)),
            limit: clean(value),
            which,
            actual,
        });
    }
    // `<res> max limit to request ratio per <type> is <r>, but ...`
    for (at, _) in lower.match_indices(" max limit to request ratio per ") {
        let res = text[..at].split_whitespace().next_back().unwrap_or("");
        let rest = &text[at + " max limit to request ratio per ".len()..];
        let Some((per, value, tail)) = split_bound(rest) else {
            continue;
        };
        let t = tail.to_ascii_lowercase();
        let (which, actual) = if let Some((_, r)) = t.split_once("provided ratio is ") {
            (
                String::new(),
                clean(r.split_whitespace().next().unwrap_or("")),
            )
        } else if t.contains("no request is specified") {
            ("request".to_owned(), "none".to_owned())
        } else {
            ("limit".to_owned(), "none".to_owned())
        };
        out.push(Violation {
            bound: "ratio",
            resource: clean(res),
            per: clean(per),
            limit: clean(value),
            which,
            actual,
        });
    }
    out.dedup();
    out
}

/// The workload whose pod the message rejects, when the input has it and the line names no
/// object of its own: the controller names the pod `<workload>-<suffix>` (or asks for the
/// generateName prefix `<workload>-`: `pods "rails-ex-1-" is forbidden`), so a workload (or
/// DaemonSet) whose name plus `-` starts the pod's name is its owner (the longest such name).
pub(crate) fn owner_of_rejected(ctx: &Context<'_>, s: &Signal) -> Option<Subject> {
    let subject = signal_subject(s);
    if subject.kind != "Log" {
        return None;
    }
    let at = s.text.find("\" is forbidden")?;
    let pod = &s.text[s.text[..at].rfind('"')? + 1..at];
    if pod.is_empty() {
        return None;
    }
    let snap = ctx.snapshot();
    snap.workloads
        .iter()
        .map(|w| (w.kind.as_str(), &w.metadata))
        .chain(snap.daemon_sets.iter().map(|d| ("DaemonSet", &d.metadata)))
        .filter(|(_, m)| {
            !m.name.is_empty()
                && pod.len() > m.name.len()
                && pod.starts_with(m.name.as_str())
                && pod[m.name.len()..].starts_with('-')
        })
        .max_by_key(|(_, m)| m.name.len())
        .map(|(kind, m)| Subject::namespaced(kind, &m.namespace, &m.name))
}

/// `kubectl get limitrange -n <ns> -o yaml` (every namespace when it is not known).
fn list_command(ns: Option<&str>) -> String {
    match ns {
        Some(n) => format!(
            "kubectl get limitrange -n {} -o yaml",
            crate::rules::shell_word(n)
        ),
        None => "kubectl get limitrange -A -o yaml".to_owned(),
    }
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    // one finding per subject: the newest line's violations, every line as evidence (max 3)
    let mut by_subject: std::collections::BTreeMap<Subject, Vec<(&Signal, Vec<Violation>)>> =
        std::collections::BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        if !s.detail("entry").starts_with("limitrange.") {
            continue;
        }
        let v = violations(&s.text);
        if v.is_empty() {
            continue;
        }
        by_subject
            .entry(owner_of_rejected(ctx, s).unwrap_or_else(|| signal_subject(s)))
            .or_default()
            .push((s, v));
    }
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    for (subject, lines) in by_subject {
        let mut all: Vec<Violation> = Vec::new();
        for (_, v) in &lines {
            for x in v {
                if !all.contains(x) {
                    all.push(x.clone());
                }
            }
        }
        let ns = if subject.namespace.is_empty() {
            None
        } else {
            Some(subject.namespace.as_str())
        };
        // the LimitRange objects of the input that hold a violated bound
        let mut holders: Vec<String> = Vec::new();
        for lr in &snap.limit_ranges {
            if ns.is_some_and(|n| n != lr.metadata.namespace) {
                continue;
            }
            let holds = lr.spec.limits.iter().any(|it| {
                all.iter().any(|v| {
                    it.type_.eq_ignore_ascii_case(&v.per)
                        && match v.bound {
                            "minimum" => it.min.get(&v.resource).is_some(),
                            "maximum" => it.max.get(&v.resource).is_some(),
                            _ => it.max_limit_request_ratio.get(&v.resource).is_some(),
                        }
                })
            });
            if holds {
                holders.push(obj("LimitRange", &lr.metadata.namespace, &lr.metadata.name));
            }
        }
        let where_ = match ns {
            Some(n) => format!("namespace {n}"),
            None => "the workload's namespace".to_owned(),
        };
        let which_lr = if holders.is_empty() {
            format!(
                "a LimitRange in {where_} (its name is unknown: the message does not name it and the input holds no LimitRange of that namespace with this bound)"
            )
        } else {
            holders.join(", ")
        };
        let message = format!(
            "admission (LimitRanger) rejects the pods: {} ({}); {which_lr} sets these bounds, so no pod is created until the pod template or the LimitRange changes",
            all.iter()
                .map(Violation::describe)
                .collect::<Vec<_>>()
                .join("; "),
            where_
        );
        let get = list_command(ns);
        let edit = match (holders.as_slice(), ns) {
            ([one], Some(n)) => format!(
                "`kubectl edit limitrange -n {} {}`",
                crate::rules::shell_word(n),
                crate::rules::shell_word(one.rsplit('/').next().unwrap_or(one))
            ),
            (_, Some(n)) => format!(
                "`kubectl edit limitrange -n {} <name>`",
                crate::rules::shell_word(n)
            ),
            (_, None) => "`kubectl edit limitrange -n <namespace> <name>`".to_owned(),
        };
        let mut fixes: Vec<String> = Vec::new();
        for v in &all {
            let f = v.fix();
            if !fixes.contains(&f) {
                fixes.push(f);
            }
        }
        let remedy = format!(
            "in the workload's pod template {}; or, if the bound is wrong for this workload, change the LimitRange (`{get}` lists the namespace's LimitRanges with their bounds, then {edit}). The controller retries on its own once admission accepts the pod",
            fixes.join("; ")
        );
        let mut f = Finding::new(LimitRangeRejected::ID, Severity::Error, subject, message)
            .with_evidences(lines.iter().rev().take(3).map(|(s, _)| s.evidence()))
            .with_remedy(remedy);
        for h in holders.iter().take(3) {
            f = f.with_evidence(Evidence::field(
                h,
                "spec.limits",
                "holds the violated bound",
            ));
        }
        out.push(f);
    }
    // manifests (a workload not running its replicas, a pod never stored) read with the
    // LimitRanges of their namespace: what the LimitRanger will refuse, naming the LimitRange
    // (cube-quota mirrors API defaulting, then LimitRanger's defaulting and validation)
    let said_by_message: std::collections::BTreeSet<Subject> =
        out.iter().map(|f| f.subject.clone()).collect();
    let mut manifests: Vec<(
        &str,
        &cube_model::objects::ObjectMeta,
        &cube_model::objects::PodSpec,
    )> = Vec::new();
    for w in &snap.workloads {
        let desired = w.spec.replicas.unwrap_or(1);
        let running = w.status.available_replicas.max(w.status.ready_replicas);
        if desired > 0 && running >= desired {
            continue; // admitted: its pods exist
        }
        manifests.push((w.kind.as_str(), &w.metadata, &w.spec.template.spec));
    }
    for p in snap.pods.iter().filter(|p| p.status.phase.is_empty()) {
        manifests.push(("Pod", &p.metadata, &p.spec));
    }
    for (kind, meta, spec) in manifests {
        // a row of a `kubectl get` table has no resources to check
        if spec.containers.is_empty()
            || meta
                .annotations
                .contains_key(cube_model::describe::PARTIAL_ANNOTATION)
        {
            continue;
        }
        let ns = meta.namespace.as_str();
        let subject = Subject::namespaced(kind, ns, &meta.name);
        if said_by_message.contains(&subject) {
            continue;
        }
        let mut pod = cube_model::objects::Pod {
            metadata: meta.clone(),
            spec: spec.clone(),
            ..Default::default()
        };
        cube_quota::requests::default_requests_from_limits(&mut pod.spec);
        for lr in snap.limit_ranges.iter().filter(|lr| {
            lr.metadata.namespace == ns || (ns.is_empty() && lr.metadata.namespace == "default")
        }) {
            let mut stored = lr.clone();
            cube_quota::limitrange::default_limit_range(&mut stored);
            let mut admitted = pod.clone();
            cube_quota::limitrange::default_pod(&stored, &mut admitted);
            let texts = cube_quota::limitrange::pod_violations(&stored, &admitted);
            let found: Vec<Violation> = texts.iter().flat_map(|t| violations(t)).collect();
            if texts.is_empty() {
                continue;
            }
            let holder = obj("LimitRange", &lr.metadata.namespace, &lr.metadata.name);
            let what = if found.is_empty() {
                texts.join("; ")
            } else {
                found
                    .iter()
                    .map(Violation::describe)
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let mut fixes: Vec<String> = Vec::new();
            for v in &found {
                let f = v.fix();
                if !fixes.contains(&f) {
                    fixes.push(f);
                }
            }
            let o = obj(kind, ns, &meta.name);
            out.push(
                Finding::new(
                    LimitRangeRejected::ID,
                    Severity::Error,
                    subject.clone(),
                    format!(
                        "admission (LimitRanger) refuses {o}'s pods: {what}; {holder} sets these bounds (after its defaults are filled into the containers), so no pod is created until the pod template or the LimitRange changes"
                    ),
                )
                .with_evidence(Evidence::field(&holder, "spec.limits", "holds the violated bound"))
                .with_evidence(Evidence::field(&o, "spec.containers[].resources", texts.join("; ")))
                .with_remedy(format!(
                    "in the pod template {}; or, if the bound is wrong for this workload, change it (`kubectl edit limitrange -n {} {}`)",
                    if fixes.is_empty() { "fit the containers' requests and limits into the LimitRange".to_owned() } else { fixes.join("; ") },
                    crate::rules::shell_word(if lr.metadata.namespace.is_empty() { "default" } else { &lr.metadata.namespace }),
                    crate::rules::shell_word(&lr.metadata.name)
                )),
            );
        }
    }
    // API validation's `must be less than or equal to <res> limit`: the limit a LimitRange
    // default filled in, or the pod's own (one finding per subject)
    let mut said: std::collections::BTreeSet<Subject> = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        if s.detail("entry") != "validation.request-above-limit" {
            continue;
        }
        let subject = owner_of_rejected(ctx, s).unwrap_or_else(|| signal_subject(s));
        if !said.insert(subject.clone()) {
            continue;
        }
        let Some(e) = crate::catalog::entry("validation.request-above-limit") else {
            continue;
        };
        let (cause, remedy) = e.cause_and_remedy(s);
        // the LimitRange whose default limit for the resource the LimitRanger filled in
        let resource = s.detail("resource");
        let namespace = subject.namespace.clone();
        let ns = (!namespace.is_empty()).then_some(namespace.as_str());
        let defaults: Vec<String> = snap
            .limit_ranges
            .iter()
            .filter(|lr| ns.is_none_or(|n| n == lr.metadata.namespace))
            .filter(|lr| {
                let mut stored = (*lr).clone();
                cube_quota::limitrange::default_limit_range(&mut stored);
                stored
                    .spec
                    .limits
                    .iter()
                    .any(|it| it.type_ == "Container" && it.default.get(resource).is_some())
            })
            .map(|lr| obj("LimitRange", &lr.metadata.namespace, &lr.metadata.name))
            .collect();
        let named = if defaults.is_empty() {
            format!(
                "; if the container sets no {resource} limit, a LimitRange default filled it in (its name is unknown: the message does not name it; `{}` lists them)",
                list_command(ns)
            )
        } else {
            format!(
                "; {} gives the default {resource} limit filled into containers that set none",
                defaults.join(", ")
            )
        };
        let mut f = Finding::new(
            LimitRangeRejected::ID,
            Severity::Error,
            subject,
            format!("the API server refuses the pod as invalid: {cause}{named}"),
        )
        .with_evidence(s.evidence())
        .with_remedy(remedy.replace(
            "`kubectl get limitrange -o yaml`",
            &format!("`{}`", list_command(ns)),
        ));
        for d in defaults.iter().take(3) {
            f = f.with_evidence(Evidence::field(
                d,
                "spec.limits[].default",
                format!("default {resource} limit"),
            ));
        }
        out.push(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_log;

    #[test]
    fn every_wording_is_read() {
        let v = violations(
            "Error creating: pods \"p-1\" is forbidden: maximum memory usage per Container is 4Gi, but limit is 8Gi",
        );
        assert_eq!(
            v,
            vec![Violation {
                bound: "maximum",
                resource: "memory".into(),
                per: "Container".into(),
                limit: "4Gi".into(),
                which: "limit".into(),
                actual: "8Gi".into()
            }]
        );
        // OpenShift 3 / pre-1.12: final dots, aggregated in brackets
        let v = violations(
            "pods \"r-1-\" is forbidden: [minimum memory usage per Pod is 204Mi, but request is 62914560., minimum cpu usage per Container is 39m, but request is 11m.]",
        );
        assert_eq!(v.len(), 2);
        assert_eq!(
            (v[0].limit.as_str(), v[0].actual.as_str()),
            ("204Mi", "62914560")
        );
        assert_eq!(
            (v[1].per.as_str(), v[1].actual.as_str()),
            ("Container", "11m")
        );
        let v = violations("maximum cpu usage per Container is 2.  No limit is specified.");
        assert_eq!(
            (
                v[0].limit.as_str(),
                v[0].actual.as_str(),
                v[0].which.as_str()
            ),
            ("2", "none", "limit")
        );
        let v = violations(
            "minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi",
        );
        assert_eq!(v[0].per, "PersistentVolumeClaim");
        let v = violations(
            "cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000",
        );
        assert_eq!((v[0].bound, v[0].actual.as_str()), ("ratio", "4.000000"));
        let v = violations(
            "memory max limit to request ratio per Pod is 2, but no request is specified or request is 0.",
        );
        assert_eq!(
            (v[0].which.as_str(), v[0].actual.as_str()),
            ("request", "none")
        );
        // capitalised by a tool
        assert_eq!(
            violations("Maximum cpu usage per Container is 2, but limit is 4").len(),
            1
        );
    }

    #[test]
    fn the_limitrange_is_named_or_said_to_be_unknown() {
        // the message alone: the name is unknown, the command lists them
        let f = run_log(
            "limitrange-rejected",
            "Namespace:  ml\nEvents:\n  Type     Reason        Age  From                   Message\n  ----     ------        ---- ----                   -------\n  Warning  FailedCreate  2m   replicaset-controller  Error creating: pods \"c-1\" is forbidden: maximum cpu usage per Container is 2, but limit is 4",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("name is unknown"), "{}", f[0].message);
        assert!(
            f[0].remedy.contains("kubectl get limitrange -"),
            "{}",
            f[0].remedy
        );
        // a Deployment manifest with the LimitRange of its namespace: named
        let f = crate::rules::testutil::run_rule(
            "limitrange-rejected",
            "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: mem-cap\n  namespace: ml\nspec:\n  limits:\n  - type: Container\n    max:\n      memory: 4Gi\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm\n  namespace: ml\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: server\n        image: x\n        resources:\n          limits:\n            memory: 8Gi\n            nvidia.com/gpu: 1\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("LimitRange/ml/mem-cap"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("4Gi"), "{}", f[0].message);
        assert!(
            f[0].remedy
                .contains("kubectl edit limitrange -n ml mem-cap"),
            "{}",
            f[0].remedy
        );
    }

    #[test]
    fn a_finding_names_the_bound_and_the_fix() {
        let f = run_log(
            "limitrange-rejected",
            "Warning  FailedCreate  2m  replicaset-controller  Error creating: pods \"c-1\" is forbidden: maximum memory usage per Container is 4Gi, but limit is 8Gi",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("maximum memory per Container is 4Gi, but the limit is 8Gi"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy
                .contains("lower limits.memory of each container to at most 4Gi"),
            "{}",
            f[0].remedy
        );
    }
}
