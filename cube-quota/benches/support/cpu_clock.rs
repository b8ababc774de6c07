//! A criterion measurement of the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`),
//! so that "per core" figures hold on a machine shared with other work: the time other
//! processes take on the same core is not counted. `CUBE_BENCH_CLOCK=wall` selects criterion's
//! wall clock instead.

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

/// The calling thread's CPU time.
pub struct ThreadCpuTime;

fn now_ns() -> u64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        now_ns()
    }
    fn end(&self, i: u64) -> u64 {
        now_ns().saturating_sub(i)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Nanoseconds of CPU time, shown as `cpu ns` / `cpu µs` / ... so no figure is mistaken for
/// wall time.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if ns < 1e3 {
            (1.0, "cpu-ns")
        } else if ns < 1e6 {
            (1e-3, "cpu-µs")
        } else if ns < 1e9 {
            (1e-6, "cpu-ms")
        } else {
            (1e-9, "cpu-s")
        };
        for v in values {
            *v *= factor;
        }
        unit
    }

    fn scale_throughputs(
        &self,
        typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let per = match *throughput {
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => n,
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Bits(n) => n,
        } as f64;
        let rate = per * 1e9 / typical;
        let (denominator, unit) = if rate < 1e3 {
            (1.0, " elem/cpu-s")
        } else if rate < 1e6 {
            (1e3, "Kelem/cpu-s")
        } else {
            (1e6, "Melem/cpu-s")
        };
        for v in values {
            *v = per * 1e9 / *v / denominator;
        }
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// True unless `CUBE_BENCH_CLOCK=wall`.
pub fn use_cpu_clock() -> bool {
    std::env::var("CUBE_BENCH_CLOCK").map_or(true, |v| v != "wall")
}

/// Runs the generic bench function `$bench` under `$config` (a `Criterion`) with
/// [`ThreadCpuTime`] ([`use_cpu_clock`]) or criterion's wall clock, the command line's options
/// applied, then prints the final summary. A macro because `$bench` is generic over the
/// measurement.
macro_rules! run_bench {
    ($config:expr, $bench:ident) => {
        if cpu_clock::use_cpu_clock() {
            let mut c = $config
                .with_measurement(cpu_clock::ThreadCpuTime)
                .configure_from_args();
            $bench(&mut c);
            c.final_summary();
        } else {
            let mut c = $config.configure_from_args();
            $bench(&mut c);
            c.final_summary();
        }
    };
}
pub(crate) use run_bench;
