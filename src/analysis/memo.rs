//! The analyses' memo tables, kept beside the game graph (indexed by its term ids) rather than
//! inside it: the graph knows positions and moves, the analyses know what they computed.
//!
//! `Memos` holds a memo by term id for each analysis, plus dense tables by value of the Grundy
//! values of small integer positions and of the outcomes of pairs, read in the streaming
//! solver's tight loops; the remoteness the parallel solver found (`Memos::parallel`); and a
//! stamp per position the payoff solver decided (`Memos::score_order`), so that `line` makes
//! progress in a loopy payoff game. After a limit error the `Analyzer` resets graph and memos
//! together.
//!
//! `Memos` holds every solver's table, so it stands above them all and names their value
//! types (a partizan race, what the parallel solver kept); the solvers reach their tables
//! through the [`Analyzer`](super::Analyzer) and never name this file.

use super::parallel::Solved;
use super::partizan::Race;
use super::rem::RemMemo;
use super::solve::Slot;
use super::take_break::Sequences;
use crate::eval::value::{InstanceId, Outcome};
use crate::graph::{cell, GameGraph, TermId};
use crate::num::Rational;
use crate::syntax::ast::Convention;

/// Every memo of the analyses, by term id, plus dense tables by value for the commonest
/// positions (heaps and pairs of small integers), read in the streaming path's tight loops.
#[derive(Debug, Default)]
pub struct Memos {
    /// Does a draw lie below the term (in its moves or parts)?
    pub(super) draws_below: Vec<Slot<bool>>,
    /// Is a drawn end of play reachable from the term?
    pub(super) draws: Vec<Slot<bool>>,
    /// Grundy values.
    pub(super) grundy: Vec<Slot<u64>>,
    /// Outcomes, per convention (normal, misère).
    outcome: [Vec<Slot<Outcome>>; 2],
    /// Remoteness, per convention.
    remoteness: [RemMemo; 2],
    /// Scores of payoff games' positions, for the player to move.
    pub(super) score: Vec<Slot<Rational>>,
    /// Where retrograde analysis decided a loopy payoff game's position with a score other
    /// than 0: a stamp that grows with each decision (0 for ends of play and positions solved
    /// otherwise), so an optimal option with a smaller stamp makes progress (`line`).
    pub(super) score_order: Vec<u32>,
    /// The last stamp given out in `score_order`.
    pub(super) score_clock: u32,
    /// Outcome classes of partizan play (L, R, N, P), per convention.
    partizan_outcome: [Vec<Slot<Outcome>>; 2],
    /// Who wins and in how many moves with Left and with Right to move, per convention.
    partizan_rem: [Vec<Slot<Race>>; 2],
    /// Canonical forms (normal play), ids in the thread's value table.
    pub(super) values: Vec<Slot<crate::cgt::GameId>>,
    /// Whether the term has a canonical form: false when a conjunctive or selective compound
    /// of partizan positions lies below it (in a sum's parts or a position's options).
    pub(super) has_value: Vec<Slot<bool>>,
    /// Per instance, the Grundy value of the integer position `n` at index `n` (`u64::MAX`:
    /// not known), so that a heap game's options are valued with one look-up each.
    int_grundy: Vec<Vec<u64>>,
    /// Per instance, the OR of the values in `int_grundy`.
    int_grundy_bits: Vec<u64>,
    /// Per instance, the normal-play outcome of the pair position `(a, b)` at
    /// `a * PAIR_BELOW + b` (0: not known, 1: N, 2: P): one flat array, so that the options
    /// `(a - k, b)` of a position are read at a fixed stride, which the processor prefetches.
    pair_outcomes: Vec<Vec<u8>>,
    /// The bytes of `int_grundy`, `int_grundy_bits` and `pair_outcomes`, kept as they grow
    /// (summing them per growth was quadratic in the number of games).
    value_bytes: usize,
    /// What parallel runs solved (`--threads`): the remoteness of every position reachable
    /// from their roots, by packed position rather than by term id.
    pub(super) parallel: Option<Box<Solved>>,
    /// The Grundy sequences of the take-and-break games by code met so far.
    pub(super) sequences: Sequences,
}

/// One game's known pair outcomes (see [`Memos::pair_outcomes`]).
pub(crate) struct PairOutcomes<'m>(&'m [u8]);

