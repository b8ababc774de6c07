//! `snapshot-mixed-clusters`: inputs hold objects with the same name but another identity (uid or
//! creation time): most likely dumps of different clusters, kept apart.

use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    SnapshotMixedClusters,
    "snapshot-mixed-clusters",
    Import,
    Warning,
    "Two inputs hold objects of the same kind, namespace and name with different metadata.uid (or creation time, or different content when neither has one): the inputs most likely come from different clusters (or the objects were recreated between two dumps). The objects are kept apart, never merged, and pods are charged only to the node of their own input when node names repeat; diagnose each cluster's dump on its own for exact capacity figures.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    ctx.snapshot()
        .mixed
        .iter()
        .map(|m| {
            Finding::new(
                SnapshotMixedClusters::ID,
                Severity::Warning,
                Subject::log(&m.source),
                m.to_string(),
            )
            .with_evidences(m.objects.iter().take(5).map(|o| {
                Evidence::field(
                    format!("{}/{o}", m.kind),
                    "metadata.uid",
                    format!("differs between {} and {}", m.earlier, m.source),
                )
            }))
            .with_remedy(format!(
                "diagnose {} and {} separately (one cluster per run), or check that both dumps are from the same cluster",
                m.earlier, m.source
            ))
        })
        .collect()
}
