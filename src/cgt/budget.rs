//! When a long computation on values must stop: a deadline, or a flag another thread may
//! raise (Ctrl-C). The layers above make one from their own stop (`eval::Stop`) and pass it
//! to [`ValueTable::with_budget`]; the table checks it, and its memory cap
//! ([`ValueTable::set_max_bytes`]), every [`CHECK_EVERY`] steps of its recursions (comparisons, sums, negations,
//! constructions, analyses), so a stop takes effect within milliseconds whatever the value.
//!
//! [`ValueTable::with_budget`]: super::ValueTable::with_budget
//! [`ValueTable::set_max_bytes`]: super::ValueTable::set_max_bytes

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::CgtError;
use crate::memory::{Account, Part};

/// Steps of the table's recursions between two checks of the budget.
pub const CHECK_EVERY: u32 = 1024;

/// Stack that must be left before a recursion of the table goes one level deeper; below it
/// the recursion goes on on a fresh segment of [`SEGMENT`] bytes (forms nest as deep as their
/// birthday, which a loop of the user's can make large).
const RED_ZONE: usize = 128 << 10;
/// The size of a fresh stack segment.
const SEGMENT: usize = 8 << 20;

/// Runs one level of a recursion, on a fresh stack segment when the thread's is nearly used.
pub(super) fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// A deadline, a stop flag and the memory account the table shares with the game graph and
/// values; [`Budget::unlimited`] has none of them.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    deadline: Option<(Instant, Duration)>,
    flag: Option<Arc<AtomicBool>>,
    account: Option<Arc<Account>>,
}

impl Budget {
    /// No deadline, no flag (the table's limits of forms and memory still hold).
    pub fn unlimited() -> Budget {
        Budget::default()
    }

    /// Stops at `deadline` (reported as a run past `budget`, the time allowed).
    pub fn deadline(self, deadline: Instant, budget: Duration) -> Budget {
        Budget {
            deadline: Some((deadline, budget)),
            ..self
        }
    }

    /// Stops once `flag` is raised.
    pub fn flag(self, flag: Arc<AtomicBool>) -> Budget {
        Budget {
            flag: Some(flag),
            ..self
        }
    }

    /// Notes the table's memory in `account`, and holds it to what the account's other parts
    /// leave.
    pub fn account(self, account: Arc<Account>) -> Budget {
        Budget {
            account: Some(account),
            ..self
        }
    }

    /// The error when the budget is spent, or when `bytes`, the table's memory now, is past
    /// `max_bytes` or past what the account's other parts leave.
    pub(super) fn check(&self, bytes: usize, max_bytes: usize) -> Result<(), CgtError> {
        if self
            .flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            return Err(CgtError::Interrupted);
        }
        if let Some((deadline, budget)) = self.deadline {
            if Instant::now() >= deadline {
                return Err(CgtError::Timeout(budget));
            }
        }
        let most = match &self.account {
            Some(account) => {
                account.note(Part::Forms, bytes);
                max_bytes.min(account.room_for(Part::Forms))
            }
            None => max_bytes,
        };
        if bytes > most {
            return Err(CgtError::Memory(most));
        }
        Ok(())
    }
}
