//! Reading what a user pastes into a bug report. Objects (`kubectl get -o json|yaml`, `kubectl
//! describe node|pod|pvc`, events tables, `kubectl get nodes -o wide`) go through
//! `cube_model`'s snapshot loader ([`ClusterSnapshot::add_bytes`]); everything the loader says is
//! not snapshot input (kubeadm/kubelet/device-plugin logs, scheduler messages, error texts) is kept
//! as [`LogText`] for the classifiers. The format is detected from the content, never from the
//! file name. Broken objects become `snapshot.problems`; the rest of the input still loads.

use cube_model::ClusterSnapshot;
use cube_model::snapshot::LoadOutcome;

pub use cube_model::snapshot::{InputFormat, detect_format};

use crate::LogText;

/// Accumulates inputs into a snapshot plus log texts.
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// Objects read so far.
    pub snapshot: ClusterSnapshot,
    /// Texts for the classifiers.
    pub logs: Vec<LogText>,
}

impl Inputs {
    /// Empty inputs.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one input named `source`; returns the detected format. Text that is not snapshot
    /// input becomes a log text. YAML/JSON inputs whose documents were partly plain text (a
    /// manifest pasted together with a scheduler message after `---`) keep those documents as log
    /// text too.
    pub fn add(&mut self, source: &str, text: &str) -> InputFormat {
        let before = self.snapshot.problems.len();
        match self.snapshot.add_bytes(source, text.as_bytes()) {
            LoadOutcome::NotSnapshot { format } => {
                self.logs.push(LogText::new(source, text));
                format
            }
            LoadOutcome::Loaded {
                format, objects, ..
            } => {
                let _ = before;
                if objects == 0 {
                    // e.g. a Status body or a kind the snapshot does not keep: still text evidence
                    self.logs.push(LogText::new(source, text));
                } else if format == InputFormat::Yaml && text.contains("\n---") {
                    for (i, part) in text.split("\n---").enumerate() {
                        let body = part
                            .lines()
                            .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
                            .count();
                        if body > 0
                            && !part
                                .lines()
                                .any(|l| l.starts_with("kind:") || l.starts_with("apiVersion:"))
                        {
                            self.logs.push(LogText::new(format!("{source}#{i}"), part));
                        }
                    }
                }
                if format == InputFormat::DescribePod {
                    add_describe_volumes(&mut self.snapshot, text);
                }
                format
            }
            _ => {
                self.logs.push(LogText::new(source, text));
                InputFormat::Text
            }
        }
    }
}

/// `kubectl describe pod` Volumes blocks: hostPath and claim volumes (the model's describe reader
/// keeps containers and events; volumes matter for node-local storage findings).
fn add_describe_volumes(snapshot: &mut ClusterSnapshot, text: &str) {
    use cube_model::objects::{HostPathVolumeSource, PvcVolumeSource, Volume};
    let mut pod_name = String::new();
    let mut in_volumes = false;
    let mut found: Vec<(String, Volume)> = Vec::new();
    for l in text.lines() {
        if l.starts_with('#') {
            continue;
        }
        let indent = l.len() - l.trim_start().len();
        let t = l.trim();
        if indent == 0 {
            if let Some(n) = t.strip_prefix("Name:") {
                pod_name = n.trim().to_owned();
            }
            in_volumes = t.starts_with("Volumes:");
            continue;
        }
        if !in_volumes {
            continue;
        }
        if indent == 2 && t.ends_with(':') {
            found.push((
                pod_name.clone(),
                Volume {
                    name: t.trim_end_matches(':').to_owned(),
                    ..Default::default()
                },
            ));
        } else if let Some((_, v)) = found.last_mut() {
            if let Some(ty) = t.strip_prefix("Type:") {
                if ty.trim().starts_with("HostPath") {
                    v.host_path = Some(HostPathVolumeSource::default());
                }
            } else if let (Some(hp), Some(path)) = (v.host_path.as_mut(), t.strip_prefix("Path:")) {
                hp.path = path.trim().to_owned();
            } else if let Some(claim) = t.strip_prefix("ClaimName:") {
                v.persistent_volume_claim = Some(PvcVolumeSource {
                    claim_name: claim.trim().to_owned(),
                    ..Default::default()
                });
            }
        }
    }
    for (pod, v) in found {
        if v.host_path.is_none() && v.persistent_volume_claim.is_none() {
            continue;
        }
        if let Some(p) = snapshot
            .pods
            .iter_mut()
            .find(|p| p.metadata.name == pod && !p.spec.volumes.iter().any(|x| x.name == v.name))
        {
            p.spec.volumes.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_and_objects_are_routed() {
        let mut i = Inputs::new();
        assert_eq!(
            i.add(
                "a.json",
                r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}}"#
            ),
            InputFormat::Json
        );
        assert_eq!(
            i.add("join.log", "[preflight] Running pre-flight checks\n"),
            InputFormat::Text
        );
        assert_eq!(i.snapshot.nodes.len(), 1);
        assert_eq!(i.logs.len(), 1);
    }

    #[test]
    fn broken_object_is_a_problem_not_a_failure() {
        let mut i = Inputs::new();
        i.add("x.json", r#"{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}},{"kind":"Node","apiVersion":"v1","metadata":{"name":"b"},"status":{"capacity":{"cpu":"lots"}}}]}"#);
        assert_eq!(i.snapshot.nodes.len(), 1);
        assert_eq!(i.snapshot.problems.len(), 1);
    }
}
