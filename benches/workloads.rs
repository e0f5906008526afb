//! The benchmark suite of issue 6: cgl against a hand-written and a hash-map Rust solver on
//! the same workloads, side by side in one run.
//!
//! ```text
//! cargo bench --bench workloads                      # the whole suite, 300 s per run at most
//! cargo bench --bench workloads -- --quick           # small sizes only (under a minute)
//! cargo bench --bench workloads -- --only W1,W3      # some workloads
//! cargo bench --bench workloads -- --timeout 120 --repeat 3 --write-spec spec/performance.md
//! cargo bench --bench workloads -- --answer W3 4x4 hand   # print one answer in full
//! cargo bench --bench workloads -- --only W3,W4 --threads 2  # cgl's queries on two threads
//! cargo bench --bench workloads -- --floor --repeat 3        # W3, W4 against the packed floor
//! ```
//!
//! Every (workload, size, implementation) runs in a child process — this binary again, as
//! `--child W1 2000 cgl` — so its time and peak memory (VmHWM) are its own. The child prints
//! `ok SECONDS PEAK_KIB DIGEST` (a digest of the answer, printed as cgl prints the query's
//! value) or `error SECONDS PEAK_KIB MESSAGE`; a child running past the timeout is killed.
//! W6 runs the `cgl` binary itself (`cgl check DIR --jobs 2`); its peak memory is sampled
//! from /proc while it runs, its own and its child processes' (one per file). The table is printed as markdown; `--write-spec FILE` also puts
//! it between the `<!-- bench:begin -->` and `<!-- bench:end -->` markers of FILE. The run
//! exits 1 when two implementations give different answers or a baseline fails.
//!
//! W8 (Domineering values) and W9 (the equilibria of a random bimatrix game) have their own
//! table: their second peer is a Python package, pycgt for W8, run by `$CGL_PYCGT_PYTHON`
//! (default `python3`) as `--child W8 5x5 pycgt`, and nashpy for W9, run by
//! `$CGL_NASHPY_PYTHON` as `--child W9 8 nashpy`; the Python process measures its own time
//! and peak memory. A package that interpreter cannot import is not run: its cells say "not
//! installed", and the run does not fail (it is a peer, not one of our baselines).
//!
//! W1 to W5 also run the yardstick (issue 49): `../shared/bench/limit`'s hand-optimised
//! solvers, built outside the repository, named by `$CGL_YARDSTICK` (default: its README's
//! build, /tmp/limit/target/release/limit), each run the yardstick's own process, timed and
//! its peak memory sampled from /proc by the parent; its answer is a summary line, compared
//! with the fields cgl's answer gives (`baselines::yardstick`). Not built: its cells say so.
//!
//! A last table runs cgl's W3 4x4 and W4 12x12 queries on one thread and on every core
//! (issue 19's two-thread target), the rounds interleaved, not with `--quick` or `--floor`.
//!
//! `--floor` runs W3 and W4 only, with the `packed` baseline in the peer's column instead of
//! the hash map: the hand-written algorithm over a hashed table of positions packed into one
//! word, what hashing costs at best. Its table is printed, not written into the spec.
//!
//! With `--repeat N`, the three implementations of a row run in turn, N rounds (so a slow
//! spell of the machine falls on all of them), and the table shows each one's median time
//! and largest peak memory. A run that took longer than [`REPEAT_UNDER`] is not repeated:
//! its rounds would take the suite past an hour.

mod baselines;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use baselines::suite::{self, Baseline, WORKLOADS};
use baselines::yardstick;
use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};

/// The marker lines of the generated block in the spec.
const BEGIN: &str = "<!-- bench:begin -->";
const END: &str = "<!-- bench:end -->";

