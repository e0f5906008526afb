//! The progress line: while a computation runs longer than a second, one line on stderr says
//! how far it has got (positions explored, how many a second, the memory the graph's budget
//! counts, the time), redrawn in place and erased before anything else is written, so that
//! what the command prints is the same with or without it.
//!
//! The solvers note their progress on the [`Meter`] of the session's [`Stop`] where they
//! check it (`GameGraph::check_stop`); a drawer thread reads it every 100 ms. [`Line`] is the
//! drawer's decisions, pure and unit-tested; [`Progress`] the thread; [`Clearing`] the writer
//! that erases the line before the command's own output. It is drawn only on a terminal, or
//! where `CGL_PROGRESS=always` asks for it (the tests do); `CGL_PROGRESS=never` or
//! `--no-progress` turn it off.
//!
//! [`Stop`]: crate::eval::Stop
//!
//! The drawer reads a `Gauge`: one session's `Meter`, or `cgl check`'s `Tally` of the meters of
//! the files it runs (children send theirs as `BEAT` lines, `Relay`).

use std::io::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use crate::eval::{Meter, Reading};

/// How long a computation runs before its line is drawn.
pub const DELAY: Duration = Duration::from_secs(1);
/// How often the line is redrawn.
pub const TICK: Duration = Duration::from_millis(100);
/// How long without a check of the stop counts as waiting (for input, say), not working: the
/// line is erased then. The solvers check many times a millisecond.
pub const IDLE: Duration = Duration::from_millis(500);

/// What is being measured: one session's meter, or the files of `cgl check`.
pub trait Gauge: Send + Sync {
    /// The positions and bytes now, and whether work went on since the last reading.
    fn read(&self) -> Reading;
    /// Files done and files in all, where there are several.
    fn files(&self) -> Option<(usize, usize)> {
        None
    }
}

impl Gauge for Meter {
    fn read(&self) -> Reading {
        Meter::read(self)
    }
}

/// The meters of the files `cgl check` is checking (one session each, on several workers):
/// their positions and bytes summed, with the positions of the files already done.
#[derive(Debug, Default)]
pub struct Tally {
    running: Mutex<Vec<Arc<Meter>>>,
    done_positions: AtomicU64,
    done: AtomicUsize,
    total: usize,
}

impl Tally {
    /// A tally of `total` files.
    pub fn new(total: usize) -> Tally {
        Tally {
            total,
            ..Tally::default()
        }
    }

    /// A meter for one more file, counted until the returned guard is dropped.
    pub fn enter(self: &Arc<Tally>) -> Entered {
        let meter = Arc::new(Meter::default());
        self.running().push(meter.clone());
        Entered {
            tally: self.clone(),
            meter,
        }
    }