impl PairOutcomes<'_> {
    /// The outcome code of `(a, b)`: 0 (not known), 1 (N) or 2 (P).
    #[inline]
    pub(crate) fn get(&self, a: i64, b: i64) -> u8 {
        if !pair_is_dense(a, b) {
            return 0;
        }
        self.0.get(pair_at(a, b)).copied().unwrap_or(0)
    }

    /// The first of the `len` pairs `(a + da j, b + db j)`, `j = 0, 1, ...`, whose outcome
    /// is not known to be N, and its code (0 or 2); `(len, 1)` when every one is N. The pairs
    /// fit `i64` at both ends (an affine run), so everywhere between.
    pub(crate) fn first_not_n(
        &self,
        (a, da): (i64, i64),
        (b, db): (i64, i64),
        len: usize,
    ) -> (usize, u8) {
        let Some(last) = (len as i64).checked_sub(1) else {
            return (0, 1);
        };
        let (a1, b1) = (
            i128::from(a) + i128::from(da) * i128::from(last),
            i128::from(b) + i128::from(db) * i128::from(last),
        );
        let dense_end = i64::try_from(a1).ok().zip(i64::try_from(b1).ok());
        match dense_end {
            // Both ends in the dense square: so is every pair between, one step apart.
            Some((a1, b1)) if pair_is_dense(a, b) && pair_is_dense(a1, b1) => {
                let (from, to) = (pair_at(a, b), pair_at(a1, b1));
                let step = da * PAIR_BELOW + db;
                if step == -1 && from < self.0.len() {
                    // A row read backwards (`(a, b - k)`): one slice.
                    let cells = &self.0[to..=from];
                    return match cells.iter().rev().position(|&c| c != 1) {
                        Some(j) => (j, cells[cells.len() - 1 - j]),
                        None => (len, 1),
                    };
                }
                for j in 0..len {
                    let at = (from as i64 + step * j as i64) as usize;
                    let code = self.0.get(at).copied().unwrap_or(0);
                    if code != 1 {
                        return (j, code);
                    }
                }
                (len, 1)
            }
            _ => {
                for j in 0..len {
                    let jj = j as i64;
                    let at = |start: i64, slope: i64| {
                        slope.checked_mul(jj).and_then(|d| start.checked_add(d))
                    };
                    if let (Some(x), Some(y)) = (at(a, da), at(b, db)) {
                        let code = self.get(x, y);
                        if code != 1 {
                            return (j, code);
                        }
                    } else {
                        return (j, 0);
                    }
                }
                (len, 1)
            }
        }
    }
}

/// Integer positions from 0 up to this bound have their Grundy value in a dense table.
const INT_DENSE_BELOW: i64 = 1 << 20;
/// Pair positions with both parts below this bound have their outcome in a dense table (at
/// most 4 MiB a game).
const PAIR_BELOW: i64 = 1 << 11;

/// Where the dense pair `(a, b)` stands in a flat table of rows of `PAIR_BELOW` cells.
fn pair_at(a: i64, b: i64) -> usize {
    a as usize * PAIR_BELOW as usize + b as usize
}

#[inline]
fn pair_is_dense(a: i64, b: i64) -> bool {
    // Both in 0..PAIR_BELOW, a power of two: no bit at or above it in either, and no sign.
    (a as u64 | b as u64) < PAIR_BELOW as u64
}

/// The index of a convention's table in the memos kept per convention.
fn at(conv: Convention) -> usize {
    match conv {
        Convention::Normal => 0,
        Convention::Misere => 1,
    }
}

impl Memos {
    /// The outcomes of impartial play under `conv`.
    pub(super) fn outcome(&self, conv: Convention) -> &[Slot<Outcome>] {
        &self.outcome[at(conv)]
    }

    /// The outcomes of impartial play under `conv`, to write.
    pub(super) fn outcome_mut(&mut self, conv: Convention) -> &mut Vec<Slot<Outcome>> {
        &mut self.outcome[at(conv)]
    }

    /// The remoteness under `conv`.
    pub(super) fn remoteness(&self, conv: Convention) -> &RemMemo {
        &self.remoteness[at(conv)]
    }

    /// The remoteness under `conv`, to write.
    pub(super) fn remoteness_mut(&mut self, conv: Convention) -> &mut RemMemo {
        &mut self.remoteness[at(conv)]
    }

    /// The outcome classes of partizan play under `conv`.
    pub(super) fn partizan_outcome_mut(&mut self, conv: Convention) -> &mut Vec<Slot<Outcome>> {
        &mut self.partizan_outcome[at(conv)]
    }

    /// The races of partizan play under `conv`.
    pub(super) fn partizan_rem_mut(&mut self, conv: Convention) -> &mut Vec<Slot<Race>> {
        &mut self.partizan_rem[at(conv)]
    }

