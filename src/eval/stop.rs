//! Stopping long computations: a deadline (`--timeout`) and a flag that another thread may
//! raise (Ctrl-C in the REPL). Evaluation and graph exploration call [`Stop::check`] often
//! enough that a stop takes effect within milliseconds; the value table checks the same
//! deadline and flag as a [`Budget`] ([`Stop::budget`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cgt::{Budget, CgtError};
use crate::diag::{Code, Diag, DiagResult};

/// Code of the diagnostic for a computation that ran past its deadline.
pub const TIMEOUT: Code = Code::LimitTimeout;
/// Code of the diagnostic for a computation stopped by the user.
pub const INTERRUPTED: Code = Code::LimitInterrupted;

/// When to stop.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<(Instant, Duration)>,
    flag: Arc<AtomicBool>,
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
        }
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
        let b = Budget::unlimited().flag(self.flag.clone());
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
                    "the table of game values would take more than {} MiB",
                    bytes >> 20
                ),
            )
            .help(
                "work with smaller game values, or allow more memory with --max-memory (MiB); \
                 the table of canonical forms has the same budget as the game graph",
            ),
        ),
        _ => return None,
    })
}
