//! The graph's dense and packed indexes of positions by value: small integers and pairs of
//! them in dense tables per game instance (`IntAtoms`), short integer tuples by a packed key
//! (`TupleKey`).
//!
//! An instance whose rules keep its integer (or pair) positions in a box
//! (`eval::compiled::position_ranges`, issue 19) gets one more table, sized once for the box
//! when its first position is interned: no growth and no copies, and a box of negative
//! integers or of pairs with a large component (a long, thin rectangle) is dense too. The
//! home of a position is then the box's table when the position is in the box, else the
//! ordinary tables (`DENSE_BELOW`, `PAIR_BELOW`) or the hash indexes: a function of the
//! position alone, fixed before the instance has any position.

use super::store::Home;
use super::{Term, TermId};
use crate::eval::value::InstanceId;
use crate::eval::value::Value;
use crate::eval::World;

/// How one game instance's positions are found, and what they take in the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceIndex {
    /// The instance.
    pub inst: InstanceId,
    /// How many of its positions each kind of index finds.
    pub index: super::IndexUse,
    /// The bytes its positions take (moves aside): their records, their data, and the
    /// tables that find them (its dense tables whole; a hash index's buckets).
    pub bytes: usize,
    /// Its dense table ranks sorted lists ([`super::SortedRanks`]).
    pub sorted: bool,
}

/// Bytes of one position's record in the store, as `store.rs`'s test asserts.
const RECORD: usize = 16;
/// Bytes of a hash index's bucket (an id and a control byte), at the tables' load.
const BUCKET: usize = 6;

impl super::GameGraph {
    /// How each game instance's positions are found ([`InstanceIndex`]), by instance, for
    /// the instances with a position. Looks at every term once.
    pub fn index_by_instance(&self) -> Vec<InstanceIndex> {
        let mut out: Vec<InstanceIndex> = Vec::new();
        let mut cells = Vec::new();
        for i in 0..self.terms.len() {
            let t = TermId(i as u32);
            let Some(inst) = self.terms.atom_instance(t) else {
                continue;
            };
            let k = inst.0 as usize;
            while out.len() <= k {
                out.push(InstanceIndex {
                    inst: InstanceId(out.len() as u32),
                    index: super::IndexUse::default(),
                    bytes: 0,
                    sorted: false,
                });
            }
            let row = &mut out[k];
            row.bytes += RECORD + std::mem::size_of::<super::TermInfo>();
            if self.terms.int_atom(t).is_some() || self.terms.pair_atom(t).is_some() {
                row.index.dense += 1;
            } else if let Some(inst) = self.terms.list_cells(t, &mut cells) {
                row.bytes += cells.len();
                if self.dense.rank(inst, &cells).is_some() {
                    row.index.dense += 1;
                } else {
                    row.bytes += BUCKET;
                    row.index.packed += 1;
                }
            } else if self.terms.nibbles(t).is_some() {
                // A tuple's nibbles (a list's are taken above).
                row.bytes += BUCKET;
                row.index.packed += 1;
            } else if let Some((_, _, c)) = self.terms.cells(t) {
                row.bytes += c.len() + BUCKET;
                row.index.packed += 1;
            } else if let Some(Term::Atom(_, data)) = self.terms.boxed(t) {
                row.bytes += std::mem::size_of::<Term>() + data.heap_bytes();
                let keyed = match data {
                    Value::Tuple(items) => TupleKey::of_values(inst, items).is_some(),
                    _ => false,
                };
                if keyed {
                    row.bytes += std::mem::size_of::<(TupleKey, u32)>() + 1;
                    row.index.packed += 1;
                } else {
                    row.bytes += BUCKET;
                    row.index.hashed += 1;
                }
            }
        }
        out.retain(|row| row.index != super::IndexUse::default());
        for row in &mut out {
            row.bytes += self.dense.bytes_of(row.inst) + self.int_atoms.bytes_of(row.inst);
            row.sorted = self.dense.ranks(row.inst).is_some_and(|r| r.is_sorted());
        }
        out
    }

    /// [`IntAtoms::decide`] for the first position `first` of `inst`, within what is left
    /// of the dense tables' allowance (`CGL_DENSE=off`: no box table).
    pub(super) fn decide_box(&mut self, w: &World<'_>, inst: InstanceId, first: &Value) {
        if self.dense_off {
            return;
        }
        self.int_atoms
            .decide(w, inst, first, self.dense_allowance());
    }

    /// The bytes a new table of ids may take: one share of the memory budget for all the
    /// tables made whole when an instance is decided (the dense tables of lists and the box
    /// tables of integers and pairs together), less those already made.
    pub(super) fn dense_allowance(&self) -> usize {
        (self.config.max_memory / super::dense::BUDGET_SHARE)
            .saturating_sub(self.dense.bytes())
            .saturating_sub(self.int_atoms.box_bytes)
    }
}

