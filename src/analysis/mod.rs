//! The analyses over the game graph: outcome, Grundy value, remoteness, canonical value,
//! score, winning moves and the optimal line.
//!
//! A query goes down one way. The [`Analyzer`] is evaluation's host; `choose.rs` decides
//! from the kind of game the position is of (`kind.rs`: impartial, partizan, payoff) which
//! solver answers, and answers the built-in from it: impartial play (`impartial.rs`, with
//! the streaming search `stream/` and the parallel solver `parallel/` in front, and
//! retrograde analysis `retro.rs` where a `loopy` game cycles, Smith's loopy Grundy values
//! `smith.rs` there), partizan play and canonical forms (`partizan.rs`), payoff games
//! (`payoff.rs`); `reach.rs` counts `reachable`.
//! Each solver's recurrences run on one depth-first search (`solve.rs`), which returns a
//! cycle that a `loopy` game declares as a typed end (`Unsolved::Cycle`), not as an error,
//! and applies the checks of the kinds of game that play reaches (`kind::Guard`) for every
//! recurrence alike; `cycle.rs` tells a declared cycle from a mistake. Below them all sit
//! the remoteness codes and rules (`rem.rs`); above them the memo tables (`memo.rs`), which
//! name every solver's value type. Apart from the `Analyzer`, which every file takes from this
//! one, no file here imports one that imports it back.

mod choose;
mod cycle;
mod impartial;
mod kind;
mod memo;
mod parallel;
mod partizan;
mod payoff;
mod reach;
mod rem;
mod retro;
mod smith;
mod solve;
mod stream;
mod take_break;

pub use impartial::{grundy, line, outcome, remoteness};
pub use memo::Memos;
pub use rem::{selective_rule, Rem};
pub use solve::Slot;

use crate::diag::{Diag, DiagResult};
use crate::eval::builtins::Builtin;
use crate::eval::value::{PosTerm, Position, Value};
use crate::eval::{Host, World};
use crate::graph::{GameGraph, GraphConfig};

/// The game graph and, beside it, the memo tables of the analyses run on it: what a session
/// keeps between queries.
#[derive(Debug, Default)]
pub struct Analyzer {
    /// The positions and their moves.
    pub graph: GameGraph,
    /// What the analyses learnt of them, by term id.
    memos: Memos,
}

impl Analyzer {
    /// An empty graph with these settings, and empty memos.
    pub fn new(config: GraphConfig) -> Analyzer {
        Analyzer {
            graph: GameGraph::new(config),
            memos: Memos::default(),
        }
    }

    /// The memory held now, in bytes: the graph's tables and the memos (what `--stats`
    /// reports).
    pub fn measured_bytes(&self) -> usize {
        self.graph.measured_bytes() + self.memos.bytes()
    }

    /// After a query went over a limit, starts afresh (graph and memos together, since the
    /// memos are indexed by the graph's term ids) so that later, smaller queries can still
    /// run.
    fn recover(&mut self, error: &Diag) {
        if self.graph.recover(error) {
            self.memos = Memos::default();
        }
    }
}

/// The analyzer as evaluation's host: compounds are canonicalised by interning them, analyses
/// run here. After a limit error the graph starts afresh, so the next query is not refused
/// for what this one filled.
impl Host for Analyzer {
    fn canonical(&mut self, world: &mut World<'_>, term: &PosTerm) -> DiagResult<PosTerm> {
        match self.graph.intern(world, term) {
            Ok(id) => Ok(self.graph.pos_term(world.games, id)),
            Err(d) => {
                self.recover(&d);
                Err(d)
            }
        }
    }

    fn analyse(
        &mut self,
        world: &mut World<'_>,
        builtin: Builtin,
        position: &Position,
        side: Option<crate::cgt::Side>,
    ) -> DiagResult<Value> {
        choose::run(self, world, builtin, position, side).inspect_err(|d| self.recover(d))
    }
}
