//! [`Labels`]: a compact, sorted string map for labels, annotations and selectors.
//!
//! A `BTreeMap<String, String>` costs a tree node of about 560 bytes plus two heap strings per
//! entry, even for one label; a 150,000-pod snapshot has three such maps per pod (labels,
//! annotations, `nodeSelector`), which made them the largest part of a loaded snapshot (issue 12,
//! "the snapshot's resident size at most the size of its JSON"). `Labels` keeps every key and
//! value of one map in one string and their ends in one array: two allocations per non-empty map,
//! none for an empty one, and the same order, lookups and JSON shape as the `BTreeMap` it
//! replaces.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// String-keyed labels or annotations, in key order (keys unique).
///
/// The map API of the `BTreeMap<String, String>` it replaces, with `&str` in place of `&String`:
/// [`get`](Self::get), [`contains_key`](Self::contains_key), [`insert`](Self::insert),
/// [`remove`](Self::remove), [`iter`](Self::iter) in key order (also `for (k, v) in &labels`),
/// [`len`](Self::len), [`is_empty`](Self::is_empty), `FromIterator` and `Extend` (a repeated key
/// keeps its last value). It serializes as a JSON / YAML map of strings, byte for byte as the
/// `BTreeMap` did, and deserializes from one (a repeated key keeps its last value, as serde's
/// `BTreeMap` does).
///
/// Storage: all keys and values back to back in one string, and the end offset of each key and
/// each value in one array, sorted by key. Inserting or removing rebuilds both (maps are small);
/// reading never allocates.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Labels {
    /// `key0 value0 key1 value1 ...` without separators.
    text: Box<str>,
    /// End offset in `text` of each key and value: `ends[2i]` ends key `i`, `ends[2i + 1]` its
    /// value (key `i` starts where value `i - 1` ends).
    ends: Box<[u32]>,
}

impl Labels {
    /// An empty map (allocates nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.ends.len() / 2
    }

    /// True when there is no entry.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn start(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            self.ends[2 * i - 1] as usize
        }
    }

    fn key_at(&self, i: usize) -> &str {
        &self.text[self.start(i)..self.ends[2 * i] as usize]
    }

    fn value_at(&self, i: usize) -> &str {
        &self.text[self.ends[2 * i] as usize..self.ends[2 * i + 1] as usize]
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.key_at(mid).cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Ok(mid),
            }
        }
        Err(lo)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.find(key).ok().map(|i| self.value_at(i))
    }

    /// The entry of `key` (key and value).
    pub fn get_key_value(&self, key: &str) -> Option<(&str, &str)> {
        self.find(key)
            .ok()
            .map(|i| (self.key_at(i), self.value_at(i)))
    }

    /// True when `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Entries in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            labels: self,
            front: 0,
            back: self.len(),
        }
    }

    /// Keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + '_ {
        self.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + '_ {
        self.iter().map(|(_, v)| v)
    }

    /// Sets `key` to `value`; returns the value it replaced. Owned strings, as the `BTreeMap`
    /// took (so `"k".into()` and `name.clone()` arguments keep working).
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        let (key, value) = (key.as_str(), value.as_str());
        match self.find(key) {
            Ok(i) => {
                let old = self.value_at(i).to_owned();
                self.rebuild(Some(i), Some((i, key, value)));
                Some(old)
            }
            Err(i) => {
                self.rebuild(None, Some((i, key, value)));
                None
            }
        }
    }

    /// Removes `key`; returns its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let i = self.find(key).ok()?;
        let old = self.value_at(i).to_owned();
        self.rebuild(Some(i), None);
        Some(old)
    }

    /// Keeps the entries for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &str) -> bool) {
        if self.iter().all(|(k, v)| keep(k, v)) {
            return;
        }
        // `keep` is called once per entry above; collect the survivors without calling it again
        let kept: Vec<(String, String)> = self
            .iter()
            .filter(|(k, v)| keep(k, v))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        *self = kept.into_iter().collect();
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// The map as a `BTreeMap` (for callers that need owned strings).
    pub fn to_btree_map(&self) -> std::collections::BTreeMap<String, String> {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }

    /// Rebuilds the storage without entry `skip` and with `add` (inserted before position `at`).
    fn rebuild(&mut self, skip: Option<usize>, add: Option<(usize, &str, &str)>) {
        let mut b = Builder::with_capacity(self.text.len() + 64, self.len() + 1);
        for i in 0..=self.len() {
            if let Some((at, k, v)) = add
                && at == i
            {
                b.push_key(k);
                b.push_value(v);
            }
            if i < self.len() && skip != Some(i) {
                b.push_key(self.key_at(i));
                b.push_value(self.value_at(i));
            }
        }
        *self = b.finish();
    }
}

