//! `cgl grade KEY SUBMISSION...` and `cgl seal KEY -o FILE`. Each submission is graded in a
//! child process of its own (`cgl grade-child`, [`child`]), at most `--jobs` at a time,
//! confined to its folder and under limits, so that nothing one does (a crash, a loop, the
//! memory killer) touches another's grade; a child that ends without its record, or runs
//! past its time and a grace, is that submission's `crashed` record (no points). The records
//! are written in the order of the submissions ([`report`]).

pub mod child;
mod report;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};

pub use child::run as run_child;

use super::options::{default_threads, parse_seconds};
use crate::api::{shown, Session, SessionConfig};

/// The time one submission gets by default, as `check --confine` gives a file.
const DEFAULT_SECONDS: f64 = 10.0;
/// The memory one submission gets by default, MiB.
const DEFAULT_MEMORY_MIB: usize = 1024;
/// How long past its time a child may take to write its record before it is killed.
const GRACE: Duration = Duration::from_secs(3);
/// The longest record read from a child.
const MOST_RECORD: u64 = 16 << 20;

/// The report formats of `cgl grade`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GradeFormat {
    /// For people: each submission's points and each exercise's feedback.
    Human,
    /// One JSON document: the key's exercises and each submission's record.
    Json,
    /// JUnit XML: a test suite a submission, a test case an exercise.
    Junit,
    /// A grade book: a row a submission, a column an exercise's points.
    Csv,
}

/// `cgl grade`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 when every submission earns every point, 1 when one \
                        does not (or crashed), 2 when the key cannot be used."
)]
pub struct Grade {
    /// The key: a .game file whose `expect` lines are the exercises (`expect 3 points hide
    /// "feedback": ...`), a sealed key written by `cgl seal` (.sealed), or a folder of them
    /// (its .game and .sealed files, in name order, one exercise sheet).
    key: PathBuf,
    /// The submissions: .game files, or folders (each .game file below one a submission).
    #[arg(required = true)]
    submissions: Vec<PathBuf>,
    /// How to write the grades.
    #[arg(long, value_enum, default_value_t = GradeFormat::Human)]
    format: GradeFormat,
    /// Most seconds one submission may take, loading and every exercise [default: 10].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Most memory (MiB) one submission's positions may take [default: 1024].
    #[arg(long, value_name = "MIB")]
    max_memory: Option<usize>,
    /// Submissions graded at once [default: the number of cores].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

/// `cgl seal`.
#[derive(Debug, Args)]
pub struct Seal {
    /// The key (a .game file; its imports, the teacher's solution, are read to evaluate the
    /// answers and are not kept), or a folder of keys.
    key: PathBuf,
    /// Where to write the sealed key; for a folder, the folder to write each of its .game
    /// keys into, sealed (NAME.sealed), and its sealed ones as they are (the solutions the
    /// keys import are not written).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// What a submission was given, as a child writes it and the reports read it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The submission, as its path is shown.
    pub submission: String,
    /// Points earned.
    pub earned: u32,
    /// Points possible.
    pub total: u32,
    /// Why it earned nothing at all: its file does not load (its diagnostics, rendered), or
    /// its process crashed.
    pub problems: Vec<String>,
    /// Each exercise.
    pub exercises: Vec<Mark>,
}

/// One exercise of one submission.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Mark {
    /// The name of the key's file the exercise is in (without `.game` or `.sealed`), when
    /// the key is a folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// The exercise's line in the key (in its file).
    pub line: usize,
    /// What it is worth.
    pub points: u32,
    /// What the submission earned.
    pub earned: u32,
    /// `passed`, `failed`, `unanswered` (the key asks for what the submission does not
    /// define) or `skipped` (out of time before it).
    pub status: String,
    /// The exercise as the key writes it; none when the key hides it.
    pub question: Option<String>,
    /// What the submission is told: the teacher's feedback, then why it failed.
    pub feedback: Vec<String>,
}

