//! `cgl check` on many files: which files, checking each one in a session of its own on a
//! pool of worker threads, and handing the reports back in input order.
//!
//! Isolation: a `Session` is built, used and dropped inside one worker (it is not `Send`),
//! a panic while checking a file becomes an `internal error` report for that file, and with
//! `--timeout` a watchdog gives up on a file that keeps running well past its deadline (the
//! engine checks the deadline in its loops, so that is a bug), raises that file's stop flag
//! so that it stops at the next check it reaches (and frees its memory; its worker then
//! ends), and lets a fresh worker go on with the rest. Only plain data ([`FileReport`])
//! leaves a worker.

use std::any::Any;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use super::report::{ExpectReport, ExpectStatus, FileReport, Locator, Place, Problem};
use crate::diag::{Code, Diag, RenderStyle, Severity};
use crate::eval::{Stop, INTERRUPTED, TIMEOUT};
use crate::session::{shown, LoadPolicy, Outcome, RunOptions, Session, SessionConfig};
use crate::stats::{Stats, Work};

/// Stack of each worker thread, as large as the main thread's (src/main.rs), so that a file
/// that `cgl run` can run, `cgl check` can check. Evaluation recurses over expressions and
/// user functions (bounded by the limits in spec §12), and a large stack makes those limits,
/// not the stack, the bound. The memory is reserved, not used, until a deep recursion
/// touches it.
const WORKER_STACK: usize = 512 << 20;

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
pub fn check_all(
    inputs: Vec<Input>,
    settings: CheckSettings,
    on_report: &mut dyn FnMut(FileReport),
) {
    check_all_with(inputs, settings, check_file, on_report);
}

/// A function that checks one file, stopping when the flag is raised.
type CheckFn = fn(&Path, &CheckSettings, &Arc<AtomicBool>) -> FileReport;

/// [`check_all`] with the function that checks one file as a parameter, so that tests can
/// make a file crash or hang.
fn check_all_with(
    inputs: Vec<Input>,
    settings: CheckSettings,
    check: CheckFn,
    on_report: &mut dyn FnMut(FileReport),
) {
    let mut ready: BTreeMap<usize, FileReport> = BTreeMap::new();
    let mut files = Vec::new();
    for (i, input) in inputs.into_iter().enumerate() {
        match input {
            Input::File(path) => files.push((i, path)),
            Input::Bad(report) => {
                ready.insert(i, report);
            }
        }
    }
    let total = ready.len() + files.len();
    let mut next = 0;
    let mut emit = |ready: &mut BTreeMap<usize, FileReport>, next: &mut usize| {
        while let Some(report) = ready.remove(next) {
            on_report(report);
            *next += 1;
        }
    };
    emit(&mut ready, &mut next);
    if files.is_empty() {
        return;
    }

    let pool = Arc::new(Pool {
        files,
        next: AtomicUsize::new(0),
        settings: settings.clone(),
        check,
    });
    let (sender, receiver) = channel();
    let mut workers = 0;
    for _ in 0..settings.jobs.clamp(1, pool.files.len()) {
        if spawn_worker(&pool, &sender) {
            workers += 1;
        }
    }
    // Without a timeout no worker is ever replaced, so only the workers hold senders, and the
    // channel disconnects if they all stop.
    let sender = settings.timeout.map(|_| sender);
    if workers == 0 {
        // No thread could be started: check here, one file after another.
        while let Some((i, path)) = pool.take() {
            ready.insert(i, check_isolated(&path, &settings, check, &Arc::default()));
            emit(&mut ready, &mut next);
        }
        return;
    }

    // With a timeout, a file still running this long after its deadline is given up on.
    let give_up_after = settings
        .timeout
        .map(|t| t + (t / 2).max(Duration::from_secs(2)));
    let mut running: BTreeMap<usize, (Instant, Arc<AtomicBool>)> = BTreeMap::new();
    let mut abandoned: BTreeSet<usize> = BTreeSet::new();
    while next < total {
        let message = match give_up_after {
            Some(_) => receiver.recv_timeout(Duration::from_millis(100)),
            None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match message {
            Ok(Message::Started(i, stop)) => {
                running.insert(i, (Instant::now(), stop));
            }
            Ok(Message::Done(i, report)) => {
                running.remove(&i);
                if !abandoned.contains(&i) {
                    ready.insert(i, *report);
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                // Every worker is gone (each sends `Done` for every file it takes, so this
                // means threads died in a way catch_unwind did not see). Report what is left.
                for (i, path) in &pool.files {
                    if *i >= next && !ready.contains_key(i) {
                        ready.insert(*i, crashed(path, "a worker thread stopped".to_string()));
                    }
                }
            }
        }
        if let Some(limit) = give_up_after {
            let overdue: Vec<usize> = running
                .iter()
                .filter(|(_, (started, _))| started.elapsed() > limit)
                .map(|(i, _)| *i)
                .collect();
            for i in overdue {
                // The file stops at the next check of its stop it reaches.
                if let Some((_, stop)) = running.remove(&i) {
                    stop.store(true, Ordering::Relaxed);
                }
                abandoned.insert(i);
                let path = pool.path(i);
                ready.insert(
                    i,
                    given_up(&path, settings.timeout.unwrap_or_default(), limit),
                );
                // That worker is stuck; another one takes over the rest of the queue.
                if let Some(sender) = &sender {
                    spawn_worker(&pool, sender);
                }
            }
        }
        emit(&mut ready, &mut next);
    }
    // Workers stuck on abandoned files have been told to stop; one that is stuck where no
    // check is reached ends with the process.
}

/// The work shared by the workers: the files, the next one to take, and the settings.
struct Pool {
    files: Vec<(usize, PathBuf)>,
    next: AtomicUsize,
    settings: CheckSettings,
    check: CheckFn,
}

impl Pool {
    fn take(&self) -> Option<(usize, PathBuf)> {
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        self.files.get(k).cloned()
    }

    fn path(&self, i: usize) -> PathBuf {
        self.files
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, p)| p.clone())
            .unwrap_or_default()
    }
}