/// With `--repeat`, runs longer than this (seconds) run once.
const REPEAT_UNDER: f64 = 30.0;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--answer") {
        return match args.as_slice() {
            [_, workload, size, imp] => match compute(workload, size, imp) {
                Ok(answer) => {
                    println!("{answer}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            },
            _ => {
                eprintln!("usage: workloads --answer WORKLOAD SIZE cgl|hand|map|packed");
                ExitCode::from(2)
            }
        };
    }
    if args.first().map(String::as_str) == Some("--child") {
        return match args.as_slice() {
            [_, workload, size, imp] => child(workload, size, imp),
            _ => {
                eprintln!("usage: workloads --child WORKLOAD SIZE cgl|hand|map|packed");
                ExitCode::from(2)
            }
        };
    }
    match parse_options(&args).and_then(|options| run_suite(&options)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

// ------------------------------------------------------------------------------ the child

/// Runs one implementation on one workload and prints its time, peak memory and answer
/// digest. The computation runs on a thread with a 512 MiB stack, as the `cgl` binary does
/// (the hash-map baselines recurse as deep as the game).
fn child(workload: &str, size: &str, imp: &str) -> ExitCode {
    if imp == "pycgt" || imp == "nashpy" {
        return peer_child(workload, size);
    }
    let (workload, size, imp) = (workload.to_string(), size.to_string(), imp.to_string());
    let worker = {
        let (workload, size, imp) = (workload.clone(), size.clone(), imp.clone());
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(move || {
                let started = Instant::now();
                let answer = compute(&workload, &size, &imp);
                (started.elapsed(), answer)
            })
    };
    let (elapsed, answer) = match worker.map(|h| h.join()) {
        Ok(Ok(result)) => result,
        _ => {
            println!("error 0 0 the computation panicked");
            return ExitCode::from(1);
        }
    };
    let peak = peak_kib(Path::new("/proc/self/status")).unwrap_or(0);
    let secs = elapsed.as_secs_f64();
    match answer {
        Ok(text) => {
            // cgl's answer as the yardstick's summary line shows it, where it has the workload
            let view = match (imp.as_str(), yardstick::args(&workload, &size)) {
                ("cgl", Some(_)) => {
                    yardstick::view(&workload, &text).unwrap_or_else(|e| format!("unreadable: {e}"))
                }
                _ => String::new(),
            };
            println!("ok {secs} {peak} {} {view}", digest(&text));
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("error {secs} {peak} {}", one_line(&e));
            ExitCode::SUCCESS
        }
    }
}

/// W8's peer, pycgt, or W9's, nashpy, in its own Python process: the time and peak memory
/// are the ones that process measured around the computation (see
/// `baselines::domineering::pycgt`, `baselines::bimatrix::nashpy`).
fn peer_child(workload: &str, size: &str) -> ExitCode {
    let run = match (workload, size.split_once('x')) {
        ("W8", Some((r, c))) => match (r.parse(), c.parse()) {
            (Ok(r), Ok(c)) => baselines::domineering::pycgt(r, c),
            _ => Err(format!("size {size:?} is not R x C")),
        },
        ("W9", None) => match size.parse() {
            Ok(n) => baselines::bimatrix::nashpy(n),
            Err(_) => Err(format!("size {size:?} is not a number")),
        },
        _ => Err(format!(
            "pycgt answers W8 and nashpy W9 only, not {workload} {size}"
        )),
    };
    match run {
        Ok(run) => println!("ok {} {} {}", run.secs, run.kib, digest(&run.answer)),
        Err(e) => println!("error 0 0 {}", one_line(&e)),
    }
    ExitCode::SUCCESS
}

/// The answer of one implementation, printed as cgl prints the query's value.
fn compute(workload: &str, size: &str, imp: &str) -> Result<String, String> {
    match imp {
        "cgl" => cgl_answer(workload, size),
        "hand" => suite::answer(workload, size, Baseline::Hand),
        "map" | "pycgt" | "nashpy" => suite::answer(workload, size, Baseline::Map),
        "packed" => suite::answer(workload, size, Baseline::Packed),
        _ => Err(format!(
            "no implementation {imp:?} (cgl, hand, map, packed, pycgt or nashpy)"
        )),
    }
}

/// The variable that passes `--threads` to a child.
const THREADS_VAR: &str = "CGL_BENCH_THREADS";

/// cgl's answer, through the library from the workload's `.game` source, with the threads
/// `CGL_BENCH_THREADS` allows (1 if unset).
fn cgl_answer(workload: &str, size: &str) -> Result<String, String> {
    let query = suite::cgl_query(workload, size)?;
    let threads = std::env::var(THREADS_VAR)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let mut session = Session::new(SessionConfig {
        graph: GraphConfig {
            max_positions: 50_000_000,
            max_memory: 16 << 30,
            threads,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    });
    let diags = |d: Vec<cgl::diag::Diag>| {
        d.iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let file = session
        .load_source(query.file, &query.source)
        .map_err(diags)?;
    let value = session.eval_text(&query.expr, &[file]).map_err(diags)?;
    suite::cgl_shown(workload, session.show(&value))
}

/// The peak resident memory (VmHWM) in a /proc status file, in KiB.
fn peak_kib(status: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(status).ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The peak resident memory of a process and of the children it has now (`cgl check` of
/// several files checks each in a child process): its own VmHWM plus each child's, in KiB.
/// Sampled, it may miss the last milliseconds of a child; added up, it counts the children's
/// peaks as if they coincided.
fn tree_peak_kib(pid: u32) -> Option<u64> {
    let own = peak_kib(Path::new(&format!("/proc/{pid}/status")))?;
    let mut children = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .ok()?
        .flatten()
    {
        let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for child in list.split_whitespace() {
            children += peak_kib(Path::new(&format!("/proc/{child}/status"))).unwrap_or(0);
        }
    }
    Some(own + children)
}

/// A short fingerprint of an answer: its length and FNV-1a hash.
fn digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}:{h:016x}", text.len())
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ----------------------------------------------------------------------------- the parent

/// Command-line options of a suite run.
struct Options {
    quick: bool,
    only: Option<Vec<String>>,
    timeout: Duration,
    /// Rounds of each row (`--repeat`); the table shows medians.
    repeat: usize,
    write_spec: Option<PathBuf>,
    /// Threads cgl's queries may use (`--threads`, passed to the children as
    /// `CGL_BENCH_THREADS`); 1 by default, the one-thread figures of the table.
    threads: usize,
    /// `--floor`: W3 and W4 against the packed baseline instead of the hash map.
    floor: bool,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        quick: false,
        only: None,
        timeout: Duration::from_secs(300),
        repeat: 1,
        write_spec: None,
        threads: 1,
        floor: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            // `cargo bench` passes --bench to every bench binary
            "--bench" => {}
            "--quick" => options.quick = true,
            "--floor" => options.floor = true,
            "--only" => {
                let list = value("--only")?;
                let only: Vec<String> = list.split(',').map(|w| w.trim().to_uppercase()).collect();
                if let Some(w) = only.iter().find(|w| !WORKLOADS.contains(&w.as_str())) {
                    return Err(format!("no workload {w} (W1 to W9)"));
                }
                options.only = Some(only);
            }
            "--timeout" => {
                let secs: f64 = value("--timeout")?
                    .parse()
                    .map_err(|_| "--timeout takes seconds".to_string())?;
                options.timeout = Duration::from_secs_f64(secs);
            }
            "--repeat" => {
                options.repeat = value("--repeat")?
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| "--repeat takes a number of rounds, 1 or more".to_string())?;
            }
            "--write-spec" => options.write_spec = Some(PathBuf::from(value("--write-spec")?)),
            "--threads" => {
                options.threads = value("--threads")?
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| "--threads takes a number of threads, 1 or more".to_string())?;
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; options: --quick, --only W1,W3, \
                     --timeout SECONDS, --repeat N, --threads N, --floor, --write-spec FILE"
                ))
            }
        }
    }
    if options.floor && options.write_spec.is_some() {
        return Err("--floor prints its table; it does not write the spec".into());
    }
    Ok(options)
}

