//! The parent's side of `cgl check` on several files: each file is checked in a child
//! process of the same binary (`cgl check-child`, [`super::child`]), at most `--jobs` at a
//! time, so that nothing one file does — an abort, a stack overflow, the kernel's OOM
//! killer, a kill — can take the other files' reports with it.
//!
//! Each child gets the resolved settings on its command line and writes its file's record
//! on stdout; a thread per pipe reads it (and the child's stderr: progress beats for the
//! parent's line, and the last lines of anything else, for the diagnostic of a crash). A
//! child that ends without a whole record becomes a `cgl::check::crashed` report for its
//! file; one still running past its deadline and a grace is killed. Reports are handed on
//! in input order, as the in-process pool does.
//!
//! A child's progress beats (`cgl-beat POSITIONS BYTES`, `progress::Relay`) become that child's
//! meter in the parent's `Tally`, which the progress line reads; the last other lines of its
//! stderr are kept (bounded) for a crash report. The canonical-form table (`cgt::ValueTable`,
//! one per thread) lives as long as one file's process, so no file's forms are reused by
//! another.

use std::collections::{BTreeMap, VecDeque};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::wire::{self, WireSettings};
use super::{give_up_after, given_up, CheckSettings, Input};
use crate::api::progress::{note_beat, parse_beat, Entered, Meter, Tally};
use crate::api::{escaped, shown};
use crate::api::{Code, Diag, RenderStyle};
use crate::cli::report::{FileReport, Problem};

/// The longest record read from a child; a child that writes more is a crash (no correct
/// report of one file comes near it).
const MAX_RECORD: u64 = 512 << 20;
/// The lines of a crashed child's stderr quoted in its diagnostic, and the characters kept of
/// each.
const TAIL_LINES: usize = 8;
const TAIL_WIDTH: usize = 160;
/// How often deadlines are looked at while children run with a timeout.
const POLL: Duration = Duration::from_millis(50);

/// Checks every input in child processes of `exe` and calls `on_report` with each report,
/// in input order, as soon as it and every report before it are ready.
pub fn check_all(
    inputs: Vec<Input>,
    settings: &CheckSettings,
    exe: &Path,
    on_report: &mut dyn FnMut(FileReport),
) {
    let mut order = InOrder::new(on_report);
    let mut queue = VecDeque::new();
    for (i, input) in inputs.into_iter().enumerate() {
        match input {
            Input::File(path) => queue.push_back((i, path)),
            Input::Bad(report) => order.put(i, report),
        }
    }
    let jobs = settings.jobs.clamp(1, queue.len().max(1));
    let (wire, confine) = WireSettings::of(settings);
    let spawner = Spawner {
        exe,
        settings: serde_json::to_string(&wire).unwrap_or_default(),
        confine,
        tally: settings.progress.clone(),
    };
    let limit = give_up_after(settings.timeout);
    let (sender, events) = channel();
    let mut running: BTreeMap<usize, Running> = BTreeMap::new();
    let mut interrupted = false;
    loop {
        if !interrupted && super::interrupt::requested() {
            interrupted = true;
            // No file starts any more; the children running are stopped.
            for (i, path) in queue.drain(..) {
                order.put(i, super::interrupt::report(&path, false));
            }
            for child in running.values_mut() {
                let _ = child.process.kill();
                child.interrupted = true;
            }
        }
        while running.len() < jobs {
            let Some((i, path)) = queue.pop_front() else {
                break;
            };
            match spawner.spawn(i, &path, &sender) {
                Ok(child) => {
                    running.insert(i, child);
                }
                Err(e) => order.put(i, not_started(&path, &e)),
            }
        }
        if running.is_empty() {
            break;
        }
        // Polled, so that a child past its time or an interrupt is seen within `POLL`.
        let event = events.recv_timeout(POLL);
        match event {
            Ok(Event::Record(i, record)) => {
                if let Some(child) = running.get_mut(&i) {
                    child.record = Some(record);
                }
            }
            Ok(Event::Stderr(i, tail)) => {
                if let Some(child) = running.get_mut(&i) {
                    child.tail = Some(tail);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                // Cannot happen while `sender` lives; were it to, no event would come again.
                for (i, mut child) in std::mem::take(&mut running) {
                    let _ = child.process.kill();
                    let _ = child.process.wait();
                    let what = "cgl lost track of the process checking it".to_string();
                    order.put(i, crashed(&child.path, what, &[]));
                }
            }
        }
        if let Some(limit) = limit {
            for child in running.values_mut() {
                if child.killed.is_none() && child.started.elapsed() > limit {
                    // Its pipes close as it dies; its report is made then.
                    let _ = child.process.kill();
                    child.killed = Some(limit);
                }
            }
        }
        let ended: Vec<usize> = running
            .iter()
            .filter(|(_, c)| c.record.is_some() && c.tail.is_some())
            .map(|(i, _)| *i)
            .collect();
        for i in ended {
            if let Some(child) = running.remove(&i) {
                order.put(i, child.report(settings.timeout.unwrap_or_default()));
            }
        }
    }
}

/// Reports that come in any order, handed on in input order.
struct InOrder<'a> {
    ready: BTreeMap<usize, FileReport>,
    next: usize,
    on_report: &'a mut dyn FnMut(FileReport),
}

