//! `cgl check` on many files: which files, checking each one in a session of its own, and
//! handing the reports back in input order.
//!
//! Isolation: one file is checked in process, on a worker thread (`threads.rs`); two or more
//! are each checked in a child process of the same binary (`children.rs` starts them,
//! `child.rs` is the child, `wire.rs` what passes between them), so that a file whose
//! process dies (an abort, a stack overflow, the OOM killer) loses only its own report. In
//! both, a `Session` is built, used and dropped for one file, a panic while checking a file
//! becomes an `internal error` report for that file, and with `--timeout` a file that keeps
//! running well past its deadline (the engine checks the deadline in its loops, so that is
//! a bug) is given up on: its process killed, or in process its stop flag raised so that it
//! stops at the next check it reaches. Only plain data ([`FileReport`]) leaves a file's
//! worker or process.

mod child;
mod children;
pub mod interrupt;
mod threads;
mod wire;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::io::Write;

use super::report::{reporter, Format, Totals};
use super::report::{ExpectReport, ExpectStatus, FileReport, Locator, Place, Problem};
use crate::api::progress::Tally;
use crate::api::stats::{total, Stats, Work};
use crate::api::{shown, Gave, LoadPolicy, RunOptions, Session, SessionConfig};
use crate::api::{Code, Diag, RenderStyle, Severity};
use crate::api::{Stop, INTERRUPTED, TIMEOUT};

pub use child::run as run_child;

/// How `cgl check` checks each file.
#[derive(Clone, Debug)]
pub struct CheckSettings {
    /// Session settings (position limit, explicit products).
    pub config: SessionConfig,
    /// How files are read (size limit, confinement to a folder).
    pub policy: LoadPolicy,
    /// Time allowed per file (load and every expectation), if limited.
    pub timeout: Option<Duration>,
    /// How diagnostics are drawn into the reports.
    pub style: RenderStyle,
    /// Whether to work out what failed expectations evaluated to (only JSON prints it, and it
    /// costs another evaluation of each failed expectation).
    pub failed_values: bool,
    /// Worker threads.
    pub jobs: usize,
    /// Whether to measure what each file costs (`--stats`) into its report.
    pub stats: bool,
    /// Where each file's session notes its progress (for the progress line), if drawn.
    pub progress: Option<Arc<Tally>>,
}

/// One thing to check: a file, or a path that cannot be (not found, an unreadable folder).
// One per path named: the size of the report a bad path carries does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Input {
    /// A file to check.
    File(PathBuf),
    /// A path named on the command line that is not there or cannot be listed.
    Bad(FileReport),
}

/// Every file named, and every `.game` file below a named folder (each folder's files
/// sorted), in the order the paths were given. A file named twice, or named and found below
/// a named folder, is checked once; symbolic links that lead back into a folder being listed
/// are followed once.
///
/// With `confine` (the canonical folder of `--confine`), a folder that leads outside it is
/// not listed but reported.
pub fn inputs(paths: &[PathBuf], confine: Option<&Path>) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            let mut stack = vec![path.clone()];
            let mut seen_dirs = BTreeSet::new();
            while let Some(dir) = stack.pop() {
                if !seen_dirs.insert(std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone())) {
                    continue;
                }
                if let Some(root) = confine {
                    // A link to a folder outside is not followed: its files are not the
                    // student's, and even their names stay out of the log.
                    let inside = std::fs::canonicalize(&dir).is_ok_and(|d| d.starts_with(root));
                    if !inside {
                        found.push((dir.clone(), Input::Bad(outside_folder(&dir))));
                        continue;
                    }
                }
                let entries = match std::fs::read_dir(&dir) {
                    Ok(entries) => entries,
                    Err(e) => {
                        let message = format!("cannot list the folder {}: {e}", shown(&dir));
                        found.push((dir.clone(), Input::Bad(bad_path(&dir, message))));
                        continue;
                    }
                };
                for entry in entries.flatten() {
                    let p = entry.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|e| e == "game") {
                        found.push((p.clone(), Input::File(p)));
                    }
                }
            }
            // Sorted by path, so the order does not depend on the order of the file system's
            // listing (nor does that of folders that cannot be listed).
            found.sort_by(|a, b| a.0.cmp(&b.0));
            if found.is_empty() {
                // A class's CI pointed at the wrong folder must not pass by checking nothing.
                inputs.push(Input::Bad(bad_path(
                    path,
                    format!("no .game files in the folder {}", shown(path)),
                )));
            }
            inputs.extend(found.into_iter().map(|(_, input)| input));
        } else if path.exists() {
            inputs.push(Input::File(path.clone()));
        } else {
            inputs.push(Input::Bad(bad_path(
                path,
                format!("no such file or folder: {}", shown(path)),
            )));
        }
    }
    let mut seen = BTreeSet::new();
    inputs.retain(|input| match input {
        Input::File(f) => seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())),
        Input::Bad(_) => true,
    });
    inputs
}