/// The cell `[i][n]` of a list of tables (one per instance, or per row), the table grown
/// (filled with `empty`, at least doubling, at most to `cap` cells) to hold it.
pub(crate) fn cell<T: Clone>(
    tables: &mut Vec<Vec<T>>,
    i: usize,
    n: usize,
    empty: T,
    cap: usize,
) -> &mut T {
    if tables.len() <= i {
        tables.resize_with(i + 1, Vec::new);
    }
    let table = &mut tables[i];
    if table.len() <= n {
        table.resize((n + 1).max(table.len() * 2).min(cap.max(n + 1)), empty);
    }
    &mut table[n]
}

/// The cell `[inst][a][b]` of a table of rows per instance, grown to hold it.
fn pair_cell<T: Clone>(
    tables: &mut Vec<Vec<Vec<T>>>,
    inst: InstanceId,
    a: usize,
    b: usize,
    empty: T,
) -> &mut T {
    let i = inst.0 as usize;
    if tables.len() <= i {
        tables.resize_with(i + 1, Vec::new);
    }
    cell(&mut tables[i], a, b, empty, IntAtoms::PAIR_BELOW as usize)
}

/// The ids of atoms whose data is a small non-negative integer, in one dense table per game
/// instance: the commonest positions (heaps) are found by indexing instead of hashing.
#[derive(Debug, Default)]
pub(super) struct IntAtoms {
    /// Per instance, `id + 1` of the atom with data `n` at index `n` (0: not interned).
    tables: Vec<Vec<u32>>,
    /// Per instance, `id + 1` of the atom with data `(a, b)` at `[a][b]`.
    pairs: Vec<Vec<Vec<u32>>>,
    /// Per instance, the table of the box its rules keep its positions in, if it has one.
    boxed: Vec<Option<Box<BoxTable>>>,
    /// The boxes' tables' bytes (each at its full size).
    box_bytes: usize,
    /// The tables' bytes, kept up to date as they grow (the memory check reads it for every
    /// explored position, so it is not summed each time).
    bytes: usize,
}

/// The ids of the integer (one component) or pair positions of an instance in a box
/// `lo[j]..lo[j] + dims[j]`, flat, `id + 1` at `(x0 - lo0) * dims1 + (x1 - lo1)`.
#[derive(Debug)]
struct BoxTable {
    /// A box of pairs (else of integers, `dims[1]` = 1).
    pairs: bool,
    lo: [i64; 2],
    dims: [u64; 2],
    ids: Vec<u32>,
}

impl BoxTable {
    /// The table of the box `ranges` (one or two intervals), if its ids take at most
    /// `budget` bytes and a pair's components are non-negative `u32`s (a pair position is
    /// kept with `u32` components).
    fn new(ranges: &[(i64, i64)], budget: usize) -> Option<BoxTable> {
        let (mut lo, mut dims) = ([0i64; 2], [1u64; 2]);
        if ranges.is_empty() || ranges.len() > 2 {
            return None;
        }
        for (j, &(a, b)) in ranges.iter().enumerate() {
            if b < a || (ranges.len() == 2 && (a < 0 || b > i64::from(u32::MAX))) {
                return None;
            }
            lo[j] = a;
            dims[j] = u64::try_from(i128::from(b) - i128::from(a) + 1).ok()?;
        }
        let cells = dims[0].checked_mul(dims[1])?;
        let bytes = usize::try_from(cells).ok()?.checked_mul(4)?;
        if bytes > budget {
            return None;
        }
        Some(BoxTable {
            pairs: ranges.len() == 2,
            lo,
            dims,
            // Zeroed memory: its pages are touched only where a position is.
            ids: vec![0; cells as usize],
        })
    }

    /// Where `(x0, x1)` (`x1` = 0 for an integer) stands in the table, if in the box and
    /// the table is of pairs (`pairs`) or of integers.
    #[inline]
    fn at(&self, pairs: bool, x0: i64, x1: i64) -> Option<usize> {
        if pairs != self.pairs {
            return None;
        }
        let i = x0.wrapping_sub(self.lo[0]) as u64;
        let j = x1.wrapping_sub(self.lo[1]) as u64;
        (i < self.dims[0] && j < self.dims[1]).then(|| (i * self.dims[1] + j) as usize)
    }
}

impl IntAtoms {
    /// Integers from 0 up to this bound are indexed densely; larger ones are hashed.
    pub(super) const DENSE_BELOW: i64 = 1 << 20;
    /// Pairs of integers from 0 up to this bound are indexed densely (at most 16 MiB a game).
    pub(super) const PAIR_BELOW: i64 = 1 << 11;

