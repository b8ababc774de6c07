//! Parsing and printing the common quantity forms allocates nothing on the heap (issue 2: "no heap
//! allocation for the common forms"). Its own test binary with one test, so no other thread allocates
//! while it measures.

use std::io::Write;

use cube_model::Quantity;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const MIX: [&str; 12] = [
    "100m", "250m", "0.5", "1", "8", "64Mi", "512Mi", "1Gi", "80Gi", "1Ti", "500M", "1e3",
];

#[test]
fn common_forms_parse_print_add_compare_without_heap_allocation() {
    let mut buf = [0u8; 64];
    // Warm up anything lazily initialised (none expected, but keep the measurement clean).
    for s in MIX {
        let q: Quantity = s.parse().expect("valid");
        let mut cursor = std::io::Cursor::new(&mut buf[..]);
        write!(cursor, "{q}").expect("fits");
    }
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    let mut total = Quantity::ZERO;
    let mut printed = 0usize;
    for _ in 0..100 {
        for s in MIX {
            let q: Quantity = std::hint::black_box(s).parse().expect("valid");
            let mut cursor = std::io::Cursor::new(&mut buf[..]);
            write!(cursor, "{q}").expect("fits");
            printed += cursor.position() as usize;
            if q > total {
                total = total.checked_add(&q).expect("exact");
            }
        }
    }
    let peak = ALLOC.peak_usage();
    assert!(printed > 0 && !total.is_zero());
    assert_eq!(
        peak,
        before,
        "parsing/printing/adding the common forms allocated {} bytes",
        peak.saturating_sub(before)
    );
}