    /// The memory the memos hold, in bytes (the items of each table).
    pub fn bytes(&self) -> usize {
        fn vec<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        vec(&self.draws_below)
            + vec(&self.draws)
            + vec(&self.grundy)
            + self.outcome.iter().map(|m| vec(m)).sum::<usize>()
            + self.remoteness.iter().map(RemMemo::bytes).sum::<usize>()
            + self.partizan_outcome.iter().map(|m| vec(m)).sum::<usize>()
            + self.partizan_rem.iter().map(|m| vec(m)).sum::<usize>()
            + vec(&self.values)
            + vec(&self.has_value)
            + vec(&self.score)
            + vec(&self.score_order)
            + self.value_table_bytes()
    }

    /// The bytes of the tables indexed by position value (the dense Grundy and outcome
    /// tables, the positions the solver of `parallel` keeps beside the memos, and the
    /// take-and-break sequences), which the graph's memory estimate counts at their size.
    pub fn value_table_bytes(&self) -> usize {
        self.value_bytes + self.parallel.as_ref().map_or(0, |s| s.bytes()) + self.sequences.bytes()
    }

    /// The known Grundy values of `inst`'s integer positions, by value (`u64::MAX` where
    /// unknown), for look-ups in a tight loop; and every bit any of them has (their OR).
    pub(crate) fn int_grundy_values(&self, inst: InstanceId) -> (&[u64], u64) {
        let i = inst.0 as usize;
        let values = self.int_grundy.get(i).map_or(&[][..], Vec::as_slice);
        (values, self.int_grundy_bits.get(i).copied().unwrap_or(0))
    }

    /// Records the Grundy value of the term `t` in the dense table by value, when `t` is a
    /// small integer position. Says whether a table grew (its size is then to be reported to
    /// the graph's memory estimate).
    pub(crate) fn note_int_grundy(&mut self, g: &GameGraph, t: TermId, v: u64) -> bool {
        let Some((inst, n)) = g.int_atom(t) else {
            return false;
        };
        if !(0..INT_DENSE_BELOW).contains(&n) {
            return false;
        }
        let i = inst.0 as usize;
        let grows = self.int_grundy.get(i).is_none_or(|t| t.len() <= n as usize);
        let before = table_bytes(&self.int_grundy, i) + size_of_val(&self.int_grundy_bits[..]);
        if self.int_grundy_bits.len() <= i {
            self.int_grundy_bits.resize(i + 1, 0);
        }
        self.int_grundy_bits[i] |= v;
        *cell(&mut self.int_grundy, i, n as usize, u64::MAX, usize::MAX) = v;
        let after = table_bytes(&self.int_grundy, i) + size_of_val(&self.int_grundy_bits[..]);
        self.value_bytes = self.value_bytes + after - before;
        grows
    }

    /// The known normal-play outcomes of `inst`'s pair positions, for look-ups in a tight
    /// loop.
    pub(crate) fn pair_outcomes(&self, inst: InstanceId) -> PairOutcomes<'_> {
        PairOutcomes(
            self.pair_outcomes
                .get(inst.0 as usize)
                .map_or(&[][..], Vec::as_slice),
        )
    }

    /// Records the normal-play outcome of the term `t` in the dense table by value, when `t`
    /// is a pair of small integers.
    /// Says whether a table grew, as [`Memos::note_int_grundy`].
    pub(crate) fn note_pair_outcome(&mut self, g: &GameGraph, t: TermId, o: Outcome) -> bool {
        let Some((inst, a, b)) = g.pair_atom(t) else {
            return false;
        };
        let code = match o {
            Outcome::N => 1,
            Outcome::P => 2,
            // Only won and lost positions are tabled (partizan classes never reach here).
            Outcome::D | Outcome::L | Outcome::R => return false,
        };
        if !pair_is_dense(a, b) {
            return false;
        }
        let at = pair_at(a, b);
        let i = inst.0 as usize;
        let grows = self.pair_outcomes.get(i).is_none_or(|t| t.len() <= at);
        let end = pair_at(a + 1, 0);
        let before = table_bytes(&self.pair_outcomes, i);
        *cell(&mut self.pair_outcomes, i, at, 0, end) = code;
        self.value_bytes = self.value_bytes + table_bytes(&self.pair_outcomes, i) - before;
        grows
    }
}

/// The bytes of a table of tables' outer list and of its table `i` (tables only grow, so a
/// growth changes these two and no other).
fn table_bytes<T>(tables: &[Vec<T>], i: usize) -> usize {
    size_of_val(tables) + tables.get(i).map_or(0, |t| size_of_val(&t[..]))
}
