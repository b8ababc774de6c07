//! Shared by the test targets that run the built example programs (`hostile`, `hostile_edges`,
//! `real_cases` and its `programs/` modules, `peak_memory`): where the repository is, where a
//! built program is, and the one process runner with a deadline ([`run_with`], [`code`]).
// each test target uses its own part of this module
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
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
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut v);
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name} {args:?} did not end within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
    }
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