impl Mark {
    /// Where the exercise is: `line 7`, or in a folder key `sheet1 line 7` (its file without `.game` or `.sealed`).
    pub fn place(&self) -> String {
        match &self.part {
            Some(part) => format!("{part} line {}", self.line),
            None => format!("line {}", self.line),
        }
    }
}

impl Grade {
    /// Grades every submission and writes the grades to `out`.
    pub fn run(self, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
        let key = match child::Key::read(&self.key) {
            Ok(k) => k,
            Err(message) => {
                let _ = writeln!(err, "{message}");
                return 2;
            }
        };
        let exercises = match key.exercises() {
            Ok(e) => e,
            Err(message) => {
                let _ = writeln!(err, "{message}");
                return 2;
            }
        };
        let mut submissions = Vec::new();
        for path in &self.submissions {
            if let Err(message) = collect(path, &mut submissions) {
                let _ = writeln!(err, "{message}");
                return 2;
            }
        }
        let limits = child::Limits {
            seconds: self.timeout.map_or(DEFAULT_SECONDS, |d| d.as_secs_f64()),
            memory_mib: self.max_memory.unwrap_or(DEFAULT_MEMORY_MIB),
        };
        let jobs = self.jobs.map_or_else(default_threads, usize::from).max(1);
        let records = grade_all(&self.key, &submissions, &limits, &exercises, jobs);
        report::write(self.format, &shown(&self.key), &exercises, &records, out);
        let full = records
            .iter()
            .all(|r| r.earned == r.total && r.problems.is_empty());
        u8::from(!full)
    }
}

impl Seal {
    /// Seals the key, or each key of a folder.
    pub fn run(self, style: crate::api::RenderStyle, err: &mut dyn Write) -> u8 {
        if !self.key.is_dir() {
            return seal_one(&self.key, &self.output, style, err);
        }
        let parts = match child::key_parts(&self.key) {
            Ok(parts) => parts,
            Err(message) => {
                let _ = writeln!(err, "{message}");
                return 2;
            }
        };
        if let Err(e) = std::fs::create_dir_all(&self.output) {
            let _ = writeln!(err, "error: cannot make {}: {e}", shown(&self.output));
            return 2;
        }
        for part in parts {
            let code = match (part.extension(), part.file_stem()) {
                (Some(e), Some(stem)) if e == "game" => {
                    let to = self.output.join(stem).with_extension("sealed");
                    seal_one(&part, &to, style, err)
                }
                _ => match part
                    .file_name()
                    .map(|n| std::fs::copy(&part, self.output.join(n)))
                {
                    Some(Ok(_)) => 0,
                    _ => {
                        let _ = writeln!(err, "error: cannot copy {}", shown(&part));
                        2
                    }
                },
            };
            if code != 0 {
                return code;
            }
        }
        0
    }
}

/// Seals the key `key` into `output`.
fn seal_one(key: &Path, output: &Path, style: crate::api::RenderStyle, err: &mut dyn Write) -> u8 {
    let text = match std::fs::read_to_string(key) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(err, "error: cannot read {}: {e}", shown(key));
            return 2;
        }
    };
    let mut session = Session::new(SessionConfig::default());
    let sealed = match session.seal(key, &text) {
        Ok(s) => s,
        Err(diags) => {
            for d in &diags {
                let _ = writeln!(err, "{}", crate::api::render(d, &session.sources, style));
            }
            return 2;
        }
    };
    let json = serde_json::to_string_pretty(&sealed).unwrap_or_default();
    if let Err(e) = std::fs::write(output, json + "\n") {
        let _ = writeln!(err, "error: cannot write {}: {e}", shown(output));
        return 2;
    }
    let _ = writeln!(
        err,
        "sealed {} exercises of {} into {}",
        sealed.exercises.len(),
        shown(key),
        shown(output)
    );
    0
}