impl<'a> InOrder<'a> {
    fn new(on_report: &'a mut dyn FnMut(FileReport)) -> InOrder<'a> {
        InOrder {
            ready: BTreeMap::new(),
            next: 0,
            on_report,
        }
    }

    fn put(&mut self, i: usize, report: FileReport) {
        self.ready.insert(i, report);
        while let Some(report) = self.ready.remove(&self.next) {
            (self.on_report)(report);
            self.next += 1;
        }
    }
}

/// What the pipe threads of a child send.
enum Event {
    /// Child `i` closed its stdout: what it wrote, or why it cannot be read.
    Record(usize, Result<Vec<u8>, String>),
    /// Child `i` closed its stderr: the last lines it wrote there (not the beats).
    Stderr(usize, Tail),
}

/// Starts the children, all alike but for their file.
struct Spawner<'a> {
    exe: &'a Path,
    /// The settings, as JSON.
    settings: String,
    confine: Option<PathBuf>,
    /// The progress line's tally, if it is drawn.
    tally: Option<Arc<Tally>>,
}

impl Spawner<'_> {
    fn spawn(&self, i: usize, path: &Path, events: &Sender<Event>) -> std::io::Result<Running> {
        let mut command = Command::new(self.exe);
        command.args(["check-child", "--settings", &self.settings]);
        if let Some(dir) = &self.confine {
            command.arg("--confine").arg(dir);
        }
        command
            .arg("--")
            .arg(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut process = command.spawn()?;
        let entered = self.tally.as_ref().map(Tally::enter);
        let meter = entered.as_ref().map(Entered::meter);
        let pipes = (process.stdout.take(), process.stderr.take());
        let started = match pipes {
            (Some(out), Some(err)) => read_pipes(i, out, err, meter, events),
            _ => Err(std::io::Error::other("its output is not a pipe")),
        };
        if let Err(e) = started {
            let _ = process.kill();
            let _ = process.wait();
            return Err(e);
        }
        Ok(Running {
            path: path.to_path_buf(),
            stdin: process.stdin.take(),
            process,
            started: Instant::now(),
            record: None,
            tail: None,
            killed: None,
            interrupted: false,
            _entered: entered,
        })
    }
}

/// Starts the threads that read a child's stdout (its record) and stderr (beats and the
/// rest), each sending what it read when its pipe closes.
fn read_pipes(
    i: usize,
    mut out: impl Read + Send + 'static,
    err: impl Read + Send + 'static,
    meter: Option<Arc<Meter>>,
    events: &Sender<Event>,
) -> std::io::Result<()> {
    let sender = events.clone();
    std::thread::Builder::new()
        .name("cgl-record".to_string())
        .spawn(move || {
            let mut record = Vec::new();
            let read = (&mut out).take(MAX_RECORD + 1).read_to_end(&mut record);
            let record = match read {
                Err(e) => Err(format!("its output could not be read: {e}")),
                Ok(_) if record.len() as u64 > MAX_RECORD => {
                    // Drained, so that the child is not left blocked on a full pipe.
                    let _ = std::io::copy(&mut out, &mut std::io::sink());
                    Err(format!("it wrote more than {} MiB", MAX_RECORD >> 20))
                }
                Ok(_) => Ok(record),
            };
            let _ = sender.send(Event::Record(i, record));
        })?;
    let sender = events.clone();
    std::thread::Builder::new()
        .name("cgl-stderr".to_string())
        .spawn(move || {
            let tail = read_stderr(err, meter.as_deref());
            let _ = sender.send(Event::Stderr(i, tail));
        })?;
    Ok(())
}

