//! What the solver's threads share about the positions: for each, whether it is claimed, and
//! its remoteness once solved. Two kinds: positions by packed key in a sharded hash table
//! (`table.rs`), and positions of a game instance with a dense domain by rank, a byte each
//! (`rank.rs`).

use crate::eval::compiled::Keep;

/// A position claimed by a thread that has not finished it yet (as an option's code: not
/// known yet).
pub(super) const ACTIVE: u32 = u32::MAX - 1;
/// A drawn position (no remoteness).
pub(super) const DRAW: u32 = u32::MAX;
/// Remoteness values from here up are not kept (as the session's remoteness memo).
pub(super) const MAX_REMOTENESS: u32 = u32::MAX - 3;

/// An option of a position on a thread's path, with its code once known ([`ACTIVE`]:
/// not yet).
pub(super) struct Opt<I> {
    pub(super) id: I,
    pub(super) code: u32,
}

impl<I: Copy> Clone for Opt<I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I: Copy> Copy for Opt<I> {}

/// What a position's entry says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seen {
    /// It was not there: the caller has claimed it.
    New,
    /// Claimed by a thread, not finished.
    Active,
    /// Solved: its remoteness code (or [`DRAW`]).
    Done(u32),
}

/// Positions as the threads share them, named by an id that gives their cells back.
pub(super) trait Store: Sync {
    /// A position's name in the store.
    type Id: Copy + Eq + std::hash::Hash + Send;

    /// The id of the position of these cells, if the store can hold it.
    fn id(&self, cells: &[i64]) -> Option<Self::Id>;

    /// The id of the position `id`, whose cells are `cells`, with cell `i` set to `v`, if
    /// the store can hold it (as [`Store::id`] of that list, which this default builds in
    /// `scratch`).
    #[inline]
    fn id_set(
        &self,
        id: Self::Id,
        cells: &[i64],
        (i, v): (usize, i64),
        scratch: &mut Vec<i64>,
    ) -> Option<Self::Id> {
        let _ = id;
        scratch.clear();
        scratch.extend_from_slice(cells);
        *scratch.get_mut(i)? = v;
        self.id(scratch)
    }

    /// The id of the list of those of `cells` that `keep` keeps, in order, if the store can
    /// hold it (as [`Store::id`] of that list, which this default builds in `scratch`).
    #[inline]
    fn id_kept(&self, cells: &[i64], keep: Keep, scratch: &mut Vec<i64>) -> Option<Self::Id> {
        keep.filter_into(cells, scratch);
        self.id(scratch)
    }

    /// The cells of `id`, into `out` (cleared first).
    fn cells(&self, id: Self::Id, out: &mut Vec<i64>);

    /// A well-mixed hash of `id` (each thread's order of a position's options).
    fn mix(id: Self::Id) -> u64;

    /// Claims `id` unless it is there already; says what it found.
    fn claim(&self, id: Self::Id) -> Seen;

    /// What the store says of `id`, `None` if it is not there.
    fn get(&self, id: Self::Id) -> Option<Seen>;

    /// A thread's handle for [`Store::peek`].
    type View;

    /// A new thread's handle.
    fn view(&self) -> Self::View;

    /// `id`'s code if it is solved, read without a lock (else `None`, also where the view
    /// is behind): read for all of a position's options in one loop once they are made, so
    /// that their reads overlap (most are solved already, and the table is read at random).
    fn peek(&self, view: &mut Self::View, id: Self::Id) -> Option<u32>;

    /// The codes of the options that are solved (the others are left [`ACTIVE`]), as
    /// [`Store::peek`] reads them; a store may order its reads so that they overlap better.
    #[inline]
    fn peek_all(&self, view: &mut Self::View, opts: &mut [Opt<Self::Id>]) {
        for o in opts {
            o.code = self.peek(view, o.id).unwrap_or(ACTIVE);
        }
    }

    /// Records the solved `id`'s code (the same from whichever thread solves it).
    fn finish(&self, id: Self::Id, code: u32);

    /// What a new position adds to the estimate the memory limit counts: what the graph
    /// would add for it, so that a run stops where the one-thread search would.
    fn position_bytes(&self, id: Self::Id) -> usize;
}
