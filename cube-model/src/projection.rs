//! Reading the pods of a snapshot for a what-if ([`PodFields::WhatIf`]): the fields of a Pod
//! that no step of a what-if reads are read and checked exactly as before, but not kept.
//!
//! Why: `pod_admit` over a 150,000-pod dump spent most of its time building pods, and a third
//! of each pod's allocations were fields no admission, fit or preemption step looks at
//! (volumes, images, owner references, annotations, container states, conditions no step
//! looks at, ...).
//!
//! Same answers: each dropped field is read by a checking twin of its type (the same field
//! names, optional fields and defaults, the same value types accepted and refused, strings
//! matched without being copied), so an input the reader takes or refuses is taken or refused
//! alike, and the objects read differ only in the dropped fields, which are left empty. Only the
//! one-pass reader of large JSON Lists (`ClusterSnapshot::add_json_reader_with`) drops them,
//! and only in Pods (not in the pod templates of workloads); every other path reads them all.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};

use crate::labels::{Labels, MapCheck, MapVisitor};
use crate::objects::{ContainerState, OwnerReference, PodCondition, Time, Volume};

/// Which fields of each Pod a snapshot keeps when it is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PodFields {
    /// Every field the model has (what the diagnosis and every other program read).
    #[default]
    All,
    /// What a what-if (admission, quota, LimitRange, priority, fit, preemption: `pod_admit`)
    /// reads of the pods already in the cluster: the fields listed in [`WHAT_IF_DROPPED`] are
    /// checked but left empty.
    WhatIf,
}

/// The Pod fields a [`PodFields::WhatIf`] read leaves empty (their JSON paths).
pub const WHAT_IF_DROPPED: &[&str] = &[
    "metadata.annotations",
    "metadata.ownerReferences",
    "spec.containers[].image",
    "spec.initContainers[].image",
    "spec.volumes",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "spec.restartPolicy",
    "status.containerStatuses[].state",
    "status.initContainerStatuses[].state",
];

/// The only `status.conditions` a [`PodFields::WhatIf`] read keeps (by `type`): the resize
/// condition of `requests.rs` (`IsPodResizeInfeasible`) and the preemption mark of
/// `preemption.rs`; the other conditions are checked and not kept.
pub const WHAT_IF_POD_CONDITIONS: &[&str] = &["PodResizePending", "DisruptionTarget"];

thread_local! {
    /// A Pod is being read with [`PodFields::WhatIf`] on this thread.
    static DROPPING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `read` (the reading of one Pod) with the fields of `fields` dropped on this thread.
pub(crate) fn reading_pod<R>(fields: PodFields, read: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            DROPPING.set(self.0);
        }
    }
    let _restore = Restore(DROPPING.replace(fields == PodFields::WhatIf));
    read()
}

fn dropping() -> bool {
    DROPPING.get()
}

/// A string field (`String`, default when missing): dropped as [`Str`].
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    if dropping() {
        Str::deserialize(d).map(|_| String::new())
    } else {
        String::deserialize(d)
    }
}

/// `metadata.annotations` (as `objects::de::annotations`).
pub(crate) fn annotations<'de, D: Deserializer<'de>>(
    d: D,
    visitor: MapVisitor,
) -> Result<Labels, D::Error> {
    if dropping() {
        d.deserialize_option(MapCheck(visitor))
            .map(|()| Labels::new())
    } else {
        d.deserialize_option(visitor)
    }
}

/// `metadata.ownerReferences` (a list as `objects::de::exact_vec` reads it).
pub(crate) fn owner_references<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<OwnerReference>, D::Error> {
    if dropping() {
        d.deserialize_option(SeqCheck::<OwnerReferenceCheck>(std::marker::PhantomData))
            .map(|()| Vec::new())
    } else {
        crate::objects::exact_vec(d)
    }
}

/// `spec.volumes` (a list as `objects::de::exact_vec` reads it).
pub(crate) fn volumes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Volume>, D::Error> {
    if dropping() {
        d.deserialize_option(SeqCheck::<VolumeCheck>(std::marker::PhantomData))
            .map(|()| Vec::new())
    } else {
        crate::objects::exact_vec(d)
    }
}

