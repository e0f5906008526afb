//! The limits of each evaluation the server runs: the session's settings, how files are
//! read (confined to the root), and the time, memory and positions of one request.

use crate::api::{Budget, Cancel, LoadPolicy, SessionConfig};

/// The limits of each evaluation.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The session's settings (graph, evaluation limits).
    pub config: SessionConfig,
    /// How files are read (confined to the root).
    pub policy: LoadPolicy,
    /// Most seconds one request may compute.
    pub seconds: f64,
    /// Most memory, in bytes.
    pub memory: usize,
    /// Most positions.
    pub positions: usize,
}

impl Limits {
    /// The budget of one request, cancelled by `cancel`.
    pub fn budget(&self, cancel: &Cancel) -> Budget {
        Budget::new()
            .seconds(self.seconds)
            .memory(self.memory)
            .positions(self.positions)
            .cancel(cancel)
    }
}
