//! Dense indexes of list positions (issue 19): when a game instance's rules can only ever
//! write `m` values into a list of `k` cells (`eval::compiled::cell_domain` infers them),
//! and `m^k` ids fit the budget, its positions are found by their rank `Σ code(c_i)·m^i` in
//! one table of `m^k` ids ([`Ranks`], `cell_ranks.rs`): an array read, no hashing, no key
//! to compare.
//!
//! Which instances get one is decided once per instance, when its first position is
//! interned (nothing of the instance is indexed before, so no position has two homes). A
//! position of a dense instance whose length or cells fall outside the domain (a position
//! the user asks, such as `G([7, 0, 0])`) has no rank and is indexed the ordinary way; the
//! home is a function of the position alone, so every position has exactly one.
//!
//! Where `m^k` ranks are too many, a game whose rules keep its lists sorted
//! (`eval::compiled::sorted_domain`, Chomp's rows) ranks them by the combinatorial number
//! system instead ([`super::SortedRanks`], `C(k + m, k)` ranks of at most `k` cells), with the
//! same table of ids; [`ListRanks`] is either kind.
//!
//! `CGL_DENSE=off` in the environment turns dense indexes off (for tests and measurements:
//! the answers must be the same either way).
//!
//! All the dense tables, the box tables of `index.rs` too, take at most one eighth of
//! `--max-memory` (`GameGraph::dense_allowance`), counted at their whole size. A table is a
//! hash map of the ids set until it holds min(`m^k`/64, 65,536) of them, so that an instance
//! the analyses' rank table solves, whose root and options alone the graph holds, costs what
//! those take; then it is the whole table, in memory advised to use huge pages. `--stats` and
//! the memory estimate count what a table takes now, and `--stats` says `dense (sorted)` for a
//! table of sorted lists.

use rustc_hash::FxHashMap;

use super::cell_ranks::Ranks;
use super::list_ranks::ListRanks;
use super::sorted_ranks::SortedRanks;
use super::TermId;
use crate::eval::value::InstanceId;

/// Share of `--max-memory` the tables may take together: an instance gets a table of
/// `m^k · 4` bytes only if the tables then take at most `max_memory / BUDGET_SHARE`.
pub(super) const BUDGET_SHARE: usize = 8;

/// The dense table of one instance.
#[derive(Debug)]
pub(super) struct DenseTable {
    ranks: ListRanks,
    /// `id + 1` of the position of each rank (0: not interned).
    ids: IdTable,
}

/// A table of `u32`s, zero at first. It starts as a map of the ids set so far, so that an
/// instance whose positions the graph barely holds (one the analyses' rank table solves
/// holds its root and a few options) costs what those take; past [`sparse_most`] ids it
/// becomes the whole table, in memory of its own mapped for it, which the kernel is asked to
/// back with huge pages: a table of millions of ids read at random (a board's options are
/// ranks `m^i` apart) otherwise misses the TLB on nearly every read. Pages no position
/// reaches are never touched (but a huge page is cleared in full when first written, which
/// is why a few ids at random ranks stay in the map). A plain vector where the mapping fails.
#[derive(Debug)]
enum IdTable {
    Sparse {
        len: usize,
        ids: FxHashMap<u32, u32>,
    },
    Mapped(memmap2::MmapMut),
    Plain(Vec<u32>),
}

/// Most ids a table of `len` keeps in its map before it becomes the whole table: few enough
/// that the map stays a small part of the table's size and the graph's searches soon read
/// the array.
fn sparse_most(len: usize) -> usize {
    (len / 64).min(1 << 16)
}

impl IdTable {
    fn zeroed(len: usize) -> IdTable {
        if sparse_most(len) > 0 {
            return IdTable::Sparse {
                len,
                ids: FxHashMap::default(),
            };
        }
        IdTable::whole(len)
    }

    /// The whole table of `len` zeros.
    fn whole(len: usize) -> IdTable {
        match memmap2::MmapMut::map_anon(len * 4) {
            Ok(map) => {
                // Only advice: without huge pages the table works the same, slower.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                IdTable::Mapped(map)
            }
            Err(_) => IdTable::Plain(vec![0; len]),
        }
    }

    fn len(&self) -> usize {
        match self {
            IdTable::Sparse { len, .. } => *len,
            IdTable::Mapped(map) => map.len() / 4,
            IdTable::Plain(ids) => ids.len(),
        }
    }