/// How one run ended.
#[derive(Clone, Debug)]
enum Run {
    /// It answered. `view`: the answer as the yardstick's summary shows it (cgl's and the
    /// yardstick's runs of its workloads; empty otherwise).
    Ok {
        secs: f64,
        kib: u64,
        digest: String,
        view: String,
    },
    /// It reported an error, or crashed.
    Failed { message: String },
    /// It was killed at the timeout.
    Timeout,
    /// A Python peer whose package the interpreter cannot import: not run.
    NotInstalled,
}

impl Run {
    /// The peak memory in MB; `None` where none was measured (a run too short for the
    /// samples of a process's peak: no process has none).
    fn mb(&self) -> Option<f64> {
        match self {
            Run::Ok { kib, .. } if *kib > 0 => Some(*kib as f64 / 1024.0),
            _ => None,
        }
    }

    fn digest(&self) -> Option<&str> {
        match self {
            Run::Ok { digest, .. } => Some(digest),
            _ => None,
        }
    }

    fn view(&self) -> Option<&str> {
        match self {
            Run::Ok { view, .. } if !view.is_empty() => Some(view),
            _ => None,
        }
    }

    /// Whether another round of this run is cheap enough (see `--repeat`).
    fn worth_repeating(&self) -> bool {
        matches!(self, Run::Ok { secs, .. } if *secs < REPEAT_UNDER)
    }

    /// The rounds of one implementation as one run: the median time and the largest peak
    /// memory; the first run that did not answer, or a failure if the answers differ.
    fn median(runs: &[Run]) -> Run {
        let mut times = Vec::new();
        let mut peak = 0;
        for run in runs {
            match run {
                Run::Ok {
                    secs, kib, digest, ..
                } => {
                    if Some(digest.as_str()) != runs[0].digest() {
                        return Run::Failed {
                            message: "the answer changed from one round to the next".into(),
                        };
                    }
                    times.push(*secs);
                    peak = peak.max(*kib);
                }
                other => return other.clone(),
            }
        }
        times.sort_by(f64::total_cmp);
        match runs.first() {
            Some(Run::Ok { digest, view, .. }) => Run::Ok {
                secs: times[times.len() / 2],
                kib: peak,
                digest: digest.clone(),
                view: view.clone(),
            },
            _ => Run::Failed {
                message: "no run".into(),
            },
        }
    }

