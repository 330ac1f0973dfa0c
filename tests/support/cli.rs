//! Running the real `fray` binary from a test crate and reading what it printed (shared by the
//! test crates that include it with `#[path]`; each uses some of it).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `fray ARGS` from the repository root (where `examples/` and `content/` are).
pub fn fray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fray")
}

/// What `fray` printed on its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What `fray` printed on its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// An empty scratch directory for one test, named after the test crate, the process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fray-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
