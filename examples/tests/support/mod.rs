//! Shared by the test targets that run the built example programs (`hostile`, `hostile_edges`,
//! `real_cases` and its `programs/` modules, `peak_memory`): where the repository is, where a
//! built program is, and the one process runner with a deadline ([`run_with`], [`code`]) and its parts for a child
//! a test feeds itself ([`drain`], [`wait_within`]).
// each test target uses its own part of this module
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The repository root (the workspace `Cargo.toml`, `testdata/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The built example program `name` (`target/<profile>/examples/<name>`). Every example is built
/// once per test process, even when a binary is already there: `cargo test` does not refresh
/// `target/<profile>/examples/<name>`, so an existing one may be stale (a no-op build when it
/// is current). Call it before starting a clock: the first call may compile.
pub fn example(name: &str) -> PathBuf {
    static BUILD: std::sync::Once = std::sync::Once::new();
    BUILD.call_once(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "-q", "-p", "cube-examples", "--examples"])
            .current_dir(root())
            .status()
            .expect("cargo build of the examples");
        assert!(status.success(), "building the examples failed");
    });
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test>-<hash> -> target/<profile>/examples/<name>
    exe.parent()
        .and_then(Path::parent)
        .expect("target dir")
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// Runs the built example `name` with `args` (from the repository root, stdin empty, `RUST_LOG`
/// removed, `env` added) and a deadline: both pipes are read on threads so a large output never
/// blocks the child, and past `deadline` the child is killed and the test fails.
pub fn run_with(name: &str, args: &[&str], env: &[(&str, &str)], deadline: Duration) -> Output {
    let mut cmd = Command::new(example(name));
    cmd.args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn");
    let t_out = drain(child.stdout.take().expect("stdout"));
    let t_err = drain(child.stderr.take().expect("stderr"));
    let Some(status) = wait_within(&mut child, deadline, || {}) else {
        panic!("{name} {args:?} did not end within {deadline:?}");
    };
    Output {
        status,
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
    }
}

/// Reads `pipe` (a child's stdout or stderr) to its end on a thread, so a large output never
/// blocks the child; join the handle for the bytes.
pub fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipe.read_to_end(&mut v);
        v
    })
}

/// Waits for `child` to exit, polling every 10 ms and calling `tick` at each poll (a sampler of
/// the child's memory, say); past `deadline` the child is killed and reaped and `None` is
/// returned (the caller fails the test with its own words).
pub fn wait_within(
    child: &mut Child,
    deadline: Duration,
    mut tick: impl FnMut(),
) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        tick();
        if let Some(s) = child.try_wait().expect("wait") {
            return Some(s);
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Peak resident set (`VmHWM` of `/proc/PID/status`) of a running process, in bytes; `None`
/// where there is no such file (not Linux, or the process is gone).
pub fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// [`run_with`] with no extra environment and a 120 s deadline.
pub fn run(name: &str, args: &[&str]) -> Output {
    run_with(name, args, &[], Duration::from_secs(120))
}

/// The documented exit code (0 to 3), and no panic on stderr.
#[track_caller]
pub fn code(o: &Output) -> i32 {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "panic: {err}"
    );
    let c = o.status.code().expect("exited (not killed by a signal)");
    assert!((0..=3).contains(&c), "undocumented exit code {c}: {err}");
    c
}