thread_local! {
    /// The buffers of the last map read on this thread (see [`Builder::scratch`]).
    static SCRATCH: std::cell::Cell<(String, Vec<u32>)> = const {
        std::cell::Cell::new((String::new(), Vec::new()))
    };
}

/// Scratch buffers larger than this are not kept for the next map.
const SCRATCH_MAX_BYTES: usize = 64 << 10;

/// Builds a [`Labels`] from entries in any order (a repeated key keeps its last value).
struct Builder {
    text: String,
    ends: Vec<u32>,
    /// Keys arrived in strictly increasing order so far (the usual case: kubectl and the API
    /// server write keys sorted).
    sorted: bool,
}

impl Builder {
    fn with_capacity(text: usize, entries: usize) -> Self {
        Builder {
            text: String::with_capacity(text),
            ends: Vec::with_capacity(entries * 2),
            sorted: true,
        }
    }

    fn end(&self) -> u32 {
        // Offsets are u32: a map's text is bounded by the input limits (far below 4 GiB);
        // saturate rather than wrap if a caller builds a larger one.
        u32::try_from(self.text.len()).unwrap_or(u32::MAX)
    }

    fn last_key(&self) -> Option<&str> {
        let n = self.ends.len();
        if n < 2 {
            return None;
        }
        let start = if n >= 3 { self.ends[n - 3] as usize } else { 0 };
        Some(&self.text[start..self.ends[n - 2] as usize])
    }

    fn push_key(&mut self, key: &str) {
        let mark = self.text.len();
        self.text.push_str(key);
        self.key_appended(mark);
    }

    /// Records the end of a key whose text was appended from `mark` on.
    fn key_appended(&mut self, mark: usize) {
        if self.sorted
            && let Some(last) = self.last_key()
            && last >= &self.text[mark..]
        {
            self.sorted = false;
        }
        self.ends.push(self.end());
    }

    fn push_value(&mut self, value: &str) {
        self.text.push_str(value);
        self.ends.push(self.end());
    }

    /// A builder on this thread's scratch buffers (kept from the last map read on this
    /// thread): reading a map then allocates only its exact text and ends
    /// ([`Builder::finish_scratch`]), where a fresh builder allocated room for 64 bytes and
    /// four entries and shrank both at the end (four allocator calls per map; a 150,000-pod
    /// dump reads three maps per pod).
    fn scratch() -> Self {
        let (mut text, mut ends) = SCRATCH.take();
        text.clear();
        ends.clear();
        Builder {
            text,
            ends,
            sorted: true,
        }
    }

    /// [`Builder::finish`] for a builder from [`Builder::scratch`]: the map in exact
    /// allocations (none when empty), the buffers back to this thread's scratch.
    fn finish_scratch(self) -> Labels {
        if !self.sorted {
            return self.finish();
        }
        let labels = Labels {
            text: Box::from(self.text.as_str()),
            ends: Box::from(self.ends.as_slice()),
        };
        // (a rare huge map does not keep its buffers alive for the rest of the thread)
        self.recycle();
        labels
    }

    /// Gives the buffers of a builder from [`Builder::scratch`] back, keeping nothing.
    fn recycle(self) {
        if self.text.capacity() <= SCRATCH_MAX_BYTES {
            SCRATCH.set((self.text, self.ends));
        }
    }

    fn finish(self) -> Labels {
        if self.sorted {
            return Labels {
                text: self.text.into_boxed_str(),
                ends: self.ends.into_boxed_slice(),
            };
        }
        // Sort by key, stable, so the last of equal keys is the last in the run; keep it.
        let raw = Labels {
            text: self.text.into_boxed_str(),
            ends: self.ends.into_boxed_slice(),
        };
        let mut order: Vec<usize> = (0..raw.len()).collect();
        order.sort_by(|&a, &b| raw.key_at(a).cmp(raw.key_at(b)));
        let mut b = Builder::with_capacity(raw.text.len(), raw.len());
        for (n, &i) in order.iter().enumerate() {
            let next_same = order
                .get(n + 1)
                .is_some_and(|&j| raw.key_at(j) == raw.key_at(i));
            if !next_same {
                b.push_key(raw.key_at(i));
                b.push_value(raw.value_at(i));
            }
        }
        b.finish()
    }
}