    fn running(&self) -> MutexGuard<'_, Vec<Arc<Meter>>> {
        // A worker that panicked while holding the lock left a list that is still whole.
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Gauge for Tally {
    fn read(&self) -> Reading {
        let mut sum = Reading {
            positions: self.done_positions.load(Ordering::Relaxed),
            ..Reading::default()
        };
        for meter in self.running().iter() {
            let r = meter.read();
            sum.positions += r.positions;
            sum.bytes += r.bytes;
            sum.busy |= r.busy;
        }
        sum
    }

    fn files(&self) -> Option<(usize, usize)> {
        Some((self.done.load(Ordering::Relaxed), self.total))
    }
}

/// One file's place in a [`Tally`]; dropping it counts the file as done.
#[derive(Debug)]
pub struct Entered {
    tally: Arc<Tally>,
    meter: Arc<Meter>,
}

impl Entered {
    /// The meter the file's session notes its progress on.
    pub fn meter(&self) -> Arc<Meter> {
        self.meter.clone()
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let mut running = self.tally.running();
        running.retain(|m| !Arc::ptr_eq(m, &self.meter));
        let positions = self.meter.read().positions;
        self.tally
            .done_positions
            .fetch_add(positions, Ordering::Relaxed);
        self.tally.done.fetch_add(1, Ordering::Relaxed);
    }
}

/// The first word of the lines a child process of `cgl check` writes on stderr to tell its
/// parent how far it has got (`cgl-beat POSITIONS BYTES`, one a tick while it works): the
/// parent's [`Tally`] holds a meter per child, which these lines move.
pub const BEAT: &str = "cgl-beat";

/// The beat line of a reading, if it saw work (a reading without work sends nothing, so the
/// parent's meter is not beaten either).
pub fn beat_line(r: Reading) -> Option<String> {
    r.busy
        .then(|| format!("{BEAT} {} {}\n", r.positions, r.bytes))
}

/// The positions and bytes of a beat line (without its line end), or `None` if it is not one.
pub fn parse_beat(line: &str) -> Option<(u64, u64)> {
    let mut words = line.strip_prefix(BEAT)?.strip_prefix(' ')?.split(' ');
    let positions = words.next()?.parse().ok()?;
    let bytes = words.next()?.parse().ok()?;
    words.next().is_none().then_some((positions, bytes))
}

/// Notes a beat on a meter (the parent's meter of one child).
pub fn note_beat(meter: &Meter, (positions, bytes): (u64, u64)) {
    let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    meter.note(size(positions), size(bytes));
}

/// The thread of a child process that writes the beats of its gauge on a sink (its stderr)
/// every [`TICK`], until dropped; the last reading is written then if it moved.
pub struct Relay {
    quit: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Relay {
    /// Starts relaying. Where no thread can be started nothing is relayed; the work goes on.
    pub fn start(gauge: Arc<dyn Gauge>, mut sink: Box<dyn Write + Send>) -> Relay {
        let (quit, stop) = channel::<()>();
        let thread = std::thread::Builder::new()
            .name("cgl-beats".to_string())
            .spawn(move || {
                let mut sent = (0, 0);
                let mut send = |r: Reading| {
                    if let Some(line) = beat_line(r) {
                        sent = (r.positions, r.bytes);
                        let _ = sink.write_all(line.as_bytes());
                        let _ = sink.flush();
                    }
                    sent
                };
                while let Err(RecvTimeoutError::Timeout) = stop.recv_timeout(TICK) {
                    send(gauge.read());
                }
                let last = gauge.read();
                let moved = (last.positions, last.bytes) != send(Reading::default());
                send(Reading {
                    busy: moved,
                    ..last
                });
            })
            .ok();
        Relay {
            quit: Some(quit),
            thread,
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        drop(self.quit.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Whether to draw the line: `CGL_PROGRESS` (`always`, `never`, or unset/`auto`: when stderr
/// is a terminal), unless `off` (`--no-progress`).
pub fn wanted(off: bool, stderr_is_terminal: bool) -> bool {
    if off {
        return false;
    }
    match std::env::var("CGL_PROGRESS").as_deref() {
        Ok("always") => true,
        Ok("never") => false,
        _ => stderr_is_terminal,
    }
}

/// What the drawer does at a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// Leave the terminal alone.
    Nothing,
    /// Erase the line drawn.
    Erase,
    /// Draw (or redraw) this line.
    Line(String),
}

/// The drawer's decisions, from the readings it is given and the time: when work started,
/// what to draw, whether a line is on the screen.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// When the current stretch of work started (None: idle).
    busy_since: Option<Instant>,
    /// The last reading that saw work.
    last_busy: Option<Instant>,
    /// Positions when the stretch started; those explored are counted from there.
    base: u64,
    /// Positions at the last reading.
    seen: u64,
    /// Whether a line is drawn now.
    drawn: bool,
}

impl Line {
    /// What to do at `now`, given a reading and the files (for `cgl check`).
    pub fn tick(&mut self, r: Reading, files: Option<(usize, usize)>, now: Instant) -> Draw {
        if r.busy {
            self.last_busy = Some(now);
            if self.busy_since.is_none() {
                self.busy_since = Some(now);
                // What the meter showed before this work began.
                self.base = self.seen;
            }
        }
        self.seen = r.positions;
        let idle = self
            .last_busy
            .is_none_or(|t| now.saturating_duration_since(t) >= IDLE);
        let since = match self.busy_since {
            Some(since) if !idle => since,
            _ => {
                self.busy_since = None;
                return self.erase();
            }
        };
        let elapsed = now.saturating_duration_since(since);
        if elapsed < DELAY {
            return Draw::Nothing;
        }
        if r.positions < self.base {
            // The graph was started afresh (after a limit): count from nothing.
            self.base = 0;
        }
        self.drawn = true;
        Draw::Line(format_line(
            r.positions - self.base,
            r.bytes,
            elapsed,
            files,
        ))
    }

    /// The command is about to write: erase the line, and wait another second of work
    /// before drawing it again.
    pub fn clear(&mut self) -> Draw {
        self.busy_since = None;
        self.erase()
    }

    fn erase(&mut self) -> Draw {
        if std::mem::take(&mut self.drawn) {
            Draw::Erase
        } else {
            Draw::Nothing
        }
    }
}

/// The line's text: `cgl: 1,234,567 positions, 410,000/s, 96.0 MiB, 3.0 s`, with the files
/// done first for `cgl check`.
pub fn format_line(
    explored: u64,
    bytes: u64,
    elapsed: Duration,
    files: Option<(usize, usize)>,
) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        (explored as f64 / seconds) as u64
    } else {
        0
    };
    let files = files.map_or(String::new(), |(done, total)| {
        format!("{done} of {total} files, ")
    });
    format!(
        "cgl: {files}{} positions, {}/s, {}, {seconds:.1} s",
        grouped(explored),
        grouped(rate),
        mebibytes(bytes)
    )
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in MiB with one decimal (GiB from 10 GiB on).
fn mebibytes(bytes: u64) -> String {
    let mib = bytes as f64 / f64::from(1 << 20);
    if mib >= 10_240.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.1} MiB")
    }
}

/// The line's state and the stream it is drawn on, shared by the drawer and the writers.
struct Screen {
    line: Line,
    sink: Box<dyn Write + Send>,
}

impl Screen {
    fn apply(&mut self, draw: Draw) {
        let _ = match draw {
            Draw::Nothing => return,
            // Back to the line's start, then clear to its end.
            Draw::Erase => self.sink.write_all(b"\r\x1b[K"),
            Draw::Line(text) => write!(self.sink, "\r{text}\x1b[K"),
        };
        let _ = self.sink.flush();
    }
}

/// A handle that erases the line: what [`Clearing`] writers and a Ctrl-C handler hold.
#[derive(Clone)]
pub struct Eraser(Arc<Mutex<Screen>>);

impl Eraser {
    /// Erases the line if it is drawn, and waits another second of work before drawing it.
    pub fn clear(&self) {
        let mut screen = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let draw = screen.line.clear();
        screen.apply(draw);
    }
}

/// The drawer thread, drawing `gauge` on `sink` until dropped (which erases the line).
pub struct Progress {
    screen: Eraser,
    quit: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts drawing. Where no thread can be started there is no line; the work goes on.
    pub fn start(gauge: Arc<dyn Gauge>, sink: Box<dyn Write + Send>) -> Progress {
        let screen = Eraser(Arc::new(Mutex::new(Screen {
            line: Line::default(),
            sink,
        })));
        let (quit, stop) = channel::<()>();
        let shared = screen.clone();
        let thread = std::thread::Builder::new()
            .name("cgl-progress".to_string())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stop.recv_timeout(TICK) {
                    let reading = gauge.read();
                    let mut screen = shared.0.lock().unwrap_or_else(|e| e.into_inner());
                    let draw = screen.line.tick(reading, gauge.files(), Instant::now());
                    screen.apply(draw);
                }
            })
            .ok();
        Progress {
            screen,
            quit: Some(quit),
            thread,
        }
    }

