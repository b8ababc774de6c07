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
