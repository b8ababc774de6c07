//! Shared by the test targets that run the built example programs (`hostile`, `real_cases` and
//! its `programs/` modules, `peak_memory`): where the repository is and where a built program is.
// each test target uses its own part of this module
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

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