/// Reads a child's stderr to its end: beat lines move `meter`, the last other lines are kept.
fn read_stderr(mut err: impl Read, meter: Option<&Meter>) -> Tail {
    let mut tail = Tail::default();
    let mut line = Vec::new();
    let mut buf = [0u8; 8192];
    let finish = |line: &mut Vec<u8>, tail: &mut Tail| {
        let text = String::from_utf8_lossy(line).to_string();
        match parse_beat(&text) {
            Some(beat) => {
                if let Some(meter) = meter {
                    note_beat(meter, beat);
                }
            }
            None => tail.push(&text),
        }
        line.clear();
    };
    loop {
        let n = match err.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &byte in &buf[..n] {
            if byte == b'\n' {
                finish(&mut line, &mut tail);
            } else if line.len() < 4 * TAIL_WIDTH {
                line.push(byte);
            }
        }
    }
    if !line.is_empty() {
        finish(&mut line, &mut tail);
    }
    tail
}

/// The last lines a child wrote on stderr (at most [`TAIL_LINES`], each cut to
/// [`TAIL_WIDTH`] characters, control characters escaped), and how many came before them.
#[derive(Debug, Default)]
struct Tail {
    lines: VecDeque<String>,
    earlier: usize,
}

impl Tail {
    fn push(&mut self, line: &str) {
        let mut shown: String = escaped(line).chars().take(TAIL_WIDTH).collect();
        if shown.chars().count() < escaped(line).chars().count() {
            shown.push('…');
        }
        self.lines.push_back(shown);
        if self.lines.len() > TAIL_LINES {
            self.lines.pop_front();
            self.earlier += 1;
        }
    }

    /// The lines as notes of a diagnostic.
    fn notes(&self) -> Vec<String> {
        if self.lines.is_empty() {
            return vec!["it wrote nothing on stderr".to_string()];
        }
        let mut quoted = String::from("the last lines it wrote on stderr");
        if self.earlier > 0 {
            quoted.push_str(&format!(" (after {} more)", self.earlier));
        }
        quoted.push(':');
        for line in &self.lines {
            quoted.push_str("\n  ");
            quoted.push_str(line);
        }
        vec![quoted]
    }
}

/// A child checking one file.
struct Running {
    path: PathBuf,
    process: Child,
    /// Held open, never written: the child ends when it closes (see `child.rs`).
    stdin: Option<ChildStdin>,
    started: Instant,
    /// What it wrote on stdout, once the pipe is closed.
    record: Option<Result<Vec<u8>, String>>,
    /// The end of its stderr, once the pipe is closed.
    tail: Option<Tail>,
    /// Set when it was killed for running past its deadline: after how long.
    killed: Option<Duration>,
    /// Killed because the check was interrupted.
    interrupted: bool,
    /// Its place in the progress line's tally, left when it is done.
    _entered: Option<Entered>,
}

impl Running {
    /// The file's report, once both pipes are closed (the child is ending: it closes them
    /// only by exiting, so the wait is short).
    fn report(mut self, budget: Duration) -> FileReport {
        drop(self.stdin.take());
        let status = self.process.wait();
        if self.interrupted {
            return super::interrupt::report(&self.path, true);
        }
        if let Some(limit) = self.killed {
            return given_up(&self.path, budget, limit, true);
        }
        let tail = self.tail.unwrap_or_default();
        let status = match status {
            Ok(status) => status,
            Err(e) => {
                let what = format!("cgl could not learn how its process ended ({e})");
                return crashed(&self.path, what, &tail.notes());
            }
        };
        let record = self.record.unwrap_or_else(|| Err("no output".to_string()));
        match (status.success(), record) {
            (true, Ok(bytes)) if bytes.is_empty() => {
                let what = "its process ended without writing its report".to_string();
                crashed(&self.path, what, &tail.notes())
            }
            (true, Ok(bytes)) => match wire::decode(&bytes) {
                Ok(report) => report,
                Err(e) => {
                    let what = format!("its process wrote a report that cannot be read ({e})");
                    crashed(&self.path, what, &tail.notes())
                }
            },
            (true, Err(e)) => {
                let what = format!("its report could not be read: {e}");
                crashed(&self.path, what, &tail.notes())
            }
            (false, _) => crashed(&self.path, ended(status), &tail.notes()),
        }
    }
}

