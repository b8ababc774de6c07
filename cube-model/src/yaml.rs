//! YAML reading bounded by [`Limits`]: one alias-expansion budget per file.
//!
//! serde-saphyr caps alias replay per parse call (1,000,000 events by default). A reader that
//! parses a multi-document file one document at a time (so one broken document does not lose the
//! others) would get a fresh budget for every document: a 29 KB file of small "billion laughs"
//! documents then takes about 45 s. [`AliasBudget`] is shared by every document of a file: each
//! parse may replay at most what is left, and what a document used is charged before the next.
//!
//! A document that uses no alias is charged nothing. One that does is charged every event it
//! produced (an upper bound of its replayed events: serde-saphyr's report does not separate
//! them), so the budget errs on the side of stopping early.

use std::cell::Cell;
use std::rc::Rc;

use serde::de::DeserializeOwned;

use crate::limits::{Limit, LimitExceeded, Limits};

/// What is left of one file's alias-expansion budget ([`Limits::max_yaml_alias_expansions`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasBudget {
    limit: u64,
    used: u64,
}

impl AliasBudget {
    /// A fresh budget for one file.
    pub fn new(limits: &Limits) -> Self {
        AliasBudget {
            limit: limits.max_yaml_alias_expansions,
            used: 0,
        }
    }

    /// Alias events still allowed.
    pub fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.used)
    }

    /// The limit this budget started with.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The [`LimitExceeded`] to report for `subject` (the file, or a document of it).
    pub fn exceeded(&self, subject: impl Into<String>) -> LimitExceeded {
        LimitExceeded {
            limit: Limit::YamlAliasExpansions,
            max: self.limit,
            observed: None,
            subject: subject.into(),
        }
    }

    /// Parses one document (or one whole stream) with `base` options, replaying at most the
    /// remaining budget, and charges what it used. Node, event and scalar budgets are raised to
    /// the document's size (which the file-size limit already bounds), so a large `kubectl get
    /// -o yaml` List is not refused by serde-saphyr's defaults for configuration files.
    ///
    /// # Errors
    /// The parser's error; [`is_alias_limit`] tells when it is this budget.
    pub fn parse<T: DeserializeOwned>(
        &mut self,
        text: &str,
        base: serde_saphyr::Options,
    ) -> Result<T, serde_saphyr::Error> {
        self.parse_with(text, base, |t, o| serde_saphyr::from_str_with_options(t, o))
    }

    /// [`AliasBudget::parse`] for every document of a stream (`serde_saphyr::from_multiple`).
    ///
    /// # Errors
    /// As [`AliasBudget::parse`].
    pub fn parse_multiple<T: DeserializeOwned>(
        &mut self,
        text: &str,
        base: serde_saphyr::Options,
    ) -> Result<Vec<T>, serde_saphyr::Error> {
        self.parse_with(text, base, |t, o| {
            serde_saphyr::from_multiple_with_options(t, o)
        })
    }

    fn parse_with<R>(
        &mut self,
        text: &str,
        mut options: serde_saphyr::Options,
        parse: impl FnOnce(&str, serde_saphyr::Options) -> Result<R, serde_saphyr::Error>,
    ) -> Result<R, serde_saphyr::Error> {
        let remaining = usize::try_from(self.remaining()).unwrap_or(usize::MAX);
        options.alias_limits.max_total_replayed_events = remaining;
        let size = text.len();
        let mut budget = options.budget.take().unwrap_or_default();
        budget.max_events = budget.max_events.max(size.saturating_mul(2)) + remaining;
        budget.max_nodes = budget.max_nodes.max(size) + remaining;
        budget.max_total_scalar_bytes = budget.max_total_scalar_bytes.max(size);
        budget.max_documents = budget.max_documents.max(size / 4 + 1);
        options.budget = Some(budget);
        let charged = Rc::new(Cell::new(0u64));
        let sink = Rc::clone(&charged);
        let options = options.with_budget_report(move |report| {
            if report.aliases > 0 {
                sink.set(report.events as u64);
            }
        });
        let result = parse(text, options);
        let used = charged.get();
        self.used = self.used.saturating_add(used);
        if result.is_err() && is_alias_limit_result(&result) {
            self.used = self.limit;
        }
        result
    }
}