    /// A handle that erases the line.
    pub fn eraser(&self) -> Eraser {
        self.screen.clone()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.quit.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        self.screen.clear();
    }
}

/// A writer that erases the progress line before each write, so the line never mixes with
/// the command's output; with no eraser it only passes writes on.
pub struct Clearing<'a> {
    inner: &'a mut dyn Write,
    eraser: Option<Eraser>,
}

impl<'a> Clearing<'a> {
    /// `inner`, erasing the line of `eraser` before each write.
    pub fn new(inner: &'a mut dyn Write, eraser: Option<Eraser>) -> Clearing<'a> {
        Clearing { inner, eraser }
    }
}

impl Write for Clearing<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(eraser) = &self.eraser {
            eraser.clear();
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(positions: u64, busy: bool) -> Reading {
        Reading {
            positions,
            bytes: 3 << 20,
            busy,
        }
    }

    #[test]
    fn formats_the_line() {
        let line = format_line(1_234_567, 96 << 20, Duration::from_secs(3), None);
        assert_eq!(line, "cgl: 1,234,567 positions, 411,522/s, 96.0 MiB, 3.0 s");
        let line = format_line(0, 0, Duration::ZERO, Some((3, 10)));
        assert_eq!(line, "cgl: 3 of 10 files, 0 positions, 0/s, 0.0 MiB, 0.0 s");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(mebibytes(20 << 30), "20.0 GiB");
    }