    #[inline]
    pub(super) fn pair_is_dense(a: i64, b: i64) -> bool {
        // Both in 0..PAIR_BELOW, a power of two: no bit at or above it in either, and no sign.
        (a as u64 | b as u64) < Self::PAIR_BELOW as u64
    }

    /// The box table of `inst`, if it has one.
    #[inline]
    fn boxed(&self, inst: InstanceId) -> Option<&BoxTable> {
        self.boxed.get(inst.0 as usize)?.as_deref()
    }

    /// Where `(x0, x1)` stands in the box table of `inst`, if it is in the box.
    #[inline]
    fn box_at(&self, inst: InstanceId, pairs: bool, x0: i64, x1: i64) -> Option<usize> {
        self.boxed(inst)?.at(pairs, x0, x1)
    }

    /// Decides, before the first position of `inst` (`first`) is interned, whether its
    /// integer or pair positions get a box table: when the rules keep them in a box whose
    /// table takes at most `budget` bytes ([`super::GameGraph::dense_allowance`]).
    pub(super) fn decide(&mut self, w: &World<'_>, inst: InstanceId, first: &Value, budget: usize) {
        let components: Option<Vec<i64>> = match first {
            Value::Int(n) => Some(vec![*n]),
            Value::Tuple(items) if items.len() == 2 => items.iter().map(Value::as_int).collect(),
            _ => None,
        };
        let Some(components) = components else {
            return;
        };
        let info = w.games.info(inst);
        let table = (|| {
            let game = w.program.games.get(info.game.0 as usize)?;
            let compiled = w.compiled.games.get(info.game.0 as usize)?;
            let ranges =
                crate::eval::compiled::position_ranges(compiled, game, &info.params, &components)?;
            BoxTable::new(&ranges, budget)
        })();
        let Some(table) = table else {
            return;
        };
        crate::eval::compiled::reached::mark(crate::eval::compiled::reached::Reached::Box);
        let i = inst.0 as usize;
        if self.boxed.len() <= i {
            self.boxed.resize_with(i + 1, || None);
        }
        self.box_bytes += std::mem::size_of_val(&table.ids[..]);
        self.boxed[i] = Some(Box::new(table));
        self.bytes = self.measure();
    }

