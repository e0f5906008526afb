//! The options that several commands share: the engine's (`--max-positions`,
//! `--max-memory`, `--threads`, ...) and those of unattended runs (`--timeout`, `--stats`,
//! `--no-progress`), with their defaults, and the session settings they make.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::memory;
use crate::api::{GraphConfig, Limits, LoadPolicy, SessionConfig, DEFAULT_MAX_FILE_MIB};

#[derive(Debug, Args, Clone, Copy)]
pub struct EngineOptions {
    /// Most positions (and compounds) one file may explore [default: as many as
    /// --max-memory allows].
    #[arg(long, value_name = "N")]
    pub max_positions: Option<usize>,
    /// Most memory (MiB) the game graph of one file may take, estimated from its size (and,
    /// apart, the table of game values) [default: half the memory available when cgl starts, shared by the files checked at
    /// once (--jobs); 4096 where that is not known; 1024 with `check --confine`].
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<usize>,
    /// Largest file read (MiB), a file named or imported [default: 16, or 1 with
    /// `check --confine`].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub max_file_size: Option<u64>,
    /// Analyse compounds through their explicit product graph instead of the theorems.
    #[arg(long)]
    pub explicit: bool,
    /// Most moves kept in memory; moves beyond are generated again when an analysis needs them.
    #[arg(long, value_name = "MOVES", default_value_t = GraphConfig::default().max_stored_moves)]
    pub max_stored_moves: usize,
    /// Run every move rule in the interpreter, none in compiled form (slower; the answers are
    /// the same).
    #[arg(long)]
    pub interpret: bool,
    /// Most items a list, set, tuple or range may have, and bytes a string may have.
    #[arg(long, value_name = "ITEMS", default_value_t = Limits::default().max_collection)]
    pub max_items: u64,
    /// Threads one query may use: `reachable`, `outcome` and `remoteness` of a large position
    /// whose rules run compiled are solved on all of them (the answers are the same); 1 runs
    /// every query on one thread [default: the cores available].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
}

/// The defaults that `check --confine` gives the limits not set on the command line: a
/// student's file may not hold the grader's machine for long.
pub const CONFINED_TIMEOUT: Duration = Duration::from_secs(10);
const CONFINED_MEMORY_MIB: usize = 1024;
const CONFINED_FILE_MIB: u64 = 1;

/// The default of `--threads`: the cores this process may use.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Whether the solver of `analysis::parallel` may keep positions beside the graph
/// ([`GraphConfig::stores`]): `CGL_STORE=off` in the environment turns its stores off, for
/// tests and measurements (every query then goes through the graph, with the same answers),
/// as `CGL_RANK=off` does with its rank table alone.
fn stores_on() -> bool {
    std::env::var_os("CGL_STORE").is_none_or(|v| v != "off")
}

impl EngineOptions {
    pub fn config(self) -> SessionConfig {
        self.config_for(false, 1)
    }

    /// The session settings, with the confined defaults if `confined`; `at_once` sessions
    /// run at the same time and share the machine's memory.
    pub fn config_for(self, confined: bool, at_once: usize) -> SessionConfig {
        let default_memory = if confined {
            CONFINED_MEMORY_MIB
        } else {
            memory::default_max_memory_mib(at_once)
        };
        SessionConfig {
            graph: GraphConfig {
                max_positions: self
                    .max_positions
                    .unwrap_or(GraphConfig::default().max_positions),
                explicit: self.explicit,
                max_memory: self
                    .max_memory
                    .unwrap_or(default_memory)
                    .saturating_mul(1 << 20),
                max_stored_moves: self.max_stored_moves,
                threads: self.threads.map_or_else(default_threads, |n| n as usize),
                stores: stores_on(),
            },
            limits: Limits {
                compiled_rules: !self.interpret,
                max_collection: self.max_items,
                ..Limits::default()
            },
        }
    }

    /// How files are read: the size limit, and the folder to stay in (`check --confine`;
    /// its canonical path).
    pub fn policy(self, confine: Option<PathBuf>) -> LoadPolicy {
        let default_mib = if confine.is_some() {
            CONFINED_FILE_MIB
        } else {
            DEFAULT_MAX_FILE_MIB
        };
        LoadPolicy {
            max_file_size: self.max_file_size.unwrap_or(default_mib) << 20,
            confine,
        }
    }
}

/// Options of the commands that run unattended (`check`, `run`, `eval`): `--timeout` (the
/// REPL has Ctrl-C instead) and `--stats` (the REPL has `:stats`).
#[derive(Debug, Args, Clone, Copy)]
pub struct Unattended {
    /// Stop after this many seconds (per file for `check`); e.g. 10 or 0.5.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print what each file cost on stderr: time per phase, positions, moves, memory (with
    /// `--format json`: in each file record).
    #[arg(long)]
    pub stats: bool,
    /// Draw no progress line on stderr (it is drawn only on a terminal, for work that takes
    /// more than a second; `CGL_PROGRESS=never` does the same).
    #[arg(long)]
    pub no_progress: bool,
}

/// The longest `--timeout` accepted: a year is "no limit" in practice, and keeps deadlines
/// far from the end of the clock.
const MAX_TIMEOUT_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= MAX_TIMEOUT_SECONDS) {
        return Err(format!(
            "the timeout must be more than 0 and at most {MAX_TIMEOUT_SECONDS} seconds"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}
