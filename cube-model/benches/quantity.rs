//! `Quantity` parse, parse + print, add and compare on a realistic mix of resource values.
//!
//! Each iteration processes the whole mix (12 values); divide by 12 for ns per value. The
//! baselines in the same run are `f64` parsing of the numeric part (no suffix handling) and
//! `i64` parsing + printing of an integer of similar length, to give a ratio independent of the
//! machine.

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cube_model::Quantity;

const MIX: [&str; 12] = [
    "100m", "250m", "0.5", "1", "8", "64Mi", "512Mi", "1Gi", "80Gi", "1Ti", "500M", "1e3",
];

fn numeric_part(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    &s[..end]
}

fn bench(c: &mut Criterion) {
    let parsed: Vec<Quantity> = MIX.iter().map(|s| s.parse().expect("valid")).collect();
    let numeric: Vec<&str> = MIX.iter().map(|s| numeric_part(s)).collect();
    let ints: Vec<String> = parsed.iter().map(|q| q.value().to_string()).collect();

    let mut g = c.benchmark_group("quantity");
    g.throughput(Throughput::Elements(MIX.len() as u64));

    g.bench_function("baseline_f64_parse_numeric_part", |b| {
        b.iter(|| {
            for s in &numeric {
                black_box(black_box(*s).parse::<f64>().ok());
            }
        })
    });
    g.bench_function("baseline_i64_parse_print", |b| {
        let mut out = String::with_capacity(64);
        b.iter(|| {
            for s in &ints {
                out.clear();
                if let Ok(v) = black_box(s.as_str()).parse::<i64>() {
                    let _ = write!(out, "{v}");
                }
                black_box(&out);
            }
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| {
            for s in MIX {
                black_box(Quantity::parse(black_box(s)).ok());
            }
        })
    });
    g.bench_function("parse_print", |b| {
        let mut out = String::with_capacity(64);
        b.iter(|| {
            for s in MIX {
                out.clear();
                if let Ok(q) = Quantity::parse(black_box(s)) {
                    let _ = write!(out, "{q}");
                }
                black_box(&out);
            }
        })
    });
    g.bench_function("parse_to_string", |b| {
        b.iter(|| {
            for s in MIX {
                black_box(Quantity::parse(black_box(s)).map(|q| q.to_string()).ok());
            }
        })
    });
    g.bench_function("print_canonical", |b| {
        let mut out = String::with_capacity(64);
        b.iter(|| {
            for q in &parsed {
                out.clear();
                out.push_str(&black_box(q).to_canonical_string());
                black_box(&out);
            }
        })
    });
    g.bench_function("add", |b| {
        b.iter(|| {
            let mut acc = Quantity::ZERO;
            for q in &parsed {
                if let Some(s) = acc.checked_add(black_box(q)) {
                    acc = s;
                }
            }
            black_box(acc)
        })
    });
    g.bench_function("compare", |b| {
        b.iter(|| {
            let mut less = 0u32;
            for (i, q) in parsed.iter().enumerate() {
                let other = &parsed[(i + 5) % parsed.len()];
                less += u32::from(black_box(q) < black_box(other));
            }
            black_box(less)
        })
    });
    g.bench_function("milli_value", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for q in &parsed {
                sum = sum.wrapping_add(black_box(q).milli_value());
            }
            black_box(sum)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
