//! `Quantity`: an exact fixed-point number with Kubernetes' `resource.Quantity` semantics.
//!
//! STUB: the public API below is the contract other crates build on; the
//! implementation is being replaced by an exact port (see issue 2).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// The suffix family a quantity remembers from its input, as upstream's `Format`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Format {
    /// `n`, `u`, `m`, ``, `k`, `M`, `G`, `T`, `P`, `E`.
    #[default]
    DecimalSI,
    /// `Ki` .. `Ei`.
    BinarySI,
    /// `e<N>` / `E<N>`.
    DecimalExponent,
}

/// Why a string is not a quantity; `Display` gives upstream's error texts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseQuantityError {
    /// The string does not have the shape of a quantity.
    #[error(
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    )]
    Format,
    /// The suffix is not one Kubernetes knows.
    #[error("unable to parse quantity's suffix")]
    Suffix,
    /// The number could not be read.
    #[error("unable to parse numeric part of quantity")]
    Numeric,
}

/// An exact quantity (stub representation: nanos in an `i128`).
#[derive(Clone, Default)]
pub struct Quantity {
    nanos: i128,
    format: Format,
}

impl Quantity {
    /// Zero, formatted DecimalSI.
    pub const ZERO: Quantity = Quantity {
        nanos: 0,
        format: Format::DecimalSI,
    };

    /// Parses with upstream's grammar (`resource.ParseQuantity`).
    pub fn parse(s: &str) -> Result<Self, ParseQuantityError> {
        s.parse()
    }
    /// `value * 10^scale` formatted as `format` (upstream `NewScaledQuantity` / `NewQuantity`).
    pub fn from_scaled(value: i64, scale: i32, format: Format) -> Self {
        let mut n = value as i128 * 1_000_000_000;
        if scale >= 0 {
            n *= 10i128.pow(scale as u32);
        } else {
            n /= 10i128.pow((-scale) as u32);
        }
        Quantity { nanos: n, format }
    }
    /// A whole number of units (cores, bytes, GPUs) in `format` (upstream `NewQuantity`).
    pub fn from_value(value: i64, format: Format) -> Self {
        Self::from_scaled(value, 0, format)
    }
    /// Millis (millicores), DecimalSI (upstream `NewMilliQuantity`).
    pub fn from_millis(millis: i64) -> Self {
        Self::from_scaled(millis, -3, Format::DecimalSI)
    }
    /// The remembered suffix family.
    pub fn format(&self) -> Format {
        self.format
    }
    /// `Value()`: ceil(x), saturating at the i64 range.
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }
    /// `MilliValue()`: ceil(x * 1000), saturating at the i64 range.
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }
    /// `ScaledValue(scale)`: ceil(x / 10^scale), saturating at the i64 range.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        let div = 10i128.pow((9 + scale) as u32);
        let q = self.nanos.div_euclid(div)
            + if self.nanos.rem_euclid(div) != 0 {
                1
            } else {
                0
            };
        q.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }
    /// True when the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }
    /// True when the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }
    /// Exact sum; `None` only when the result is not representable.
    pub fn checked_add(&self, other: &Quantity) -> Option<Quantity> {
        let format = if self.is_zero() {
            other.format
        } else {
            self.format
        };
        Some(Quantity {
            nanos: self.nanos.checked_add(other.nanos)?,
            format,
        })
    }
    /// Exact difference; `None` only when the result is not representable.
    pub fn checked_sub(&self, other: &Quantity) -> Option<Quantity> {
        let format = if self.is_zero() {
            other.format
        } else {
            self.format
        };
        Some(Quantity {
            nanos: self.nanos.checked_sub(other.nanos)?,
            format,
        })
    }
    /// Exact product with an integer (upstream `Mul`).
    pub fn checked_mul(&self, factor: i64) -> Option<Quantity> {
        Some(Quantity {
            nanos: self.nanos.checked_mul(factor as i128)?,
            format: self.format,
        })
    }
}

impl FromStr for Quantity {
    type Err = ParseQuantityError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(ParseQuantityError::Format);
        }
        let split = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
            .unwrap_or(s.len());
        let (num, suffix) = s.split_at(split);
        let (mult_num, mult_den, format): (i128, i128, Format) = match suffix {
            "" => (1, 1, Format::DecimalSI),
            "n" => (1, 1_000_000_000, Format::DecimalSI),
            "u" => (1, 1_000_000, Format::DecimalSI),
            "m" => (1, 1000, Format::DecimalSI),
            "k" => (1000, 1, Format::DecimalSI),
            "M" => (1_000_000, 1, Format::DecimalSI),
            "G" => (1_000_000_000, 1, Format::DecimalSI),
            "T" => (1_000_000_000_000, 1, Format::DecimalSI),
            "Ki" => (1 << 10, 1, Format::BinarySI),
            "Mi" => (1 << 20, 1, Format::BinarySI),
            "Gi" => (1 << 30, 1, Format::BinarySI),
            "Ti" => (1 << 40, 1, Format::BinarySI),
            _ => return Err(ParseQuantityError::Suffix),
        };
        let (neg, num) = match num.as_bytes().first() {
            Some(b'-') => (true, &num[1..]),
            Some(b'+') => (false, &num[1..]),
            _ => (false, num),
        };
        let (int, frac) = num.split_once('.').unwrap_or((num, ""));
        let mut n: i128 = 0;
        let mut den: i128 = 1;
        for c in int.bytes().chain(frac.bytes()) {
            if !c.is_ascii_digit() {
                return Err(ParseQuantityError::Format);
            }
            n = n.checked_mul(10).ok_or(ParseQuantityError::Numeric)? + (c - b'0') as i128;
        }
        for _ in frac.bytes() {
            den *= 10;
        }
        let num = n * mult_num * 1_000_000_000;
        let d = den * mult_den;
        let mut nanos = num / d + if num % d != 0 { 1 } else { 0 };
        if neg {
            nanos = -nanos;
        }
        Ok(Quantity { nanos, format })
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nanos % 1_000_000_000 == 0 {
            write!(f, "{}", self.nanos / 1_000_000_000)
        } else if self.nanos % 1_000_000 == 0 {
            write!(f, "{}m", self.nanos / 1_000_000)
        } else {
            write!(f, "{}n", self.nanos)
        }
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({self})")
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
    }
}
impl Eq for Quantity {}
impl Hash for Quantity {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.nanos.hash(state)
    }
}
impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }
}

impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a quantity string or number")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Quantity, E> {
                v.trim().parse().map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity::from_value(v, Format::DecimalSI))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Quantity, E> {
                v.to_string().parse().map_err(E::custom)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Quantity, E> {
                v.to_string().parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}
