//! Reading timestamps fast: the canonical RFC 3339 form the API server writes
//! (`2026-11-30T12:02:27Z`, second precision, UTC) is converted directly; anything else goes
//! to jiff's parser, as before.
//!
//! Why: a 150,000-pod dump holds about five timestamps per pod (`creationTimestamp`,
//! `startTime`, two conditions' `lastTransitionTime`, a container's `startedAt`); jiff's general
//! parser (offsets, fractions, time zone annotations, Temporal forms) took about 2% of loading
//! it. The result is the same instant jiff gives for the same text (a test compares both), and
//! every other text, valid or not, is read by jiff itself (same value, same error).

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

use crate::objects::Time;

/// `Option<Time>` as serde reads it (`null` is `None`), with the fast path for
/// `YYYY-MM-DDTHH:MM:SSZ`; use as `#[serde(deserialize_with = "...")]` together with
/// `#[serde(default)]`.
pub(crate) fn option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Time>, D::Error> {
    d.deserialize_option(OptionVisitor)
}

struct OptionVisitor;

impl<'de> Visitor<'de> for OptionVisitor {
    type Value = Option<Time>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<Time>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<Time>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Time>, D::Error> {
        d.deserialize_str(TimeVisitor).map(Some)
    }
}

/// jiff's own visitor for `Timestamp` (same expectation, same errors), with the fast path.
struct TimeVisitor;

impl Visitor<'_> for TimeVisitor {
    type Value = Time;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a timestamp string")
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Time, E> {
        match canonical(v) {
            Some(t) => Ok(t),
            None => jiff::fmt::temporal::DateTimeParser::new()
                .parse_timestamp(v)
                .map_err(de::Error::custom),
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Time, E> {
        self.visit_bytes(v.as_bytes())
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` (a real calendar date, seconds below 60) as a timestamp; `None` for
/// any other text, which jiff then reads (or rejects) as before.
pub(crate) fn canonical(v: &[u8]) -> Option<Time> {
    if v.len() != 20
        || v[4] != b'-'
        || v[7] != b'-'
        || v[10] != b'T'
        || v[13] != b':'
        || v[16] != b':'
        || v[19] != b'Z'
    {
        return None;
    }
    let num = |at: usize, len: usize| -> Option<i64> {
        v[at..at + len].iter().try_fold(0i64, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + i64::from(b - b'0'))
        })
    };
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day < 1 || day > month_days || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Time::from_second(days * 86_400 + hour * 3_600 + minute * 60 + second).ok()
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jiff(text: &str) -> Option<Time> {
        text.parse::<Time>().ok()
    }

    /// Second-precision UTC instants from year 0000 to jiff's last one, sampled, and the
    /// calendar edges, read by the fast path as jiff reads them.
    #[test]
    fn canonical_timestamps_equal_jiff() {
        let first = jiff("0000-01-01T00:00:00Z")
            .expect("jiff reads year 0")
            .as_second();
        // (jiff's last instant is late on 9999-12-30: the rest of that year is out of range)
        let last = Time::MAX.as_second();
        assert_eq!(jiff("9999-12-31T23:59:59Z"), None);
        assert_eq!(canonical(b"9999-12-31T23:59:59Z"), None);
        let mut at = first;
        let step = (last - first) / 200_003;
        while at <= last {
            let t = Time::from_second(at).expect("in range");
            let text = t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
            assert_eq!(canonical(text.as_bytes()), Some(t), "{text}");
            at += step;
        }
        for text in [
            "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59Z",
            "2000-02-29T12:00:00Z",
            "2024-02-29T23:59:59Z",
            "2026-11-30T12:02:27Z",
            "2026-12-31T23:59:59Z",
            "1600-03-01T00:00:00Z",
        ] {
            assert_eq!(canonical(text.as_bytes()), jiff(text), "{text}");
            assert!(canonical(text.as_bytes()).is_some(), "{text}");
        }
    }

    /// Other forms (valid or not) are left to jiff: the fast path answers only what it reads
    /// exactly as jiff would.
    #[test]
    fn other_forms_are_left_to_jiff() {
        for text in [
            "1900-02-29T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-00-01T00:00:00Z",
            "2026-01-00T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T23:60:00Z",
            "2026-01-01T23:59:60Z",
            "2026-01-01t23:59:59Z",
            "2026-01-01 23:59:59Z",
            "2026-01-01T23:59:59z",
            "2026-01-01T23:59:59+00:00",
            "2026-01-01T23:59:59.5Z",
            "2026-1-01T23:59:59Z ",
            "+2026-01-01T23:59:5Z",
            "2026-01-01T23:59:5xZ",
            "",
        ] {
            assert_eq!(canonical(text.as_bytes()), None, "{text}");
        }
    }

    /// Through serde: the fast path, jiff's forms, `null`, and jiff's own error for bad text.
    #[test]
    fn serde_reads_as_jiff_does() {
        #[derive(serde::Deserialize, Debug)]
        struct T {
            #[serde(default, deserialize_with = "option")]
            t: Option<Time>,
        }
        #[derive(serde::Deserialize, Debug)]
        struct J {
            #[serde(default)]
            t: Option<Time>,
        }
        for json in [
            r#"{"t":"2026-11-30T12:02:27Z"}"#,
            r#"{"t":"2026-11-30T12:02:27.123456Z"}"#,
            r#"{"t":"2026-11-30T14:02:27+02:00"}"#,
            r#"{"t":null}"#,
            r#"{}"#,
            r#"{"t":"2026-02-30T12:02:27Z"}"#,
            r#"{"t":"yesterday"}"#,
            r#"{"t":5}"#,
        ] {
            let ours = serde_json::from_str::<T>(json).map(|v| v.t);
            let theirs = serde_json::from_str::<J>(json).map(|v| v.t);
            match (ours, theirs) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{json}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{json}"),
                (a, b) => panic!("{json}: {a:?} against {b:?}"),
            }
        }
    }
}
