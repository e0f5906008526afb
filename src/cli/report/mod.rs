//! What `cgl check` found, as data, and the four ways of writing it: for people (`human`),
//! for programs (`json`), for CI dashboards (`junit`) and for GitHub Actions (`github`).
//!
//! A [`FileReport`] holds only strings and numbers, so it can be built on a worker thread
//! (where the file's `Session` lives and dies) and written on the main thread. Every writer
//! gets the reports in the order of the input, so the output does not depend on which worker
//! finished first, and none of them writes times or anything else that varies between runs
//! (except the figures of `--stats`, whose times do). The writers are `human.rs` (also
//! `github`), `json.rs` and `junit.rs`.

mod human;
mod json;
mod junit;

use std::io::Write;

use clap::ValueEnum;

use serde::{Deserialize, Serialize};

use crate::api::stats::Stats;
use crate::api::FailedValues;
use crate::api::{render, Code, Diag, RenderStyle, SourceMap};
pub use crate::api::{Diagnostic, Locator, Place};
use human::Human;
use json::Json;
use junit::Junit;

/// The output format of `cgl check`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per file on stdout, diagnostics on stderr, then `N passed, M failed`.
    #[default]
    Human,
    /// One JSON document on stdout: a record per file and per expectation.
    Json,
    /// JUnit XML on stdout: a testsuite per file, a testcase per expectation.
    Junit,
    /// The human format, plus a GitHub Actions `::error` annotation per problem on stdout.
    Github,
}

/// A diagnostic as data, with its rendering (what the human format prints).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Problem {
    /// What it says, and where.
    #[serde(flatten)]
    pub diagnostic: Diagnostic,
    /// The diagnostic as `cgl` draws it (without colour unless the style asks for it).
    pub rendered: String,
}

impl std::ops::Deref for Problem {
    type Target = Diagnostic;

    fn deref(&self) -> &Diagnostic {
        &self.diagnostic
    }
}

impl Problem {
    /// Flattens a diagnostic, rendering it in `style`.
    pub fn of(
        diag: &Diag,
        sources: &SourceMap,
        style: RenderStyle,
        locator: &mut Locator,
    ) -> Problem {
        Problem {
            diagnostic: Diagnostic::of(diag, sources, locator),
            rendered: render(diag, sources, style),
        }
    }

    /// A problem that is not about a place in a source: a path that does not exist, a crash.
    /// `rendered` is the whole text the human format prints for it.
    pub fn plain(code: Code, message: String, help: Option<String>, rendered: String) -> Problem {
        Problem {
            diagnostic: Diagnostic::plain(code, message, help),
            rendered,
        }
    }
}

/// How one `expect` went.
#[derive(Clone, Debug)]
pub enum ExpectStatus {
    /// It held.
    Passed,
    /// It was false, or evaluating it failed: the problem says why; the values say what it
    /// evaluated to, where that is known.
    Failed(Box<Problem>, FailedValues),
    /// Not evaluated: the file ran out of time on an earlier expectation.
    Skipped,
}

/// One `expect` of a file.
#[derive(Clone, Debug)]
pub struct ExpectReport {
    /// Where its expression is.
    pub place: Place,
    /// Its expression, as written.
    pub text: String,
    /// How it went.
    pub status: ExpectStatus,
}

/// Everything `cgl check` learnt about one input path.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The path as the user named it (or as found below a named folder).
    pub path: String,
    /// Why the file could not be checked (not found, unreadable, syntax, names, a crash);
    /// empty when it was checked.
    pub errors: Vec<Problem>,
    /// Things worth knowing that fail nothing (an empty file).
    pub warnings: Vec<Problem>,
    /// Its expectations in source order (none if it could not be checked).
    pub expects: Vec<ExpectReport>,
    /// What checking it cost, with `--stats` (`None` without it, and for a file that was not
    /// read: not found, crashed, given up on).
    pub stats: Option<Stats>,
}

impl FileReport {
    /// A report for a file that could not be checked.
    pub fn not_checked(path: String, errors: Vec<Problem>) -> FileReport {
        FileReport {
            path,
            errors,
            warnings: Vec::new(),
            expects: Vec::new(),
            stats: None,
        }
    }

    fn count(&self, pred: fn(&ExpectStatus) -> bool) -> usize {
        self.expects.iter().filter(|e| pred(&e.status)).count()
    }

    /// Expectations that held.
    pub fn passed(&self) -> usize {
        self.count(|s| matches!(s, ExpectStatus::Passed))
    }

    /// Expectations that failed.
    pub fn failed(&self) -> usize {
        self.count(|s| matches!(s, ExpectStatus::Failed(..)))
    }

    /// Expectations not evaluated (the file ran out of time).
    pub fn skipped(&self) -> usize {
        self.count(|s| matches!(s, ExpectStatus::Skipped))
    }

    /// Whether the file was checked at all.
    pub fn checked(&self) -> bool {
        self.errors.is_empty()
    }

    fn status(&self) -> &'static str {
        if !self.checked() {
            "error"
        } else if self.failed() + self.skipped() > 0 {
            "fail"
        } else {
            "ok"
        }
    }
}

/// Counts over all files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Input files (and paths that were not found).
    pub files: usize,
    /// Expectations that held.
    pub passed: usize,
    /// Expectations that failed.
    pub failed: usize,
    /// Expectations not evaluated because their file ran out of time.
    pub skipped: usize,
    /// Files that could not be checked.
    pub not_checked: usize,
}

impl Totals {
    /// Adds one file.
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.passed += report.passed();
        self.failed += report.failed();
        self.skipped += report.skipped();
        self.not_checked += usize::from(!report.checked());
    }

    /// The exit code: 2 if a file could not be checked, else 1 if an expectation failed (or
    /// was not evaluated), else 0.
    pub fn exit_code(&self) -> u8 {
        if self.not_checked > 0 {
            2
        } else if self.failed + self.skipped > 0 {
            1
        } else {
            0
        }
    }

    /// The last line of the human format. A file that could not be checked counts as one
    /// failure, and so does an expectation that was not evaluated.
    fn summary(&self) -> String {
        format!(
            "{} passed, {} failed",
            self.passed,
            self.failed + self.skipped + self.not_checked
        )
    }
}

/// Writes reports in one format. `file` is called once per input, in input order; `finish`
/// once at the end.
pub trait Reporter {
    /// Writes (or keeps) one file's report.
    fn file(&mut self, report: &FileReport, out: &mut dyn Write, err: &mut dyn Write);
    /// Writes what comes after the last file.
    fn finish(&mut self, totals: &Totals, out: &mut dyn Write, err: &mut dyn Write);
}

/// The writer for a format; with `stats`, JSON file records carry a `stats` object (the
/// other formats leave the figures to the caller, who writes them to stderr).
pub fn reporter(format: Format, stats: bool) -> Box<dyn Reporter> {
    match format {
        Format::Human => Box::new(Human { github: false }),
        Format::Github => Box::new(Human { github: true }),
        Format::Json => Box::new(Json { records: 0, stats }),
        Format::Junit => Box::new(Junit::default()),
    }
}

/// An expression written over several lines, on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