    #[test]
    fn draws_after_a_second_of_work_and_erases_when_idle() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut line = Line::default();
        // Positions left by an earlier query are not counted.
        assert_eq!(line.tick(reading(500, false), None, at(0)), Draw::Nothing);
        assert_eq!(line.tick(reading(600, true), None, at(100)), Draw::Nothing);
        assert_eq!(line.tick(reading(700, true), None, at(900)), Draw::Nothing);
        let Draw::Line(text) = line.tick(reading(2500, true), None, at(1100)) else {
            panic!("no line after a second of work");
        };
        assert!(text.starts_with("cgl: 2,000 positions, 2,000/s,"), "{text}");
        // A quiet moment shorter than IDLE keeps the line.
        assert!(matches!(
            line.tick(reading(2500, false), None, at(1300)),
            Draw::Line(_)
        ));
        assert_eq!(line.tick(reading(2500, false), None, at(1700)), Draw::Erase);
        assert_eq!(
            line.tick(reading(2500, false), None, at(1800)),
            Draw::Nothing
        );
    }

    #[test]
    fn output_erases_the_line_and_restarts_the_clock() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut line = Line::default();
        line.tick(reading(0, true), None, at(0));
        assert!(matches!(
            line.tick(reading(9, true), None, at(1000)),
            Draw::Line(_)
        ));
        assert_eq!(line.clear(), Draw::Erase);
        assert_eq!(line.clear(), Draw::Nothing);
        assert_eq!(line.tick(reading(10, true), None, at(1100)), Draw::Nothing);
        assert_eq!(line.tick(reading(20, true), None, at(1900)), Draw::Nothing);
        let Draw::Line(text) = line.tick(reading(30, true), None, at(2100)) else {
            panic!("no line after another second of work");
        };
        // Counted from the reading before this stretch of work began.
        assert!(text.starts_with("cgl: 21 positions"), "{text}");
    }

    #[test]
    fn a_graph_started_afresh_counts_from_nothing() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut line = Line::default();
        line.tick(reading(1000, false), None, at(0));
        line.tick(reading(1000, true), None, at(100));
        let Draw::Line(text) = line.tick(reading(40, true), None, at(1200)) else {
            panic!("no line");
        };
        assert!(text.starts_with("cgl: 40 positions"), "{text}");
    }

    #[test]
    fn a_tally_sums_the_files_running_and_done() {
        let tally = Arc::new(Tally::new(3));
        let a = tally.enter();
        let b = tally.enter();
        a.meter().note(10, 100);
        b.meter().note(5, 50);
        let r = tally.read();
        assert_eq!((r.positions, r.bytes, r.busy), (15, 150, true));
        assert_eq!(tally.files(), Some((0, 3)));
        drop(a);
        let r = tally.read();
        // b's beat was read already; a's positions stay counted, its bytes are freed.
        assert_eq!((r.positions, r.bytes, r.busy), (15, 50, false));
        assert_eq!(tally.files(), Some((1, 3)));
    }

    #[test]
    fn the_stop_notes_on_its_meter_and_checks_beat() {
        let meter = Arc::new(Meter::default());
        let stop = crate::eval::Stop::new().with_meter(meter.clone());
        assert!(!meter.read().busy);
        assert!(stop.check().is_ok());
        assert!(meter.read().busy);
        stop.note(42, 4096);
        let clone = stop.sooner(Duration::from_secs(5));
        clone.note(43, 8192);
        let r = meter.read();
        assert_eq!((r.positions, r.bytes, r.busy), (43, 8192, true));
    }

    #[test]
    fn beats_cross_a_pipe_as_lines() {
        assert_eq!(beat_line(reading(7, false)), None);
        let line = beat_line(reading(1_234, true)).unwrap_or_default();
        assert_eq!(line, "cgl-beat 1234 3145728\n");
        assert_eq!(parse_beat(line.trim_end()), Some((1_234, 3 << 20)));
        for bad in [
            "",
            "cgl-beat",
            "cgl-beat 1",
            "cgl-beat 1 2 3",
            "cgl-beat x 2",
            "cgl-beats 1 2",
        ] {
            assert_eq!(parse_beat(bad), None, "{bad:?}");
        }
        let meter = Meter::default();
        note_beat(&meter, (5, 6));
        let r = meter.read();
        assert_eq!((r.positions, r.bytes, r.busy), (5, 6, true));
    }

    #[test]
    fn the_relay_writes_what_the_gauge_reads() {
        let meter = Arc::new(Meter::default());
        let sink = Shared::default();
        let relay = Relay::start(meter.clone(), Box::new(sink.clone()));
        let started = Instant::now();
        while started.elapsed() < 3 * TICK {
            meter.note(9, 10);
            std::thread::sleep(Duration::from_millis(5));
        }
        meter.note(11, 12);
        drop(relay);
        let text =
            String::from_utf8_lossy(&sink.0.lock().unwrap_or_else(|e| e.into_inner())).to_string();
        let beats: Vec<_> = text
            .lines()
            .map(|l| parse_beat(l).unwrap_or_default())
            .collect();
        assert!(beats.len() >= 2, "{text:?}");
        assert_eq!(beats.last(), Some(&(11, 12)), "{text:?}");
    }

    /// A sink the test can read after the drawer wrote to it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).extend(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_drawer_draws_and_the_output_erases() {
        let meter = Arc::new(Meter::default());
        let sink = Shared::default();
        let progress = Progress::start(meter.clone(), Box::new(sink.clone()));
        let started = Instant::now();
        while started.elapsed() < DELAY + 4 * TICK {
            meter.note(7, 1 << 20);
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut out = Vec::new();
        let mut writer = Clearing::new(&mut out, Some(progress.eraser()));
        writer.write_all(b"answer\n").unwrap_or_default();
        drop(progress);
        let drawn =
            String::from_utf8_lossy(&sink.0.lock().unwrap_or_else(|e| e.into_inner())).to_string();
        assert!(drawn.starts_with("\rcgl: 7 positions, "), "{drawn:?}");
        assert!(drawn.ends_with("\r\x1b[K"), "{drawn:?}");
        assert_eq!(out, b"answer\n");
    }
}
