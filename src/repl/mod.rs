//! The interactive session: `cgl repl [FILE...]`, or `cgl` alone.
//!
//! A student types expressions, statements of the .game language and `let` bindings, and
//! meta-commands (`:explain`, `:table`, `:play`, ...) that show a game from several sides.
//! Everything runs on one [`Session`](crate::api::Session), so later entries reuse what
//! earlier ones computed. A mistake is a diagnostic, drawn as `cgl check` draws it, and the
//! session goes on; only `:quit` and the end of the input (Ctrl-D) end it.
//!
//! - `api::command` (`src/session/command.rs`, shared with `cgl serve`) reads what was typed
//!   without evaluating it (pure, unit-tested): whether an entry is complete, what kind it is,
//!   the meta-commands and their arguments' places.
//! - `editor` gets lines: rustyline on a terminal (history, completion), or a pipe.
//! - `state` is the REPL proper: bindings, entries, commands, `:reload`.
//! - `explain`, `table` and `play` are the larger commands (`:explain`, `:table`/`:grid`,
//!   `:play`); the computer's move is `api::choose_move`'s (`session/play.rs`).
//!
//! Parts of a typed line are parsed in place (the rest blanked out), so every diagnostic points
//! into the line. Ctrl-C during a computation raises the session's stop flag. `:explain`
//! computes Grundy values and remoteness within a one-second budget and marks what did not
//! finish; `:explain`, `:table` and `:play` draw positions with their pictures, laid out in
//! `COLUMNS`; `:table` and `:grid` mark booleans and colour values when stdout is a colour
//! terminal and `NO_COLOR` is unset. `:play` runs on the session and the prompt's names, not on
//! the REPL's state.

mod editor;
mod explain;
mod help;
mod play;
mod state;
mod strategic;
mod table;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub use crate::api::command::{parse_command, Command, CommandError, Generator};

use crate::api::progress::{Clearing, Eraser, Progress};
use crate::api::Meter;
use crate::api::{Diag, RenderStyle};
use crate::api::{LoadPolicy, SessionConfig};
use editor::{read_entry, Lines, Piped, Read, Terminal};
use state::{Flow, Repl};

/// Diagnostics of a failed entry.
pub type Errors = Vec<Diag>;

/// The width the pictures of positions are laid out in: `COLUMNS` when it is set (shells
/// export it to programs on a terminal), else 80.
pub fn columns() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c >= 20)
        .unwrap_or(80)
}

/// Runs the REPL on the process's terminal, or on piped standard input when it is not a
/// terminal (no prompts then; every result on `out`, every diagnostic on `err`). Returns the
/// exit code: 0, or 1 when an entry failed in a piped session. With `progress`, an entry
/// that computes for more than a second shows the progress line on stderr.
pub fn run(
    files: &[PathBuf],
    (config, policy): (SessionConfig, LoadPolicy),
    (style, progress): (RenderStyle, bool),
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let interactive = std::io::stdin().is_terminal();
    let color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none()
        && std::env::var("TERM").map_or(true, |t| t != "dumb");
    let mut repl = Repl::new(config, style, color);
    repl.set_load_policy(policy);
    let progress = progress.then(|| {
        let meter = Arc::new(Meter::default());
        repl.set_meter(meter.clone());
        Progress::start(meter, Box::new(std::io::stderr()))
    });
    let eraser = progress.as_ref().map(Progress::eraser);
    let mut out = Clearing::new(out, eraser.clone());
    let mut err = Clearing::new(err, eraser.clone());
    let (out, err) = (&mut out, &mut err);
    for file in files {
        repl.load_file(file, out, err);
    }
    if interactive {
        if let Ok(mut terminal) = Terminal::new() {
            // Ctrl-C while a computation runs raises the stop flag, so the computation ends
            // with `interrupted` and the session goes on. (At the prompt the terminal is in
            // raw mode and Ctrl-C reaches rustyline as a key instead.) A second Ctrl-C before
            // the computation has noticed the first ends cgl.
            let flag = repl.stop_flag();
            let _ = ctrlc::set_handler(move || {
                if flag.swap(true, Ordering::SeqCst) {
                    std::process::exit(130);
                }
            });
            let _ = writeln!(
                out,
                "cgl {}: type an expression, a statement, or :help; Ctrl-D leaves.",
                env!("CARGO_PKG_VERSION")
            );
            session(&mut repl, &mut terminal, eraser.as_ref(), out, err);
            terminal.save_history();
            return 0;
        }
    }
    let stdin = std::io::stdin();
    let mut piped = Piped::new(stdin.lock());
    session(&mut repl, &mut piped, eraser.as_ref(), out, err);
    u8::from(repl.failed)
}

/// Reads and runs entries until `:quit` or the end of the input; the progress line (if
/// drawn) is erased before each prompt.
fn session(
    repl: &mut Repl,
    lines: &mut dyn Lines,
    eraser: Option<&Eraser>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) {
    let mut pending = None;
    loop {
        if let Some(eraser) = eraser {
            eraser.clear();
        }
        lines.set_names(repl.names());
        let _ = out.flush();
        let _ = err.flush();
        let entry = match read_entry(lines, &mut pending) {
            Read::Line(entry) => entry,
            Read::Interrupted => continue,
            Read::Eof => break,
        };
        if !entry.trim().is_empty() {
            lines.add_history(&entry);
        }
        // An entry that panics (a bug in cgl) is reported and the session goes on.
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            repl.entry(&entry, lines, out, err)
        }));
        match run {
            Ok(Flow::Quit) => break,
            Ok(Flow::Continue) => {}
            Err(_) => {
                repl.failed = true;
                let _ = writeln!(
                    err,
                    "internal error: cgl failed on this entry (this is a bug in cgl; please report it)"
                );
            }
        }
    }
    let _ = out.flush();
}