/// `status.conditions` (a list as `objects::de::exact_vec` reads it): only the types of
/// [`WHAT_IF_POD_CONDITIONS`] kept.
pub(crate) fn pod_conditions<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<PodCondition>, D::Error> {
    if dropping() {
        d.deserialize_option(KeptConditions)
    } else {
        crate::objects::exact_vec(d)
    }
}

/// The conditions of [`WHAT_IF_POD_CONDITIONS`], each read (and checked) first as
/// [`PodConditionText`], which borrows its strings from the input.
struct KeptConditions;

impl<'de> Visitor<'de> for KeptConditions {
    type Value = Vec<PodCondition>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list or null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Vec<PodCondition>, E> {
        Ok(Vec::new())
    }
    fn visit_none<E: de::Error>(self) -> Result<Vec<PodCondition>, E> {
        Ok(Vec::new())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<PodCondition>, D::Error> {
        d.deserialize_seq(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<PodCondition>, A::Error> {
        let mut kept = Vec::new();
        while let Some(c) = seq.next_element::<PodConditionText<'de>>()? {
            if WHAT_IF_POD_CONDITIONS.contains(&c.type_.as_ref()) {
                kept.push(PodCondition {
                    type_: c.type_.into_owned(),
                    status: c.status.into_owned(),
                    reason: c.reason.into_owned(),
                    message: c.message.into_owned(),
                    last_transition_time: c.last_transition_time,
                });
            }
        }
        Ok(kept)
    }
}

/// [`PodCondition`] with borrowed strings (the same values accepted and refused).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct PodConditionText<'a> {
    #[serde(rename = "type", borrow)]
    type_: Cow<'a, str>,
    #[serde(borrow)]
    status: Cow<'a, str>,
    #[serde(borrow)]
    reason: Cow<'a, str>,
    #[serde(borrow)]
    message: Cow<'a, str>,
    #[serde(deserialize_with = "crate::timestamp::option")]
    last_transition_time: Option<Time>,
}

/// `status.containerStatuses[].state`.
pub(crate) fn container_state<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<ContainerState>, D::Error> {
    if dropping() {
        Option::<ContainerStateCheck>::deserialize(d).map(|_| None)
    } else {
        Option::<ContainerState>::deserialize(d)
    }
}

/// A `String` read and not kept: accepts and refuses what `String` does.
#[derive(Default)]
struct Str;

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Str;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Str, E> {
                Ok(Str)
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Str, E> {
                match std::str::from_utf8(v) {
                    Ok(_) => Ok(Str),
                    Err(_) => Err(de::Error::invalid_value(de::Unexpected::Bytes(v), &self)),
                }
            }
        }
        d.deserialize_string(V)
    }
}

/// A list read as `objects::de::exact_vec` reads it (`null` as empty), items not kept.
struct SeqCheck<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for SeqCheck<T> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list or null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<T>()?.is_some() {}
        Ok(())
    }
}

/// [`OwnerReference`]'s checking twin.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)] // fields are read, never used
struct OwnerReferenceCheck {
    api_version: Str,
    kind: Str,
    name: Str,
    uid: Str,
    controller: Option<bool>,
}

/// [`Volume`]'s checking twin.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct VolumeCheck {
    name: Str,
    host_path: Option<HostPathCheck>,
    persistent_volume_claim: Option<PvcCheck>,
    nfs: Option<NfsCheck>,
    // a `serde_json::Value` takes any value, as this does
    empty_dir: Option<IgnoredAny>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct HostPathCheck {
    path: Str,
    #[serde(rename = "type")]
    type_: Str,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct PvcCheck {
    claim_name: Str,
    read_only: bool,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct NfsCheck {
    server: Str,
    path: Str,
    read_only: bool,
}

/// [`ContainerState`]'s checking twin.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct ContainerStateCheck {
    waiting: Option<DetailCheck>,
    running: Option<RunningCheck>,
    terminated: Option<DetailCheck>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct DetailCheck {
    reason: Str,
    message: Str,
    exit_code: Option<i32>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
#[allow(dead_code)]
struct RunningCheck {
    #[serde(deserialize_with = "crate::timestamp::option")]
    started_at: Option<Time>,
}
