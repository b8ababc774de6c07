//! [`Sparse`]: a group of fields most objects leave empty, held out of line and allocated only
//! when one of them is set.
//!
//! A `Vec<Pod>` holds every pod's fixed-size part inline; on a dump of many small pods (issue 9:
//! a 200 MB List of 560,000 pods that name little more than a container and a node) most of that
//! part was empty strings, vectors and options. The model types keep the fields every object
//! has inline and the rest in a [`Sparse`] group, which is one pointer and no allocation while
//! the group is empty. The outer type dereferences to the group, so its fields read and write as
//! fields of the outer type (`pod.spec.tolerations`, `pod.status.reason = ...`).

use std::fmt;

/// A group of fields that [`Sparse`] holds out of line.
pub trait SparseFields: Default + 'static {
    /// The group with every field empty, shared (never allocated per object).
    fn empty() -> &'static Self;
    /// True when every field is empty: the group then takes no allocation.
    fn is_empty(&self) -> bool;
}

/// Fields held out of line: nothing allocated while all of them are empty.
///
/// Reading gives the shared empty group when nothing is set ([`Sparse::get`]); writing allocates
/// the group on first use ([`Sparse::get_mut`]). Two `Sparse` values are equal when their groups
/// are (an allocated group whose fields are all empty equals none).
#[derive(Clone, Default)]
pub struct Sparse<T>(Option<Box<T>>);

impl<T: SparseFields> Sparse<T> {
    /// Holds `fields`; allocates only when one of them is set.
    pub fn new(fields: T) -> Self {
        if fields.is_empty() {
            Sparse(None)
        } else {
            Sparse(Some(Box::new(fields)))
        }
    }

    /// The fields (the shared empty group when none is set).
    pub fn get(&self) -> &T {
        match self.0.as_deref() {
            Some(fields) => fields,
            None => T::empty(),
        }
    }

    /// The fields for writing (the group is allocated on first use).
    pub fn get_mut(&mut self) -> &mut T {
        self.0.get_or_insert_with(Box::default)
    }

    /// The fields for writing when the group is allocated (`None`, and nothing allocated, when
    /// no field was ever set).
    pub fn as_mut(&mut self) -> Option<&mut T> {
        self.0.as_deref_mut()
    }

    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        self.0.as_deref().is_none_or(T::is_empty)
    }
}

impl<T: SparseFields> From<T> for Sparse<T> {
    fn from(fields: T) -> Self {
        Sparse::new(fields)
    }
}

impl<T: SparseFields + PartialEq> PartialEq for Sparse<T> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl<T: SparseFields + fmt::Debug> fmt::Debug for Sparse<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use crate::objects::{ObjectMeta, Pod, PodSpec, PodStatus};

    #[test]
    fn a_pod_keeps_its_rarely_set_fields_out_of_line() {
        // 808 bytes before the groups (issue 9: the inline part of a Vec<Pod> was most of a
        // dump of small pods)
        let size = std::mem::size_of::<Pod>();
        eprintln!("Pod {size} bytes inline");
        assert!(size <= 320, "Pod is {size} bytes inline");
        let small: Pod = serde_json::from_str(
            r#"{"metadata":{"name":"p","namespace":"ns","uid":"u"},"spec":{"nodeName":"n1","containers":[{"name":"c"}]},"status":{"phase":"Running"}}"#,
        )
        .expect("pod");
        assert!(small.metadata.more.is_empty());
        assert!(small.spec.more.is_empty());
        assert!(small.status.more.is_empty());
    }

    #[test]
    // the point is writing through the outer type (a literal would name the group)
    #[allow(clippy::field_reassign_with_default)]
    fn out_of_line_fields_read_write_compare_and_round_trip_as_fields() {
        let text = r#"{"metadata":{"name":"p","generateName":"p-","namespace":"ns","uid":"u","annotations":{"a":"b"},"creationTimestamp":"2026-11-30T12:00:00Z","deletionTimestamp":"2026-11-30T12:00:01Z","deletionGracePeriodSeconds":30,"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"r","controller":true}]},"spec":{"containers":[{"name":"c"}],"initContainers":[{"name":"i"}],"nodeName":"n1","nodeSelector":{"k":"v"},"tolerations":[{"key":"k","operator":"Exists"}],"priority":5,"priorityClassName":"high","preemptionPolicy":"Never","activeDeadlineSeconds":9,"schedulerName":"s","restartPolicy":"Never","runtimeClassName":"nvidia","serviceAccountName":"sa","volumes":[{"name":"v"}]},"status":{"phase":"Failed","conditions":[{"type":"Ready","status":"False"}],"qosClass":"BestEffort","nominatedNodeName":"n2","startTime":"2026-11-30T12:00:00Z","reason":"Evicted","message":"m","containerStatuses":[{"name":"c"}],"initContainerStatuses":[{"name":"i"}]}}"#;
        let pod: Pod = serde_json::from_str(text).expect("pod");
        assert_eq!(pod.metadata.generate_name, "p-");
        assert_eq!(pod.spec.tolerations.len(), 1);
        assert_eq!(pod.spec.priority, Some(5));
        assert_eq!(pod.status.reason, "Evicted");
        // the same keys and values, in the order of the flat types (API order), with the
        // containers' `resources` as the Container type writes it
        let back = serde_json::to_string(&pod).expect("json");
        let want = text
            .replace(
                r#""containers":[{"name":"c"}]"#,
                r#""containers":[{"name":"c","resources":{}}]"#,
            )
            .replace(
                r#""initContainers":[{"name":"i"}]"#,
                r#""initContainers":[{"name":"i","resources":{}}]"#,
            );
        assert_eq!(back, want);
        let yaml = serde_saphyr::to_string(&pod).expect("yaml");
        let again: Pod = serde_saphyr::from_str(&yaml).expect("yaml");
        assert_eq!(again, pod);

        // written through the outer type, the group is allocated; emptied again it equals none
        let mut spec = PodSpec::default();
        spec.restart_policy = "Never".into();
        assert!(!spec.more.is_empty());
        assert_ne!(spec, PodSpec::default());
        spec.restart_policy.clear();
        assert_eq!(spec, PodSpec::default());
        let mut status = PodStatus::default();
        status.container_statuses.clear();
        assert_eq!(status, PodStatus::default());
        assert_eq!(serde_json::to_string(&status).expect("json"), "{}");
        let meta = ObjectMeta::default();
        assert_eq!(
            serde_json::to_string(&meta).expect("json"),
            r#"{"name":""}"#
        );
    }
}
