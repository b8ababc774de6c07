//! `Quantity`: an exact fixed-point number with Kubernetes' `resource.Quantity` semantics.
//!
//! This is a port of `k8s.io/apimachinery/pkg/api/resource` (`quantity.go`, `amount.go`,
//! `math.go`, `suffix.go`, `scale_int.go`; behaviour pinned by `quantity_test.go` at commit
//! eed236ce and by `testdata/vectors/quantity.json`). It follows
//! `K8S-SEMANTICS.md` section 1:
//!
//! - **Grammar and errors**: [`Quantity::parse`] (and [`FromStr`]) runs upstream's
//!   permissive scanner (`parseQuantityString`) byte for byte, including its quirks (`"."`,
//!   `"+"`, `"e3"` parse as zero; `"1."` and `"1.G"` are valid), and returns upstream's three
//!   error texts ([`ParseQuantityError`]).
//! - **Values**: exact. A value is `mantissa * 10^exponent`; small mantissas live in an
//!   `i64` (no heap), larger ones in a private arbitrary-precision decimal. No floating
//!   point is used anywhere in the value path. Parsing rounds anything finer than 1e-9 **up**
//!   (away from zero) to the next nano, caps only BinarySI values at 2^63-1 in magnitude, and
//!   switches a BinarySI value strictly between 0 and 1 in magnitude to DecimalSI.
//! - **Printing**: [`Display`](fmt::Display) is upstream's `String()`: the original input
//!   when upstream caches it ("verbatim echo": `+1`, `007`, `12.345k`, `1E6`, `1.G`), else the
//!   canonical form (`0.5` -> `500m`, `1.5Gi` -> `1536Mi`, `1.1Ki` -> `1126400m`,
//!   `1023.5Ki` -> `1048064`). One deliberate difference: a DecimalSI value whose canonical
//!   exponent has no suffix (past `E`, or below `n` for values built with
//!   [`Quantity::from_scaled`]) prints in DecimalExponent form (`1000E` -> `1e21`), where
//!   upstream drops the exponent and prints a different number (`1`).
//!   Results of arithmetic are never echoed. [`Quantity::to_canonical_string`] always gives
//!   the canonical form.
//! - **Comparison**: [`Ord`], [`Eq`] and [`Hash`] are by numeric value only (`0.5` ==
//!   `500m`, `1Ki` == `1024`); the format and the remembered input do not take part.
//! - **Arithmetic**: [`Quantity::checked_add`] / [`Quantity::checked_sub`] /
//!   [`Quantity::checked_mul`] are exact; the result keeps the receiver's format, except that
//!   a zero receiver adopts the operand's format (upstream `Add`/`Sub`).
//! - **Integer views**: [`Quantity::value`], [`Quantity::milli_value`] and
//!   [`Quantity::scaled_value`] are `ceil(x / 10^scale)` like upstream for every non-negative
//!   value; where the result does not fit an `i64` they saturate (upstream returns an
//!   unspecified wrapped number) and the `checked_*` variants return `None`.
//!
//! Deliberate differences from upstream (all outside what the API server accepts for resource
//! quantities, which must be non-negative):
//! - Negative values round with a true ceiling. Upstream rounds a negative non-integer away
//!   from zero on its int64 path (`-1.5` -> -2) and to `trunc + 1` on its big-decimal path
//!   (`-1.1Ki` -> -1125, `-.001Ki` -> 0), and wraps silently for some in-range negatives
//!   (`-1000000000000000000` gives 6930898828); we return `ceil` (-1, -1126, -1, -10^18).
//! - An exact result that would need more than 100,000 decimal digits (only reachable with
//!   absurd exponents such as `1e100000 + 1n`) makes `checked_*` return `None` instead of
//!   allocating without bound; a BinarySI value whose integer form would exceed that size
//!   prints as DecimalSI.
//! - Bare non-integer JSON/YAML numbers reach serde as `f64`; they are converted through their
//!   shortest round-trip decimal text (exact for numbers with at most 15 significant digits)
//!   and printed canonically (upstream would echo the JSON text, e.g. `1e3`).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// The suffix family a quantity remembers from its input, as upstream's `Format`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[non_exhaustive]
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
    /// The string does not have the shape of a quantity (upstream `ErrFormatWrong`; also the
    /// empty string).
    #[error(
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    )]
    Format,
    /// The suffix is not one Kubernetes knows (upstream `ErrSuffix`: `1K`, `1e`, `5i`).
    #[error("unable to parse quantity's suffix")]
    Suffix,
    /// The number could not be read (upstream `ErrNumeric`, e.g. `Ei` or `e-10`, whose empty
    /// mantissa reaches upstream's big-decimal path).
    #[error("unable to parse numeric part of quantity")]
    Numeric,
}

// ---------------------------------------------------------------------------------------
// Arbitrary-precision decimal magnitude (base 10^9 limbs, little endian).
// ---------------------------------------------------------------------------------------

/// Limb base of [`Mag`].
const LIMB: u64 = 1_000_000_000;
/// Largest number of decimal digits an arithmetic result may need before `checked_*` gives up.
const MAX_DIGITS: i64 = 100_000;

const fn pow10_u128_table() -> [u128; 39] {
    let mut t = [0u128; 39];
    let mut v: u128 = 1;
    let mut i = 0;
    while i < 39 {
        t[i] = v;
        if i < 38 {
            v *= 10;
        }
        i += 1;
    }
    t
}
/// `10^i` for `i` in `0..=38`.
const POW10: [u128; 39] = pow10_u128_table();

/// A non-negative integer in base 10^9; no most-significant zero limbs (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
struct Mag(Vec<u32>);

