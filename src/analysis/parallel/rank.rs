//! The solver's table for a game instance with a dense domain (the one the graph's dense
//! index of the instance uses, `graph::dense`): every list of `k` cells of `m` values has a
//! rank `Σ code(c_i)·m^i`, and the table is one byte a rank, no key stored (a rank decodes
//! back to its cells), claimed by compare-exchange, no locks. 3^16 boards of tic-tac-toe 4x4
//! take 43 MB. The bytes are made in chunks of [`CHUNK`] ranks as they are first claimed, so
//! that a query that reaches a few positions of a large domain touches little memory (the
//! memory limit counts the table in full all the same).
//!
//! A byte holds a remoteness up to [`MAX_IN_CELL`]; a greater one (rare: a game that long
//! within a dense domain) is kept in a small map beside the cells, behind a lock, and the
//! cell says so ([`SPILLED`]).
//!
//! The ranks are the graph's (`GameGraph::dense_ranks`, a `graph::ListRanks` of either kind): a
//! sorted list's rank (Chomp's rows) decodes by unranking.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use rustc_hash::FxHashMap;

use super::store::{Seen, Store, DRAW};
use crate::eval::compiled::Keep;
use crate::graph::{ListRanks, BYTES_PER_POSITION};

/// What a cell holds: not reached, claimed by a thread, a draw, `FIRST + r` for remoteness
/// `r`, or [`SPILLED`].
const UNSEEN: u8 = 0;
const ACTIVE: u8 = 1;
const DRAWN: u8 = 2;
const FIRST: u8 = 3;
/// The remoteness is in the spill map.
const SPILLED: u8 = u8::MAX;
/// The greatest remoteness a cell holds itself.
const MAX_IN_CELL: u32 = (SPILLED - 1 - FIRST) as u32;

/// Most entries of the table that turns a group of a rank's digits into its cells' codes.
const GROUP_TABLE: u64 = 1024;

/// Ranks a chunk of the table holds (the low bits of a rank say where in it).
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A chunk of cells, made when one of them is first claimed.
type Chunk = OnceLock<Box<[AtomicU8]>>;

/// Positions by rank, with their state.
#[derive(Debug)]
pub(super) struct RankTable {
    ranks: ListRanks,
    /// The domain's values, by code.
    values: Vec<i64>,
    /// Ranks are decoded `group` cells at a time: `digits[r * group..][..group]` are the
    /// codes of the cells of `r < m^group` (`unit`).
    group: usize,
    unit: u32,
    digits: Vec<u8>,
    chunks: Box<[Chunk]>,
    spill: Mutex<FxHashMap<u32, u32>>,
    /// The positions held (claimed and not forgotten), kept by the solver after each run.
    held: usize,
}

impl RankTable {
    /// The table of positions of `len` cells in `domain` (sorted values from 0 to 255, at
    /// most 255 of them), if there are at most `u32::MAX` ranks.
    #[cfg(test)]
    fn new(len: usize, domain: &[i64]) -> Option<RankTable> {
        crate::graph::Ranks::new(len, domain).map(|r| RankTable::of(ListRanks::Cells(r)))
    }