    fn describe(&self) -> String {
        match self {
            Run::Ok { secs, kib, .. } => {
                format!("{}, {:.1} MB", seconds(*secs), *kib as f64 / 1024.0)
            }
            Run::Failed { message } => format!("error: {message}"),
            Run::Timeout => "timeout".into(),
            Run::NotInstalled => "not installed".into(),
        }
    }
}

/// One line of the table.
struct Row {
    workload: &'static str,
    size: String,
    cgl: Run,
    hand: Option<Run>,
    map: Option<Run>,
    /// The yardstick's run, on its workloads (W1 to W5); `NotInstalled` when it is not built.
    limit: Option<Run>,
    /// W6: the summary line of `cgl check`.
    note: Option<String>,
}

fn run_suite(options: &Options) -> Result<bool, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the bench binary: {e}"))?;
    let mut rows = Vec::new();
    for workload in WORKLOADS {
        if let Some(only) = &options.only {
            if !only.iter().any(|w| w == workload) {
                continue;
            }
        }
        if options.floor && !["W3", "W4"].contains(&workload) {
            continue;
        }
        for size in suite::sizes(workload, options.quick) {
            let row = if workload == "W6" {
                check_examples(size, options.timeout)?
            } else {
                let run = |imp: &str| {
                    let label = format!("{imp:<4}");
                    child_run(
                        &exe,
                        (workload, size, imp),
                        options.threads,
                        &label,
                        options,
                    )
                };
                // W8's and W9's second peers are Python packages (in the `map` column of
                // their own table)
                let peer = match peer_of(workload) {
                    _ if options.floor => "packed",
                    Some(peer) => peer,
                    None => "map",
                };
                let imps = ["hand", peer, "cgl"];
                let mut samples: [Vec<Run>; 3] = Default::default();
                if !peer_installed(peer) {
                    samples[1].push(Run::NotInstalled);
                }
                for _ in 0..options.repeat {
                    for (imp, runs) in imps.iter().zip(&mut samples) {
                        // every implementation runs in the first round (no runs yet) but a
                        // missing peer, whose NotInstalled is never worth repeating
                        if runs.iter().all(Run::worth_repeating) {
                            runs.push(run(imp));
                        }
                    }
                }
                let [hand, map, cgl] = samples.map(|runs| Run::median(&runs));
                let limit = yardstick_runs(workload, size, options);
                Row {
                    workload,
                    size: size.to_string(),
                    cgl,
                    hand: Some(hand),
                    map: Some(map),
                    limit,
                    note: None,
                }
            };
            rows.push(row);
        }
    }
    let (values, others): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| peer_of(r.workload).is_some());
    let tables: Vec<String> = [
        (!others.is_empty()).then(|| {
            let peer = if options.floor { "packed" } else { "map" };
            comparison(&others, options.timeout, peer, true)
        }),
        (!values.is_empty()).then(|| values_table(&values, options.timeout)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let threads = threads_table(&exe, options);
    let table = tables
        .into_iter()
        .chain(threads.as_ref().map(|(table, _)| table.clone()))
        .collect::<Vec<_>>()
        .join("\n\n");
    let threads_differ = threads.is_some_and(|(_, differ)| differ);
    let rows: Vec<Row> = others.into_iter().chain(values).collect();
    println!("{table}");
    if let Some(path) = &options.write_spec {
        write_spec(path, &table, options)?;
        eprintln!("wrote the table into {}", path.display());
    }
    let differ = threads_differ || rows.iter().any(|r| equal(r) == "NO");
    // pycgt and nashpy (W8's and W9's `map`) are peers, not our baselines: they may be
    // missing.
    let baseline_failed = rows.iter().any(|r| {
        let peer = if peer_of(r.workload).is_some() {
            None
        } else {
            r.map.as_ref()
        };
        [r.hand.as_ref(), peer, r.limit.as_ref()]
            .iter()
            .any(|run| matches!(run, Some(Run::Failed { .. })))
    });
    if differ {
        eprintln!("answers differ: see the table");
    }
    if baseline_failed {
        eprintln!("a baseline failed: see the table");
    }
    Ok(!differ && !baseline_failed)
}

/// The yardstick on a workload it solves (`None` for the others), `--repeat` rounds, each
/// run the yardstick's own process: its time and sampled peak memory, and its answer line
/// reduced to what cgl's answer shows (`yardstick::reduce`).
fn yardstick_runs(workload: &str, size: &str, options: &Options) -> Option<Run> {
    let args = yardstick::args(workload, size)?;
    if options.floor {
        return None;
    }
    let Some(binary) = yardstick::binary() else {
        return Some(Run::NotInstalled);
    };
    let mut runs: Vec<Run> = Vec::new();
    for _ in 0..options.repeat {
        if !runs.iter().all(Run::worth_repeating) {
            break;
        }
        let mut cmd = Command::new(&binary);
        cmd.args(&args);
        let run = match run_child(cmd, options.timeout, true) {
            Run::Ok {
                secs, kib, digest, ..
            } => {
                let view = yardstick::reduce(workload, &digest);
                Run::Ok {
                    secs,
                    // A peak under 1 MiB is a sample taken before the program was loaded
                    // (a run of a few milliseconds): not measured.
                    kib: if kib < 1024 { 0 } else { kib },
                    digest: view.clone(),
                    view,
                }
            }
            other => other,
        };
        eprintln!("{workload} {size:>6} limit {}", run.describe());
        runs.push(run);
    }
    Some(Run::median(&runs))
}

/// One implementation of a row in a child (this binary again, `--child`), cgl's queries on
/// `threads` threads; reported on stderr after `label` as it ends.
fn child_run(
    exe: &Path,
    (workload, size, imp): (&str, &str, &str),
    threads: usize,
    label: &str,
    options: &Options,
) -> Run {
    let mut cmd = Command::new(exe);
    cmd.args(["--child", workload, size, imp]);
    cmd.env(THREADS_VAR, threads.to_string());
    let run = run_child(cmd, options.timeout, false);
    eprintln!("{workload} {size:>6} {label} {}", run.describe());
    run
}

/// The workloads whose one query is measured on one thread and on every core (issue 19).
const THREAD_ROWS: [(&str, &str); 2] = [("W3", "4x4"), ("W4", "12x12")];

/// cgl on [`THREAD_ROWS`] with one thread and with every core, the rounds interleaved (one
/// thread, then all, `--repeat` times) so that a change in the machine's speed during the
/// run falls on both: the table, and whether the answers differ. `None` with fewer than two
/// cores, with `--quick` or `--floor`, or when `--only` leaves out W3 and W4.
fn threads_table(exe: &Path, options: &Options) -> Option<(String, bool)> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 || options.quick || options.floor {
        return None;
    }
    let mut cells = vec![vec![
        "workload".to_string(),
        "size".into(),
        "1 thread".into(),
        format!("{cores} threads"),
        "speed-up".into(),
        format!("MB (1 / {cores})"),
        "answers equal".into(),
    ]];
    let mut differ = false;
    for (workload, size) in THREAD_ROWS {
        if let Some(only) = &options.only {
            if !only.iter().any(|w| w == workload) {
                continue;
            }
        }
        let run = |threads: usize| {
            let label = format!("cgl --threads {threads}");
            child_run(exe, (workload, size, "cgl"), threads, &label, options)
        };
        let (mut one, mut all) = (Vec::new(), Vec::new());
        for round in 0..options.repeat {
            if round == 0 || one.iter().chain(&all).all(Run::worth_repeating) {
                one.push(run(1));
                all.push(run(cores));
            }
        }
        let (one, all) = (Run::median(&one), Run::median(&all));
        let equal = match (one.digest(), all.digest()) {
            (Some(a), Some(b)) if a == b => "yes",
            (Some(_), Some(_)) => {
                differ = true;
                "NO"
            }
            _ => "–",
        };
        cells.push(vec![
            workload.to_string(),
            size.to_string(),
            time_cell(Some(&one), options.timeout),
            time_cell(Some(&all), options.timeout),
            ratio_cell(&one, Some(&all), options.timeout.as_secs_f64()),
            format!("{} / {}", mb_cell(Some(&one)), mb_cell(Some(&all))),
            equal.to_string(),
        ]);
    }
    (cells.len() > 1).then(|| (markdown(&cells), differ))
}