/// How a process that did not succeed ended, in words.
fn ended(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = signal_name(signal).map_or(String::new(), |n| format!(" ({n})"));
            let core = if status.core_dumped() {
                ", core dumped"
            } else {
                ""
            };
            return format!("its process was killed by signal {signal}{name}{core}");
        }
    }
    match status.code() {
        Some(code) => format!("its process exited with status {code} without its report"),
        None => format!("its process ended without its report ({status})"),
    }
}

/// The names of the signals that end a process, as Linux numbers them.
fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        31 => "SIGSYS",
        _ => return None,
    })
}

/// The report of a file whose child ended without a whole record.
fn crashed(path: &Path, what: String, notes: &[String]) -> FileReport {
    let mut diag = Diag::error(
        Code::CheckCrashed,
        format!("checking this file crashed: {what}"),
    )
    .help(
        "the other files were checked as usual; a process killed by SIGKILL was probably \
         stopped by the system for using too much memory (try a smaller --max-memory, or \
         fewer --jobs); anything else is a bug in cgl: please report it with the file",
    );
    for note in notes {
        diag = diag.note(note.clone());
    }
    plain(&diag, path)
}

/// The report of a file whose child could not be started.
fn not_started(path: &Path, e: &std::io::Error) -> FileReport {
    let diag = Diag::error(
        Code::CheckCrashed,
        format!("cgl could not start a process to check this file: {e}"),
    )
    .help("the system refused a new process (too many processes, too little memory?); run cgl check again with fewer --jobs");
    plain(&diag, path)
}

fn plain(diag: &Diag, path: &Path) -> FileReport {
    let rendered = crate::api::render(diag, &Default::default(), RenderStyle::Plain);
    let mut problem = Problem::plain(diag.code, diag.message.clone(), diag.help.clone(), rendered);
    problem.diagnostic.notes = diag.notes.clone();
    FileReport::not_checked(shown(path), vec![problem])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_cut_and_escaped() {
        let mut text = String::new();
        for i in 0..20 {
            text.push_str(&format!("line {i}\n"));
            text.push_str("cgl-beat 5 6\n");
        }
        text.push_str(&"y".repeat(10_000));
        text.push_str("\nbell \u{7}");
        let meter = Meter::default();
        let tail = read_stderr(text.as_bytes(), Some(&meter));
        assert_eq!(meter.read().positions, 5);
        assert_eq!(tail.earlier, 14);
        assert_eq!(tail.lines.len(), TAIL_LINES);
        assert_eq!(tail.lines[0], "line 14");
        assert_eq!(tail.lines[6].chars().count(), TAIL_WIDTH + 1);
        assert!(tail.lines[6].ends_with('…'));
        assert_eq!(tail.lines[7], "bell \\u{7}");
        let notes = tail.notes();
        assert!(
            notes[0].starts_with("the last lines it wrote on stderr (after 14 more):\n  line 14\n")
        );
        assert_eq!(Tail::default().notes(), ["it wrote nothing on stderr"]);
    }

    #[cfg(unix)]
    #[test]
    fn how_a_process_ended_is_said_in_words() {
        use std::os::unix::process::ExitStatusExt;
        let said = ended(ExitStatus::from_raw(9));
        assert_eq!(said, "its process was killed by signal 9 (SIGKILL)");
        let said = ended(ExitStatus::from_raw(3 << 8));
        assert_eq!(said, "its process exited with status 3 without its report");
        let said = ended(ExitStatus::from_raw(6 | 0x80));
        assert_eq!(
            said,
            "its process was killed by signal 6 (SIGABRT), core dumped"
        );
    }
}