fn is_alias_limit_result<R>(r: &Result<R, serde_saphyr::Error>) -> bool {
    matches!(r, Err(e) if is_alias_limit(e))
}

/// True when `err` is serde-saphyr's alias-replay limit (the budget of [`AliasBudget`]).
pub fn is_alias_limit(err: &serde_saphyr::Error) -> bool {
    let mut err = err;
    loop {
        match err {
            serde_saphyr::Error::WithSnippet { error, .. }
            | serde_saphyr::Error::AliasError { error, .. } => err = error,
            serde_saphyr::Error::AliasReplayLimitExceeded { .. }
            | serde_saphyr::Error::AliasExpansionLimitExceeded { .. }
            | serde_saphyr::Error::AliasReplayStackDepthExceeded { .. } => return true,
            _ => return false,
        }
    }
}

/// Parses one YAML text (every document of it together) within `limits`: a one-call
/// replacement for `serde_saphyr::from_str_with_options`.
///
/// # Errors
/// The parser's error.
pub fn from_str<T: DeserializeOwned>(
    text: &str,
    limits: &Limits,
    base: serde_saphyr::Options,
) -> Result<T, serde_saphyr::Error> {
    AliasBudget::new(limits).parse(text, base)
}

/// Every document of one YAML stream within `limits` (one alias budget for all of them): a
/// one-call replacement for `serde_saphyr::from_multiple_with_options`.
///
/// # Errors
/// The parser's error.
pub fn from_multiple<T: DeserializeOwned>(
    text: &str,
    limits: &Limits,
    base: serde_saphyr::Options,
) -> Result<Vec<T>, serde_saphyr::Error> {
    AliasBudget::new(limits).parse_multiple(text, base)
}

/// A document that is either a sequence of `T` or one `T` (a mapping), read in one parse: the
/// sequence's items and the mapping's values go straight to `T`'s fields, so the error is the
/// one of the form the text is in.
#[derive(Debug, Clone, PartialEq)]
pub struct OneOrMany<T>(pub Vec<T>);

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = OneOrMany<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence or a mapping")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Self::Value, A::Error> {
                <Vec<T> as serde::Deserialize>::deserialize(
                    serde::de::value::SeqAccessDeserializer::new(seq),
                )
                .map(OneOrMany)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                <T as serde::Deserialize>::deserialize(
                    serde::de::value::MapAccessDeserializer::new(map),
                )
                .map(|t| OneOrMany(vec![t]))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The [`LimitExceeded`] behind `err` when it is the alias budget of `limits`, for `subject`
/// (the file): what to report instead of the parser's own message.
pub fn alias_limit_exceeded(
    err: &serde_saphyr::Error,
    limits: &Limits,
    subject: impl Into<String>,
) -> Option<LimitExceeded> {
    is_alias_limit(err).then(|| AliasBudget::new(limits).exceeded(subject))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten levels of nine-fold aliases: 9^10 nodes if expanded.
    fn laughs() -> String {
        let mut s = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            s.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        s
    }

    #[test]
    fn the_budget_is_shared_by_every_document_of_a_file() {
        let limits = Limits::default();
        let mut budget = AliasBudget::new(&limits);
        let doc = laughs();
        let start = std::time::Instant::now();
        let mut refused = 0;
        for _ in 0..50 {
            let r: Result<serde_json::Value, _> =
                budget.parse(&doc, serde_saphyr::Options::default());
            if let Err(e) = r {
                assert!(is_alias_limit(&e), "{e}");
                refused += 1;
            }
        }
        assert_eq!(refused, 50, "every bomb is refused");
        assert_eq!(budget.remaining(), 0);
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
        // documents without aliases are charged nothing and still parse
        let mut fresh = AliasBudget::new(&limits);
        let v: serde_json::Value = fresh
            .parse("a: [1, 2]\n", serde_saphyr::Options::default())
            .unwrap();
        assert_eq!(v["a"][1], 2);
        assert_eq!(fresh.remaining(), limits.max_yaml_alias_expansions);
        // small legitimate aliases are charged and allowed
        let v: serde_json::Value = fresh
            .parse("a: &x {b: 1}\nc: *x\n", serde_saphyr::Options::default())
            .unwrap();
        assert_eq!(v["c"]["b"], 1);
        assert!(fresh.remaining() < limits.max_yaml_alias_expansions);
    }
}
