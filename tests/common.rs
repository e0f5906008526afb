//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The folder of the repository.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `cgl` binary with arguments; returns (exit code, stdout, stderr).
pub fn cgl(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the cgl binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
