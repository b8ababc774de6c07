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
            LoadOutcome::Loaded { format, .. } => {
                if self.snapshot.problems.len() > before && format == InputFormat::Yaml {
                    for (i, part) in text.split("\n---").enumerate() {
                        if !part
                            .lines()
                            .any(|l| l.starts_with("kind:") || l.starts_with("apiVersion:"))
                            && !part.trim().is_empty()
                        {
                            self.logs.push(LogText::new(format!("{source}#{i}"), part));
                        }
                    }
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
