//! Kueue objects pasted as text (ClusterQueue, ResourceFlavor are not snapshot kinds): flavor
//! references that do not exist and covered resources whose nominal quota is 0 or unset.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Signal, SignalKind, details};
use crate::Subject;

/// Levenshtein distance (for "did you mean" suggestions).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map_or(1, |i| i + 1)
}

/// Signals for the Kueue objects in `text` (YAML or JSON, one or more documents).
pub fn check(source: &str, text: &str) -> Vec<Signal> {
    let Ok(docs) = cube_model::yaml::from_multiple::<Value>(
        text,
        &cube_model::Limits::default(),
        serde_saphyr::Options::default(),
    ) else {
        return Vec::new();
    };
    let kind = |d: &Value| {
        d.get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let name = |d: &Value| match d.pointer("/metadata/name") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    let flavors: BTreeSet<String> = docs
        .iter()
        .filter(|d| kind(d) == "ResourceFlavor")
        .map(name)
        .collect();
    let mut out = Vec::new();
    for q in docs.iter().filter(|d| kind(d) == "ClusterQueue") {
        let qname = name(q);
        let subject = Subject::cluster_scoped("ClusterQueue", &qname);
        let groups = q
            .pointer("/spec/resourceGroups")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for g in &groups {
            let covered: Vec<String> = g
                .get("coveredResources")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            // a covered resource a flavor does not list: kueue's CRD refuses the ClusterQueue
            // (apis/kueue/v1beta1|v1beta2/clusterqueue_types.go XValidation `flavors must have
            // the same number of resources as the coveredResources`); older releases' webhook
            // said the same of the names
            for f in g
                .get("flavors")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let fname = f
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                let listed: Vec<&str> = f
                    .get("resources")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.get("name").and_then(Value::as_str))
                    .collect();
                for rname in covered.iter().filter(|c| !listed.contains(&c.as_str())) {
                    out.push(Signal {
                        kind: SignalKind::KueueZeroQuota,
                        source: source.to_owned(),
                        line: line_of(text, &fname),
                        text: format!("ClusterQueue {qname} flavor {fname} does not list covered resource {rname}"),
                        join: false,
                        object: Some(subject.clone()),
                        details: details(&[("queue", qname.clone()), ("flavor", fname.clone()), ("resource", rname.clone()), ("quota", "missing".to_owned())]),
                    });
                }
            }
            for f in g
                .get("flavors")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let fname = f
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                if !flavors.is_empty() && !flavors.contains(&fname) {
                    let near = flavors
                        .iter()
                        .min_by_key(|c| distance(c, &fname))
                        .filter(|c| distance(c, &fname) <= 2)
                        .cloned()
                        .unwrap_or_default();
                    out.push(Signal {
                        kind: SignalKind::KueueFlavorMissing,
                        source: source.to_owned(),
                        line: line_of(text, &format!("\"{fname}\"")).max(line_of(text, &fname)),
                        text: format!("ClusterQueue {qname} flavor {fname}"),
                        join: false,
                        object: Some(subject.clone()),
                        details: details(&[
                            ("queue", qname.clone()),
                            ("flavor", fname.clone()),
                            ("near", near),
                        ]),
                    });
                }
                for r in f
                    .get("resources")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let rname = r
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    let quota = match r.get("nominalQuota") {
                        None | Some(Value::Null) => "unset".to_owned(),
                        Some(Value::String(s)) => s.clone(),
                        Some(v) => v.to_string(),
                    };
                    if quota == "0" || quota == "unset" {
                        out.push(Signal {
                            kind: SignalKind::KueueZeroQuota,
                            source: source.to_owned(),
                            line: line_of(text, &rname),
                            text: format!("ClusterQueue {qname} flavor {fname} resource {rname} nominalQuota {quota}"),
                            join: false,
                            object: Some(subject.clone()),
                            details: details(&[("queue", qname.clone()), ("flavor", fname.clone()), ("resource", rname), ("quota", quota)]),
                        });
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typo_and_zero_quota() {
        let t = "kind: ResourceFlavor\nmetadata:\n  name: nvidia-a100\n---\nkind: ClusterQueue\nmetadata:\n  name: q\nspec:\n  resourceGroups:\n  - coveredResources: [nvidia.com/gpu]\n    flavors:\n    - name: nvidia-100\n      resources:\n      - name: nvidia.com/gpu\n        nominalQuota: 0\n";
        let s = check("k", t);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].detail("near"), "nvidia-a100");
        assert_eq!(s[1].kind, SignalKind::KueueZeroQuota);
        assert!(
            check(
                "k",
                &t.replace("nvidia-100", "nvidia-a100")
                    .replace("nominalQuota: 0", "nominalQuota: 8")
            )
            .is_empty()
        );
    }
}