    /// The bytes it takes now: the map's buckets (a power of two at most 7/8 full, a
    /// control byte each), or the whole table.
    fn bytes(&self) -> usize {
        match self {
            IdTable::Sparse { ids, .. } if ids.capacity() == 0 => 0,
            IdTable::Sparse { ids, .. } => {
                (ids.capacity() * 8 / 7).next_power_of_two().max(4)
                    * (std::mem::size_of::<(u32, u32)>() + 1)
            }
            _ => self.len() * 4,
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<u32> {
        match self {
            IdTable::Sparse { len, ids } => {
                (i < *len).then(|| ids.get(&(i as u32)).copied().unwrap_or(0))
            }
            IdTable::Mapped(map) => {
                let bytes = map.get(4 * i..4 * i + 4)?;
                Some(u32::from_ne_bytes(bytes.try_into().ok()?))
            }
            IdTable::Plain(ids) => ids.get(i).copied(),
        }
    }

    fn set(&mut self, i: usize, id: u32) -> bool {
        match self {
            IdTable::Sparse { len, ids } => {
                if i >= *len {
                    return false;
                }
                ids.insert(i as u32, id);
                if ids.len() > sparse_most(*len) {
                    let mut whole = IdTable::whole(*len);
                    // By rank: the table's pages are written in order.
                    let mut set: Vec<(u32, u32)> = ids.drain().collect();
                    set.sort_unstable();
                    for (i, id) in set {
                        whole.set(i as usize, id);
                    }
                    *self = whole;
                }
                true
            }
            IdTable::Mapped(map) => match map.get_mut(4 * i..4 * i + 4) {
                Some(bytes) => {
                    bytes.copy_from_slice(&id.to_ne_bytes());
                    true
                }
                None => false,
            },
            IdTable::Plain(ids) => match ids.get_mut(i) {
                Some(slot) => {
                    *slot = id;
                    true
                }
                None => false,
            },
        }
    }
}

/// What is decided of an instance.
#[derive(Debug, Default)]
enum State {
    /// Nothing of the instance is interned yet.
    #[default]
    Undecided,
    /// Indexed the ordinary way.
    Refused,
    Dense(Box<DenseTable>),
}

/// The dense tables of a graph, by instance.
#[derive(Debug, Default)]
pub(super) struct DenseIndex {
    states: Vec<State>,
    /// The tables' bytes at their whole size (what the budget of later tables counts).
    bytes: usize,
    /// The bytes they take now (see [`IdTable`]).
    used: usize,
    /// Positions found through a table.
    count: usize,
}

impl DenseTable {
    /// The table for positions of `len` cells in `domain` (sorted values from 0 to 255),
    /// if `m^len` ids take at most `budget` bytes.
    pub(super) fn new(len: usize, domain: &[i64], budget: usize) -> Option<DenseTable> {
        DenseTable::of(ListRanks::Cells(Ranks::new(len, domain)?), budget)
    }

    /// The table for sorted positions ranked by `ranks`, if their ids take at most `budget`
    /// bytes and their cells are from 0 to 255 (the graph keeps a ranked position's cells in
    /// bytes).
    pub(super) fn sorted(ranks: SortedRanks, budget: usize) -> Option<DenseTable> {
        let (lo, hi) = ranks.bounds();
        if lo < 0 || hi > 255 || ranks.cells() > super::store::MAX_CELLS {
            return None;
        }
        DenseTable::of(ListRanks::Sorted(ranks), budget)
    }

    fn of(ranks: ListRanks, budget: usize) -> Option<DenseTable> {
        let count = usize::try_from(ranks.count()).ok()?;
        if count.checked_mul(4)? > budget {
            return None;
        }
        Some(DenseTable {
            ranks,
            ids: IdTable::zeroed(count),
        })
    }

    /// The rank of a position of these `len` cells, if it is in the table's domain.
    #[inline]
    fn rank(&self, len: usize, cells: impl Iterator<Item = Option<i64>>) -> Option<u32> {
        self.ranks.of(len, cells)
    }
}

impl DenseIndex {
    /// Whether the instance's indexing is decided.
    pub(super) fn is_decided(&self, inst: InstanceId) -> bool {
        !matches!(self.state(inst), State::Undecided)
    }

    fn state(&self, inst: InstanceId) -> &State {
        self.states
            .get(inst.0 as usize)
            .unwrap_or(&State::Undecided)
    }

    /// Decides the instance's indexing: `table`, or the ordinary indexes for `None`.
    pub(super) fn decide(&mut self, inst: InstanceId, table: Option<DenseTable>) {
        let i = inst.0 as usize;
        if self.states.len() <= i {
            self.states.resize_with(i + 1, State::default);
        }
        self.states[i] = match table {
            Some(table) => {
                use crate::eval::compiled::reached::{mark, Reached};
                mark(match table.ranks {
                    ListRanks::Sorted(_) => Reached::Sorted,
                    _ => Reached::Dense,
                });
                self.bytes += table.ids.len() * 4;
                self.used += table.ids.bytes();
                State::Dense(Box::new(table))
            }
            None => State::Refused,
        };
    }

    /// Whether the instance has a dense table.
    #[inline]
    pub(super) fn is_dense(&self, inst: InstanceId) -> bool {
        matches!(self.state(inst), State::Dense(_))
    }

    /// The rank of the list position of `inst` with these cells, when `inst` has a dense
    /// table whose domain holds them.
    #[inline]
    pub(super) fn rank(&self, inst: InstanceId, cells: &[i64]) -> Option<u32> {
        self.rank_of(inst, cells.len(), cells.iter().map(|c| Some(*c)))
    }

    /// [`DenseIndex::rank`] of `len` cells that may not be integers (`None`).
    #[inline]
    pub(super) fn rank_of(
        &self,
        inst: InstanceId,
        len: usize,
        cells: impl Iterator<Item = Option<i64>>,
    ) -> Option<u32> {
        match self.state(inst) {
            State::Dense(table) => table.rank(len, cells),
            _ => None,
        }
    }

    /// The ranks of the instance's dense table's positions, of either kind, if it has one
    /// (the analyses' rank table of `analysis::parallel` uses the same).
    pub(super) fn ranks(&self, inst: InstanceId) -> Option<&ListRanks> {
        match self.state(inst) {
            State::Dense(table) => Some(&table.ranks),
            _ => None,
        }
    }

    /// The position of this rank, if interned.
    #[inline]
    pub(super) fn get(&self, inst: InstanceId, rank: u32) -> Option<TermId> {
        let State::Dense(table) = self.state(inst) else {
            return None;
        };
        let id = table.ids.get(rank as usize)?;
        (id > 0).then(|| TermId(id - 1))
    }

    /// Indexes the position `id` at its rank.
    pub(super) fn insert(&mut self, inst: InstanceId, rank: u32, id: u32) {
        if let Some(State::Dense(table)) = self.states.get_mut(inst.0 as usize) {
            let before = table.ids.bytes();
            if table.ids.set(rank as usize, id + 1) {
                self.count += 1;
            }
            self.used = self.used - before + table.ids.bytes();
        }
    }

    /// The bytes the table of `inst` takes now (0 without one).
    pub(super) fn bytes_of(&self, inst: InstanceId) -> usize {
        match self.state(inst) {
            State::Dense(table) => table.ids.bytes(),
            _ => 0,
        }
    }

    /// The tables' bytes, each at its whole size: what the budget of the dense tables has
    /// given them (a table that is still a map may become whole).
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The bytes the tables take now (what `--stats` and the memory limit count).
    pub(super) fn used_bytes(&self) -> usize {
        self.used
    }

    /// How many positions the tables find.
    pub(super) fn count(&self) -> usize {
        self.count
    }
}

/// Whether dense indexes are on (`CGL_DENSE=off` turns them off).
pub(super) fn enabled() -> bool {
    std::env::var_os("CGL_DENSE").is_none_or(|v| v != "off")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(table: &DenseTable, cells: &[i64]) -> Option<u32> {
        table.rank(cells.len(), cells.iter().map(|c| Some(*c)))
    }

    #[test]
    fn ranks_are_distinct_and_below_the_table() {
        let table = DenseTable::new(3, &[0, 1, 2], 1 << 20).unwrap();
        let mut seen = std::collections::HashSet::new();
        for a in 0..3 {
            for b in 0..3 {
                for c in 0..3 {
                    let rank = rank(&table, &[a, b, c]).unwrap();
                    assert!((rank as usize) < table.ids.len());
                    assert_eq!(table.ids.get(rank as usize), Some(0));
                    assert!(seen.insert(rank));
                }
            }
        }
        assert_eq!(seen.len(), 27);
        assert_eq!(rank(&table, &[0, 3, 0]), None);
        assert_eq!(rank(&table, &[0, -1, 0]), None);
        assert_eq!(rank(&table, &[0, 0]), None);
        assert_eq!(rank(&table, &[0, 0, 0, 0]), None);
        assert_eq!(table.rank(3, [Some(0), None, Some(0)].into_iter()), None);
    }

    #[test]
    fn an_instance_gives_its_ranks_back() {
        let mut index = DenseIndex::default();
        assert_eq!(index.ranks(InstanceId(0)), None);
        index.decide(InstanceId(0), DenseTable::new(3, &[0, 2, 7], 1 << 20));
        index.decide(InstanceId(1), None);
        let Some(ListRanks::Cells(ranks)) = index.ranks(InstanceId(0)) else {
            panic!("no ranks of cells")
        };
        assert_eq!((ranks.cells(), ranks.values()), (3, vec![0, 2, 7]));
        let sorted = SortedRanks::new(4, 1, 5, false, super::super::Order::NonIncreasing);
        index.decide(InstanceId(2), DenseTable::sorted(sorted.unwrap(), 1 << 20));
        let Some(ListRanks::Sorted(ranks)) = index.ranks(InstanceId(2)) else {
            panic!("no sorted ranks")
        };
        assert_eq!(ranks.count(), 126);
        assert_eq!(
            index.rank(InstanceId(2), &[5, 2, 2]),
            ranks.of_ints(&[5, 2, 2])
        );
        assert_eq!(index.rank(InstanceId(2), &[2, 5]), None, "not sorted");
        assert_eq!(index.rank(InstanceId(2), &[6]), None, "out of bounds");
        assert_eq!(index.ranks(InstanceId(1)), None);
    }

    #[test]
    fn a_table_is_a_map_until_it_holds_many_ids() {
        // 3^12 = 531,441 ranks: a map up to 8,303 ids, then the whole table.
        let mut index = DenseIndex::default();
        let inst = InstanceId(0);
        index.decide(inst, DenseTable::new(12, &[0, 1, 2], 4 << 20));
        assert_eq!(index.bytes(), 531_441 * 4);
        assert_eq!(index.used_bytes(), 0);
        let most = sparse_most(531_441);
        let rank = |i: usize| (i * 7919 % 531_441) as u32;
        for i in 0..most {
            index.insert(inst, rank(i), i as u32);
        }
        let State::Dense(table) = index.state(inst) else {
            panic!("not dense")
        };
        assert!(matches!(table.ids, IdTable::Sparse { .. }));
        assert_eq!(index.used_bytes(), table.ids.bytes());
        assert!(index.used_bytes() < 531_441);
        index.insert(inst, rank(most), most as u32);
        let State::Dense(table) = index.state(inst) else {
            panic!("not dense")
        };
        assert!(!matches!(table.ids, IdTable::Sparse { .. }));
        assert_eq!(index.used_bytes(), 531_441 * 4);
        assert_eq!(index.count(), most + 1);
        for i in 0..=most {
            assert_eq!(index.get(inst, rank(i)), Some(TermId(i as u32)));
        }
        let free = (0..531_441).find(|r| (0..=most).all(|i| rank(i) != *r));
        assert_eq!(index.get(inst, free.unwrap()), None);
        // A rank past the table is not kept, as a map or whole.
        index.insert(inst, 531_441, 3);
        assert_eq!(index.count(), most + 1);
        let mut small = IdTable::zeroed(1000);
        assert!(!small.set(1000, 1));
        assert_eq!(small.get(1000), None);
    }

    #[test]
    fn a_table_over_budget_or_domain_is_refused() {
        assert!(DenseTable::new(16, &[0, 1, 2], 1 << 20).is_none());
        assert!(DenseTable::new(16, &[0, 1, 2], 200 << 20).is_some());
        assert!(DenseTable::new(3, &[0, 256], 1 << 20).is_none());
        assert!(DenseTable::new(3, &[-1, 0], 1 << 20).is_none());
        assert!(DenseTable::new(40, &[0, 1, 2], usize::MAX).is_none());
        assert!(DenseTable::new(3, &[], 1 << 20).is_none());
        // Sorted lists: within the budget, and cells the graph keeps in bytes.
        let sorted =
            |len, lo, hi| SortedRanks::new(len, lo, hi, false, super::super::Order::NonIncreasing);
        assert!(DenseTable::sorted(sorted(12, 1, 12).unwrap(), 1 << 20).is_none());
        assert!(DenseTable::sorted(sorted(12, 1, 12).unwrap(), 16 << 20).is_some());
        assert!(DenseTable::sorted(sorted(3, -1, 2).unwrap(), 1 << 20).is_none());
        assert!(DenseTable::sorted(sorted(3, 0, 256).unwrap(), 1 << 20).is_none());
    }
}
