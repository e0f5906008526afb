//! The in-process pool of `cgl check`: worker threads take files from a queue, each file in a
//! `Session` built and dropped inside its worker (a `Session` is not `Send`), behind a
//! `catch_unwind`; with `--timeout`, a watchdog gives up on a file running long past its
//! deadline, raises that file's stop flag (it stops at its next check and frees its memory;
//! its worker then ends) and lets a fresh worker go on with the rest. Used for a single file
//! (and where the binary cannot be found to start child processes); `child.rs` checks its
//! one file through [`check_isolated`] too.

use std::any::Any;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use super::{give_up_after, given_up, CheckSettings, Input};
use crate::api::shown;
use crate::api::{Diag, RenderStyle};
use crate::cli::report::{FileReport, Problem};

/// Stack of each worker thread, as large as the main thread's (src/main.rs), so that a file
/// that `cgl run` can run, `cgl check` can check. Evaluation recurses over expressions and
/// user functions (bounded by the limits in spec §12), and a large stack makes those limits,
/// not the stack, the bound. The memory is reserved, not used, until a deep recursion
/// touches it.
const WORKER_STACK: usize = 512 << 20;

/// A function that checks one file, stopping when the flag is raised.
pub(super) type CheckFn = fn(&Path, &CheckSettings, &Arc<AtomicBool>) -> FileReport;

/// [`super::check_all`] with the function that checks one file as a parameter, so that tests can
/// make a file crash or hang.
pub(super) fn check_all_with(
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
    let give_up_after = give_up_after(settings.timeout);
    let mut running: BTreeMap<usize, (Instant, Arc<AtomicBool>)> = BTreeMap::new();
    let mut abandoned: BTreeSet<usize> = BTreeSet::new();
    let mut interrupted = false;
    while next < total {
        // Polled, so that a file given up on or an interrupt is seen within 100 ms.
        let message = receiver.recv_timeout(Duration::from_millis(100));
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
        if !interrupted && super::interrupt::requested() {
            interrupted = true;
            // No file starts any more; those running stop at their next check.
            let taken = pool.next.swap(pool.files.len(), Ordering::Relaxed);
            for (i, path) in pool.files.iter().skip(taken) {
                ready.insert(*i, super::interrupt::report(path, false));
            }
            for (_, stop) in running.values() {
                stop.store(true, Ordering::Relaxed);
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
                    given_up(&path, settings.timeout.unwrap_or_default(), limit, false),
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
pub(super) fn check_isolated(
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

fn crashed(path: &Path, what: String) -> FileReport {
    let diag = Diag::internal(format!("checking this file crashed ({what})"));
    let rendered = crate::api::render(&diag, &Default::default(), RenderStyle::Plain);
    let problem = Problem::plain(diag.code, diag.message, diag.help, rendered);
    FileReport::not_checked(shown(path), vec![problem])
}

#[cfg(test)]
mod tests {
    use super::super::bad_path;
    use super::*;
    use crate::api::Code;
    use crate::api::TIMEOUT;
    use crate::api::{LoadPolicy, SessionConfig};
    use crate::cli::report::{ExpectReport, ExpectStatus, Place};

    fn settings(jobs: usize, timeout: Option<Duration>) -> CheckSettings {
        CheckSettings {
            config: SessionConfig::default(),
            policy: LoadPolicy::default(),
            timeout,
            style: RenderStyle::Plain,
            failed_values: false,
            jobs,
            stats: false,
            progress: None,
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
                    start: 7,
                    end: 8,
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
                    assert!(
                        problem.message.contains("src/cli/check/threads.rs"),
                        "{}",
                        problem.message
                    );
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