impl Mag {
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn from_u128(mut v: u128) -> Mag {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % LIMB as u128) as u32);
            v /= LIMB as u128;
        }
        Mag(limbs)
    }

    fn to_u128(&self) -> Option<u128> {
        if self.0.len() > 5 {
            return None;
        }
        let mut v: u128 = 0;
        for &l in self.0.iter().rev() {
            v = v.checked_mul(LIMB as u128)?.checked_add(l as u128)?;
        }
        Some(v)
    }

    /// The digits among `bytes` (other bytes such as a sign or a `.` are skipped).
    fn from_ascii_digits(bytes: &[u8]) -> Mag {
        let mut limbs = Vec::with_capacity(bytes.len() / 9 + 1);
        let mut cur: u64 = 0;
        let mut mult: u64 = 1;
        for &c in bytes.iter().rev() {
            if c.is_ascii_digit() {
                cur += (c - b'0') as u64 * mult;
                mult *= 10;
                if mult == LIMB {
                    limbs.push(cur as u32);
                    cur = 0;
                    mult = 1;
                }
            }
        }
        if mult != 1 {
            limbs.push(cur as u32);
        }
        let mut m = Mag(limbs);
        m.trim();
        m
    }

    fn num_digits(&self) -> i64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as i64 - 1) * 9 + digits_u64(top as u64) as i64,
        }
    }

    fn cmp_mag(&self, o: &Mag) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    fn add(&self, o: &Mag) -> Mag {
        let (long, short) = if self.0.len() >= o.0.len() {
            (self, o)
        } else {
            (o, self)
        };
        let mut out = Vec::with_capacity(long.0.len() + 1);
        let mut carry = 0u64;
        for (i, &l) in long.0.iter().enumerate() {
            let s = l as u64 + short.0.get(i).copied().unwrap_or(0) as u64 + carry;
            out.push((s % LIMB) as u32);
            carry = s / LIMB;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        Mag(out)
    }

    /// `self - o`; requires `self >= o`.
    fn sub(&self, o: &Mag) -> Mag {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for (i, &l) in self.0.iter().enumerate() {
            let mut d = l as i64 - o.0.get(i).copied().unwrap_or(0) as i64 - borrow;
            if d < 0 {
                d += LIMB as i64;
                borrow = 1;
            } else {
                borrow = 0;
            }
            out.push(d as u32);
        }
        let mut m = Mag(out);
        m.trim();
        m
    }

    fn mul_small(&mut self, m: u32) {
        if m == 0 {
            self.0.clear();
            return;
        }
        let mut carry = 0u64;
        for l in &mut self.0 {
            let p = *l as u64 * m as u64 + carry;
            *l = (p % LIMB) as u32;
            carry = p / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    fn mul(&self, o: &Mag) -> Mag {
        if self.is_zero() || o.is_zero() {
            return Mag::default();
        }
        let mut res = vec![0u32; self.0.len() + o.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let cur = res[i + j] as u64 + a as u64 * b as u64 + carry;
                res[i + j] = (cur % LIMB) as u32;
                carry = cur / LIMB;
            }
            let mut k = i + o.0.len();
            while carry > 0 && k < res.len() {
                let cur = res[k] as u64 + carry;
                res[k] = (cur % LIMB) as u32;
                carry = cur / LIMB;
                k += 1;
            }
        }
        let mut m = Mag(res);
        m.trim();
        m
    }

    /// Multiplies by `10^k`.
    fn mul_pow10(&mut self, k: u64) {
        if self.is_zero() || k == 0 {
            return;
        }
        let r = (k % 9) as usize;
        if r > 0 {
            self.mul_small(POW10[r] as u32);
        }
        let limbs = (k / 9) as usize;
        if limbs > 0 {
            self.0.splice(0..0, std::iter::repeat_n(0u32, limbs));
        }
    }

    /// Divides by `d` (non-zero), returning the remainder.
    fn divrem_small(&mut self, d: u32) -> u32 {
        let d = d as u64;
        let mut rem = 0u64;
        for l in self.0.iter_mut().rev() {
            let cur = rem * LIMB + *l as u64;
            *l = (cur / d) as u32;
            rem = cur % d;
        }
        self.trim();
        rem as u32
    }

    /// Truncating division by `10^k`; returns true when a non-zero remainder was dropped.
    fn div_pow10(&mut self, k: u64) -> bool {
        if self.is_zero() || k == 0 {
            return false;
        }
        if k >= self.num_digits() as u64 {
            self.0.clear();
            return true;
        }
        let limbs = (k / 9) as usize;
        let mut inexact = self.0[..limbs].iter().any(|&l| l != 0);
        self.0.drain(..limbs);
        let r = (k % 9) as usize;
        if r > 0 && self.divrem_small(POW10[r] as u32) != 0 {
            inexact = true;
        }
        self.trim();
        inexact
    }

    /// Number of trailing decimal zeros of a non-zero magnitude.
    fn trailing_zeros(&self) -> u64 {
        let mut n = 0u64;
        for &l in &self.0 {
            if l == 0 {
                n += 9;
            } else {
                let mut l = l;
                while l % 10 == 0 {
                    l /= 10;
                    n += 1;
                }
                return n;
            }
        }
        n
    }

    fn write_decimal(&self, out: &mut String) {
        match self.0.split_last() {
            None => out.push('0'),
            Some((top, rest)) => {
                out.push_str(&top.to_string());
                for l in rest.iter().rev() {
                    out.push_str(&format!("{l:09}"));
                }
            }
        }
    }
}

fn digits_u64(mut v: u64) -> u32 {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// An exact decimal `(-1)^neg * mag * 10^exp` (slow path).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct BigNum {
    neg: bool,
    mag: Mag,
    exp: i64,
}

impl BigNum {
    fn signum(&self) -> i32 {
        if self.mag.is_zero() {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    /// Compares magnitudes exactly; never allocates more than the larger coefficient.
    fn cmp_abs(&self, o: &BigNum) -> Ordering {
        match (self.mag.is_zero(), o.mag.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let oa = self.mag.num_digits() + self.exp;
        let ob = o.mag.num_digits() + o.exp;
        if oa != ob {
            return oa.cmp(&ob);
        }
        match self.exp.cmp(&o.exp) {
            Ordering::Equal => self.mag.cmp_mag(&o.mag),
            Ordering::Greater => {
                let mut m = self.mag.clone();
                m.mul_pow10((self.exp - o.exp) as u64);
                m.cmp_mag(&o.mag)
            }
            Ordering::Less => {
                let mut m = o.mag.clone();
                m.mul_pow10((o.exp - self.exp) as u64);
                self.mag.cmp_mag(&m)
            }
        }
    }

    fn cmp_value(&self, o: &BigNum) -> Ordering {
        let (sa, sb) = (self.signum(), o.signum());
        if sa != sb {
            return sa.cmp(&sb);
        }
        match sa {
            0 => Ordering::Equal,
            1 => self.cmp_abs(o),
            _ => self.cmp_abs(o).reverse(),
        }
    }

    fn from_u128(neg: bool, v: u128, exp: i64) -> BigNum {
        BigNum {
            neg,
            mag: Mag::from_u128(v),
            exp,
        }
    }
}

// ---------------------------------------------------------------------------------------
// The numeric value of a quantity.
// ---------------------------------------------------------------------------------------

/// `mant * 10^exp`, normalized so that equal values have equal representations:
/// the coefficient has no trailing decimal zero (zero is `Small { 0, 0 }`), and `Small` is used
/// exactly when the coefficient fits an `i64` and the exponent an `i32`.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Num {
    Small { mant: i64, exp: i32 },
    Big(Box<BigNum>),
}

const NUM_ZERO: Num = Num::Small { mant: 0, exp: 0 };

impl Num {
    /// Normalizes `mant * 10^exp` (hot path of parsing).
    #[inline]
    fn from_i64(mant: i64, exp: i32) -> Num {
        if mant == 0 {
            return NUM_ZERO;
        }
        let mut m = mant;
        let mut e = exp;
        while m % 10 == 0 {
            if e == i32::MAX {
                return Num::small(m as i128, e as i64);
            }
            m /= 10;
            e += 1;
        }
        Num::Small { mant: m, exp: e }
    }

    /// Normalizes `mant * 10^exp`.
    #[inline]
    fn small(mant: i128, exp: i64) -> Num {
        if let (Ok(m), Ok(e)) = (i64::try_from(mant), i32::try_from(exp))
            && m != 0
            && m % 10 != 0
        {
            return Num::Small { mant: m, exp: e };
        }
        Num::small_slow(mant, exp)
    }

    #[cold]
    fn small_slow(mant: i128, exp: i64) -> Num {
        if mant == 0 {
            return NUM_ZERO;
        }
        if let Ok(mut m) = i64::try_from(mant) {
            let mut e = exp;
            while m % 10 == 0 {
                m /= 10;
                e += 1;
            }
            if let Ok(e) = i32::try_from(e) {
                return Num::Small { mant: m, exp: e };
            }
            return Num::big(m < 0, Mag::from_u128(m.unsigned_abs() as u128), e);
        }
        Num::big(mant < 0, Mag::from_u128(mant.unsigned_abs()), exp)
    }

    /// Normalizes `(-1)^neg * mag * 10^exp`.
    fn big(neg: bool, mut mag: Mag, mut exp: i64) -> Num {
        if mag.is_zero() {
            return NUM_ZERO;
        }
        let tz = mag.trailing_zeros();
        if tz > 0 {
            mag.div_pow10(tz);
            exp += tz as i64;
        }
        if let (Some(v), Ok(e)) = (mag.to_u128(), i32::try_from(exp)) {
            let signed = if neg { -(v as i128) } else { v as i128 };
            if let Ok(m) = i64::try_from(signed) {
                return Num::Small { mant: m, exp: e };
            }
        }
        Num::Big(Box::new(BigNum { neg, mag, exp }))
    }

    fn to_big(&self) -> BigNum {
        match self {
            Num::Small { mant, exp } => {
                BigNum::from_u128(*mant < 0, mant.unsigned_abs() as u128, *exp as i64)
            }
            Num::Big(b) => (**b).clone(),
        }
    }

    #[inline]
    fn signum(&self) -> i32 {
        match self {
            Num::Small { mant, .. } => mant.signum() as i32,
            Num::Big(b) => b.signum(),
        }
    }

    #[inline]
    fn cmp_value(&self, o: &Num) -> Ordering {
        if let (Num::Small { mant: m1, exp: e1 }, Num::Small { mant: m2, exp: e2 }) = (self, o) {
            return cmp_small(*m1, *e1, *m2, *e2);
        }
        self.cmp_slow(o)
    }

    #[cold]
    fn cmp_slow(&self, o: &Num) -> Ordering {
        self.to_big().cmp_value(&o.to_big())
    }

    #[inline]
    fn checked_add(&self, o: &Num) -> Option<Num> {
        if let (Num::Small { mant: m1, exp: e1 }, Num::Small { mant: m2, exp: e2 }) = (self, o)
            && let Some(n) = add_small(*m1, *e1, *m2, *e2)
        {
            return Some(n);
        }
        self.checked_add_slow(o)
    }

    #[cold]
    fn checked_add_slow(&self, o: &Num) -> Option<Num> {
        let (a, b) = (self.to_big(), o.to_big());
        if a.mag.is_zero() {
            return Some(o.clone());
        }
        if b.mag.is_zero() {
            return Some(self.clone());
        }
        let e = a.exp.min(b.exp);
        let da = a.mag.num_digits() + (a.exp - e);
        let db = b.mag.num_digits() + (b.exp - e);
        if da.max(db) > MAX_DIGITS {
            return None;
        }
        let mut ma = a.mag;
        ma.mul_pow10((a.exp - e) as u64);
        let mut mb = b.mag;
        mb.mul_pow10((b.exp - e) as u64);
        if a.neg == b.neg {
            return Some(Num::big(a.neg, ma.add(&mb), e));
        }
        Some(match ma.cmp_mag(&mb) {
            Ordering::Equal => NUM_ZERO,
            Ordering::Greater => Num::big(a.neg, ma.sub(&mb), e),
            Ordering::Less => Num::big(b.neg, mb.sub(&ma), e),
        })
    }

    #[inline]
    fn neg(&self) -> Num {
        match self {
            Num::Small { mant, exp } => match mant.checked_neg() {
                Some(m) => Num::Small { mant: m, exp: *exp },
                None => Num::big(false, Mag::from_u128(1u128 << 63), *exp as i64),
            },
            Num::Big(b) => Num::big(!b.neg, b.mag.clone(), b.exp),
        }
    }

    fn checked_mul(&self, factor: i64) -> Option<Num> {
        match self {
            Num::Small { mant, exp } => {
                Some(Num::small(*mant as i128 * factor as i128, *exp as i64))
            }
            Num::Big(b) => {
                let f = Mag::from_u128(factor.unsigned_abs() as u128);
                let mag = b.mag.mul(&f);
                if mag.num_digits() > MAX_DIGITS {
                    return None;
                }
                Some(Num::big(b.neg != (factor < 0), mag, b.exp))
            }
        }
    }

    /// `ceil(x / 10^scale)` when it fits an `i64`.
    fn ceil_scaled(&self, scale: i32) -> Option<i64> {
        match self {
            Num::Small { mant, exp } => {
                let m = *mant;
                if m == 0 {
                    return Some(0);
                }
                let t = *exp as i64 - scale as i64;
                if t >= 0 {
                    if t > 18 {
                        return None;
                    }
                    return i64::try_from(m as i128 * POW10[t as usize] as i128).ok();
                }
                let d = -t;
                if d >= 19 {
                    // 0 < |x| < 1 at this scale.
                    return Some(if m > 0 { 1 } else { 0 });
                }
                let p = POW10[d as usize] as i64;
                let q = m.div_euclid(p);
                Some(if m.rem_euclid(p) != 0 { q + 1 } else { q })
            }
            Num::Big(b) => {
                let t = b.exp - scale as i64;
                let order = b.mag.num_digits() + t;
                if order > 19 {
                    return None;
                }
                let mut mag = b.mag.clone();
                let inexact = if t >= 0 {
                    mag.mul_pow10(t as u64);
                    false
                } else {
                    mag.div_pow10((-t) as u64)
                };
                let v = mag.to_u128()? as i128;
                let v = if b.neg {
                    -v
                } else if inexact {
                    v + 1
                } else {
                    v
                };
                i64::try_from(v).ok()
            }
        }
    }
}

/// Compares `m1 * 10^e1` with `m2 * 10^e2` (normalized small values).
#[inline]
fn cmp_small(m1: i64, e1: i32, m2: i64, e2: i32) -> Ordering {
    let (s1, s2) = (m1.signum(), m2.signum());
    if s1 != s2 {
        return s1.cmp(&s2);
    }
    if s1 == 0 || e1 == e2 {
        return m1.cmp(&m2);
    }
    let d = e1 as i64 - e2 as i64;
    if d > 0 {
        if d <= 19 {
            return (m1 as i128 * POW10[d as usize] as i128).cmp(&(m2 as i128));
        }
        // |self| >= 10^20 > |o|.
        return if s1 > 0 {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    }
    let d = -d;
    if d <= 19 {
        return (m1 as i128).cmp(&(m2 as i128 * POW10[d as usize] as i128));
    }
    if s1 > 0 {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// `m1 * 10^e1 + m2 * 10^e2` when the exponents are close enough for `i128`; `None` sends
/// the caller to the big-decimal path.
#[inline]
fn add_small(m1: i64, e1: i32, m2: i64, e2: i32) -> Option<Num> {
    if m1 == 0 {
        return Some(Num::Small { mant: m2, exp: e2 });
    }
    if m2 == 0 {
        return Some(Num::Small { mant: m1, exp: e1 });
    }
    let (a, b) = (m1 as i128, m2 as i128);
    let d = e1 as i64 - e2 as i64;
    if d == 0 {
        Some(Num::small(a + b, e1 as i64))
    } else if (1..=19).contains(&d) {
        Some(Num::small(a * POW10[d as usize] as i128 + b, e2 as i64))
    } else if (-19..=-1).contains(&d) {
        Some(Num::small(a + b * POW10[(-d) as usize] as i128, e1 as i64))
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// The remembered input (upstream's cached string `s`).
// ---------------------------------------------------------------------------------------

/// The original input when upstream would echo it **and** it differs from the canonical form
/// (`+1`, `007`, `1.`, `12.345k`, `1E6`, `1e+3`). When upstream caches an input that already
/// is canonical (`100m`, `1Gi`, `1e3`: the common case) nothing is stored, because printing
/// the canonical form re-derives exactly the same text; so common forms never allocate.
#[derive(Clone)]
struct Echo(Option<String>);

impl Echo {
    const NONE: Echo = Echo(None);

    fn as_str(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

// ---------------------------------------------------------------------------------------
// Quantity.
// ---------------------------------------------------------------------------------------

/// An exact quantity with Kubernetes' `resource.Quantity` semantics (see the module docs).
///
/// Units are whatever the resource uses: cores for `cpu`, bytes for `memory` and storage,
/// devices for GPUs.
///
/// Size and allocation: 16 bytes. A value whose coefficient fits an `i64` (every realistic
/// resource quantity: `100m`, `0.5`, `64Mi`, `80Gi`, `1Ti`, `500M`, `1e3`, ...) is stored
/// inline; upstream's echo of a canonically spelled input is re-derived when printing, so it
/// costs nothing. Only values beyond `i64` and inputs whose echoed spelling differs from the
/// canonical form (`+1`, `007`, `1.`, `12.345k`, `1E6`) are boxed.
#[derive(Clone)]
pub struct Quantity(Repr);

/// 16 bytes, so a quantity moves in two registers; the box holds only big values and echoed
/// spellings, which are rare.
#[derive(Clone)]
enum Repr {
    /// A normalized `Num::Small` without echo (the common case).
    Inline { mant: i64, exp: i32, format: Format },
    /// Anything else.
    Boxed(Box<Boxed>),
}

impl Repr {
    /// `(mantissa, exponent)` of an inline value, `None` for a boxed one (the fast path of
    /// equality and ordering).
    #[inline]
    fn inline_parts(&self) -> Option<(i64, i32)> {
        match self {
            Repr::Inline { mant, exp, .. } => Some((*mant, *exp)),
            Repr::Boxed(_) => None,
        }
    }
}

#[derive(Clone)]
struct Boxed {
    num: Num,
    format: Format,
    echo: Echo,
}

impl Default for Quantity {
    fn default() -> Self {
        Quantity::ZERO
    }
}

impl Quantity {
    #[inline]
    fn make(num: Num, format: Format, echo: Echo) -> Quantity {
        match (num, echo) {
            (Num::Small { mant, exp }, Echo(None)) => Quantity(Repr::Inline { mant, exp, format }),
            (num, echo) => Quantity(Repr::Boxed(Box::new(Boxed { num, format, echo }))),
        }
    }

    /// The numeric value (no allocation: an inline value is rebuilt on the stack).
    #[inline]
    fn num(&self) -> std::borrow::Cow<'_, Num> {
        match &self.0 {
            Repr::Inline { mant, exp, .. } => std::borrow::Cow::Owned(Num::Small {
                mant: *mant,
                exp: *exp,
            }),
            Repr::Boxed(b) => std::borrow::Cow::Borrowed(&b.num),
        }
    }

    #[inline]
    fn echo_str(&self) -> Option<&str> {
        match &self.0 {
            Repr::Inline { .. } => None,
            Repr::Boxed(b) => b.echo.as_str(),
        }
    }
}

impl Quantity {
    /// Largest whole-unit value whose [`Quantity::milli_value`] fits an `i64`:
    /// `(2^63-1) / 1000` (upstream `MaxMilliValue`). LimitRanger-style callers compare at milli
    /// precision only when every operand is at most this.
    pub const MAX_MILLI_VALUE: i64 = i64::MAX / 1000;

    /// Zero, formatted DecimalSI (prints `0`).
    pub const ZERO: Quantity = Quantity(Repr::Inline {
        mant: 0,
        exp: 0,
        format: Format::DecimalSI,
    });

    /// Parses with upstream's grammar (`resource.ParseQuantity`). Leading or trailing
    /// whitespace is an error here (the serde path trims it, as upstream's `UnmarshalJSON`).
    ///
    /// # Errors
    /// [`ParseQuantityError::Format`], [`ParseQuantityError::Suffix`] or
    /// [`ParseQuantityError::Numeric`], with upstream's texts.
    pub fn parse(s: &str) -> Result<Self, ParseQuantityError> {
        parse_quantity(s)
    }

    /// `value * 10^scale` in `format` (upstream `NewScaledQuantity` / `NewQuantity` /
    /// `NewMilliQuantity`). The value is exact; nothing is rounded (upstream does not round
    /// here either, so a scale below -9 keeps sub-nano precision).
    pub fn from_scaled(value: i64, scale: i32, format: Format) -> Self {
        Quantity::make(Num::small(value as i128, scale as i64), format, Echo::NONE)
    }

    /// A whole number of units (cores, bytes, GPUs) in `format` (upstream `NewQuantity`).
    pub fn from_value(value: i64, format: Format) -> Self {
        Self::from_scaled(value, 0, format)
    }

    /// Millis (millicores), DecimalSI (upstream `NewMilliQuantity(v, DecimalSI)`).
    pub fn from_millis(millis: i64) -> Self {
        Self::from_scaled(millis, -3, Format::DecimalSI)
    }

    /// The remembered suffix family.
    pub fn format(&self) -> Format {
        match &self.0 {
            Repr::Inline { format, .. } => *format,
            Repr::Boxed(b) => b.format,
        }
    }

    /// The same value in another format; the echoed input is dropped (upstream sets
    /// `q.Format`, which only affects quantities that are not cached).
    pub fn with_format(&self, format: Format) -> Quantity {
        Quantity::make(self.num().into_owned(), format, Echo::NONE)
    }

    /// `Value()`: `ceil(x)` in units; saturates at `i64::MIN`/`i64::MAX` when the result does
    /// not fit (see [`Quantity::checked_value`]).
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// `MilliValue()`: `ceil(x * 1000)`; saturates when the result does not fit
    /// (see [`Quantity::checked_milli_value`]).
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// `ScaledValue(scale)`: `ceil(x / 10^scale)` (scale -3 = millis, -9 = nanos, 3 = kilo);
    /// saturates at `i64::MIN`/`i64::MAX` when the result does not fit.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        match self.checked_scaled_value(scale) {
            Some(v) => v,
            None if self.is_negative() => i64::MIN,
            None => i64::MAX,
        }
    }

    /// `ceil(x)`, or `None` when it does not fit an `i64` (upstream returns garbage there).
    pub fn checked_value(&self) -> Option<i64> {
        self.checked_scaled_value(0)
    }

    /// `ceil(x * 1000)`, or `None` when it does not fit an `i64`.
    pub fn checked_milli_value(&self) -> Option<i64> {
        self.checked_scaled_value(-3)
    }

    /// `ceil(x / 10^scale)`, or `None` when it does not fit an `i64`.
    pub fn checked_scaled_value(&self, scale: i32) -> Option<i64> {
        self.num().ceil_scaled(scale)
    }

    /// True when the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.num().signum() == 0
    }

    /// True when the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.num().signum() < 0
    }

    /// True when the value is above zero.
    pub fn is_positive(&self) -> bool {
        self.num().signum() > 0
    }

    /// -1, 0 or 1 (upstream `Sign()`).
    pub fn signum(&self) -> i32 {
        self.num().signum()
    }

    /// Exact sum (upstream `Add`). Keeps the receiver's format unless the receiver is zero, in
    /// which case it takes `other`'s. Never echoed. `None` only when the exact result would
    /// need more than 100,000 digits.
    #[inline]
    pub fn checked_add(&self, other: &Quantity) -> Option<Quantity> {
        if let (
            Repr::Inline {
                mant: m1,
                exp: e1,
                format: f1,
            },
            Repr::Inline {
                mant: m2,
                exp: e2,
                format: f2,
            },
        ) = (&self.0, &other.0)
            && let Some(num) = add_small(*m1, *e1, *m2, *e2)
        {
            let format = if *m1 == 0 { *f2 } else { *f1 };
            return Some(Quantity::make(num, format, Echo::NONE));
        }
        Some(Quantity::make(
            self.num().checked_add(&other.num())?,
            self.arith_format(other),
            Echo::NONE,
        ))
    }

    /// Exact difference (upstream `Sub`), same format rule and limits as
    /// [`Quantity::checked_add`].
    #[inline]
    pub fn checked_sub(&self, other: &Quantity) -> Option<Quantity> {
        Some(Quantity::make(
            self.num().checked_add(&other.num().neg())?,
            self.arith_format(other),
            Echo::NONE,
        ))
    }

    /// Exact sum of many quantities, left to right with [`Quantity::checked_add`] starting
    /// from [`Quantity::ZERO`], as upstream code that loops `sum.Add(q)`: the result takes the
    /// format of the operand added while the running total was zero (`0 + 1Gi + 1G` prints
    /// `2073741824`). An empty input gives zero. `None` only when a partial sum would need more than 100,000
    /// digits.
    pub fn checked_sum<'a, I>(items: I) -> Option<Quantity>
    where
        I: IntoIterator<Item = &'a Quantity>,
    {
        let mut acc = Quantity::ZERO;
        for q in items {
            acc = acc.checked_add(q)?;
        }
        Some(acc)
    }

    /// Exact product with an integer (upstream `Mul`); keeps the format. `None` only when the
    /// result would need more than 100,000 digits.
    pub fn checked_mul(&self, factor: i64) -> Option<Quantity> {
        Some(Quantity::make(
            self.num().checked_mul(factor)?,
            self.format(),
            Echo::NONE,
        ))
    }

    /// Exact `floor(self * num / den)` at the precision `10^scale` (scale -3 = millicores,
    /// 0 = whole units, -9 = nanos), keeping the format: `20Pi * 50 / 100` at scale 0 is `10Pi`,
    /// `1 * 33 / 100` at scale -3 is `330m`. Rounds toward negative infinity, so a share of a
    /// non-negative amount never exceeds the exact share. Not in upstream (its `Value()` /
    /// `MilliValue()` overflow `int64` from about 9.2Ei / 9.2Pi; this never does).
    ///
    /// `None` when `den` is zero or the exact result would need more than 100,000 digits.
    pub fn checked_mul_ratio(&self, num: i64, den: u32, scale: i32) -> Option<Quantity> {
        if den == 0 {
            return None;
        }
        let b = self.num().checked_mul(num)?.to_big();
        if b.mag.is_zero() {
            return Some(Quantity::make(NUM_ZERO, self.format(), Echo::NONE));
        }
        // Integer part of |x| / 10^scale, then divided by den; any dropped remainder rounds a
        // negative value down (away from zero).
        let t = b.exp - i64::from(scale);
        let mut mag = b.mag;
        let mut inexact = false;
        if t >= 0 {
            if mag.num_digits() + t > MAX_DIGITS {
                return None;
            }
            mag.mul_pow10(t as u64);
        } else {
            inexact = mag.div_pow10(t.unsigned_abs());
        }
        if mag.divrem_small(den) != 0 {
            inexact = true;
        }
        if b.neg && inexact {
            mag = mag.add(&Mag::from_u128(1));
        }
        Some(Quantity::make(
            Num::big(b.neg, mag, i64::from(scale)),
            self.format(),
            Echo::NONE,
        ))
    }

    /// Upstream `RoundUp(scale)`: the value rounded away from zero to a multiple of
    /// `10^scale` (scale -3 = millis), and whether nothing was lost. A value already at that
    /// precision is returned unchanged, echoed input included; a rounded value is not echoed
    /// (upstream clears its cached string). `0.0005` at scale -3 gives `1m`, `-0.0015` gives
    /// `-2m`, `1.5` stays `1500m`.
    ///
    /// API defaulting applies it at scale -3 to every resource list of a pod, quota,
    /// LimitRange and claim (upstream `SetDefaults_ResourceList` in
    /// `pkg/apis/core/v1/defaults.go`).
    pub fn round_up(&self, scale: i32) -> (Quantity, bool) {
        if self.is_at_scale(scale) {
            return (self.clone(), true);
        }
        let num = match &*self.num() {
            Num::Small { mant, exp } => {
                // exp < scale here; |mant| < 10^19, so a shift of 19 or more leaves 0 (+1).
                let d = i64::from(scale) - i64::from(*exp);
                let m = mant.unsigned_abs() as u128;
                let (q, inexact) = if d >= 39 {
                    (0u128, m != 0)
                } else {
                    let p = POW10[d as usize];
                    (m / p, !m.is_multiple_of(p))
                };
                let q = if inexact { q + 1 } else { q };
                Num::big(*mant < 0, Mag::from_u128(q), i64::from(scale))
            }
            Num::Big(b) => {
                let mut mag = b.mag.clone();
                let inexact = mag.div_pow10((i64::from(scale) - b.exp).unsigned_abs());
                if inexact {
                    mag = mag.add(&Mag::from_u128(1));
                }
                Num::big(b.neg, mag, i64::from(scale))
            }
        };
        (Quantity::make(num, self.format(), Echo::NONE), false)
    }

    /// True when the value is a multiple of `10^scale` (so [`Quantity::round_up`] keeps it).
    pub fn is_at_scale(&self, scale: i32) -> bool {
        match &self.0 {
            // normalized: no trailing zero in the coefficient, so the exponent decides
            Repr::Inline { mant, exp, .. } => *mant == 0 || *exp >= scale,
            Repr::Boxed(b) => match &b.num {
                Num::Small { mant, exp } => *mant == 0 || *exp >= scale,
                Num::Big(n) => n.mag.is_zero() || n.exp >= i64::from(scale),
            },
        }
    }

    /// The canonical string (upstream `CanonicalizeBytes`), ignoring any echoed input:
    /// `"+1"` gives `1`, `"12.345k"` gives `12345`.
    pub fn to_canonical_string(&self) -> String {
        let mut out = String::new();
        match canonical_small(&self.num(), self.format()) {
            Some(buf) => out.push_str(buf.as_str()),
            None => canonical_big(&self.num().to_big(), self.format(), &mut out),
        }
        out
    }

    fn arith_format(&self, other: &Quantity) -> Format {
        if self.is_zero() {
            other.format()
        } else {
            self.format()
        }
    }
}

impl std::ops::Neg for Quantity {
    type Output = Quantity;
    /// Exact negation (upstream `Neg`); keeps the format, never echoed.
    fn neg(self) -> Quantity {
        -&self
    }
}

impl std::ops::Neg for &Quantity {
    type Output = Quantity;
    /// Exact negation (upstream `Neg`); keeps the format, never echoed.
    fn neg(self) -> Quantity {
        Quantity::make(self.num().neg(), self.format(), Echo::NONE)
    }
}

// ---------------------------------------------------------------------------------------
// Parsing.
// ---------------------------------------------------------------------------------------

/// Byte ranges found by upstream's scanner (`parseQuantityString`).
struct Scanned {
    positive: bool,
    /// The whole input was a sign and zeros: upstream's `num = value = "0"` shortcut.
    literal_zero: bool,
    /// Leading zeros were skipped.
    had_zeros: bool,
    /// A decimal point was present.
    has_dot: bool,
    num: (usize, usize),
    denom: (usize, usize),
    value_end: usize,
    suffix: (usize, usize),
}

fn in_suffix_set(c: u8) -> bool {
    matches!(
        c,
        b'e' | b'E' | b'i' | b'n' | b'u' | b'm' | b'k' | b'K' | b'M' | b'G' | b'T' | b'P'
    )
}

fn scan(b: &[u8]) -> Result<Scanned, ParseQuantityError> {
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    let sign_end = pos;
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    let mut out = Scanned {
        positive,
        literal_zero: false,
        had_zeros: pos > sign_end,
        has_dot: false,
        num: (pos, pos),
        denom: (pos, pos),
        value_end: end,
        suffix: (end, end),
    };
    if pos >= end {
        out.literal_zero = true;
        return Ok(out);
    }
    let num_start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    out.num = (num_start, pos);
    out.denom = (pos, pos);
    if pos >= end {
        return Ok(out);
    }
    if b[pos] == b'.' {
        out.has_dot = true;
        pos += 1;
        let ds = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        out.denom = (ds, pos);
        if pos >= end {
            return Ok(out);
        }
    }
    out.value_end = pos;
    let suffix_start = pos;
    out.suffix = (suffix_start, end);
    while pos < end && in_suffix_set(b[pos]) {
        pos += 1;
    }
    if pos >= end {
        return Ok(out);
    }
    if b[pos] == b'-' || b[pos] == b'+' {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok(out);
    }
    Err(ParseQuantityError::Format)
}

/// Go's `strconv.ParseInt(s, 10, 64)`: optional sign, at least one digit, in range.
fn go_parse_i64(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((c - b'0') as u64)?;
    }
    let signed = if neg { -(v as i128) } else { v as i128 };
    i64::try_from(signed).ok()
}

/// The power of ten of a one-letter decimal SI suffix (`n` -9, `u` -6, `m` -3, `k` 3, `M` 6,
/// `G` 9, `T` 12, `P` 15, `E` 18; upstream's `decimalSuffixes`), `None` for any other byte.
#[inline]
fn decimal_si_exponent(c: u8) -> Option<i32> {
    Some(match c {
        b'n' => -9,
        b'u' => -6,
        b'm' => -3,
        b'k' => 3,
        b'M' => 6,
        b'G' => 9,
        b'T' => 12,
        b'P' => 15,
        b'E' => 18,
        _ => return None,
    })
}

/// The power of two of a binary SI suffix `<c>i` (`Ki` 10, `Mi` 20, `Gi` 30, `Ti` 40, `Pi` 50,
/// `Ei` 60; upstream's `binarySuffixes`), `None` for any other letter.
#[inline]
fn binary_si_exponent(c: u8) -> Option<i32> {
    Some(match c {
        b'K' => 10,
        b'M' => 20,
        b'G' => 30,
        b'T' => 40,
        b'P' => 50,
        b'E' => 60,
        _ => return None,
    })
}

/// Upstream's `suffixHandler.interpret`: (base, exponent, format).
#[inline]
fn interpret(suffix: &[u8]) -> Result<(u32, i32, Format), ParseQuantityError> {
    use Format::*;
    match *suffix {
        [] => return Ok((10, 0, DecimalSI)),
        [c] => {
            let e = decimal_si_exponent(c).ok_or(ParseQuantityError::Suffix)?;
            return Ok((10, e, DecimalSI));
        }
        [c, b'i'] => {
            if let Some(e) = binary_si_exponent(c) {
                return Ok((2, e, BinarySI));
            }
        }
        _ => {}
    }
    match suffix {
        [b'e' | b'E', rest @ ..] if !rest.is_empty() => match go_parse_i64(rest) {
            // Go converts the int64 to int32 by truncation.
            Some(v) => Ok((10, v as i32, DecimalExponent)),
            None => Err(ParseQuantityError::Suffix),
        },
        _ => Err(ParseQuantityError::Suffix),
    }
}

#[inline]
fn parse_quantity(s: &str) -> Result<Quantity, ParseQuantityError> {
    match parse_fast(s) {
        Some(q) => Ok(q),
        None => parse_general(s),
    }
}

/// The common shapes (`[-]digits[.digits]` with an SI, binary or short exponent suffix that
/// upstream takes through its int64 fast path) in one pass. `None` hands the input to
/// [`parse_general`], which is the literal port and decides every error; the results agree
/// (checked by a unit test over generated inputs).
#[inline]
fn parse_fast(s: &str) -> Option<Quantity> {
    let b = s.as_bytes();
    let len = b.len();
    let mut i = 0;
    let neg = b.first() == Some(&b'-');
    if neg {
        i = 1;
    }
    let int_start = i;
    let mut v: u64 = 0;
    while i < len && b[i].is_ascii_digit() && i - int_start < 19 {
        v = v * 10 + (b[i] - b'0') as u64;
        i += 1;
    }
    let n_int = i - int_start;
    let first_zero = n_int > 0 && b[int_start] == b'0';
    let has_dot = i < len && b[i] == b'.';
    if first_zero && !(n_int == 1 && has_dot) {
        // leading zeros (or a bare 0): rare, general path
        return None;
    }
    let mut n_frac = 0;
    if has_dot {
        i += 1;
        let frac_start = i;
        while i < len && b[i].is_ascii_digit() && n_int + (i - frac_start) < 19 {
            v = v * 10 + (b[i] - b'0') as u64;
            i += 1;
        }
        n_frac = i - frac_start;
    }
    // upstream's `num` has leading zeros stripped; `0.5` has an empty `num`
    let num_len = if first_zero { 0 } else { n_int };
    if n_int + n_frac > 18 || (num_len == 0 && n_frac == 0) {
        return None;
    }
    let num_eff = num_len.max(1) as i64;
    let suffix = b.get(i..)?;
    let (exponent, format) = match *suffix {
        [] => (0, Format::DecimalSI),
        [c] => (decimal_si_exponent(c)?, Format::DecimalSI),
        [c, b'i'] => (binary_si_exponent(c)?, Format::BinarySI),
        [b'e' | b'E', ref rest @ ..] => {
            let (eneg, digits) = match rest {
                [b'-', d @ ..] => (true, d),
                [b'+', d @ ..] => (false, d),
                d => (false, d),
            };
            if digits.is_empty() || digits.len() > 9 {
                return None;
            }
            let mut e: i32 = 0;
            for &c in digits {
                if !c.is_ascii_digit() {
                    return None;
                }
                e = e * 10 + (c - b'0') as i32;
            }
            (if eneg { -e } else { e }, Format::DecimalExponent)
        }
        _ => return None,
    };
    let (result, scale, cached) = if format == Format::BinarySI {
        // upstream: no fraction digits, and 15 - len(num) - exponent*3/10 - 1 >= 0
        if n_frac > 0 || 14 - num_eff - (exponent as i64 * 3 / 10) < 0 {
            return None;
        }
        let r = (v as i64).checked_mul(1i64 << exponent)?;
        (r, 0, v & 7 != 0)
    } else {
        let scale = exponent - n_frac as i32;
        if scale < -9 {
            return None;
        }
        (
            v as i64,
            scale,
            scale % 3 == 0 && num_len > 0 && !v.is_multiple_of(1000),
        )
    };
    let echo = if cached
        && (has_dot
            || (format == Format::DecimalExponent && !canonical_exponent_text(suffix, exponent)))
    {
        Echo(Some(s.to_string()))
    } else {
        Echo::NONE
    };
    Some(Quantity::make(
        Num::from_i64(if neg { -result } else { result }, scale),
        format,
        echo,
    ))
}

/// The literal port of upstream `ParseQuantity` (scanner, fast int64 path, inf.Dec path).
fn parse_general(s: &str) -> Result<Quantity, ParseQuantityError> {
    let b = s.as_bytes();
    if b.is_empty() {
        return Err(ParseQuantityError::Format);
    }
    if b == b"0" {
        return Ok(Quantity::ZERO);
    }
    let sc = scan(b)?;
    let suffix = b.get(sc.suffix.0..sc.suffix.1).unwrap_or(&[]);
    let (base, exponent, mut format) = interpret(suffix)?;
    let num = b.get(sc.num.0..sc.num.1).unwrap_or(&[]);
    let denom = b.get(sc.denom.0..sc.denom.1).unwrap_or(&[]);
    // upstream replaces an empty numerator by "0"
    let num_len = num.len().max(1) as i64;
    let denom_len = denom.len() as i64;

    // Fast path (upstream's int64Amount branch).
    let mut mantissa: i64 = 1;
    let mut scale: i32;
    let precision: i64 = match format {
        Format::DecimalSI | Format::DecimalExponent => {
            scale = exponent;
            18 - (num_len + denom_len)
        }
        Format::BinarySI => {
            scale = 0;
            if exponent >= 0 && denom_len == 0 {
                mantissa = 1i64 << exponent;
                // upstream: 15 - len(num) - int32(float32(exponent)*3/10) - 1; exact in
                // integers for the exponents 10..60.
                15 - num_len - (exponent as i64 * 3 / 10) - 1
            } else {
                -1
            }
        }
    };
    if precision >= 0 {
        scale = scale.wrapping_sub(denom_len as i32);
        if scale >= -9 {
            // at most 18 digits here
            let mut value: u64 = 0;
            for &c in num.iter().chain(denom.iter()) {
                value = value * 10 + (c - b'0') as u64;
            }
            if let Some(result) = (value as i64).checked_mul(mantissa) {
                let result = if sc.positive { result } else { -result };
                let cached = match format {
                    Format::BinarySI => value & 7 != 0,
                    _ => scale % 3 == 0 && !num.is_empty() && !ends_with_000(num, denom),
                };
                // A cached input that is spelled canonically prints identically from the
                // value, so only the other spellings are stored.
                let echo = if cached
                    && (b[0] == b'+'
                        || sc.had_zeros
                        || sc.has_dot
                        || (format == Format::DecimalExponent
                            && !canonical_exponent_text(suffix, exponent)))
                {
                    Echo(Some(s.to_string()))
                } else {
                    Echo::NONE
                };
                return Ok(Quantity::make(Num::from_i64(result, scale), format, echo));
            }
        }
    }

    // Slow path (upstream's inf.Dec branch).
    let value_has_digits = sc.literal_zero || sc.had_zeros || !num.is_empty() || !denom.is_empty();
    if !value_has_digits {
        return Err(ParseQuantityError::Numeric);
    }
    let mut mag = if sc.literal_zero {
        Mag::default()
    } else {
        Mag::from_ascii_digits(b.get(..sc.value_end).unwrap_or(&[]))
    };
    // inf.Dec scale = digits after the point (int32 arithmetic, wrapping like Go)
    let mut dec_scale: i32 = denom_len as i32;
    if base == 10 {
        dec_scale = dec_scale.wrapping_sub(exponent);
    } else {
        // 2^exponent with exponent in 10..60
        let mut left = exponent as u32;
        while left > 0 {
            let step = left.min(30);
            mag.mul_small(1u32 << step);
            left -= step;
        }
    }
    let mut exp: i64 = -(dec_scale as i64);
    if !mag.is_zero() && dec_scale > 9 {
        // round up (away from zero) to nano
        if mag.div_pow10((dec_scale - 9) as u64) {
            mag = mag.add(&Mag::from_u128(1));
        }
        exp = -9;
    }
    if format == Format::BinarySI {
        let abs = BigNum {
            neg: false,
            mag,
            exp,
        };
        let cap = BigNum::from_u128(false, i64::MAX as u128, 0);
        let one = BigNum::from_u128(false, 1, 0);
        let abs = if abs.cmp_abs(&cap) == Ordering::Greater {
            cap
        } else {
            abs
        };
        if !abs.mag.is_zero() && abs.cmp_abs(&one) == Ordering::Less {
            format = Format::DecimalSI;
        }
        mag = abs.mag;
        exp = abs.exp;
    }
    Ok(Quantity::make(
        Num::big(!sc.positive, mag, exp),
        format,
        Echo::NONE,
    ))
}

/// Whether a DecimalExponent suffix is spelled as the canonical form prints it: `e`, then the
/// exponent in decimal without `+` or leading zeros (and the exponent is not 0, which prints
/// no suffix).
fn canonical_exponent_text(suffix: &[u8], exponent: i32) -> bool {
    if exponent == 0 || suffix.first() != Some(&b'e') {
        return false;
    }
    let mut buf = StackBuf::new();
    buf.push_front_i128(exponent as i128);
    suffix.get(1..) == Some(buf.as_str().as_bytes())
}

/// Whether `num + denom` (as one digit string) ends in `000`.
fn ends_with_000(num: &[u8], denom: &[u8]) -> bool {
    let mut zeros = 0;
    for &c in denom.iter().rev().chain(num.iter().rev()) {
        if c != b'0' {
            return false;
        }
        zeros += 1;
        if zeros == 3 {
            return true;
        }
    }
    false
}

impl FromStr for Quantity {
    type Err = ParseQuantityError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_quantity(s)
    }
}

// ---------------------------------------------------------------------------------------
// Printing.
// ---------------------------------------------------------------------------------------

/// A stack buffer filled from the right (suffix first, then digits, then sign).
struct StackBuf {
    buf: [u8; 64],
    start: usize,
}

impl StackBuf {
    #[inline]
    fn new() -> Self {
        StackBuf {
            buf: [0; 64],
            start: 64,
        }
    }
    #[inline]
    fn push_front(&mut self, s: &[u8]) {
        if let Some(new) = self.start.checked_sub(s.len())
            && let Some(dst) = self.buf.get_mut(new..self.start)
        {
            dst.copy_from_slice(s);
            self.start = new;
        }
    }
    #[inline]
    fn push_front_byte(&mut self, c: u8) {
        if self.start > 0 {
            self.start -= 1;
            self.buf[self.start] = c;
        }
    }
    /// Prepends the decimal digits of `v` (and a `-` when negative).
    #[inline]
    fn push_front_i128(&mut self, v: i128) {
        let mut u = v.unsigned_abs();
        if let Ok(mut w) = u64::try_from(u) {
            loop {
                self.push_front_byte(b'0' + (w % 10) as u8);
                w /= 10;
                if w == 0 {
                    break;
                }
            }
        } else {
            loop {
                self.push_front_byte(b'0' + (u % 10) as u8);
                u /= 10;
                if u == 0 {
                    break;
                }
            }
        }
        if v < 0 {
            self.push_front_byte(b'-');
        }
    }
    #[inline]
    fn as_str(&self) -> &str {
        std::str::from_utf8(self.buf.get(self.start..).unwrap_or(&[])).unwrap_or("")
    }
}

/// The DecimalSI suffix for a multiple-of-3 exponent; `None` past `E` and below `n`.
///
/// Upstream's `CanonicalizeBytes` drops the exponent when no suffix exists (`1000E` prints
/// `1`, `2000E` prints `2`): a wrong value, which the API server would then store. We print
/// those values in upstream's DecimalExponent canonical form instead (`2e21`), which every
/// apimachinery version parses back to the same value and re-prints unchanged.
fn dec_suffix(exp: i64) -> Option<&'static str> {
    Some(match exp {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => return None,
    })
}

fn bin_suffix(times: u32) -> &'static str {
    match times {
        1 => "Ki",
        2 => "Mi",
        3 => "Gi",
        4 => "Ti",
        5 => "Pi",
        6 => "Ei",
        _ => "",
    }
}

/// The suffix of a canonical string.
#[derive(Clone, Copy)]
enum Suffix {
    /// An SI or binary suffix, or nothing.
    Text(&'static str),
    /// `e<N>` (DecimalExponent, N != 0).
    Exp(i64),
}

/// Canonical mantissa and suffix of a `Small` value (upstream `CanonicalizeBytes`); `None`
/// sends the caller to the slow path.
#[inline]
fn canonical_parts(num: &Num, format: Format) -> Option<(i128, Suffix)> {
    let Num::Small { mant, exp } = *num else {
        return None;
    };
    if mant == 0 {
        return Some((0, Suffix::Text("")));
    }
    let mut fmt = format;
    if fmt == Format::BinarySI {
        if exp == 0 && mant.unsigned_abs() >= 1024 {
            // `Ei` is the largest suffix: never more than 6 steps of 1024
            let times = (mant.trailing_zeros() / 10).min(6);
            return Some((
                (mant >> (10 * times)) as i128,
                Suffix::Text(bin_suffix(times)),
            ));
        } else if (1..=19).contains(&exp) {
            let n = mant as i128 * POW10[exp as usize] as i128;
            if n.unsigned_abs() >= 1024 {
                let times = (n.trailing_zeros() / 10).min(6);
                return Some((n >> (10 * times), Suffix::Text(bin_suffix(times))));
            }
        } else if exp > 19 {
            return None;
        }
        // below 1024 in magnitude, or not an integer: printed as DecimalSI
        fmt = Format::DecimalSI;
    }
    let r = exp.rem_euclid(3);
    let e3 = exp as i64 - r as i64;
    let m = if r == 0 {
        mant as i128
    } else {
        mant as i128 * POW10[r as usize] as i128
    };
    let suffix = if fmt == Format::DecimalExponent {
        if e3 != 0 {
            Suffix::Exp(e3)
        } else {
            Suffix::Text("")
        }
    } else {
        match dec_suffix(e3) {
            Some(t) => Suffix::Text(t),
            None => Suffix::Exp(e3),
        }
    };
    Some((m, suffix))
}

/// Canonical form of a `Small` value into a stack buffer; `None` sends the caller to the slow
/// path.
fn canonical_small(num: &Num, format: Format) -> Option<StackBuf> {
    let (m, suffix) = canonical_parts(num, format)?;
    let mut out = StackBuf::new();
    match suffix {
        Suffix::Text(t) => out.push_front(t.as_bytes()),
        Suffix::Exp(e) => {
            out.push_front_i128(e as i128);
            out.push_front_byte(b'e');
        }
    }
    out.push_front_i128(m);
    Some(out)
}

/// Canonical form of any value (slow path).
fn canonical_big(b: &BigNum, format: Format, out: &mut String) {
    if b.mag.is_zero() {
        out.push('0');
        return;
    }
    let mut fmt = format;
    if fmt == Format::BinarySI {
        let k1024 = BigNum::from_u128(false, 1024, 0);
        if b.cmp_abs(&k1024) == Ordering::Less
            || b.exp < 0
            || b.mag.num_digits() + b.exp > MAX_DIGITS
        {
            fmt = Format::DecimalSI;
        } else {
            let mut n = b.mag.clone();
            n.mul_pow10(b.exp as u64);
            let mut times = 0u32;
            while times < 6 {
                let mut q = n.clone();
                if q.divrem_small(1024) != 0 || q.is_zero() {
                    break;
                }
                n = q;
                times += 1;
            }
            if b.neg {
                out.push('-');
            }
            n.write_decimal(out);
            out.push_str(bin_suffix(times));
            return;
        }
    }
    let r = b.exp.rem_euclid(3);
    let mut m = b.mag.clone();
    m.mul_pow10(r as u64);
    if b.neg {
        out.push('-');
    }
    m.write_decimal(out);
    let e3 = b.exp - r;
    if fmt == Format::DecimalExponent {
        if e3 != 0 {
            out.push('e');
            out.push_str(&e3.to_string());
        }
    } else {
        match dec_suffix(e3) {
            Some(t) => out.push_str(t),
            None => {
                out.push('e');
                out.push_str(&e3.to_string());
            }
        }
    }
}

const fn digit_triples() -> [u8; 3000] {
    let mut t = [0u8; 3000];
    let mut n = 0;
    while n < 1000 {
        t[3 * n] = b'0' + (n / 100) as u8;
        t[3 * n + 1] = b'0' + (n / 10 % 10) as u8;
        t[3 * n + 2] = b'0' + (n % 10) as u8;
        n += 1;
    }
    t
}
const DIGIT_TRIPLE_BYTES: [u8; 3000] = digit_triples();
/// `"000001002...999"`: three digits for every number below 1000.
const DIGIT_TRIPLES: &str = match std::str::from_utf8(&DIGIT_TRIPLE_BYTES) {
    Ok(s) => s,
    Err(_) => "",
};

/// Writes `v` in decimal as slices of a static table (no per-call buffer, no UTF-8 check).
#[inline]
fn write_u64(f: &mut fmt::Formatter<'_>, v: u64) -> fmt::Result {
    if v < 1000 {
        let n = v as usize;
        let skip = if n >= 100 {
            0
        } else if n >= 10 {
            1
        } else {
            2
        };
        return f.write_str(DIGIT_TRIPLES.get(3 * n + skip..3 * n + 3).unwrap_or(""));
    }
    write_u64(f, v / 1000)?;
    let g = (v % 1000) as usize;
    f.write_str(DIGIT_TRIPLES.get(3 * g..3 * g + 3).unwrap_or(""))
}

impl fmt::Display for Quantity {
    /// Upstream `String()`: the echoed input when upstream caches it, else the canonical form.
    /// Honours width/alignment flags (`{:>8}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.echo_str() {
            return f.pad(s);
        }
        if f.width().is_none() && f.precision().is_none() && !f.sign_plus() {
            // common case: write the parts straight through, no intermediate buffer
            if let Some((m, suffix)) = canonical_parts(&self.num(), self.format()) {
                if m < 0 {
                    f.write_str("-")?;
                }
                match u64::try_from(m.unsigned_abs()) {
                    Ok(u) => write_u64(f, u)?,
                    Err(_) => fmt::Display::fmt(&m.unsigned_abs(), f)?,
                }
                return match suffix {
                    Suffix::Text(t) => f.write_str(t),
                    Suffix::Exp(e) => {
                        f.write_str("e")?;
                        fmt::Display::fmt(&e, f)
                    }
                };
            }
        }
        match canonical_small(&self.num(), self.format()) {
            Some(buf) => f.pad(buf.as_str()),
            None => {
                let mut s = String::new();
                canonical_big(&self.num().to_big(), self.format(), &mut s);
                f.pad(&s)
            }
        }
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({self})")
    }
}

