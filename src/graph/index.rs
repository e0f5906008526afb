//! The graph's dense and packed indexes of positions by value: small integers and pairs of
//! them in dense tables per game instance (`IntAtoms`), short integer tuples by a packed key
//! (`TupleKey`).

use super::TermId;
use crate::eval::value::InstanceId;
use crate::eval::value::Value;

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
    /// The tables' bytes, kept up to date as they grow (the memory check reads it for every
    /// explored position, so it is not summed each time).
    bytes: usize,
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

    pub(super) fn get_pair(&self, inst: InstanceId, a: i64, b: i64) -> Option<TermId> {
        let id = *self
            .pairs
            .get(inst.0 as usize)?
            .get(a as usize)?
            .get(b as usize)?;
        (id > 0).then(|| TermId(id - 1))
    }

    /// Indexes the pair when it is dense; false when it is not (the caller hashes it).
    pub(super) fn insert_pair(&mut self, inst: InstanceId, a: i64, b: i64, id: u32) -> bool {
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
            + std::mem::size_of_val(&self.pairs[..])
            + self.pairs.iter().map(|p| nested(p)).sum::<usize>()
    }

    fn slot(&self, inst: InstanceId, n: i64) -> Option<u32> {
        let table = self.tables.get(inst.0 as usize)?;
        let i = usize::try_from(n).ok()?;
        table.get(i).copied()
    }

    pub(super) fn get(&self, inst: InstanceId, n: i64) -> Option<TermId> {
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
