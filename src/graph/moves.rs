//! The moves the graph keeps: each explored term's targets in one arena.
//!
//! Each explored term's targets sit side by side in one arena of `u32` ids: 4 bytes a move and
//! 8 a term. Which rule made a move is not kept: it is found again by generating the moves, for
//! diagnostics only. A term whose moves are not stored (past `--max-stored-moves`, or taken
//! once by `successors_once`) costs nothing here.

use super::TermId;

/// The stored moves: each explored term's targets side by side in one arena, in the order
/// the rules produce them. A move takes 4 bytes, a term 8 (where its moves start, how many),
/// but only up to the last term whose moves are stored: a graph explored without storing
/// moves pays nothing for them.
/// Which rule made a move is not kept: the rare question (a diagnostic's label) generates
/// the moves again.
#[derive(Debug, Default)]
pub(super) struct MoveStore {
    /// Per term: the start of its moves in `targets` and their number; `NOT_STORED` as the
    /// start when the term's moves are not stored (and for the terms past the end).
    pub(super) spans: Vec<(u32, u32)>,
    /// The targets' ids.
    pub(super) targets: Vec<u32>,
}

impl MoveStore {
    pub(super) const NOT_STORED: u32 = u32::MAX;
    /// The most moves the arena can index.
    pub(super) const MAX_MOVES: usize = (u32::MAX - 1) as usize;

    pub(super) fn len(&self) -> usize {
        self.targets.len()
    }

    /// The moves of `t`, if stored.
    pub(super) fn get(&self, t: TermId) -> Option<&[u32]> {
        let (start, len) = *self.spans.get(t.idx())?;
        (start != Self::NOT_STORED)
            .then(|| &self.targets[start as usize..start as usize + len as usize])
    }

    /// Stores the moves of `t` (not stored before; the caller checked there is room).
    pub(super) fn store(&mut self, t: TermId, found: &[(TermId, u32)]) {
        let start = self.targets.len() as u32;
        self.targets.extend(found.iter().map(|(id, _)| id.0));
        if self.spans.len() <= t.idx() {
            self.spans.resize(t.idx() + 1, (Self::NOT_STORED, 0));
        }
        self.spans[t.idx()] = (start, found.len() as u32);
    }
}
