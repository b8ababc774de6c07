//! `snapshot-incomplete`: part of the cluster could not be read (a kind refused or failing, a
//! limit hit), so what is absent from the snapshot is not known to be absent.

use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    SnapshotIncomplete,
    "snapshot-incomplete",
    Import,
    Warning,
    "Part of the picture could not be read: an input was not recognised at all (no objects, no known message), a live list answered 403 Forbidden, 404 or 5xx, a dump held an API error (kind: Status) instead of a list, or a limit (objects per snapshot, YAML alias expansions, pages, time) was hit. Rules never conclude absence from a kind that could not be read (they say 'could not be read' instead), and the programs exit with 3 (incomplete picture) instead of 0. Grant the missing list permissions (or dump the kinds), or raise the limit named.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    // a whole input nothing recognised: what it says is unknown, never an all-clear
    for log in ctx.logs().iter().filter(|l| l.unrecognised) {
        let first: Vec<String> = log
            .text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(1)
            .map(str::to_owned)
            .collect();
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::log(&log.source),
                format!(
                    "input {} was not recognised (no Kubernetes objects, no known log, error or scheduler message): nothing was read from it, so the picture is incomplete and the absence of findings is not an all-clear",
                    log.source
                ),
            )
            .with_evidences(first.iter().map(|l| {
                let line = log.origins.first().map_or(1, |o| o.line);
                Evidence::log(log.source.clone(), line, l)
            }))
            .with_remedy("pass the objects themselves (`kubectl get <kind> -A -o yaml`, `kubectl describe`), or the full log with its error lines; a message this tool does not know is worth reading yourself"),
        );
    }
    if !snap.missing_kinds.is_empty() {
        let kinds: Vec<&str> = snap.missing_kinds.keys().map(String::as_str).collect();
        let everything = kinds.len() >= 10;
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "{} kind(s) could not be read ({}): nothing is concluded from their absence, and findings that need them are missing{}",
                    kinds.len(),
                    kinds.join(", "),
                    if everything {
                        "; the picture is mostly unknown"
                    } else {
                        ""
                    }
                ),
            )
            .with_evidences(
                snap.missing_kinds
                    .iter()
                    .map(|(kind, why)| Evidence::field(kind.as_str(), "list", why.as_str())),
            )
            .with_remedy(format!(
                "{}give the reading account list permission on {} (e.g. the ClusterRole `view` bound cluster-wide, or cube-cluster's console-readonly profile), or pass dumps of them (`kubectl get {} -A -o json`)",
                // a read stopped by a limit (body size, request time, pages, deadline) is raised,
                // not granted
                if snap.missing_kinds.values().any(|why| why.contains("raise it with --limit") || why.contains("pages-per-list")) {
                    "raise the limit named in the evidence (`--limit KEY=N`), or "
                } else {
                    ""
                },
                kinds.join(", "),
                kinds
                    .iter()
                    .map(|k| resource_of(k))
                    .collect::<Vec<_>>()
                    .join(",")
            )),
        );
    }
    for hit in &snap.limits_hit {
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!("a limit was hit while reading: {hit}"),
            )
            .with_evidence(Evidence::field(
                hit.subject.as_str(),
                hit.limit.key(),
                hit.observed.map_or_else(
                    || format!("limit {}", hit.max),
                    |o| format!("{o} > {}", hit.max),
                ),
            ))
            .with_remedy(hit.limit.how_to_raise()),
        );
    }
    // items, documents and objects of the input that were not kept (salvage skipped them)
    let skipped: Vec<&cube_model::snapshot::LoadProblem> = snap
        .skipped()
        .filter(|p| !p.message.contains(" object(s) not kept: "))
        .collect();
    if !skipped.is_empty() {
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "{} item(s), document(s) or object(s) of the input could not be read and were skipped: what they held is not in the picture",
                    skipped.len()
                ),
            )
            .with_evidences(skipped.iter().map(|p| {
                let mut at = p.file.clone();
                at.push_str(&format!(" document {}", p.document));
                if let Some(i) = p.item {
                    at.push_str(&format!(" item {i}"));
                }
                Evidence::field(at, "skipped", p.message.as_str())
            }))
            .with_remedy(
                "fix the input at the places named (or dump it again with `kubectl get -o json`) and run again",
            ),
        );
    }
    out
}

/// `ResourceQuota` -> `resourcequotas` (for the remedy's kubectl command).
fn resource_of(kind: &str) -> String {
    match kind {
        "PriorityClass" => "priorityclasses".to_owned(),
        "StorageClass" => "storageclasses".to_owned(),
        "BootstrapToken" => "secrets".to_owned(),
        k => format!("{}s", k.to_ascii_lowercase()),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Context, Engine};

    #[test]
    fn missing_kinds_are_a_finding_and_exit_3() {
        let mut snap = cube_model::ClusterSnapshot::new();
        snap.missing_kinds.insert(
            "ResourceQuota".into(),
            "forbidden: resourcequotas is forbidden".into(),
        );
        let r = Engine::new().run(&Context::new(&snap));
        let f: Vec<_> = r.by_rule("snapshot-incomplete").collect();
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("ResourceQuota"), "{}", f[0].message);
        assert!(f[0].remedy.contains("resourcequotas"), "{}", f[0].remedy);
        assert_eq!(r.exit_code(), 3);
        assert!(r.incomplete);
    }
}
