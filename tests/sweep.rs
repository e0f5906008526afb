//! What the differential sweeps (`differential.rs`, `differential_kinds.rs`) share: running
//! `cgl eval` on a generated game with the paths it takes recorded, the seeds a sweep
//! checks (a count or a number of seconds, from a given or a clock-chosen start), the lines
//! that replay it, and the report of the compiled paths its games went through.
//!
//! `.ci/run` runs both sweeps for a bounded time from a start seed that changes from run to
//! run; each prints its start first and, at the end, the one command that checks the same
//! games again.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::common::{env_or, root, wait_with_timeout};

/// A xorshift generator: the same seed gives the same games on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }

    pub fn pick_of<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Diagnostics of a budget: an engine may hit one where another does not.
pub const BUDGETS: &[&str] = &[
    "cgl::graph::too_many_positions",
    "cgl::graph::too_much_memory",
    "cgl::limit::timeout",
];

/// The compiled paths the runs of one game took, as `cgl` reports them with `CGL_PATHS`
/// (src/eval/compiled/reached.rs): every path, in cgl's order, with whether a run took it
/// and what it is.
#[derive(Default, Debug, Clone)]
pub struct Reached(Vec<(String, bool, String)>);

impl Reached {
    /// Adds a run's report (`NAME 0|1 WHAT` a line).
    fn add(&mut self, report: &str) {
        for (i, line) in report.lines().enumerate() {
            let mut parts = line.splitn(3, ' ');
            let (Some(name), Some(taken)) = (parts.next(), parts.next()) else {
                continue;
            };
            if self.0.len() <= i {
                let what = parts.next().unwrap_or("").to_string();
                self.0.push((name.to_string(), false, what));
            }
            self.0[i].1 |= taken == "1";
        }
    }
}

/// The runs of one game: the paths they took, and the sweep's deadline, which bounds their
/// `--timeout` (at least a second), so that a game started just before the end of a timed
/// sweep (one of the few whose runs reach a budget) does not take it far past.
#[derive(Default, Debug)]
pub struct Runs {
    pub reached: Reached,
    pub until: Option<Instant>,
}

impl Runs {
    /// The runs of a game of a sweep that ends at `until`, if it has an end.
    pub fn new(until: Option<Instant>) -> Runs {
        Runs {
            reached: Reached::default(),
            until,
        }
    }

    /// The `--timeout` of the next run: 20 s, or the time left if less.
    fn timeout(&self) -> u64 {
        let left = self.until.map_or(20, |t| {
            t.saturating_duration_since(Instant::now()).as_secs()
        });
        left.clamp(1, 20)
    }
}

/// How many games of a sweep went through each compiled path.
#[derive(Default, Debug)]
pub struct PathCounts {
    /// Per path: its name, the games that took it, what it is.
    rows: Vec<(String, usize, String)>,
    games: usize,
}

impl PathCounts {
    /// Counts one game's paths.
    pub fn count(&mut self, game: &Reached) {
        self.games += 1;
        for (i, (name, taken, what)) in game.0.iter().enumerate() {
            if self.rows.len() <= i {
                self.rows.push((name.clone(), 0, what.clone()));
            }
            self.rows[i].1 += usize::from(*taken);
        }
    }

    /// The report: a line a path, the games that took it, and the paths no game took.
    pub fn render(&self) -> String {
        let mut out = format!(
            "compiled paths reached (games of {} that went through each):\n",
            self.games
        );
        for (name, n, what) in &self.rows {
            let _ = writeln!(out, "  {name:<11}{n:>6}  {what}");
        }
        let missed: Vec<&str> = self
            .rows
            .iter()
            .filter(|r| r.1 == 0)
            .map(|r| r.0.as_str())
            .collect();
        if !missed.is_empty() {
            let _ = writeln!(out, "  not reached: {}", missed.join(", "));
        }
        out
    }
}

