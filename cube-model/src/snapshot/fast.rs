//! One-pass reading of a `kubectl get -o json` List (the common, large case).
//!
//! kubectl and the API server write keys in sorted order, so every item starts with
//! `apiVersion` and `kind`. The List's `items` are read with a seed that, for each item, reads
//! those two keys and then hands the rest of the same map straight to the typed object's
//! deserializer (`MapAccessDeserializer`): the bytes are parsed once, with no `RawValue` pass and
//! no `kind` peek. Anything unusual (an item whose first keys are not `apiVersion` and `kind`, a
//! broken object, a document that is not a List) makes the fast path give up; the caller then
//! rolls back what it added and reads the input with the general two-pass path, which reports
//! problems precisely.

use std::fmt;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{
    self, DeserializeSeed, IgnoredAny, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::value::RawValue;

use super::{ClusterSnapshot, EventsV1Event, Target, api_group, is_list_kind};
use crate::objects::*;
use crate::projection::PodFields;

/// Reads `bytes` as one JSON List in one pass; returns the List's `kind`. `Err` means "use the
/// general path" (the snapshot may then hold a partial result that the caller must roll back).
pub(super) fn read_list(
    snapshot: &mut ClusterSnapshot,
    bytes: &[u8],
) -> Result<Option<String>, ()> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let kind = DocSeed { snapshot, bytes }
        .deserialize(&mut de)
        .map_err(|_| ())?;
    de.end().map_err(|_| ())?;
    kind.map(Some).ok_or(())
}

struct DocSeed<'s, 'b> {
    snapshot: &'s mut ClusterSnapshot,
    /// The whole input (item starts are found from where their first key sits in it).
    bytes: &'b [u8],
}

impl<'de> DeserializeSeed<'de> for DocSeed<'_, '_> {
    /// The List's kind when the document was a List whose items were all read.
    type Value = Option<String>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DocSeed<'_, '_> {
    type Value = Option<String>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a List")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut kind: Option<String> = None;
        let mut items = false;
        while let Some(key) = map.next_key::<DocKey>()? {
            match key {
                DocKey::Kind => kind = Some(map.next_value()?),
                DocKey::Items => {
                    map.next_value_seed(ItemsSeed {
                        snapshot: &mut *self.snapshot,
                        bytes: self.bytes,
                    })?;
                    items = true;
                }
                DocKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(kind.filter(|k| items && (k == "List" || is_list_kind(k))))
    }
}

enum DocKey {
    Kind,
    Items,
    Other,
}

impl<'de> Deserialize<'de> for DocKey {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = DocKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DocKey, E> {
                Ok(match v {
                    "kind" => DocKey::Kind,
                    "items" => DocKey::Items,
                    _ => DocKey::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

struct ItemsSeed<'s, 'b> {
    snapshot: &'s mut ClusterSnapshot,
    bytes: &'b [u8],
}

impl<'de> DeserializeSeed<'de> for ItemsSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of objects")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(ItemSeed {
                snapshot: &mut *self.snapshot,
                bytes: self.bytes,
                pod_fields: PodFields::All,
            })?
            .is_some()
        {}
        Ok(())
    }
}

/// What one call of [`read_items`] read.
#[derive(Default)]
pub(super) struct Round {
    /// Items read to their end (each stored, counted or skipped).
    pub(super) done: usize,
    /// Where the last of them starts in the window, when known.
    pub(super) last_start: Option<usize>,
}

/// Reads the items of a List's `items` array from `bytes[at..]` (`bytes[at]` is the `[` that
/// opens the array, or stands for it) until the array closes or an error; `bytes` is the whole
/// window (item starts are offsets into it). An end-of-input error means the window ends inside
/// an item: that item left no trace (see [`ItemSeed`]) and is read again after a refill.
pub(super) fn read_items(
    snapshot: &mut ClusterSnapshot,
    bytes: &[u8],
    at: usize,
    pod_fields: PodFields,
) -> (Round, Result<(), serde_json::Error>) {
    let mut round = Round::default();
    let slice = bytes.get(at..).unwrap_or_default();
    let items = StreamItems {
        snapshot,
        bytes,
        round: &mut round,
        pod_fields,
    };
    let result = match utf8_prefix(slice) {
        // checked once here, so serde_json does not check each string again (`from_str`
        // borrows the same bytes: item starts are still offsets into `bytes`)
        Some(text) => {
            de::Deserializer::deserialize_seq(&mut serde_json::Deserializer::from_str(text), items)
        }
        None => de::Deserializer::deserialize_seq(
            &mut serde_json::Deserializer::from_slice(slice),
            items,
        ),
    };
    (round, result)
}

/// `bytes` as text when it is UTF-8 up to, at most, one character cut by its end (a window
/// ends anywhere): the text before that character. An item that holds the cut character ends
/// the text early, which is the same end-of-input error as the cut itself.
///
/// `None` for bytes that are not UTF-8 before their end: they are read as bytes, as before,
/// so the outcome does not change (serde_json checks each string it reads, not the strings it
/// skips).
///
/// Why: reading from text, serde_json takes each string as it is; from bytes it checks each
/// one (keys included), which was about a tenth of reading a 150,000-pod List. One check of
/// the whole window (`str::from_utf8` runs a word at a time over ASCII) costs far less.
fn utf8_prefix(bytes: &[u8]) -> Option<&str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok(),
        Err(_) => None,
    }
}