enum Message {
    /// A worker took file `i`; raising the flag stops it.
    Started(usize, Arc<AtomicBool>),
    Done(usize, Box<FileReport>),
}

/// Starts a worker that checks files from the pool until it is empty. False if the thread
/// could not be started.
fn spawn_worker(pool: &Arc<Pool>, sender: &Sender<Message>) -> bool {
    let pool = Arc::clone(pool);
    let sender = sender.clone();
    std::thread::Builder::new()
        .name("cgl-check".to_string())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            while let Some((i, path)) = pool.take() {
                let stop = Arc::new(AtomicBool::new(false));
                if sender.send(Message::Started(i, stop.clone())).is_err() {
                    return;
                }
                let report = check_isolated(&path, &pool.settings, pool.check, &stop);
                if sender.send(Message::Done(i, Box::new(report))).is_err() {
                    return;
                }
                if stop.load(Ordering::Relaxed) {
                    // Given up on: another worker has taken over the queue.
                    return;
                }
            }
        })
        .is_ok()
}

/// Checks one file; a panic becomes an internal-error report instead of ending `cgl`.
fn check_isolated(
    path: &Path,
    settings: &CheckSettings,
    check: CheckFn,
    stop: &Arc<AtomicBool>,
) -> FileReport {
    install_panic_hook();
    CAPTURED_PANIC.with(|c| *c.borrow_mut() = Some(None));
    let result = catch_unwind(AssertUnwindSafe(|| check(path, settings, stop)));
    let captured = CAPTURED_PANIC.with(|c| c.borrow_mut().take().flatten());
    match result {
        Ok(report) => report,
        Err(payload) => crashed(
            path,
            captured.unwrap_or_else(|| payload_text(payload.as_ref())),
        ),
    }
}