/// The submissions a path names: itself, or every .game file below the folder, in order.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    if !path.is_dir() {
        return Err(format!("error: no submission {}", shown(path)));
    }
    let mut found = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| format!("error: cannot list {}: {e}", shown(&dir)))?;
        for entry in entries.flatten() {
            let p = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "game") {
                found.push(p);
            }
        }
    }
    found.sort();
    if found.is_empty() {
        return Err(format!("error: no .game files in {}", shown(path)));
    }
    out.extend(found);
    Ok(())
}

/// A child grading one submission.
struct Running {
    index: usize,
    child: std::process::Child,
    started: Instant,
    output: std::thread::JoinHandle<Vec<u8>>,
}

/// Grades each submission in a child process, `jobs` at once; the records in order.
fn grade_all(
    key: &Path,
    submissions: &[PathBuf],
    limits: &child::Limits,
    exercises: &[Mark],
    jobs: usize,
) -> Vec<Record> {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cgl"));
    let mut records: Vec<Option<Record>> = vec![None; submissions.len()];
    let mut next = 0;
    let mut running: Vec<Running> = Vec::new();
    let deadline = Duration::from_secs_f64(limits.seconds) + GRACE;
    while next < submissions.len() || !running.is_empty() {
        while running.len() < jobs && next < submissions.len() {
            let path = &submissions[next];
            let spawned = Command::new(&exe)
                .arg("grade-child")
                .arg(key)
                .arg(path)
                .args(["--seconds", &limits.seconds.to_string()])
                .args(["--memory-mib", &limits.memory_mib.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn();
            match spawned {
                Ok(mut child) => {
                    let stdout = child.stdout.take();
                    let output = std::thread::spawn(move || {
                        let mut bytes = Vec::new();
                        if let Some(stdout) = stdout {
                            let _ = stdout.take(MOST_RECORD).read_to_end(&mut bytes);
                        }
                        bytes
                    });
                    running.push(Running {
                        index: next,
                        child,
                        started: Instant::now(),
                        output,
                    });
                }
                Err(e) => {
                    records[next] = Some(crashed(path, exercises, &format!("cannot start: {e}")));
                }
            }
            next += 1;
        }
        std::thread::sleep(Duration::from_millis(20));
        let mut still = Vec::new();
        for mut r in running.drain(..) {
            let path = &submissions[r.index];
            let status = match r.child.try_wait() {
                Ok(Some(status)) => Some(status),
                Ok(None) if r.started.elapsed() > deadline => {
                    let _ = r.child.kill();
                    let _ = r.child.wait();
                    let _ = r.output.join();
                    let why = format!("it ran past its {} seconds and was stopped", limits.seconds);
                    records[r.index] = Some(crashed(path, exercises, &why));
                    continue;
                }
                Ok(None) => None,
                Err(e) => {
                    records[r.index] = Some(crashed(path, exercises, &e.to_string()));
                    continue;
                }
            };
            match status {
                None => still.push(r),
                Some(status) => {
                    let bytes = r.output.join().unwrap_or_default();
                    records[r.index] = Some(match serde_json::from_slice::<Record>(&bytes) {
                        Ok(record) => record,
                        Err(_) => crashed(
                            path,
                            exercises,
                            &format!("its process ended ({status}) without its grade"),
                        ),
                    });
                }
            }
        }
        running = still;
    }
    records.into_iter().flatten().collect()
}

/// The record of a submission whose process failed: no points, each exercise unmarked.
fn crashed(path: &Path, exercises: &[Mark], why: &str) -> Record {
    Record {
        submission: shown(path),
        earned: 0,
        total: exercises.iter().map(|e| e.points).sum(),
        problems: vec![format!("not graded: {why}")],
        exercises: exercises
            .iter()
            .map(|e| Mark {
                status: "skipped".into(),
                feedback: Vec::new(),
                ..e.clone()
            })
            .collect(),
    }
}