struct StreamItems<'s, 'b, 'r> {
    snapshot: &'s mut ClusterSnapshot,
    bytes: &'b [u8],
    round: &'r mut Round,
    pod_fields: PodFields,
}

impl<'de> Visitor<'de> for StreamItems<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of objects")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(start) = seq.next_element_seed(ItemSeed {
            snapshot: &mut *self.snapshot,
            bytes: self.bytes,
            pod_fields: self.pod_fields,
        })? {
            self.round.done += 1;
            self.round.last_start = start;
        }
        Ok(())
    }
}

struct ItemSeed<'s, 'b> {
    snapshot: &'s mut ClusterSnapshot,
    bytes: &'b [u8],
    /// The fields of each Pod kept (`crate::projection`).
    pod_fields: PodFields,
}

impl ItemSeed<'_, '_> {
    /// The offset of the `{` that opens the item whose first key (its text, borrowed from the
    /// input) is `key`: the quote before the key, then whitespace back to the brace.
    fn item_start(&self, key: Option<&str>) -> Option<usize> {
        let base = self.bytes.as_ptr() as usize;
        let at = (key?.as_ptr() as usize).checked_sub(base)?;
        let before = self.bytes.get(..at.checked_sub(1)?)?;
        let brace = before.iter().rposition(|b| !b.is_ascii_whitespace())?;
        (before[brace] == b'{').then_some(brace)
    }
}

impl<'de> DeserializeSeed<'de> for ItemSeed<'_, '_> {
    /// Where the item starts in `bytes`, when known.
    type Value = Option<usize>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_map(self)
    }
}

enum HeadKey {
    ApiVersion,
    Kind,
    Other(String),
}

impl HeadKey {
    fn of(v: &str) -> HeadKey {
        match v {
            "apiVersion" => HeadKey::ApiVersion,
            "kind" => HeadKey::Kind,
            other => HeadKey::Other(other.to_owned()),
        }
    }
}

/// A key with, when it was read without escapes straight from the input, its text borrowed
/// from the input (where the item starts is found from it).
struct Placed<'de>(HeadKey, Option<&'de str>);

impl<'de> Deserialize<'de> for Placed<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Placed<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Placed<'de>, E> {
                Ok(Placed(HeadKey::of(v), Some(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Placed<'de>, E> {
                Ok(Placed(HeadKey::of(v), None))
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A Secret as the fast path reads it: `data` and `stringData` stay raw (borrowed).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct FastSecret<'a> {
    #[serde(rename = "type")]
    type_: String,
    metadata: ObjectMeta,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
    #[serde(borrow)]
    string_data: Option<&'a RawValue>,
}

/// The entries read before `kind` was known (kept as borrowed raw JSON), then the rest of the
/// live map.
struct Chain<'de, A> {
    buffered: std::vec::IntoIter<(String, &'de RawValue)>,
    pending: Option<&'de RawValue>,
    live: Option<A>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Chain<'de, A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.buffered.next() {
            self.pending = Some(value);
            let key: de::value::StringDeserializer<A::Error> = key.into_deserializer();
            return seed.deserialize(key).map(Some);
        }
        match self.live.as_mut() {
            Some(live) => live.next_key_seed(seed),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        if let Some(raw) = self.pending.take() {
            return seed.deserialize(raw).map_err(de::Error::custom);
        }
        match self.live.as_mut() {
            Some(live) => live.next_value_seed(seed),
            None => Err(de::Error::custom("value without key")),
        }
    }
}

/// Deserializes the rest of the object into `T`.
fn rest<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: Chain<'de, A>) -> Result<T, A::Error> {
    T::deserialize(MapAccessDeserializer::new(map))
}