fn bad_path(path: &Path, message: String) -> FileReport {
    let rendered = format!("error: {message}");
    FileReport::not_checked(
        shown(path),
        vec![Problem::plain(
            Code::LoadUnreadable,
            message,
            Some(
                "check the path (relative to the current directory); in a folder, cgl checks \
                 the files whose names end in .game, in it and below it"
                    .to_string(),
            ),
            rendered,
        )],
    )
}

/// Checks every input and calls `on_report` with each report, in input order, as soon as it
/// and every report before it are ready.
/// Two files or more are checked in child processes (one file, or where the binary cannot
/// be found, in process).
pub fn check_all(
    inputs: Vec<Input>,
    settings: CheckSettings,
    on_report: &mut dyn FnMut(FileReport),
) {
    let files = inputs
        .iter()
        .filter(|i| matches!(i, Input::File(_)))
        .count();
    match std::env::current_exe() {
        Ok(exe) if files > 1 => children::check_all(inputs, &settings, &exe, on_report),
        _ => threads::check_all_with(inputs, settings, check_file, on_report),
    }
}

/// With a timeout, how long a file may run before it is given up on: its time, and then 2
/// seconds or half its time, whichever is longer.
fn give_up_after(timeout: Option<Duration>) -> Option<Duration> {
    timeout.map(|t| t + (t / 2).max(Duration::from_secs(2)))
}

/// A folder below a confined one that leads outside it (a symbolic link).
fn outside_folder(dir: &Path) -> FileReport {
    let diag = Diag::error(
        Code::LoadConfined,
        format!(
            "the folder {} leads outside the folder that cgl check is confined to",
            shown(dir)
        ),
    )
    .help("with --confine, cgl reads only files inside the confined folder; its files are not checked");
    let rendered = crate::api::render(&diag, &Default::default(), RenderStyle::Plain);
    let problem = Problem::plain(diag.code, diag.message, diag.help, rendered);
    FileReport::not_checked(shown(dir), vec![problem])
}

/// The report of a file given up on after `limit` (`killed`: its process was killed).
fn given_up(path: &Path, budget: Duration, limit: Duration, killed: bool) -> FileReport {
    let what = if killed {
        "cgl stopped the process checking this file"
    } else {
        "cgl gave up on this file"
    };
    let diag = Diag::error(
        TIMEOUT,
        format!("took longer than {budget:?}, and did not stop at its deadline"),
    )
    .note(format!(
        "{what} after {limit:?}; a part of cgl that does not watch the deadline (reading or \
         parsing a very large file?) was still running"
    ))
    .help("make the file smaller or simpler; if it is small, this is a bug in cgl");
    let rendered = crate::api::render(&diag, &Default::default(), RenderStyle::Plain);
    let mut problem = Problem::plain(diag.code, diag.message.clone(), diag.help, rendered);
    problem.diagnostic.notes = diag.notes;
    FileReport::not_checked(shown(path), vec![problem])
}