/// Runs a child to its end or the timeout. Its stdout's last line is `ok ...` or
/// `error ...` (a bench child), or `cgl check`'s summary (`W6`, with `sample_memory`: the
/// peak memory is then read from /proc while it runs, and the time taken here).
fn run_child(mut cmd: Command, timeout: Duration, sample_memory: bool) -> Run {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Run::Failed {
                message: format!("cannot start: {e}"),
            }
        }
    };
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let pid = child.id();
    let mut peak = 0;
    let status = loop {
        if sample_memory {
            if let Some(kib) = tree_peak_kib(pid) {
                peak = peak.max(kib);
            }
        }
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if started.elapsed() > timeout => break Err(kill(&mut child)),
            // sampled every millisecond: the yardstick's runs take a few
            Ok(None) if sample_memory => std::thread::sleep(Duration::from_millis(1)),
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => break Err(Some(e.to_string())),
        }
    };
    let elapsed = started.elapsed().as_secs_f64();
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let status = match status {
        Ok(status) => status,
        Err(None) => return Run::Timeout,
        Err(Some(message)) => return Run::Failed { message },
    };
    let last = stdout.lines().last().unwrap_or_default().to_string();
    if sample_memory {
        return if status.success() {
            Run::Ok {
                secs: elapsed,
                kib: peak,
                digest: last,
                view: String::new(),
            }
        } else {
            let why = stdout
                .lines()
                .chain(stderr.lines())
                .find(|l| !l.trim().is_empty() && !l.starts_with("ok "))
                .unwrap_or_default();
            Run::Failed {
                message: format!("{status}: {}", one_line(why)),
            }
        };
    }
    let mut fields = last.splitn(5, ' ');
    match (fields.next(), fields.next(), fields.next(), fields.next()) {
        (Some("ok"), Some(secs), Some(kib), Some(digest)) => Run::Ok {
            secs: secs.parse().unwrap_or(f64::NAN),
            kib: kib.parse().unwrap_or(0),
            digest: digest.to_string(),
            view: fields.next().unwrap_or_default().trim().to_string(),
        },
        (Some("error"), _, _, Some(first)) => Run::Failed {
            message: [Some(first), fields.next()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" "),
        },
        _ => {
            let why = stderr.lines().rev().find(|l| !l.trim().is_empty());
            Run::Failed {
                message: format!("{status}: {}", one_line(why.unwrap_or_default())),
            }
        }
    }
}

