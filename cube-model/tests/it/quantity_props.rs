//! Property tests for `Quantity`: round trips, ordering versus subtraction, associativity and
//! commutativity of addition, agreement with an independent nano-precision model, and a
//! parser that never panics.

use cube_model::{Format, Quantity};
use proptest::prelude::*;

// The generators are the public ones (`cube_model::proptest`, feature `proptest`), the same a
// downstream crate uses.
use cube_model::proptest::{quantity, quantity_string, raw_quantity_string};

/// Values at and beyond the largest suffixes (`1000E`, `2000E`, `1024Ei`, and sums of them):
/// issue 9 found `1000E` printed as `1`. Every value the type holds must print so that it parses
/// back to itself.
fn beyond_suffixes() -> impl Strategy<Value = Quantity> {
    let base = prop_oneof![
        (1i64..100_000, 0u32..40).prop_map(|(m, z)| format!("{m}{}E", "0".repeat(z as usize))),
        (1i64..10_000, 0u32..8).prop_map(|(m, z)| format!("{m}{}Ei", "0".repeat(z as usize))),
        (1i64..1000, 18i32..60).prop_map(|(m, e)| format!("{m}e{e}")),
    ];
    (base, 0i64..5, proptest::bool::ANY).prop_map(|(s, k, neg)| {
        let q: Quantity = s.parse().expect("valid");
        // sums and products leave the BinarySI cap and the suffix range behind
        let q = q.checked_mul(k.max(1)).expect("fits");
        let q = q.checked_add(&q).expect("fits");
        if neg { -q } else { q }
    })
}

/// Independent model: the exact value in nanos (i128) of `[+-]?int[.frac]suffix` with a
/// decimal or binary suffix, rounded up (away from zero) to 1e-9 and capped for BinarySI.
fn nanos_model(s: &str) -> Option<i128> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let split = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(split);
    let (mul, div, binary): (i128, i128, bool) = match suffix {
        "" => (1, 1, false),
        "n" => (1, 1_000_000_000, false),
        "u" => (1, 1_000_000, false),
        "m" => (1, 1_000, false),
        "k" => (1_000, 1, false),
        "M" => (1_000_000, 1, false),
        "G" => (1_000_000_000, 1, false),
        "Ki" => (1 << 10, 1, true),
        "Mi" => (1 << 20, 1, true),
        "Gi" => (1 << 30, 1, true),
        _ => return None,
    };
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits: String = format!("{int}{frac}");
    let n: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    let den = 10i128.checked_pow(frac.len() as u32)? * div;
    let num = n.checked_mul(mul)?.checked_mul(1_000_000_000)?;
    let mut nanos = num / den + i128::from(num % den != 0);
    if binary {
        nanos = nanos.min(i64::MAX as i128 * 1_000_000_000);
    }
    Some(if neg { -nanos } else { nanos })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_print_parse_keeps_value(q in quantity(24)) {
        let printed = q.to_string();
        let back: Quantity = printed.parse().expect("printed form parses");
        prop_assert_eq!(&back, &q, "printed {}", printed);
        // Printing is a fixed point once the format is the one the printed form parses to. Not
        // before: a BinarySI integer that 1024 does not divide prints without a suffix
        // (`437.5Ki` prints `448000`, apimachinery `quantity.go` CanonicalizeBytes keeps BinarySI
        // for integers and AsCanonicalBase1024Bytes finds no power of 1024), which parses back as
        // DecimalSI and prints `448k`, as the API server does.
        let again_printed = back.to_string();
        let back2: Quantity = again_printed.parse().expect("printed form parses");
        prop_assert_eq!(&back2, &q);
        prop_assert_eq!(back2.to_string(), again_printed.clone());
        if q.format() != Format::BinarySI {
            prop_assert_eq!(again_printed, printed);
        }
        let canon = q.to_canonical_string();
        let again: Quantity = canon.parse().expect("canonical form parses");
        prop_assert_eq!(&again, &q);
        prop_assert_eq!(again.to_canonical_string(), canon);
        // JSON round trip
        let json = serde_json::to_string(&q).expect("serialize");
        let from_json: Quantity = serde_json::from_str(&json).expect("deserialize");
        prop_assert_eq!(from_json, q);
    }

    /// Issue 9: values of `1000E` and above (and BinarySI sums past `Ei`) printed without
    /// their exponent, so a `2000E` bucket split 50/50 read `"1"`. Print, parse back, compare;
    /// the halves too.
    #[test]
    fn values_beyond_the_largest_suffix_keep_their_value(q in beyond_suffixes()) {
        for v in [q.clone(), q.checked_mul_ratio(1, 2, -3).expect("half fits")] {
            let printed = v.to_string();
            let back = value_of_printed(&printed);
            prop_assert_eq!(&back, &v, "printed {}", printed);
        }
    }

    #[test]
    fn ordering_consistent_with_subtraction(a in quantity(22), b in quantity(22)) {
        let d = b.checked_sub(&a).expect("difference of parsed values fits");
        prop_assert_eq!(a < b, d.is_positive());
        prop_assert_eq!(a == b, d.is_zero());
        prop_assert_eq!(a > b, d.is_negative());
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        // equal values hash equally
        if a == b {
            use std::hash::{BuildHasher, RandomState};
            let h = RandomState::new();
            prop_assert_eq!(h.hash_one(&a), h.hash_one(&b));
        }
    }

    #[test]
    fn addition_associative_and_commutative(
        a in quantity(22), b in quantity(22), c in quantity(22)
    ) {
        let ab = a.checked_add(&b).expect("sum fits");
        let ba = b.checked_add(&a).expect("sum fits");
        prop_assert_eq!(&ab, &ba);
        let ab_c = ab.checked_add(&c).expect("sum fits");
        let a_bc = a.checked_add(&b.checked_add(&c).expect("sum fits")).expect("sum fits");
        prop_assert_eq!(&ab_c, &a_bc);
        // a + b - b == a, and multiplication by an integer is repeated addition
        prop_assert_eq!(ab.checked_sub(&b).expect("difference fits"), a.clone());
        prop_assert_eq!(a.checked_mul(3).expect("fits"), a.checked_add(&a).and_then(|x| x.checked_add(&a)).expect("fits"));
    }

    #[test]
    fn agrees_with_nano_model(s in quantity_string(9)) {
        if let (Some(nanos), Ok(q)) = (nanos_model(&s), s.parse::<Quantity>()) {
            let from_model = i64::try_from(nanos).ok();
            prop_assert_eq!(q.checked_scaled_value(-9), from_model, "{}", s);
            if nanos >= 0 {
                // Value / MilliValue are ceilings of the exact value
                let ceil = |div: i128| i64::try_from(nanos / div + i128::from(nanos % div != 0)).ok();
                prop_assert_eq!(q.checked_value(), ceil(1_000_000_000), "{}", s);
                prop_assert_eq!(q.checked_milli_value(), ceil(1_000_000), "{}", s);
            }
        }
    }

    #[test]
    fn parser_never_panics_on_strings(s in any::<String>()) {
        let _ = s.parse::<Quantity>().map(|q| q.to_string());
    }

    #[test]
    fn parser_never_panics_on_quantity_alphabet(s in raw_quantity_string(40)) {
        if let Ok(q) = s.parse::<Quantity>() {
            let printed = q.to_string();
            let _ = (q.value(), q.milli_value(), q.to_canonical_string(), printed);
        }
    }

    #[test]
    fn parser_never_panics_on_bytes(b in proptest::collection::vec(any::<u8>(), 0..48)) {
        let s = String::from_utf8_lossy(&b);
        let _ = s.parse::<Quantity>().map(|q| (q.to_string(), q.value()));
        let _ = serde_json::from_slice::<Quantity>(&b);
    }
}