/// Every side effect of an item (an object stored, a kind counted) happens only once the item
/// was read to its end, so an item cut by the end of a streaming window (an end-of-input error)
/// can be read again from its start after the window is refilled (`stream.rs`).
impl<'de> Visitor<'de> for ItemSeed<'_, '_> {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<usize>, A::Error> {
        let mut api_version: Option<String> = None;
        let mut kind: Option<String> = None;
        let mut buffered: Vec<(String, &'de RawValue)> = Vec::new();
        let mut ended = false;
        let mut start = None;
        let mut first = true;
        while api_version.is_none() || kind.is_none() {
            let key = match map.next_key::<Placed<'de>>()? {
                Some(Placed(key, text)) => {
                    if first {
                        start = self.item_start(text);
                    }
                    key
                }
                None => {
                    ended = true;
                    break;
                }
            };
            first = false;
            match key {
                HeadKey::ApiVersion => api_version = Some(map.next_value()?),
                HeadKey::Kind => kind = Some(map.next_value()?),
                HeadKey::Other(key) => buffered.push((key, map.next_value()?)),
            }
        }
        let Some(kind) = kind else {
            // Items without `kind` (a typed list from the API server): the list kind comes
            // after the items, so only the general path can read them.
            return Err(de::Error::custom("fast path: item without kind"));
        };
        let s = self.snapshot;
        let group = api_version.as_deref().map(api_group);
        if kind == "Status" && group.is_none_or(str::is_empty) {
            // an API error among the items: the general path reads it (`add_status`)
            return Err(de::Error::custom("fast path: Status item"));
        }
        // where a stored object starts; an object without a known start makes them all unknown
        let placed = |s: &mut ClusterSnapshot, target: Target| {
            let known = match (start, s.starts.as_mut()) {
                (Some(at), Some(starts)) => {
                    starts[target as usize].push(at);
                    true
                }
                _ => false,
            };
            if !known {
                *s.starts = None;
            }
        };
        let map = Chain {
            buffered: buffered.into_iter(),
            pending: None,
            live: (!ended).then_some(map),
        };
        let Some(target) = Target::of(&kind, group) else {
            let mut map = map;
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            s.count_unknown(&kind, api_version.as_deref(), group);
            return Ok(start);
        };
        if !matches!(target, Target::Secret) && !s.has_room_for_one() {
            // over `limits.max_objects_per_snapshot`: counted, not stored
            let mut map = map;
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            *s.over_limit += 1;
            return Ok(start);
        }
        match target {
            Target::Node => s.nodes.push(rest(map)?),
            Target::Pod => s
                .pods
                .push(crate::projection::reading_pod(self.pod_fields, || {
                    rest(map)
                })?),
            Target::Namespace => s.namespaces.push(rest(map)?),
            Target::ResourceQuota => s.resource_quotas.push(rest(map)?),
            Target::LimitRange => s.limit_ranges.push(rest(map)?),
            Target::PriorityClass => s.priority_classes.push(rest(map)?),
            Target::DaemonSet => s.daemon_sets.push(rest(map)?),
            Target::Event if group == Some("events.k8s.io") => {
                s.events.push(rest::<_, EventsV1Event>(map)?.into_event())
            }
            Target::Event => s.events.push(rest(map)?),
            Target::StorageClass => s.storage_classes.push(rest(map)?),
            Target::PersistentVolume => s.persistent_volumes.push(rest(map)?),
            Target::PersistentVolumeClaim => s.persistent_volume_claims.push(rest(map)?),
            Target::Role => {
                let mut role: Role = rest(map)?;
                role.kind = kind;
                s.roles.push(role);
            }
            Target::RoleBinding => {
                let mut binding: RoleBinding = rest(map)?;
                binding.kind = kind;
                s.role_bindings.push(binding);
            }
            Target::PodDisruptionBudget => s.pod_disruption_budgets.push(rest(map)?),
            Target::RuntimeClass => s.runtime_classes.push(rest(map)?),
            Target::Workload => {
                let mut workload: Workload = rest(map)?;
                workload.kind = kind;
                s.workloads.push(workload);
            }
            // A Secret's `data` and `stringData` are kept as borrowed raw text (never copied);
            // only a bootstrap-token Secret's public keys are read from them afterwards.
            Target::Secret => {
                let secret: FastSecret<'de> = rest(map)?;
                if secret.type_ != super::BOOTSTRAP_TOKEN_TYPE {
                    s.skipped_secrets += 1;
                    return Ok(start);
                }
                let data = |raw: Option<&'de RawValue>| match raw {
                    Some(raw) => {
                        let mut de = serde_json::Deserializer::from_str(raw.get());
                        super::de_public_token_data(&mut de).map_err(|_| ())
                    }
                    None => Ok(Default::default()),
                };
                let (Ok(data), Ok(string_data)) = (data(secret.data), data(secret.string_data))
                else {
                    return Err(de::Error::custom("fast path: unreadable bootstrap token"));
                };
                let token = super::BootstrapSecret {
                    metadata: secret.metadata,
                    data,
                    string_data,
                }
                .into_token()
                .map_err(|_| de::Error::custom("fast path: unreadable bootstrap token"))?;
                s.bootstrap_tokens.push(token);
            }
        }
        placed(s, target);
        Ok(start)
    }
}