/// Reads a pipe to its end on a thread, so a chatty child never blocks on a full pipe.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let mut bytes = Vec::new();
            if pipe.read_to_end(&mut bytes).is_ok() {
                text = String::from_utf8_lossy(&bytes).into_owned();
            }
        }
        text
    })
}

/// Kills a child at the timeout. `None`: killed; `Some(error)` if it could not be.
fn kill(child: &mut Child) -> Option<String> {
    match child.kill().and_then(|()| child.wait()) {
        Ok(_) => None,
        Err(e) => Some(format!("cannot stop it after the timeout: {e}")),
    }
}

/// W6: `cgl check` on `copies` copies of examples/, with two jobs.
fn check_examples(copies: &str, timeout: Duration) -> Result<Row, String> {
    let n: usize = copies
        .parse()
        .map_err(|_| format!("W6 size {copies:?} is not a number"))?;
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = std::env::temp_dir().join(format!("cgl-bench-w6-{}-{n}", std::process::id()));
    let copy = |dir: &Path| -> std::io::Result<()> {
        for i in 0..n {
            let to = dir.join(format!("copy{i:03}"));
            std::fs::create_dir_all(&to)?;
            for entry in std::fs::read_dir(&examples)? {
                let path = entry?.path();
                let Some(name) = path.file_name() else {
                    continue;
                };
                if path.is_file() {
                    std::fs::copy(&path, to.join(name))?;
                } else if path.is_dir() {
                    // a folder's data files that the examples import (gambit/*.nfg), not
                    // its .game files (the exercise sets are not part of the workload)
                    for inner in std::fs::read_dir(&path)? {
                        let inner = inner?.path();
                        if inner.is_file() && inner.extension().is_some_and(|e| e == "nfg") {
                            std::fs::create_dir_all(to.join(name))?;
                            std::fs::copy(
                                &inner,
                                to.join(name).join(inner.file_name().unwrap_or_default()),
                            )?;
                        }
                    }
                }
            }
        }
        Ok(())
    };
    copy(&dir).map_err(|e| format!("cannot copy examples/ into {}: {e}", dir.display()))?;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cgl"));
    cmd.arg("check").arg(&dir).args(["--jobs", "2"]);
    let cgl = run_child(cmd, timeout, true);
    // Best effort: a leftover folder in the temporary directory is harmless.
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("W6 {copies:>6} cgl  {}", cgl.describe());
    // the cost per copy of examples/: the time over the copies (a bound after a timeout)
    let per_copy = match &cgl {
        Run::Ok { secs, .. } => format!("{} per copy", seconds(secs / n as f64)),
        Run::Timeout => format!("> {} per copy", seconds(timeout.as_secs_f64() / n as f64)),
        Run::Failed { .. } | Run::NotInstalled => "–".into(),
    };
    let note = Some(match cgl.digest() {
        Some(summary) => format!("{summary}; {per_copy}"),
        None => per_copy,
    });
    Ok(Row {
        workload: "W6",
        size: format!("{n} × examples/"),
        cgl,
        hand: None,
        map: None,
        limit: None,
        note,
    })
}

// ------------------------------------------------------------------------------ the table