    /// The home of an integer or pair position of an instance with a box table, when the
    /// position is in the box; `None` for any other term (its home is `store::home`'s).
    #[inline]
    pub(super) fn home<'b>(&self, term: &Term) -> Option<Home<'b>> {
        let Term::Atom(inst, data) = term else {
            return None;
        };
        let table = self.boxed(*inst)?;
        match data {
            Value::Int(n) => table.at(false, *n, 0).map(|_| Home::Int(*inst, *n)),
            Value::Tuple(items) => match &items[..] {
                [Value::Int(a), Value::Int(b)] => {
                    table.at(true, *a, *b).map(|_| Home::Pair(*inst, *a, *b))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether the pair `(a, b)` of `inst` is in a dense table (its box's or the ordinary
    /// one): then it is found there, or is not interned.
    #[inline]
    pub(super) fn pair_is_dense_in(&self, inst: InstanceId, a: i64, b: i64) -> bool {
        Self::pair_is_dense(a, b) || self.box_at(inst, true, a, b).is_some()
    }

    /// Whether the integer `n` of `inst` is in a dense table (its box's or the ordinary
    /// one): then it is found there, or is not interned.
    #[inline]
    pub(super) fn int_is_dense_in(&self, inst: InstanceId, n: i64) -> bool {
        Self::is_dense(n) || self.box_at(inst, false, n, 0).is_some()
    }

    pub(super) fn get_pair(&self, inst: InstanceId, a: i64, b: i64) -> Option<TermId> {
        if let Some(table) = self.boxed(inst) {
            if let Some(at) = table.at(true, a, b) {
                let id = table.ids[at];
                return (id > 0).then(|| TermId(id - 1));
            }
        }
        let id = *self
            .pairs
            .get(inst.0 as usize)?
            .get(a as usize)?
            .get(b as usize)?;
        (id > 0).then(|| TermId(id - 1))
    }

    /// Indexes the pair when it is dense; false when it is not (the caller hashes it).
    pub(super) fn insert_pair(&mut self, inst: InstanceId, a: i64, b: i64, id: u32) -> bool {
        if let Some(at) = self.box_at(inst, true, a, b) {
            if let Some(Some(table)) = self.boxed.get_mut(inst.0 as usize) {
                table.ids[at] = id + 1;
            }
            return true;
        }
        if !Self::pair_is_dense(a, b) {
            return false;
        }
        let cells = |p: &[Vec<Vec<u32>>]| {
            p.get(inst.0 as usize).map_or((0, 0), |rows| {
                (rows.len(), rows.get(a as usize).map_or(0, Vec::len))
            })
        };
        let before = cells(&self.pairs);
        *pair_cell(&mut self.pairs, inst, a as usize, b as usize, 0) = id + 1;
        if cells(&self.pairs) != before {
            self.bytes = self.measure();
        }
        true
    }

    /// The bytes of the tables of `inst` (their cells in use; a box's table whole).
    pub(super) fn bytes_of(&self, inst: InstanceId) -> usize {
        let i = inst.0 as usize;
        let ints = self
            .tables
            .get(i)
            .map_or(0, |t| std::mem::size_of_val(&t[..]));
        let pairs = self.pairs.get(i).map_or(0, |rows| {
            rows.iter().map(|r| std::mem::size_of_val(&r[..])).sum()
        });
        let boxed = self
            .boxed(inst)
            .map_or(0, |b| std::mem::size_of_val(&b.ids[..]));
        ints + pairs + boxed
    }

    /// The tables' bytes (their cells in use), as last measured.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Sums the tables' bytes (after one grew: tables grow by doubling, so rarely).
    fn measure(&self) -> usize {
        fn nested<T>(v: &[Vec<T>]) -> usize {
            std::mem::size_of_val(v)
                + v.iter()
                    .map(|inner| std::mem::size_of_val(&inner[..]))
                    .sum::<usize>()
        }
        nested(&self.tables)
            + self.box_bytes
            + std::mem::size_of_val(&self.boxed[..])
            + std::mem::size_of_val(&self.pairs[..])
            + self.pairs.iter().map(|p| nested(p)).sum::<usize>()
    }

    fn slot(&self, inst: InstanceId, n: i64) -> Option<u32> {
        let table = self.tables.get(inst.0 as usize)?;
        let i = usize::try_from(n).ok()?;
        table.get(i).copied()
    }

    pub(super) fn get(&self, inst: InstanceId, n: i64) -> Option<TermId> {
        if let Some(table) = self.boxed(inst) {
            if let Some(at) = table.at(false, n, 0) {
                let id = table.ids[at];
                return (id > 0).then(|| TermId(id - 1));
            }
        }
        match self.slot(inst, n) {
            Some(id) if id > 0 => Some(TermId(id - 1)),
            _ => None,
        }
    }

    /// Whether the tables hold `n`: then every interned atom `n` is in them, and one that is
    /// not is not interned.
    pub(super) fn is_dense(n: i64) -> bool {
        (0..Self::DENSE_BELOW).contains(&n)
    }

    /// Indexes `n` when it is dense; false when it is not (the caller hashes it).
    pub(super) fn insert(&mut self, inst: InstanceId, n: i64, id: u32) -> bool {
        if let Some(at) = self.box_at(inst, false, n, 0) {
            if let Some(Some(table)) = self.boxed.get_mut(inst.0 as usize) {
                table.ids[at] = id + 1;
            }
            return true;
        }
        if !Self::is_dense(n) {
            return false;
        }
        let len = |t: &[Vec<u32>]| t.get(inst.0 as usize).map_or(0, Vec::len);
        let before = len(&self.tables);
        *cell(&mut self.tables, inst.0 as usize, n as usize, 0, usize::MAX) = id + 1;
        if len(&self.tables) != before {
            self.bytes = self.measure();
        }
        true
    }
}

/// A position of at most four integers, packed: `(a, b)` of Wythoff, `(x, y, h)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TupleKey {
    inst: u32,
    len: u8,
    items: [i64; 4],
}

impl std::hash::Hash for TupleKey {
    /// One well-mixed word: small, regular integers (grid coordinates) hashed field by field
    /// with the Fx hash cluster in the table's control bits, and probing gets long.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut h = u64::from(self.inst) << 8 | u64::from(self.len);
        for item in self.items {
            h = (h ^ item as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h = (h ^ (h >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        state.write_u64(h ^ (h >> 32));
    }
}

impl TupleKey {
    pub(super) fn of_ints(inst: InstanceId, items: &[i64]) -> Option<TupleKey> {
        if items.len() > 4 {
            return None;
        }
        let mut packed = [0; 4];
        packed[..items.len()].copy_from_slice(items);
        Some(TupleKey {
            inst: inst.0,
            len: items.len() as u8,
            items: packed,
        })
    }

    pub(super) fn of_values(inst: InstanceId, items: &[Value]) -> Option<TupleKey> {
        if items.len() > 4 {
            return None;
        }
        let mut ints = [0; 4];
        for (n, v) in ints.iter_mut().zip(items) {
            let Value::Int(v) = v else { return None };
            *n = *v;
        }
        TupleKey::of_ints(inst, &ints[..items.len()])
    }
}