/// The value a printed quantity denotes, without the parser's BinarySI cap (a sum past `8Ei` is
/// a value the type holds; `Quantity::parse` would cap its printed form at 2^63-1).
fn value_of_printed(s: &str) -> Quantity {
    for (suffix, times) in [
        ("Ki", 1),
        ("Mi", 2),
        ("Gi", 3),
        ("Ti", 4),
        ("Pi", 5),
        ("Ei", 6),
    ] {
        if let Some(num) = s.strip_suffix(suffix) {
            let mut q: Quantity = num.parse().expect("mantissa parses");
            for _ in 0..times {
                q = q.checked_mul(1024).expect("fits");
            }
            return q;
        }
    }
    s.parse().expect("printed form parses")
}

/// The boundary itself, and values below the smallest suffix (built with `from_scaled`).
#[test]
fn suffix_boundaries_print_with_their_exponent() {
    for (input, printed) in [
        ("999E", "999E"),
        ("1000E", "1e21"),
        ("2000E", "2e21"),
        ("1001E", "1001E"),
        ("7Ei", "7Ei"),
    ] {
        let q: Quantity = input.parse().expect("valid");
        assert_eq!(q.to_string(), printed, "{input}");
    }
    let half = "2000E"
        .parse::<Quantity>()
        .expect("valid")
        .checked_mul_ratio(1, 2, -3)
        .expect("fits");
    assert_eq!(half.to_string(), "1e21");
    let tiny = Quantity::from_scaled(1, -12, Format::DecimalSI);
    assert_eq!(tiny.to_string(), "1e-12");
    // BinarySI past Ei: 1024 * 7Ei (an exact product the type holds) keeps the Ei suffix
    let big = "7Ei"
        .parse::<Quantity>()
        .expect("valid")
        .checked_mul(1024)
        .expect("fits");
    assert_eq!(big.to_string(), "7168Ei");
    assert_eq!(value_of_printed(&big.to_string()), big);
}

/// The case proptest found (`437.5Ki`): a BinarySI integer that 1024 does not divide prints
/// without a suffix and the printed form reads back as DecimalSI (apimachinery `quantity.go`
/// CanonicalizeBytes), so the second print differs and the value does not.
#[test]
fn binary_si_integer_not_divisible_by_1024_prints_plain() {
    let q: Quantity = "437.5Ki".parse().expect("valid");
    assert_eq!(q.to_string(), "448000");
    let back: Quantity = q.to_string().parse().expect("valid");
    assert_eq!(back, q);
    assert_eq!(back.to_string(), "448k");
    assert_eq!(
        "1.5Ki".parse::<Quantity>().expect("valid").to_string(),
        "1536"
    );
}