/// Whether the answers that came back agree: `yes` (all three), `yes, 2 of 3` (one did
/// not answer), `NO`, or `–` (fewer than two answers).
fn equal(row: &Row) -> String {
    if let Some(note) = &row.note {
        return note.clone();
    }
    let digests: Vec<&str> = [Some(&row.cgl), row.hand.as_ref(), row.map.as_ref()]
        .into_iter()
        .flatten()
        .filter_map(Run::digest)
        .collect();
    let yardstick_differs = match (row.limit.as_ref().and_then(Run::view), row.cgl.view()) {
        (Some(theirs), Some(ours)) => theirs != ours,
        (Some(_), None) => row.cgl.digest().is_some(),
        _ => false,
    };
    match digests.as_slice() {
        [first, rest @ ..] if !rest.is_empty() => {
            if yardstick_differs || rest.iter().any(|d| d != first) {
                "NO".into()
            } else if digests.len() == 3 {
                "yes".into()
            } else {
                format!("yes, {} of 3", digests.len())
            }
        }
        _ => "–".into(),
    }
}

fn time_cell(run: Option<&Run>, timeout: Duration) -> String {
    match run {
        None => "–".into(),
        Some(Run::Ok { secs, .. }) => seconds(*secs),
        Some(Run::Timeout) => format!("timeout (> {} s)", timeout.as_secs()),
        Some(Run::NotInstalled) => "not installed".into(),
        Some(Run::Failed { message }) => {
            let short: String = message.chars().take(48).collect();
            if short.len() < message.len() {
                format!("error: {short}…")
            } else {
                format!("error: {short}")
            }
        }
    }
}

fn mb_cell(run: Option<&Run>) -> String {
    match run.and_then(Run::mb) {
        Some(mb) if mb >= 100.0 => format!("{mb:.0}"),
        Some(mb) => format!("{mb:.1}"),
        None => "–".into(),
    }
}

fn seconds(secs: f64) -> String {
    if secs < 0.01 {
        format!("{:.2} ms", secs * 1000.0)
    } else if secs < 1.0 {
        format!("{:.0} ms", secs * 1000.0)
    } else if secs < 100.0 {
        format!("{secs:.2} s")
    } else {
        format!("{secs:.0} s")
    }
}

fn ratio(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}×")
    } else if x >= 10.0 {
        format!("{x:.1}×")
    } else {
        format!("{x:.2}×")
    }
}

/// `a ÷ b`; when `a` timed out, a bound (`> t ÷ b`), when `b` did, the other bound.
fn ratio_cell(a: &Run, b: Option<&Run>, timeout: f64) -> String {
    match (a, b) {
        (Run::Ok { secs: x, .. }, Some(Run::Ok { secs: y, .. })) if *y > 0.0 => ratio(x / y),
        (Run::Timeout, Some(Run::Ok { secs: y, .. })) if *y > 0.0 => {
            format!("> {}", ratio(timeout / y))
        }
        (Run::Ok { secs: x, .. }, Some(Run::Timeout)) => format!("< {}", ratio(x / timeout)),
        _ => "–".into(),
    }
}

fn mem_ratio_cell(a: &Run, b: Option<&Run>) -> String {
    match (a.mb(), b.and_then(Run::mb)) {
        (Some(x), Some(y)) if y > 0.0 => ratio(x / y),
        _ => "–".into(),
    }
}

/// W8's and W9's tables, one per peer: cgl against the hand-written solver (W9: cgl's
/// library called directly) and the Python peer (pycgt, nashpy; its run sits in `map`).
fn values_table(rows: &[Row], timeout: Duration) -> String {
    let mut tables = Vec::new();
    for peer in ["pycgt", "nashpy"] {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| peer_of(r.workload) == Some(peer))
            .collect();
        if !mine.is_empty() {
            tables.push(comparison(mine, timeout, peer, false));
        }
    }
    tables.join("\n\n")
}