/// Runs `cgl eval` of `query` on `file` with `args` and `env` (the engine switches cleared
/// first); returns (exit code, stdout, stderr) and adds the compiled paths it took to
/// `runs`. Bounded by the budgets every sweep gives it (20,000 positions, a timeout of 20 s
/// or what is left of the sweep's time) and a two-minute hang check.
pub fn run(
    file: &Path,
    query: &str,
    args: &[&str],
    env: &[(&str, &str)],
    runs: &mut Runs,
) -> (i32, String, String) {
    let paths = file.with_extension("paths");
    let _ = std::fs::remove_file(&paths);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cgl"));
    cmd.arg("eval")
        .args(args)
        .args(["--max-positions", "20000", "--timeout"])
        .arg(runs.timeout().to_string())
        .arg("-f")
        .arg(file)
        .arg(query)
        .current_dir(root())
        .env_remove("CGL_DENSE")
        .env_remove("CGL_RANK")
        .env_remove("CGL_STORE")
        .env("CGL_PATHS", &paths)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("the cgl binary runs");
    let out = wait_with_timeout(
        child,
        Duration::from_secs(120),
        &format!("cgl eval {query}"),
    );
    if let Ok(report) = std::fs::read_to_string(&paths) {
        runs.reached.add(&report);
    }
    out
}

/// The seeds a sweep checks: from `start`, `count` of them, or (with a time bound) as many
/// as start before `seconds` have passed.
pub struct Seeds {
    /// The test, as `cargo test` names it (`differential::differential_sweep`).
    pub test: &'static str,
    /// The variables of the start, the count and the time bound.
    pub vars: [&'static str; 3],
    pub start: u64,
    pub count: Option<u64>,
    pub seconds: Option<u64>,
    /// When the time bound ends, counted from [`Seeds::from_env`].
    pub until: Option<Instant>,
}

impl Seeds {
    /// The seeds the environment asks for: `vars` = [start, count, seconds]. The start is
    /// `default_start`, or with a time bound and no start given the clock's seconds times a
    /// thousand (so that runs minutes apart check different games); the count
    /// `default_count` unless there is a time bound.
    pub fn from_env(
        test: &'static str,
        vars: [&'static str; 3],
        default_start: u64,
        default_count: u64,
    ) -> Seeds {
        let seconds = std::env::var(vars[2]).ok().and_then(|v| v.parse().ok());
        let clock = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() * 1000);
        let start = env_or(
            vars[0],
            if seconds.is_some() {
                clock
            } else {
                default_start
            },
        );
        let count = match (std::env::var(vars[1]).ok(), seconds) {
            (Some(v), _) => v.parse().ok(),
            (None, Some(_)) => None,
            (None, None) => Some(default_count),
        };
        Seeds {
            test,
            vars,
            start,
            count,
            seconds,
            until: seconds.map(|s| Instant::now() + Duration::from_secs(s)),
        }
    }

    /// The first line of the sweep's output: what it checks.
    pub fn banner(&self) -> String {
        let bound = match (self.count, self.seconds) {
            (Some(n), _) => format!("{n} seeds"),
            (None, Some(s)) => format!("as many seeds as start within {s} s"),
            (None, None) => "no bound".to_string(),
        };
        format!("{}: from seed {} ({bound})", self.test, self.start)
    }

    /// The seeds, stopping at the count or once the time bound has passed.
    pub fn iter(&self) -> impl Iterator<Item = u64> {
        let until = self.until;
        let end = self
            .count
            .map_or(u64::MAX, |n| self.start.saturating_add(n));
        (self.start..end).take_while(move |_| until.is_none_or(|t| Instant::now() < t))
    }

    /// The end of the sweep's output, printed at once (two sweeps may run together): its
    /// summary, the paths its games went through, the command that checks them again, and
    /// for each failing seed where its report is and the command that checks it alone.
    pub fn report(
        &self,
        summary: &str,
        checked: usize,
        paths: &PathCounts,
        failing: &[u64],
        report_of: impl Fn(u64) -> std::path::PathBuf,
    ) -> String {
        let mut out = format!("{}: {summary}\n{}", self.test, paths.render());
        let _ = writeln!(out, "replay: {}", self.replay(self.start, checked as u64));
        for seed in failing {
            let _ = writeln!(
                out,
                "failed: seed {seed}, see {}; replay: {}",
                report_of(*seed).display(),
                self.replay(*seed, 1)
            );
        }
        out
    }

    /// The command that checks `count` seeds from `start` again.
    pub fn replay(&self, start: u64, count: u64) -> String {
        format!(
            "{}={start} {}={count} cargo test --release --test integration -- --exact {} --nocapture",
            self.vars[0], self.vars[1], self.test
        )
    }
}