thread_local! {
    /// `Some` while this thread checks a file: the panic hook then keeps the panic's message
    /// here instead of printing it, and the file's report carries it.
    static CAPTURED_PANIC: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Installs (once per process) a panic hook that keeps quiet on threads checking a file and
/// behaves as before everywhere else.
fn install_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let kept = CAPTURED_PANIC.with(|c| match c.try_borrow_mut() {
                Ok(mut slot) if slot.is_some() => {
                    let location = info
                        .location()
                        .map(|l| format!(" at {}:{}", l.file(), l.line()))
                        .unwrap_or_default();
                    *slot = Some(Some(format!(
                        "panicked{location}: {}",
                        payload_text(info.payload())
                    )));
                    true
                }
                _ => false,
            });
            if !kept {
                previous(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
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
    let rendered = crate::diag::render(&diag, &Default::default(), RenderStyle::Plain);
    let problem = Problem::plain(diag.code, diag.message, diag.help, rendered);
    FileReport::not_checked(shown(dir), vec![problem])
}

fn crashed(path: &Path, what: String) -> FileReport {
    let diag = Diag::internal(format!("checking this file crashed ({what})"));
    let rendered = crate::diag::render(&diag, &Default::default(), RenderStyle::Plain);
    let problem = Problem::plain(diag.code, diag.message, diag.help, rendered);
    FileReport::not_checked(shown(path), vec![problem])
}

fn given_up(path: &Path, budget: Duration, limit: Duration) -> FileReport {
    let diag = Diag::error(
        TIMEOUT,
        format!("took longer than {budget:?}, and did not stop at its deadline"),
    )
    .note(format!(
        "cgl gave up on this file after {limit:?}; a part of cgl that does not watch the \
         deadline (reading or parsing a very large file?) was still running"
    ))
    .help("make the file smaller or simpler; if it is small, this is a bug in cgl");
    let rendered = crate::diag::render(&diag, &Default::default(), RenderStyle::Plain);
    let mut problem = Problem::plain(diag.code, diag.message.clone(), diag.help, rendered);
    problem.notes = diag.notes;
    FileReport::not_checked(shown(path), vec![problem])
}

/// Checks one file in a session of its own: loads it, then evaluates its expectations in
/// order. After a timeout the remaining expectations are not evaluated (they would time out
/// at once) but reported as skipped. The session stops when `stop` is raised.
fn check_file(path: &Path, settings: &CheckSettings, stop: &Arc<AtomicBool>) -> FileReport {
    let mut session = Session::new(settings.config);
    session.set_load_policy(settings.policy.clone());
    let deadline = settings.timeout.map_or_else(Stop::new, Stop::after);
    session.set_stop(deadline.with_flag(stop.clone()));
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
                    session.compiled(),
                    session.analyzer(),
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
        });
        let text = session.sources.snippet(ran.span).to_string();
        let status = match ran.outcome {
            Outcome::Passed => ExpectStatus::Passed,
            // Not asked for: `prints` is off.
            Outcome::Printed(_) => return,
            Outcome::Skipped => ExpectStatus::Skipped,
            Outcome::Failed(mut diag) => {
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
            session.compiled(),
            session.analyzer(),
        ));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(jobs: usize, timeout: Option<Duration>) -> CheckSettings {
        CheckSettings {
            config: SessionConfig::default(),
            policy: LoadPolicy::default(),
            timeout,
            style: RenderStyle::Plain,
            failed_values: false,
            jobs,
            stats: false,
        }
    }

    /// Hanging files that saw their stop flag raised and returned.
    static STOPPED_HANGS: AtomicUsize = AtomicUsize::new(0);

    /// Stands in for `check_file`: `boom*` panics, `hang*` returns only when told to stop,
    /// `stuck*` never returns, anything else passes one expectation.
    fn fake_check(path: &Path, _: &CheckSettings, stop: &Arc<AtomicBool>) -> FileReport {
        let name = path.display().to_string();
        if name.starts_with("boom") {
            panic!("boom in {name}");
        }
        if name.starts_with("hang") {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
            }
            STOPPED_HANGS.fetch_add(1, Ordering::Relaxed);
        }
        if name.starts_with("stuck") {
            loop {
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        FileReport {
            path: name.clone(),
            errors: Vec::new(),
            warnings: Vec::new(),
            expects: vec![ExpectReport {
                place: Place {
                    file: name,
                    line: 1,
                    column: 8,
                    end_line: 1,
                    end_column: 9,
                },
                text: "true".to_string(),
                status: ExpectStatus::Passed,
            }],
            stats: None,
        }
    }

    fn run(names: &[&str], settings: CheckSettings) -> Vec<FileReport> {
        let inputs = names
            .iter()
            .map(|n| Input::File(PathBuf::from(n)))
            .collect();
        let mut reports = Vec::new();
        check_all_with(inputs, settings, fake_check, &mut |r| reports.push(r));
        reports
    }

    #[test]
    fn a_panic_is_an_internal_error_for_that_file_only() {
        for jobs in [1, 2, 4] {
            let names = ["a", "boom1", "b", "c", "boom2", "d"];
            let reports = run(&names, settings(jobs, None));
            let paths: Vec<&str> = reports.iter().map(|r| r.path.as_str()).collect();
            assert_eq!(paths, names, "reports come in input order");
            for report in &reports {
                if report.path.starts_with("boom") {
                    assert_eq!(report.errors.len(), 1);
                    let problem = &report.errors[0];
                    assert_eq!(problem.code, Code::Internal);
                    assert!(
                        problem
                            .message
                            .contains(&format!("boom in {}", report.path)),
                        "{}",
                        problem.message
                    );
                    assert!(problem.message.contains("check.rs"), "{}", problem.message);
                } else {
                    assert_eq!((report.passed(), report.checked()), (1, true));
                }
            }
        }
    }

    #[test]
    fn a_file_that_ignores_its_deadline_is_given_up_and_the_rest_go_on() {
        let started = Instant::now();
        let reports = run(
            &["a", "hang1", "b", "stuck1", "c", "hang2", "d"],
            settings(2, Some(Duration::from_millis(100))),
        );
        let codes: Vec<Option<Code>> = reports
            .iter()
            .map(|r| r.errors.first().map(|p| p.code))
            .collect();
        let t = Some(TIMEOUT);
        assert_eq!(codes, [None, t, None, t, None, t, None], "{reports:?}");
        // The files given up on were told to stop, and those that watch their flag did
        // (the report of one comes before its worker has returned: wait a moment).
        let waited = Instant::now();
        while STOPPED_HANGS.load(Ordering::Relaxed) < 2 && waited.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(STOPPED_HANGS.load(Ordering::Relaxed), 2);
        // Given up 2 seconds after the deadline (both hang at once on two workers).
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn paths_that_do_not_exist_keep_their_place() {
        let inputs = vec![
            Input::File(PathBuf::from("a")),
            Input::Bad(bad_path(
                Path::new("nope"),
                "no such file or folder: nope".into(),
            )),
            Input::File(PathBuf::from("b")),
        ];
        let mut paths = Vec::new();
        check_all_with(inputs, settings(2, None), fake_check, &mut |r| {
            paths.push(r.path)
        });
        assert_eq!(paths, ["a", "nope", "b"]);
    }
}