/// cgl against the hand-written solver and the peer whose run sits in `map` (named `peer` in
/// the header), with the memory ratio to the hand-written solver when `mb_ratio`, as markdown
/// with aligned columns.
fn comparison<'r>(
    rows: impl IntoIterator<Item = &'r Row>,
    timeout: Duration,
    peer: &str,
    mb_ratio: bool,
) -> String {
    let t = timeout.as_secs_f64();
    let rows: Vec<&Row> = rows.into_iter().collect();
    // The yardstick's columns, where a row has it (built or not).
    let limit = rows.iter().any(|r| r.limit.is_some());
    let mut header: Vec<String> = ["workload", "size", "cgl time", "cgl MB"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    if limit {
        header.extend(
            [
                "yardstick time",
                "yardstick MB",
                "cgl ÷ yardstick",
                "MB ÷ yardstick",
            ]
            .map(String::from),
        );
    }
    header.extend(["hand time", "hand MB", "time ÷ hand"].map(String::from));
    if mb_ratio {
        header.push("MB ÷ hand".to_string());
    }
    header.extend([
        format!("{peer} time"),
        format!("{peer} MB"),
        format!("{peer} ÷ cgl time"),
        "answers equal".to_string(),
    ]);
    let mut cells: Vec<Vec<String>> = vec![header];
    for r in rows {
        let mut row = vec![
            r.workload.to_string(),
            r.size.clone(),
            time_cell(Some(&r.cgl), timeout),
            mb_cell(Some(&r.cgl)),
        ];
        if limit {
            match &r.limit {
                Some(Run::NotInstalled) => {
                    row.extend(["not built", "–", "–", "–"].map(String::from))
                }
                other => row.extend([
                    time_cell(other.as_ref(), timeout),
                    mb_cell(other.as_ref()),
                    ratio_cell(&r.cgl, other.as_ref(), t),
                    mem_ratio_cell(&r.cgl, other.as_ref()),
                ]),
            }
        }
        row.extend([
            time_cell(r.hand.as_ref(), timeout),
            mb_cell(r.hand.as_ref()),
            ratio_cell(&r.cgl, r.hand.as_ref(), t),
        ]);
        if mb_ratio {
            row.push(mem_ratio_cell(&r.cgl, r.hand.as_ref()));
        }
        row.extend([
            time_cell(r.map.as_ref(), timeout),
            mb_cell(r.map.as_ref()),
            match &r.map {
                // cgl's speed-up over the peer: its time ÷ cgl time
                Some(peer) => speed_up_cell(peer, &r.cgl, t),
                None => "–".into(),
            },
            equal(r),
        ]);
        cells.push(row);
    }
    markdown(&cells)
}

/// Rows of cells (the first the header) as a markdown table with aligned columns.
fn markdown(cells: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..cells[0].len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |row: &[String]| {
        let padded: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
            .collect();
        format!("| {} |", padded.join(" | "))
    };
    let mut out = vec![line(&cells[0])];
    let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    out.push(format!("|-{}-|", rule.join("-|-")));
    out.extend(cells[1..].iter().map(|row| line(row)));
    out.join("\n")
}

/// A workload whose second peer is a Python package, not a hash-map solver: its name.
fn peer_of(workload: &str) -> Option<&'static str> {
    match workload {
        "W8" => Some("pycgt"),
        "W9" => Some("nashpy"),
        _ => None,
    }
}

/// Whether an implementation can run here: false only for a Python peer whose package its
/// interpreter cannot import (the table then says so instead of printing the import error).
fn peer_installed(imp: &str) -> bool {
    match imp {
        "pycgt" => baselines::domineering::installed(),
        "nashpy" => baselines::bimatrix::installed(),
        _ => true,
    }
}

/// Map time ÷ cgl time, with the bounds a timeout gives.
fn speed_up_cell(map: &Run, cgl: &Run, timeout: f64) -> String {
    match (map, cgl) {
        (Run::Ok { secs: m, .. }, Run::Ok { secs: c, .. }) if *c > 0.0 => ratio(m / c),
        (Run::Ok { secs: m, .. }, Run::Timeout) => format!("< {}", ratio(m / timeout)),
        (Run::Timeout, Run::Ok { secs: c, .. }) if *c > 0.0 => {
            format!("> {}", ratio(timeout / c))
        }
        _ => "–".into(),
    }
}

// ------------------------------------------------------------------------------- the spec

/// Puts the table, with the date, the machine and the command, between the markers.
fn write_spec(path: &Path, table: &str, options: &Options) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        return Err(format!(
            "{} has no {BEGIN} ... {END} markers",
            path.display()
        ));
    };
    if end < begin {
        return Err(format!("{}: {END} comes before {BEGIN}", path.display()));
    }
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let mut command = String::from("cargo bench --bench workloads --");
    if options.quick {
        command.push_str(" --quick");
    }
    if let Some(only) = &options.only {
        command.push_str(&format!(" --only {}", only.join(",")));
    }
    command.push_str(&format!(" --timeout {}", options.timeout.as_secs()));
    if options.repeat > 1 {
        command.push_str(&format!(" --repeat {}", options.repeat));
    }
    command.push_str(&format!(" --write-spec {}", path.display()));
    let rounds = if options.repeat > 1 {
        format!(
            " Times are the median of {} rounds (runs over {REPEAT_UNDER} s: one), peak memory \
             the largest.",
            options.repeat
        )
    } else {
        String::new()
    };
    let block = format!(
        "{BEGIN}\nMeasured {}: {cores} cores (nproc), CPU {cpu}; `{command}`.{rounds}\n\n\
         {table}\n{END}",
        today()
    );
    let updated = format!("{}{block}{}", &text[..begin], &text[end + END.len()..]);
    std::fs::write(path, updated).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Today's date (UTC), `YYYY-MM-DD`, from the days since 1970 (the civil calendar).
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
