//! Per-call limits: [`Session::within`] runs one call (an expression, a file's statements)
//! with its own deadline, memory and position limits and a [`Cancel`] handle, and puts the
//! session's own limits back afterwards. A server or a notebook gives each request its own
//! budget this way, on a session it keeps.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::Session;

/// A handle that stops a call running under a [`Budget`] from another thread: the call ends
/// soon after with `cgl::limit::interrupted`. Cloning gives another handle to the same flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A handle not yet tripped.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stops the call (or the next one, if none is running).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The limits of one call. A limit left unset is the session's own.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Most time the call may take.
    pub time: Option<Duration>,
    /// Most memory the session may hold during the call (its graph, tables and values), in
    /// bytes.
    pub memory: Option<usize>,
    /// Most positions the game graph may hold.
    pub positions: Option<usize>,
    /// A handle that stops the call.
    pub cancel: Option<Cancel>,
}

impl Budget {
    /// No limits but the session's.
    pub fn new() -> Budget {
        Budget::default()
    }

    /// At most `seconds` of time (a negative or non-finite number: none at all).
    pub fn seconds(self, seconds: f64) -> Budget {
        Budget {
            time: Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::ZERO)),
            ..self
        }
    }

    /// At most `bytes` of memory.
    pub fn memory(self, bytes: usize) -> Budget {
        Budget {
            memory: Some(bytes),
            ..self
        }
    }

    /// At most `positions` positions in the game graph.
    pub fn positions(self, positions: usize) -> Budget {
        Budget {
            positions: Some(positions),
            ..self
        }
    }

    /// Stopped by `cancel`.
    pub fn cancel(self, cancel: &Cancel) -> Budget {
        Budget {
            cancel: Some(cancel.clone()),
            ..self
        }
    }
}

impl Session {
    /// Runs `call` on this session under `budget`, then restores the session's own limits.
    /// The deadline is the budget's or the session's, whichever comes first; a cancel handle
    /// replaces the session's stop flag for the call. What the call computed stays in the
    /// session (its graph and memos), so a later call may reuse it.
    pub fn within<R>(&mut self, budget: &Budget, call: impl FnOnce(&mut Session) -> R) -> R {
        let stop = self.stop.clone();
        let config = self.analyzer.graph.config;
        let mut limited = match budget.time {
            Some(time) => stop.sooner(time),
            None => stop.clone(),
        };
        if let Some(cancel) = &budget.cancel {
            limited = limited.with_flag(cancel.0.clone());
        }
        self.stop = limited;
        if let Some(bytes) = budget.memory {
            self.set_memory(bytes);
        }
        if let Some(positions) = budget.positions {
            self.analyzer.graph.config.max_positions = positions;
        }
        let result = call(self);
        self.stop = stop;
        self.analyzer.graph.config = config;
        self.set_memory(config.max_memory);
        result
    }

    /// Caps the memory of the graph, of the thread's table of game values and of the payoff
    /// tables at `bytes`.
    fn set_memory(&mut self, bytes: usize) {
        self.analyzer.graph.config.max_memory = bytes;
        self.stop.account().set_limit(bytes);
        crate::value::with_forms(|t| t.set_max_bytes(bytes));
        self.games.set_max_table_bytes(bytes);
    }
}
