//! Diagnosis bench (being written).
fn main() {}
