//! Stopping long computations: a deadline (`--timeout`) and a flag that another thread may
//! raise (Ctrl-C in the REPL). Evaluation and graph exploration call [`Stop::check`] often
//! enough that a stop takes effect within milliseconds; the value table checks the same
//! deadline and flag as a [`Budget`] ([`Stop::budget`]).
//!
//! A stop may carry a [`Meter`]: what the work has reached (positions, bytes), written by the
//! solvers where they check the stop and read by a progress line drawn on another thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cgt::{Budget, CgtError};
use crate::diag::{Code, Diag, DiagResult};
use crate::memory::Account;

/// Code of the diagnostic for a computation that ran past its deadline.
pub const TIMEOUT: Code = Code::LimitTimeout;
/// Code of the diagnostic for a computation stopped by the user.
pub const INTERRUPTED: Code = Code::LimitInterrupted;

/// When to stop: a deadline, a flag, and the memory account of the work (what the graph and
/// the table of game values hold, and the limit), which a value about to be built asks.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<(Instant, Duration)>,
    flag: Arc<AtomicBool>,
    meter: Option<Arc<Meter>>,
    account: Arc<Account>,
}

/// How far a computation has got, shared with the thread that draws it: the positions the
/// game graph holds and the bytes its memory budget counts (as last noted), and a beat that
/// every check of the stop sets, so that the reader can tell work from waiting.
///
/// Writers store, the reader loads or swaps; all relaxed: a reading may lag a little, and
/// nothing is ordered by it.
#[derive(Debug, Default)]
pub struct Meter {
    positions: AtomicU64,
    bytes: AtomicU64,
    beat: AtomicBool,
}

/// What a [`Meter`] showed when read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Positions in the game graph.
    pub positions: u64,
    /// Bytes the graph's memory budget counts (`--max-memory`).
    pub bytes: u64,
    /// Whether the stop was checked since the last reading (the computation is running).
    pub busy: bool,
}

impl Meter {
    /// Records the size of the graph now.
    pub fn note(&self, positions: usize, bytes: usize) {
        self.positions.store(positions as u64, Ordering::Relaxed);
        self.bytes.store(bytes as u64, Ordering::Relaxed);
        self.beat.store(true, Ordering::Relaxed);
    }

    /// Records that the computation is running.
    pub fn beat(&self) {
        self.beat.store(true, Ordering::Relaxed);
    }

    /// The last sizes noted, and whether a beat came since the last reading.
    pub fn read(&self) -> Reading {
        Reading {
            positions: self.positions.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            busy: self.beat.swap(false, Ordering::Relaxed),
        }
    }
}

impl Stop {
    /// Never stops (until the flag is raised).
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Stops `budget` from now.
    pub fn after(budget: Duration) -> Stop {
        // A budget too large to add to the clock never runs out.
        let deadline = Instant::now().checked_add(budget).map(|d| (d, budget));
        Stop {
            deadline,
            flag: Arc::default(),
            meter: None,
            account: Arc::default(),
        }
    }

    /// The same stop, counting memory in `account`.
    pub fn with_account(self, account: Arc<Account>) -> Stop {
        Stop { account, ..self }
    }

    /// The memory account.
    #[inline]
    pub fn account(&self) -> &Arc<Account> {
        &self.account
    }

    /// The same stop, noting progress on `meter`.
    pub fn with_meter(self, meter: Arc<Meter>) -> Stop {
        Stop {
            meter: Some(meter),
            ..self
        }
    }

    /// Notes the size of the work on the meter, if there is one (cheap: two stores).
    #[inline]
    pub fn note(&self, positions: usize, bytes: usize) {
        if let Some(meter) = &self.meter {
            meter.note(positions, bytes);
        }
    }

    /// The meter progress is noted on, if any.
    #[inline]
    pub fn meter(&self) -> Option<&Meter> {
        self.meter.as_deref()
    }

    /// The same deadline, watching `flag` instead of its own flag.
    pub fn with_flag(self, flag: Arc<AtomicBool>) -> Stop {
        Stop { flag, ..self }
    }

    /// The same flag, with a deadline `budget` from now unless this one's comes first: for a
    /// part of the work that may only take so long (`:explain`'s optional facts).
    pub fn sooner(&self, budget: Duration) -> Stop {
        let mine = Instant::now().checked_add(budget).map(|d| (d, budget));
        let deadline = match (self.deadline, mine) {
            (Some(own), Some(new)) if own.0 <= new.0 => Some(own),
            (own, None) => own,
            (_, new) => new,
        };
        Stop {
            deadline,
            flag: self.flag.clone(),
            meter: self.meter.clone(),
            account: self.account.clone(),
        }
    }

    /// The flag that [`Stop::check`] watches; raise it from another thread to stop.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// Lowers the flag (after a stop has been reported).
    pub fn reset(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    /// An error once the flag is raised or the deadline has passed.
    pub fn check(&self) -> DiagResult<()> {
        if let Some(meter) = &self.meter {
            meter.beat();
        }
        if self.flag.load(Ordering::Relaxed) {
            return Err(interrupted());
        }
        if let Some((deadline, budget)) = self.deadline {
            if Instant::now() >= deadline {
                return Err(timed_out(budget));
            }
        }
        Ok(())
    }

    /// The same deadline and flag for the value table's recursions ([`crate::cgt`] cannot
    /// see this type); [`cgt_stop`] turns the errors they end with into this one's.
    pub fn budget(&self) -> Budget {
        let b = Budget::unlimited()
            .flag(self.flag.clone())
            .account(self.account.clone());
        match self.deadline {
            Some((deadline, budget)) => b.deadline(deadline, budget),
            None => b,
        }
    }
}

/// The diagnostic of a stop by the user.
fn interrupted() -> Box<Diag> {
    Box::new(
        Diag::error(INTERRUPTED, "interrupted")
            .help("the computation was stopped before it finished"),
    )
}

/// The diagnostic of a run past `budget`.
fn timed_out(budget: Duration) -> Box<Diag> {
    Box::new(
        Diag::error(TIMEOUT, format!("took longer than {budget:?}"))
            .help("analyse smaller positions, or allow more time with --timeout"),
    )
}

/// The diagnostic of a value table's stop: a timeout or an interrupt as [`Stop::check`]
/// reports them, and a table past its memory cap as the graph reports its own (the same
/// `--max-memory`). `None` for the table's other errors.
pub fn cgt_stop(e: CgtError) -> Option<Box<Diag>> {
    Some(match e {
        CgtError::Timeout(budget) => timed_out(budget),
        CgtError::Interrupted => interrupted(),
        CgtError::Memory(bytes) => Box::new(
            Diag::error(
                Code::GraphTooMuchMemory,
                format!(
                    "the table of game values would take more than the {} MiB that \
                     --max-memory leaves it",
                    bytes >> 20
                ),
            )
            .help(
                "work with smaller game values, or allow more memory with --max-memory (MiB); \
                 the table of canonical forms shares one budget with the game graph and values",
            ),
        ),
        _ => return None,
    })
}