    /// The table of positions ranked by `ranks` (sorted lists decode by unranking, lists
    /// of cells a group of digits at a time).
    pub(super) fn of(ranks: ListRanks) -> RankTable {
        let (len, m, values) = match &ranks {
            ListRanks::Cells(r) => (r.cells(), r.m(), r.values()),
            ListRanks::Sorted(_) => (0, 1, Vec::new()),
        };
        let (mut group, mut unit) = (1usize, m);
        while group < len && unit * m <= GROUP_TABLE {
            group += 1;
            unit *= m;
        }
        let mut digits = Vec::with_capacity(unit as usize * group);
        for r in 0..unit {
            let mut r = r;
            for _ in 0..group {
                digits.push((r % m) as u8);
                r /= m;
            }
        }
        RankTable {
            values,
            group,
            unit: unit as u32,
            digits,
            chunks: (0..(ranks.count() as usize).div_ceil(CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            spill: Mutex::new(FxHashMap::default()),
            held: 0,
            ranks,
        }
    }

    /// Whether this table is the one of positions ranked by `ranks`.
    pub(super) fn is_for(&self, ranks: &ListRanks) -> bool {
        self.ranks == *ranks
    }

    fn spill(&self) -> MutexGuard<'_, FxHashMap<u32, u32>> {
        // A thread that panicked holding the lock left the map between two inserts.
        self.spill
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cell of `rank`, if its chunk is made.
    #[inline]
    fn cell(&self, rank: u32) -> Option<&AtomicU8> {
        let chunk = self.chunks[(rank >> CHUNK_BITS) as usize].get()?;
        Some(&chunk[rank as usize & (CHUNK - 1)])
    }

    /// The cell of `rank`, its chunk made if it is not yet (all cells unseen).
    #[inline]
    fn cell_made(&self, rank: u32) -> &AtomicU8 {
        let at = (rank >> CHUNK_BITS) as usize;
        let chunk = self.chunks[at].get_or_init(|| {
            let len = CHUNK.min(self.ranks.count() as usize - at * CHUNK);
            (0..len).map(|_| AtomicU8::new(UNSEEN)).collect()
        });
        &chunk[rank as usize & (CHUNK - 1)]
    }

    /// What a cell's state `c` of `rank` says.
    #[inline]
    fn seen(&self, rank: u32, c: u8) -> Seen {
        match c {
            ACTIVE => Seen::Active,
            DRAWN => Seen::Done(DRAW),
            // Written before the cell (see `finish`), so always there; were it not, the
            // position would be solved again rather than given a wrong code.
            SPILLED => self
                .spill()
                .get(&rank)
                .map_or(Seen::Active, |code| Seen::Done(*code)),
            c => Seen::Done(u32::from(c - FIRST)),
        }
    }

    /// Drops the positions claimed but not finished (after a run that stopped), keeping the
    /// solved ones.
    pub(super) fn forget_active(&mut self) {
        let mut forgotten = 0;
        for chunk in self.chunks.iter_mut().filter_map(OnceLock::get_mut) {
            for c in chunk.iter_mut() {
                if *c.get_mut() == ACTIVE {
                    *c.get_mut() = UNSEEN;
                    forgotten += 1;
                }
            }
        }
        self.held -= forgotten.min(self.held);
    }

    /// Counts `n` positions claimed by a run.
    pub(super) fn add_held(&mut self, n: usize) {
        self.held += n;
    }

    /// The positions it holds.
    pub(super) fn len(&self) -> usize {
        self.held
    }

    /// The memory it takes, counted in full: a byte a rank, and the spilled remotenesses.
    pub(super) fn bytes(&self) -> usize {
        let spilled = self.spill().capacity();
        self.ranks.count() as usize
            + self.chunks.len() * std::mem::size_of::<Chunk>()
            + self.digits.len()
            + spilled * 8 / 7 * (std::mem::size_of::<(u32, u32)>() + 1)
    }
}

impl Store for RankTable {
    type Id = u32;
    /// Its cells are read as they are: a view holds nothing.
    type View = ();

    #[inline]
    fn id(&self, cells: &[i64]) -> Option<u32> {
        self.ranks.of_ints(cells)
    }

    /// A sorted list's rank as its cells are filtered: no list built.
    #[inline]
    fn id_kept(&self, cells: &[i64], keep: Keep, scratch: &mut Vec<i64>) -> Option<u32> {
        match &self.ranks {
            ListRanks::Sorted(r) => r.of_kept(cells, |c| keep.keeps(c)),
            ListRanks::Cells(_) => {
                keep.filter_into(cells, scratch);
                self.id(scratch)
            }
        }
    }

    /// The rank moved by the one cell's change of code: no list built (a sorted list's is
    /// ranked again, which checks that it is still sorted).
    #[inline]
    fn id_set(
        &self,
        rank: u32,
        cells: &[i64],
        at: (usize, i64),
        scratch: &mut Vec<i64>,
    ) -> Option<u32> {
        match &self.ranks {
            ListRanks::Cells(r) => r.with_cell(rank, *cells.get(at.0)?, at),
            ListRanks::Sorted(r) => {
                scratch.clear();
                scratch.extend_from_slice(cells);
                *scratch.get_mut(at.0)? = at.1;
                r.of_ints(scratch)
            }
        }
    }

    #[inline]
    fn cells(&self, rank: u32, out: &mut Vec<i64>) {
        out.clear();
        let cells = match &self.ranks {
            ListRanks::Cells(r) => r.cells(),
            ListRanks::Sorted(r) => return r.unrank(rank, out),
        };
        let mut rank = rank;
        let mut left = cells;
        while left > 0 {
            let take = left.min(self.group);
            let at = (rank % self.unit) as usize * self.group;
            rank /= self.unit;
            let values = &self.values;
            out.extend(
                self.digits[at..at + take]
                    .iter()
                    .map(|d| values[*d as usize]),
            );
            left -= take;
        }
    }

    #[inline]
    fn mix(rank: u32) -> u64 {
        let x = u64::from(rank).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^ (x >> 29)
    }

    #[inline]
    fn claim(&self, rank: u32) -> Seen {
        let cell = self.cell_made(rank);
        // Most positions are met again solved: a load is cheaper than a compare-exchange.
        match cell.load(Ordering::Acquire) {
            UNSEEN => {}
            c => return self.seen(rank, c),
        }
        match cell.compare_exchange(UNSEEN, ACTIVE, Ordering::Acquire, Ordering::Acquire) {
            Ok(_) => Seen::New,
            Err(c) => self.seen(rank, c),
        }
    }

    #[inline]
    fn get(&self, rank: u32) -> Option<Seen> {
        match self.cell(rank)?.load(Ordering::Acquire) {
            UNSEEN => None,
            c => Some(self.seen(rank, c)),
        }
    }

    fn view(&self) {}

    #[inline]
    fn peek(&self, (): &mut (), rank: u32) -> Option<u32> {
        match self.cell(rank)?.load(Ordering::Acquire) {
            UNSEEN | ACTIVE => None,
            c => match self.seen(rank, c) {
                Seen::Done(code) => Some(code),
                _ => None,
            },
        }
    }

    #[inline]
    fn finish(&self, rank: u32, code: u32) {
        let c = match code {
            DRAW => DRAWN,
            r if r <= MAX_IN_CELL => FIRST + r as u8,
            r => {
                self.spill().insert(rank, r);
                SPILLED
            }
        };
        self.cell_made(rank).store(c, Ordering::Release);
    }

    #[inline]
    fn position_bytes(&self, _: u32) -> usize {
        BYTES_PER_POSITION + self.ranks.most_cells()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_decode_to_their_cells_and_are_distinct() {
        for (len, domain) in [
            (5, vec![0, 1, 2]),
            (3, vec![0, 7, 9, 200]),
            (0, vec![0]),
            (12, vec![0, 1]),
        ] {
            let table = RankTable::new(len, &domain).unwrap();
            let ranks = table.ranks.count() as u32;
            let mut out = Vec::new();
            for rank in 0..ranks {
                table.cells(rank, &mut out);
                assert_eq!(out.len(), len);
                assert!(out.iter().all(|c| domain.contains(c)));
                assert_eq!(table.id(&out), Some(rank), "{out:?}");
            }
        }
        let table = RankTable::new(3, &[0, 1, 2]).unwrap();
        assert_eq!(table.id(&[0, 3, 0]), None);
        assert_eq!(table.id(&[0, -1, 0]), None);
        assert_eq!(table.id(&[0, 0]), None);
        assert_eq!(table.id(&[0, 0, 0, 0]), None);
        assert_eq!(table.id(&[2, 1, 0]), Some(2 + 3));
        assert!(RankTable::new(40, &[0, 1, 2]).is_none());
        assert!(RankTable::new(3, &[0, 256]).is_none());
        assert!(RankTable::new(3, &[]).is_none());
    }

    #[test]
    fn sorted_ranks_decode_to_their_lists() {
        use crate::graph::{Order, SortedRanks};
        let ranks = SortedRanks::new(4, 1, 5, false, Order::NonIncreasing).unwrap();
        let table = RankTable::of(ListRanks::Sorted(ranks));
        let mut out = Vec::new();
        for rank in 0..126 {
            table.cells(rank, &mut out);
            assert!(
                out.len() <= 4 && out.windows(2).all(|w| w[0] >= w[1]),
                "{out:?}"
            );
            assert!(out.iter().all(|c| (1..=5).contains(c)));
            assert_eq!(table.id(&out), Some(rank), "{out:?}");
        }
        assert_eq!(table.id(&[2, 3]), None);
        assert_eq!(table.chunks.len(), 1);
    }

    #[test]
    fn cells_keep_every_state_and_remoteness() {
        let mut table = RankTable::new(4, &[0, 1, 2]).unwrap();
        let codes = [0, 1, 2, MAX_IN_CELL, MAX_IN_CELL + 1, 70_000, DRAW];
        for (rank, code) in codes.iter().enumerate() {
            let rank = rank as u32;
            assert_eq!(table.get(rank), None);
            assert_eq!(table.claim(rank), Seen::New);
            assert_eq!(table.claim(rank), Seen::Active);
            assert_eq!(table.get(rank), Some(Seen::Active));
            assert_eq!(table.peek(&mut (), rank), None);
            table.finish(rank, *code);
            assert_eq!(table.peek(&mut (), rank), Some(*code));
            assert_eq!(table.claim(rank), Seen::Done(*code));
            assert_eq!(table.get(rank), Some(Seen::Done(*code)));
        }
        assert_eq!(table.claim(40), Seen::New);
        table.add_held(codes.len() + 1);
        table.forget_active();
        assert_eq!(table.len(), codes.len());
        assert_eq!(table.get(40), None);
        assert_eq!(table.get(5), Some(Seen::Done(70_000)));
    }

    #[test]
    fn chunks_are_made_as_ranks_are_claimed() {
        // 3^12 = 531,441 ranks: nine chunks, the last one short.
        let table = RankTable::new(12, &[0, 1, 2]).unwrap();
        assert_eq!(table.chunks.len(), 9);
        let last = table.ranks.count() as u32 - 1;
        assert_eq!(table.get(last), None);
        assert!(table.chunks.iter().all(|c| c.get().is_none()));
        assert_eq!(table.claim(last), Seen::New);
        table.finish(last, 3);
        assert_eq!(table.get(last), Some(Seen::Done(3)));
        assert_eq!(table.chunks.iter().filter(|c| c.get().is_some()).count(), 1);
        assert_eq!(table.chunks[8].get().unwrap().len(), 531_441 - 8 * CHUNK);
        assert_eq!(table.get(0), None);
        assert!(table.bytes() >= table.ranks.count() as usize);
    }
}