/// Checks one file in a session of its own: loads it, then evaluates its expectations in
/// order. After a timeout the remaining expectations are not evaluated (they would time out
/// at once) but reported as skipped. The session stops when `stop` is raised.
fn check_file(path: &Path, settings: &CheckSettings, stop: &Arc<AtomicBool>) -> FileReport {
    let mut session = Session::new(settings.config);
    session.set_load_policy(settings.policy.clone());
    let deadline = settings.timeout.map_or_else(Stop::new, Stop::after);
    let mut stop = deadline.with_flag(stop.clone());
    // Counted in the progress line's tally until the file is done.
    let entered = settings.progress.as_ref().map(Tally::enter);
    if let Some(entered) = &entered {
        stop = stop.with_meter(entered.meter());
    }
    session.set_stop(stop);
    let shown = shown(path);
    let style = settings.style;
    let mut locator = Locator::default();
    let started = Instant::now();
    let loaded = session.load_path(path);
    let load_time = started.elapsed();
    let index = match loaded {
        Ok(index) => index,
        Err(diags) => {
            let errors = diags
                .iter()
                .map(|d| Problem::of(d, &session.sources, style, &mut locator))
                .collect();
            let mut report = FileReport::not_checked(shown, errors);
            report.stats = settings.stats.then(|| {
                Stats::new(
                    load_time,
                    Duration::ZERO,
                    Work::Expectations(0),
                    session.compiled_rules(),
                    session.analyzer(),
                    session.instances(),
                )
            });
            return report;
        }
    };
    let started = Instant::now();
    let mut report = FileReport {
        path: shown,
        errors: Vec::new(),
        warnings: Vec::new(),
        expects: Vec::new(),
        stats: None,
    };
    for warning in &session.file(index).lowered.warnings {
        report
            .warnings
            .push(Problem::of(warning, &session.sources, style, &mut locator));
    }
    if session.defines_nothing(index) {
        let warning = Diag {
            severity: Severity::Warning,
            ..Diag::error(
                Code::CheckEmptyFile,
                format!("{} has nothing to check", report.path),
            )
            .help("the file defines nothing and expects nothing; is it the file you meant to hand in?")
        };
        report
            .warnings
            .push(Problem::of(&warning, &session.sources, style, &mut locator));
    }
    let options = RunOptions {
        prints: false,
        failed_values: settings.failed_values,
        skip_after_timeout: true,
    };
    session.run_statements(index, options, &mut |session, ran| {
        let place = locator.place(ran.span, &session.sources).unwrap_or(Place {
            file: report.path.clone(),
            line: 0,
            column: 0,
            end_line: 0,
            end_column: 0,
            start: 0,
            end: 0,
        });
        // Quoted in every report as written, cut as a message's names are.
        let text = crate::api::cut(session.sources.snippet(ran.span));
        let status = match ran.outcome {
            Gave::Passed => ExpectStatus::Passed,
            // Not asked for: `prints` is off.
            Gave::Printed(_) => return,
            Gave::Skipped => ExpectStatus::Skipped,
            Gave::Failed(mut diag) => {
                if diag.code == TIMEOUT || diag.code == INTERRUPTED {
                    // Where the work stood when the deadline passed ("while generating the
                    // moves of ...") differs from run to run; the rest does not. (Stopped by
                    // the watchdog, whose report replaces this one, likewise.)
                    diag.notes.clear();
                }
                ExpectStatus::Failed(
                    Box::new(Problem::of(&diag, &session.sources, style, &mut locator)),
                    ran.values,
                )
            }
        };
        report.expects.push(ExpectReport {
            place,
            text,
            status,
        });
    });
    if settings.stats {
        let evaluated = report.expects.len() - report.skipped();
        report.stats = Some(Stats::new(
            load_time,
            started.elapsed(),
            Work::Expectations(evaluated),
            session.compiled_rules(),
            session.analyzer(),
            session.instances(),
        ));
    }
    report
}

/// Checks `inputs` and writes their reports in input order, in `format`, each file's record
/// whole; with `--stats`, each file's figures follow it on stderr and a total line ends a
/// run of several files. The exit code of the run.
pub(super) fn report_all(
    inputs: Vec<Input>,
    format: Format,
    settings: CheckSettings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let started = Instant::now();
    let jobs = settings.jobs;
    let stats_text = settings.stats && format != Format::Json;
    let mut writer = reporter(format, settings.stats);
    let mut totals = Totals::default();
    let mut figures: Vec<Stats> = Vec::new();
    check_all(inputs, settings, &mut |report| {
        totals.add(&report);
        // Each file's record is written whole, in one piece, so that output cut short (a
        // crash, a full disk) never ends in the middle of one.
        let (mut record, mut diagnostics) = (Vec::new(), Vec::new());
        writer.file(&report, &mut record, &mut diagnostics);
        let _ = err.write_all(&diagnostics);
        let _ = out.write_all(&record);
        let _ = out.flush();
        if let (true, Some(stats)) = (stats_text, &report.stats) {
            let _ = write!(err, "{}", stats.render(&report.path));
            figures.push(stats.clone());
        }
    });
    writer.finish(&totals, out, err);
    let _ = out.flush();
    if stats_text && totals.files > 1 {
        let jobs = jobs.min(totals.files);
        let _ = write!(err, "{}", total(&figures, started.elapsed(), jobs));
    }
    totals.exit_code()
}