/// Iterator over the entries of [`Labels`] in key order.
#[derive(Clone)]
pub struct Iter<'a> {
    labels: &'a Labels,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        let i = self.front;
        self.front += 1;
        Some((self.labels.key_at(i), self.labels.value_at(i)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        let i = self.back;
        Some((self.labels.key_at(i), self.labels.value_at(i)))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Labels {
    type Item = (&'a str, &'a str);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for Labels {
    type Item = (String, String);
    type IntoIter = std::vec::IntoIter<(String, String)>;
    /// Owned entries in key order.
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect::<Vec<_>>()
            .into_iter()
    }
}

impl<K: AsRef<str>, V: AsRef<str>> FromIterator<(K, V)> for Labels {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let iter = iter.into_iter();
        let mut b = Builder::with_capacity(0, iter.size_hint().0);
        for (k, v) in iter {
            b.push_key(k.as_ref());
            b.push_value(v.as_ref());
        }
        b.finish()
    }
}

impl<K: AsRef<str>, V: AsRef<str>> Extend<(K, V)> for Labels {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let mut b = Builder::with_capacity(self.text.len(), self.len());
        for (k, v) in self.iter() {
            b.push_key(k);
            b.push_value(v);
        }
        for (k, v) in iter {
            b.push_key(k.as_ref());
            b.push_value(v.as_ref());
        }
        *self = b.finish();
    }
}

impl From<std::collections::BTreeMap<String, String>> for Labels {
    fn from(map: std::collections::BTreeMap<String, String>) -> Self {
        map.iter().collect()
    }
}

impl<K: AsRef<str>, V: AsRef<str>, const N: usize> From<[(K, V); N]> for Labels {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl PartialOrd for Labels {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Labels {
    /// Entry by entry, as `BTreeMap` orders.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.iter().cmp(other.iter())
    }
}

impl fmt::Debug for Labels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl std::ops::Index<&str> for Labels {
    type Output = str;
    /// The value of `key`; panics when absent, as `BTreeMap`'s index does.
    fn index(&self, key: &str) -> &str {
        self.get(key).expect("no entry found for key")
    }
}

impl Serialize for Labels {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Labels {
    /// A map of strings, as serde reads a `BTreeMap<String, String>` (a repeated key keeps its
    /// last value; `null` and non-string values are errors, with serde's wording).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MapVisitor {
            lenient: false,
            skip_key: None,
        })
    }
}

/// Reads a map into a [`Labels`].
pub(crate) struct MapVisitor {
    /// Also accept `null` (empty) and YAML scalars written without quotes (`true`, `8`: their
    /// text), as the object loaders do for `metadata.labels` and `metadata.annotations`.
    pub(crate) lenient: bool,
    /// A key whose entry is skipped without allocating its value.
    pub(crate) skip_key: Option<&'static str>,
}

impl<'de> Visitor<'de> for MapVisitor {
    type Value = Labels;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.lenient {
            "a map of strings or null"
        } else {
            "a map"
        })
    }
    fn visit_unit<E: de::Error>(self) -> Result<Labels, E> {
        if self.lenient {
            Ok(Labels::new())
        } else {
            Err(de::Error::invalid_type(de::Unexpected::Unit, &self))
        }
    }
    fn visit_none<E: de::Error>(self) -> Result<Labels, E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Labels, D::Error> {
        d.deserialize_map(self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Labels, A::Error> {
        let mut b = Builder::scratch();
        self.read_into(&mut map, &mut b)?;
        Ok(b.finish_scratch())
    }
}

impl MapVisitor {
    /// Reads the entries of `map` into `b`.
    fn read_into<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
        b: &mut Builder,
    ) -> Result<(), A::Error> {
        loop {
            let mark = b.text.len();
            if map.next_key_seed(Append(&mut b.text))?.is_none() {
                break;
            }
            if let Some(skip) = self.skip_key
                && &b.text[mark..] == skip
            {
                b.text.truncate(mark);
                map.next_value::<de::IgnoredAny>()?;
                continue;
            }
            // the key's text is in place: record its end (and whether order still holds)
            b.key_appended(mark);
            if self.lenient {
                map.next_value_seed(AppendScalar(&mut b.text))?;
            } else {
                map.next_value_seed(Append(&mut b.text))?;
            }
            let end = b.end();
            b.ends.push(end);
        }
        Ok(())
    }
}