impl PartialEq for Quantity {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        // representations are normalized, so structural equality is numeric equality
        if let (Some((m1, e1)), Some((m2, e2))) = (self.0.inline_parts(), other.0.inline_parts()) {
            return m1 == m2 && e1 == e2;
        }
        self.num() == other.num()
    }
}
impl Eq for Quantity {}
impl Hash for Quantity {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.num().hash(state)
    }
}
impl PartialOrd for Quantity {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Quantity {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        if let (Some((m1, e1)), Some((m2, e2))) = (self.0.inline_parts(), other.0.inline_parts()) {
            return cmp_small(m1, e1, m2, e2);
        }
        self.num().cmp_value(&other.num())
    }
}

// ---------------------------------------------------------------------------------------
// serde and k8s-openapi.
// ---------------------------------------------------------------------------------------

impl serde::Serialize for Quantity {
    /// As upstream `MarshalJSON`: the `String()` form.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Quantity {
    /// As upstream `UnmarshalJSON`: a string (whitespace inside it trimmed), a bare number, or
    /// `null` (zero).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a quantity string or number")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Quantity, E> {
                v.trim().parse().map_err(E::custom)
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Quantity, E> {
                match std::str::from_utf8(v) {
                    Ok(s) => self.visit_str(s),
                    Err(_) => Err(E::custom(ParseQuantityError::Format)),
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity::from_value(v, Format::DecimalSI))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Quantity, E> {
                self.visit_u128(v as u128)
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Quantity, E> {
                Ok(Quantity::make(
                    Num::small(v, 0),
                    Format::DecimalSI,
                    Echo::NONE,
                ))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Quantity, E> {
                let num = match i128::try_from(v) {
                    Ok(i) => Num::small(i, 0),
                    Err(_) => Num::big(false, Mag::from_u128(v), 0),
                };
                Ok(Quantity::make(num, Format::DecimalSI, Echo::NONE))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Quantity, E> {
                // The deserializer already made a float; its shortest round-trip decimal text
                // is the exact value of the JSON number when that has <= 15 significant digits.
                if !v.is_finite() {
                    return Err(E::custom(ParseQuantityError::Numeric));
                }
                let s = format!("{v}");
                let q: Quantity = s.parse().map_err(E::custom)?;
                Ok(q.with_format(Format::DecimalSI))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Quantity, E> {
                Ok(Quantity::ZERO)
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Quantity, E> {
                Ok(Quantity::ZERO)
            }
        }
        d.deserialize_any(V)
    }
}

impl From<Quantity> for k8s_openapi::apimachinery::pkg::api::resource::Quantity {
    /// The `String()` form, as the API server would serialize it.
    fn from(q: Quantity) -> Self {
        k8s_openapi::apimachinery::pkg::api::resource::Quantity(q.to_string())
    }
}

impl From<&Quantity> for k8s_openapi::apimachinery::pkg::api::resource::Quantity {
    /// The `String()` form, as the API server would serialize it.
    fn from(q: &Quantity) -> Self {
        k8s_openapi::apimachinery::pkg::api::resource::Quantity(q.to_string())
    }
}

impl TryFrom<&k8s_openapi::apimachinery::pkg::api::resource::Quantity> for Quantity {
    type Error = ParseQuantityError;
    /// Parses the string; surrounding whitespace is trimmed first, as upstream's
    /// `UnmarshalJSON` does for the same JSON text (k8s-openapi keeps it verbatim).
    fn try_from(
        q: &k8s_openapi::apimachinery::pkg::api::resource::Quantity,
    ) -> Result<Self, Self::Error> {
        q.0.trim().parse()
    }
}

impl TryFrom<k8s_openapi::apimachinery::pkg::api::resource::Quantity> for Quantity {
    type Error = ParseQuantityError;
    /// As the `&Quantity` conversion.
    fn try_from(
        q: k8s_openapi::apimachinery::pkg::api::resource::Quantity,
    ) -> Result<Self, Self::Error> {
        Quantity::try_from(&q)
    }
}

#[cfg(test)]
mod tests {

    /// `SetDefaults_ResourceList` rounds every resource value up to milli scale.
    #[test]
    fn round_up_to_milli_as_api_defaulting() {
        let r = |s: &str| {
            let (q, exact) = s.parse::<Quantity>().expect("quantity").round_up(-3);
            (q.to_string(), exact)
        };
        assert_eq!(r("0.0005"), ("1m".into(), false));
        assert_eq!(r("500u"), ("1m".into(), false));
        assert_eq!(r("1n"), ("1m".into(), false));
        assert_eq!(r("1.0001"), ("1001m".into(), false));
        assert_eq!(r("-0.0015"), ("-2m".into(), false));
        assert_eq!(r("0.3"), ("300m".into(), true));
        assert_eq!(r("1024Ki"), ("1Mi".into(), true));
        assert_eq!(r("1.5Gi"), ("1536Mi".into(), true));
        assert_eq!(r("0"), ("0".into(), true));
        // echoed input survives when nothing is rounded, and is dropped when it is
        assert_eq!(r("12.345k"), ("12.345k".into(), true));
        assert_eq!(r("1.000100"), ("1001m".into(), false));
        // beyond i64
        assert_eq!(
            r("123456789012345678901.0000001"),
            ("123456789012345678901001m".into(), false)
        );
        let big: Quantity = "1e-30".parse().expect("q");
        assert_eq!(big.round_up(-3).0.to_string(), "1e-3", "the format is kept");
    }
    use super::*;

    #[track_caller]
    fn check(input: &str, printed: &str) {
        let q: Quantity = input.parse().expect("valid");
        assert_eq!(q.to_string(), printed, "input {input:?}");
    }

    #[test]
    fn prints_like_upstream() {
        check("0", "0");
        check("+1", "+1");
        check("007", "007");
        check("1000m", "1");
        check("0.5", "500m");
        check("1.5Gi", "1536Mi");
        check("1.1Ki", "1126400m");
        check("1023.5Ki", "1048064");
        // Divergence from upstream (which prints `1` and `2`, dropping the exponent): the
        // DecimalExponent canonical form keeps the value.
        check("1000E", "1e21");
        check("2000E", "2e21");
        check("1000000E", "1e24");
        check("1500E", "1500E");
        check("64Mi", "64Mi");
        check("9Ei", "9223372036854775807");
        check("1e13", "10e12");
    }

    #[test]
    fn mul_ratio_is_exact_beyond_i64() {
        #[track_caller]
        fn check(input: &str, num: i64, den: u32, scale: i32, expected: &str) {
            let q: Quantity = input.parse().unwrap();
            let got = q.checked_mul_ratio(num, den, scale).unwrap();
            assert_eq!(
                got.to_string(),
                expected,
                "{input} * {num} / {den} at 10^{scale}"
            );
        }
        check("20Pi", 50, 100, 0, "10Pi");
        check("9Pi", 50, 100, 0, "4608Ti");
        check("100Pi", 50, 100, 0, "50Pi");
        // like upstream, a BinarySI input past 8Ei parses clamped to 2^63-1
        check("16Ei", 50, 100, 0, "4611686018427387903");
        check("7Ei", 50, 100, 0, "3584Pi");
        check("1e16", 50, 100, 0, "5e15");
        check("1e400", 50, 100, 0, "5e399");
        check("1", 33, 100, -3, "330m");
        check("5", 50, 100, 0, "2");
        check("1500m", 100, 100, 0, "1");
        check("20E", 50, 100, -3, "10E");
        check("10000001", 1, 2, -3, "5000000500m");
        check("-1", 1, 3, 0, "-1");
        check("0", 1, 3, 0, "0");
        assert!(
            "1".parse::<Quantity>()
                .unwrap()
                .checked_mul_ratio(1, 0, 0)
                .is_none()
        );
        let q: Quantity = "20Pi".parse().unwrap();
        assert_eq!(
            q.checked_mul_ratio(50, 100, 0).unwrap().format(),
            Format::BinarySI
        );
    }

    #[test]
    fn arithmetic_formats() {
        let z = Quantity::ZERO;
        let gi: Quantity = "1Gi".parse().unwrap();
        let one: Quantity = "1".parse().unwrap();
        let g: Quantity = "1G".parse().unwrap();
        assert_eq!(z.checked_add(&gi).unwrap().to_string(), "1Gi");
        assert_eq!(one.checked_add(&gi).unwrap().to_string(), "1073741825");
        assert_eq!(gi.checked_add(&g).unwrap().to_string(), "2073741824");
        let sum = Quantity::checked_sum([&gi, &g]).unwrap();
        assert_eq!(sum.to_string(), "2073741824");
        assert_eq!(sum.format(), Format::BinarySI);
        assert_eq!(Quantity::checked_sum([]).unwrap(), Quantity::ZERO);
        let plus: Quantity = "+1".parse().unwrap();
        assert_eq!(plus.checked_add(&z).unwrap().to_string(), "1");
        // BinarySI below 1024 prints as DecimalSI, also for results of arithmetic
        let ki: Quantity = "1Ki".parse().unwrap();
        let k1000 = ki
            .checked_sub(&Quantity::from_value(24, Format::DecimalSI))
            .unwrap();
        assert_eq!(k1000.format(), Format::BinarySI);
        assert_eq!(k1000.to_string(), "1k");
        assert_eq!(k1000.to_canonical_string(), "1k");
        assert_eq!(format!("{k1000:>4}"), "  1k");
        let half = Quantity::from_millis(500).with_format(Format::BinarySI);
        assert_eq!(half.to_string(), "500m");
        let neg = -&ki;
        assert_eq!(neg.to_string(), "-1Ki");
        let big_bin = Quantity::from_scaled(1024, 20, Format::BinarySI);
        assert_eq!(big_bin.to_string(), big_bin.to_canonical_string());
        assert_eq!(
            Quantity::from_value(1 << 62, Format::BinarySI).to_string(),
            "4Ei"
        );
        assert_eq!(
            Quantity::from_value(1 << 62, Format::BinarySI)
                .checked_mul(256)
                .unwrap()
                .to_string(),
            "1024Ei"
        );
    }

    #[test]
    fn big_values() {
        let a: Quantity = "9999999999999999999".parse().unwrap();
        let b: Quantity = "1".parse().unwrap();
        let s = a.checked_add(&b).unwrap();
        assert_eq!(s.to_string(), "10E");
        assert_eq!(s.checked_value(), None);
        assert_eq!(s.value(), i64::MAX);
        assert_eq!(s.checked_sub(&b).unwrap(), a);
        let m = Quantity::from_value(i64::MIN, Format::DecimalSI);
        assert_eq!((-&m).to_string(), "9223372036854775808");
        assert_eq!(-(-&m), m);
    }

    fn same(a: &Quantity, b: &Quantity) -> bool {
        a.num() == b.num() && a.format() == b.format() && a.echo_str() == b.echo_str()
    }

    proptest::proptest! {
        /// The one-pass parser agrees with the literal port wherever it answers.
        #[test]
        fn fast_parser_agrees(s in "[-+]?[0-9]{0,20}(\\.[0-9]{0,20})?([numkMGTPE]|[KMGTPE]i|[eE][-+]?[0-9]{1,11}|[a-z]{1,2})?") {
            let general = parse_general(&s);
            if let Some(fast) = parse_fast(&s) {
                let general = general.expect("fast parser accepted an input the port rejects");
                proptest::prop_assert!(same(&fast, &general), "{} fast {:?} general {:?}", s, fast, general);
            }
        }

        /// The three printers (direct parts, stack buffer, big-decimal) agree.
        #[test]
        fn printers_agree(mant in proptest::prelude::any::<i64>(), exp in -25i32..25, f in 0u8..3) {
            let format = [Format::DecimalSI, Format::BinarySI, Format::DecimalExponent][f as usize];
            let num = Num::small(mant as i128, exp as i64);
            let mut big = String::new();
            canonical_big(&num.to_big(), format, &mut big);
            if let Some(buf) = canonical_small(&num, format) {
                proptest::prop_assert_eq!(buf.as_str(), big.as_str());
            }
            let q = Quantity::make(num, format, Echo::NONE);
            proptest::prop_assert_eq!(q.to_string(), big.clone());
            proptest::prop_assert_eq!(format!("{q:1}"), big.clone());
            proptest::prop_assert_eq!(q.to_canonical_string(), big);
            // the value survives a round trip unless the suffix was dropped (past E / Ei)
            let back: Quantity = q.to_string().parse().expect("printed form parses");
            let dropped = q.checked_sub(&back).is_some_and(|d| !d.is_zero());
            if dropped {
                let e = Quantity::from_scaled(1, 21, Format::DecimalSI);
                let ei = Quantity::from_value(1 << 62, Format::BinarySI).checked_mul(256).unwrap();
                let abs = if q.is_negative() { -&q } else { q.clone() };
                // sub-nano values (only from `from_scaled` with scale < -9) lose their suffix too
                let sub_nano = abs.checked_scaled_value(-9).is_some_and(|n| n == 1)
                    && abs.checked_sub(&Quantity::from_scaled(1, -9, Format::DecimalSI)).is_some_and(|d| d.is_negative());
                let frac_nano = abs.checked_scaled_value(-9).is_some() && Quantity::from_scaled(
                    abs.checked_scaled_value(-9).unwrap_or(0), -9, Format::DecimalSI) != abs;
                // BinarySI text is capped at 2^63-1 when parsed (upstream), so a BinarySI value
                // above that, made by arithmetic, does not survive a print-parse round trip
                let capped = format == Format::BinarySI
                    && abs > Quantity::from_value(i64::MAX, Format::BinarySI);
                proptest::prop_assert!(abs >= e || abs >= ei || sub_nano || frac_nano || capped, "{:?} printed {}", q, q);
            }
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Quantity>(), 16);
        assert_eq!(
            std::mem::size_of::<Result<Quantity, ParseQuantityError>>(),
            16
        );
    }

    /// Upstream's cache decision, restated from `ParseQuantity` on the input text alone.
    fn upstream_caches(s: &str) -> bool {
        let body = s.strip_prefix(['+', '-']).unwrap_or(s);
        let body = body.trim_start_matches('0');
        let split = body
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(body.len());
        let (number, suffix) = body.split_at(split);
        let (num, denom) = number.split_once('.').unwrap_or((number, ""));
        let num_eff = if num.is_empty() { "0" } else { num };
        let shifted = format!("{num_eff}{denom}");
        if let Some(e) = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
            .iter()
            .position(|x| *x == suffix)
        {
            let exp = 10 * (e as i64 + 1);
            let precision = 14 - num_eff.len() as i64 - exp * 3 / 10;
            if !denom.is_empty() || precision < 0 {
                return false;
            }
            let value: i64 = shifted.parse().unwrap();
            return value.checked_mul(1 << exp).is_some() && value & 7 != 0;
        }
        let exp: i64 = match suffix {
            "" => 0,
            "n" => -9,
            "u" => -6,
            "m" => -3,
            "k" => 3,
            "M" => 6,
            "G" => 9,
            "T" => 12,
            "P" => 15,
            "E" => 18,
            _ => suffix[1..].parse::<i64>().unwrap() as i32 as i64,
        };
        let scale = exp - denom.len() as i64;
        num_eff.len() + denom.len() <= 18
            && scale >= -9
            && scale % 3 == 0
            && !shifted.ends_with("000")
            && !shifted.starts_with('0')
    }

    #[test]
    fn fast_parser_agrees_on_the_vectors_and_the_mix() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/vectors/quantity.json"
        ))
        .unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut fast_hits = 0;
        let mix = [
            "100m", "250m", "0.5", "1", "8", "64Mi", "512Mi", "1Gi", "80Gi", "1Ti", "500M", "1e3",
        ];
        let inputs = doc["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["input"].as_str())
            .chain(mix);
        for input in inputs {
            if let Some(fast) = parse_fast(input) {
                fast_hits += 1;
                let general = parse_general(input).unwrap();
                assert!(same(&fast, &general), "{input}");
            }
        }
        assert!(fast_hits > 100, "{fast_hits}");
        for m in mix {
            assert!(
                parse_fast(m).is_some(),
                "{m} should take the one-pass parser"
            );
        }
    }

    #[test]
    fn echo_rule_matches_upstream_on_an_enumeration() {
        let signs = ["", "+", "-"];
        let ints = [
            "", "0", "00", "1", "8", "10", "100", "1000", "12", "007", "120", "1024",
        ];
        let fracs = [
            None,
            Some(""),
            Some("0"),
            Some("5"),
            Some("05"),
            Some("000"),
            Some("345"),
        ];
        let suffixes = [
            "",
            "n",
            "u",
            "m",
            "k",
            "M",
            "G",
            "T",
            "P",
            "E",
            "Ki",
            "Mi",
            "Gi",
            "Ti",
            "Pi",
            "Ei",
            "e3",
            "E3",
            "e+3",
            "e-3",
            "e0",
            "e03",
            "e-03",
            "e21",
            "e-9",
            "e4294967299",
            "e-12",
        ];
        let mut checked = 0;
        for sign in signs {
            for int in ints {
                for frac in fracs {
                    for suf in suffixes {
                        let s = match frac {
                            Some(f) => format!("{sign}{int}.{f}{suf}"),
                            None => format!("{sign}{int}{suf}"),
                        };
                        let Ok(q) = s.parse::<Quantity>() else {
                            continue;
                        };
                        if let Some(fast) = parse_fast(&s) {
                            assert!(same(&fast, &q), "{s}");
                        }
                        checked += 1;
                        if upstream_caches(&s) {
                            assert_eq!(q.to_string(), s, "cached input must echo");
                        } else {
                            assert_eq!(q.to_string(), q.to_canonical_string(), "{s}");
                        }
                    }
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }
}
