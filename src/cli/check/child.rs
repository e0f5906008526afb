//! The child's side of `cgl check` on several files: `cgl check-child --settings JSON FILE`
//! (a hidden command, not for people) checks one file exactly as `cgl check` does in
//! process and writes its report on stdout as one JSON document ([`super::wire`]), nothing
//! else. With `beats` in its settings it also writes its progress on stderr, a
//! [`crate::api::progress::BEAT`] line a tick.
//!
//! It lives only as long as its parent: the parent holds the child's stdin open and never
//! writes to it, so when the parent ends, however it ends (Ctrl-C, a kill), the child reads
//! the end of its stdin and exits. Ctrl-C and SIGTERM the child ignores: the terminal sends
//! Ctrl-C to the whole process group, and the parent decides (it stops its children and
//! reports their files as interrupted, `interrupt.rs`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::check_file;
use super::threads::check_isolated;
use super::wire::{self, WireSettings};
use crate::api::progress::{Relay, Tally};

/// The exit status of a child whose parent went away (its report has no reader).
const ORPHANED: i32 = 130;

/// Runs `cgl check-child`: checks `file` with the settings the parent sent and writes its
/// record on `out`. The exit status is 0 when the record was written, 2 otherwise.
pub fn run(
    file: &Path,
    settings: &str,
    confine: Option<PathBuf>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let wire: WireSettings = match serde_json::from_str(settings) {
        Ok(wire) => wire,
        Err(e) => {
            let _ = writeln!(
                err,
                "error: check-child: the settings are not readable: {e}"
            );
            return 2;
        }
    };
    watch_parent();
    // Set once a process: this process runs nothing else.
    let _ = ctrlc::set_handler(|| {});
    let mut settings = wire.settings(confine);
    let tally = wire.beats.then(|| Arc::new(Tally::new(1)));
    settings.progress = tally.clone();
    let relay = tally.map(|t| Relay::start(t, Box::new(std::io::stderr())));
    let fault = Fault::asked(file);
    if let Some(fault) = fault {
        fault.before(err);
    }
    let report = check_isolated(file, &settings, check_file, &Arc::default());
    drop(relay);
    let record = match wire::encode(&report) {
        Ok(record) => record,
        Err(e) => {
            let _ = writeln!(err, "error: check-child: cannot encode the report: {e}");
            return 2;
        }
    };
    let record = match fault {
        Some(Fault::Garble) => &record[..record.len() / 2],
        _ => &record[..],
    };
    match out.write_all(record).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

/// Exits when stdin ends: the parent holds it open for as long as it lives.
fn watch_parent() {
    let _ = std::thread::Builder::new()
        .name("cgl-parent".to_string())
        .spawn(|| {
            let mut stdin = std::io::stdin();
            let mut buf = [0u8; 64];
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) | Err(_) => std::process::exit(ORPHANED),
                    Ok(_) => {}
                }
            }
        });
}

/// A failure on purpose, for the tests of isolation (spec §10, *Isolation*): with
/// `CGL_TEST_FAULT=KIND:NAME`, the child checking a file whose name is NAME fails as no
/// correct cgl does, in a way the checking of the other files must survive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// Aborts the process (SIGABRT), as a stack overflow does.
    Abort,
    /// Exits with status 3 without a record.
    Exit,
    /// Writes half of its record, then exits 0.
    Garble,
    /// Never ends, and watches no deadline.
    Hang,
    /// Writes 5,000 long lines on stderr, then aborts.
    Noise,
}

impl Fault {
    /// The fault `CGL_TEST_FAULT` asks of this file, if any.
    fn asked(file: &Path) -> Option<Fault> {
        let asked = std::env::var("CGL_TEST_FAULT").ok()?;
        let (kind, name) = asked.split_once(':')?;
        if file.file_name()? != name {
            return None;
        }
        match kind {
            "abort" => Some(Fault::Abort),
            "exit" => Some(Fault::Exit),
            "garble" => Some(Fault::Garble),
            "hang" => Some(Fault::Hang),
            "noise" => Some(Fault::Noise),
            _ => None,
        }
    }

    /// What happens before the file is checked.
    fn before(self, err: &mut dyn Write) {
        match self {
            Fault::Abort => {
                let _ = writeln!(err, "test fault: aborting");
                std::process::abort();
            }
            Fault::Exit => {
                let _ = writeln!(err, "test fault: exiting with status 3");
                std::process::exit(3);
            }
            Fault::Garble => {}
            Fault::Hang => loop {
                std::thread::sleep(Duration::from_secs(1));
            },
            Fault::Noise => {
                for i in 0..5_000 {
                    let _ = writeln!(err, "test fault: line {i} {}", "x".repeat(1_000));
                }
                std::process::abort();
            }
        }
    }
}