/// [`MapVisitor`]'s reading without keeping the map (`crate::projection`): the same input is
/// accepted or refused, and nothing is allocated (the entries go to this thread's scratch
/// buffers, which are kept).
pub(crate) struct MapCheck(pub(crate) MapVisitor);

impl<'de> Visitor<'de> for MapCheck {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.visit_unit().map(drop)
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.0.visit_none().map(drop)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut b = Builder::scratch();
        self.0.read_into(&mut map, &mut b)?;
        b.recycle();
        Ok(())
    }
}

/// Appends one string to a buffer (borrowed or not: no allocation of its own).
struct Append<'a>(&'a mut String);

impl<'de> DeserializeSeed<'de> for Append<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Append<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.push_str(v);
        Ok(())
    }
}

/// Appends a string, or the text of a YAML scalar written without quotes (`true`, `8`); `null`
/// appends nothing.
struct AppendScalar<'a>(&'a mut String);

impl<'de> DeserializeSeed<'de> for AppendScalar<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl Visitor<'_> for AppendScalar<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.push_str(v);
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        use std::fmt::Write;
        let _ = write!(self.0, "{v}");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        use std::fmt::Write;
        let _ = write!(self.0, "{v}");
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn both(pairs: &[(&str, &str)]) -> (Labels, BTreeMap<String, String>) {
        let l: Labels = pairs.iter().copied().collect();
        let m: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (l, m)
    }

    #[test]
    fn behaves_like_a_btree_map() {
        let (mut l, mut m) = both(&[("b", "2"), ("a", "1"), ("c", ""), ("a", "x"), ("", "e")]);
        assert_eq!(l.to_btree_map(), m);
        assert_eq!(l.len(), 4);
        assert_eq!(l.get("a"), Some("x"));
        assert_eq!(l.get("z"), None);
        assert!(l.contains_key(""));
        assert_eq!(
            l.insert("bb".into(), "3".into()),
            m.insert("bb".into(), "3".into())
        );
        assert_eq!(
            l.insert("a".into(), "y".into()),
            m.insert("a".into(), "y".into())
        );
        assert_eq!(l.remove("c"), m.remove("c"));
        assert_eq!(l.remove("c"), None);
        assert_eq!(l.to_btree_map(), m);
        let rev: Vec<_> = l.iter().rev().map(|(k, _)| k.to_owned()).collect();
        let mrev: Vec<_> = m.keys().rev().cloned().collect();
        assert_eq!(rev, mrev);
        l.extend([("0", "zero"), ("a", "last")]);
        m.extend([("0".into(), "zero".into()), ("a".into(), "last".into())]);
        assert_eq!(l.to_btree_map(), m);
        assert_eq!(Labels::from(m.clone()), l);
        assert_eq!(format!("{l:?}"), format!("{m:?}"));
        l.retain(|k, _| k != "0");
        m.retain(|k, _| k != "0");
        assert_eq!(l.to_btree_map(), m);
        assert!(Labels::new().is_empty());
    }

    #[test]
    fn json_like_a_btree_map() {
        for text in [
            r#"{}"#,
            r#"{"b":"2","a":"1"}"#,
            r#"{"a":"1","a":"2","b":"\u00e9\"x"}"#,
            r#"{"z":"1","y":"2","z":"3","a":""}"#,
        ] {
            let l: Labels = serde_json::from_str(text).unwrap();
            let m: BTreeMap<String, String> = serde_json::from_str(text).unwrap();
            assert_eq!(l.to_btree_map(), m, "{text}");
            assert_eq!(
                serde_json::to_string(&l).unwrap(),
                serde_json::to_string(&m).unwrap()
            );
        }
        for bad in [r#"null"#, r#"{"a":1}"#, r#"{"a":null}"#, r#"[]"#] {
            let l = serde_json::from_str::<Labels>(bad).unwrap_err();
            let m = serde_json::from_str::<BTreeMap<String, String>>(bad).unwrap_err();
            assert_eq!(l.to_string(), m.to_string(), "{bad}");
        }
    }
}
