//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The folder of the repository.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How long one run of the binary may take before the test calls it a hang. Generous, because
/// the tests share two cores with other builds; every case in the suite takes well under a
/// second.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Runs the `cgl` binary with arguments in the repository folder; returns (exit code, stdout,
/// stderr).
pub fn cgl(args: &[&str]) -> (i32, String, String) {
    cgl_in(&root(), args)
}

/// Runs the `cgl` binary with arguments in `dir`; returns (exit code, stdout, stderr). Stdout
/// and stderr are pipes, so the CLI renders diagnostics without colour. Panics (failing the
/// test) if the run takes longer than [`TIMEOUT`]: a hang is a bug, not a slow test.
pub fn cgl_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    wait_with_timeout(child, TIMEOUT, &format!("cgl {args:?}"))
}

/// Runs the `cgl` binary with arguments in the repository folder and `input` on its stdin;
/// returns (exit code, stdout, stderr).
pub fn cgl_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    wait_with_timeout(child, TIMEOUT, &format!("cgl {args:?} with stdin"))
}

/// Waits for a spawned `cgl` whose stdout and stderr are pipes; returns (exit code, stdout,
/// stderr). Both pipes are read on their own threads, so a full pipe cannot block the child.
/// Panics (failing the test) if the child is still running after `timeout`: a hang is a bug.
pub fn wait_with_timeout(mut child: Child, timeout: Duration, what: &str) -> (i32, String, String) {
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let started = Instant::now();
    // Polls from 0.1 ms, doubling up to 5 ms: most runs end in a few milliseconds, and a
    // first sleep of 5 ms would be paid by every one of them.
    let mut pause = Duration::from_micros(100);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for cgl") {
            break status;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {timeout:?} (a hang?)");
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    let stdout = out_reader.join().expect("stdout reader");
    let stderr = err_reader.join().expect("stderr reader");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// The number in the environment variable `name`, or `default` when it is unset or not one
/// (the sizes of the sweeps run by hand).
pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A fresh, empty folder under the system's temp folder, unique to this process and `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cgl-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temp folder");
    dir
}

/// Fails the test if the output shows a crash or an internal error: user mistakes must become
/// diagnostics, and an `Internal` diagnostic is a bug in cgl.
pub fn assert_no_crash(what: &str, stderr: &str) {
    for sign in [
        "panicked",
        "internal error",
        "RUST_BACKTRACE",
        "stack overflow",
        "cgl::check::crashed",
    ] {
        assert!(
            !stderr.contains(sign),
            "{what}: stderr shows `{sign}`:\n{stderr}"
        );
    }
}

/// A small deterministic generator (xorshift), so failures replay.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
