//! How the graph keeps its terms. Positions of a fixed, small shape are packed into 16 bytes
//! instead of a boxed [`Value`]: a small integer, a pair of small integers, a short list (or
//! long tuple) of cells below 16, packed four bits a cell into the record itself (a board,
//! Chomp's rows), or a longer one of cells from 0 to 255 whose bytes sit in one shared arena.
//! Every other term is kept as it is. [`TermStore::term`] gives any term back as a [`Term`],
//! equal to the one interned.
//!
//! The store decides nothing about finding terms: [`Home`] says which index of the graph
//! finds a term (a dense table, a packed key, the nibble index, the cell index or the general
//! hash index), and the graph keeps those indexes; [`home`] is the one place that decides,
//! but for the dense tables of list positions by rank (`Home::Dense`), which the graph puts
//! first for the instances that have one (`GameGraph::home_of`). A term is packed exactly
//! when its home is a dense table, the nibble index or the cell index, so a packed term is
//! never looked for in the general index.
//!
//! A list of at most 16 cells below 16 packs into a 12-byte `NibbleKey` (a 4×4 board, Chomp's
//! rows), found by the nibble index (`nibble_table.rs`); a longer board of cells 0..=255 by the
//! cell index; short integer tuples by a packed key (`index.rs`); everything else by the
//! general hash index of ids. So the commonest positions are found, and compiled rules' targets
//! interned, without building a value. A position ranked by a dense table keeps the same
//! nibbles or cells as its record (`Stored::Ranked`), which the nibble index skips when it is
//! built again.
//!
//! What the memory estimate (`--max-memory`, `GameGraph::estimated_bytes`) counts: 180 bytes a
//! position plus its boxed list or tuple data or packed cells, 4 a stored move, and the tables
//! indexed by a position's value at their real size, which the analyses report
//! (`GameGraph::set_value_table_bytes`), so that the estimate bounds what `--stats` shows; it
//! is checked as positions are interned and before moves are stored. Positions are capped at
//! `u32::MAX - 3`: term ids are `u32`s, and the remoteness memo keeps three codes above them.

use std::hash::BuildHasher;
use std::rc::Rc;

use rustc_hash::FxBuildHasher;

use super::{IntAtoms, Term, TermId, TupleKey};
use crate::eval::value::{CompoundKind, InstanceId, Value};

/// Longest list kept as cells.
pub(super) const MAX_CELLS: usize = 256;

/// Whether packed cells were a list or a tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum CellsOf {
    List,
    Tuple,
}

/// One term, packed or not (16 bytes).
#[derive(Clone, Copy, Debug)]
enum Stored {
    /// The position `n` of `inst`, `n` in the dense integer range.
    Int { inst: u32, n: i64 },
    /// The position `(a, b)` of `inst`, a dense pair.
    Pair { inst: u32, a: u32, b: u32 },
    /// A list or tuple position of at most 16 cells below 16, four bits a cell, found by
    /// the nibble index.
    Nibbles(NibbleKey),
    /// The same, found by a dense table (`Home::Dense`): not in the nibble index.
    Ranked(NibbleKey),
    /// A list or tuple position of `len` cells, from `at` in the arena (a `u64`: the arena
    /// may pass 4 GiB when the limits are raised).
    Cells {
        inst: u32,
        of: CellsOf,
        len: u16,
        at: u64,
    },
    /// Any other term: `boxed[i]`.
    Boxed(u32),
}

/// The terms of a graph, by id.
#[derive(Debug, Default)]
pub(super) struct TermStore {
    stored: Vec<Stored>,
    boxed: Vec<Term>,
    arena: Vec<u8>,
}

/// Which index of the graph finds a term, with what it needs to find it.
pub(super) enum Home<'b> {
    /// The dense integer table.
    Int(InstanceId, i64),
    /// The dense pair table.
    Pair(InstanceId, i64, i64),
    /// The packed key of a short integer tuple.
    Key(TupleKey),
    /// The nibble index: a short list or tuple of cells below 16.
    Nibbles(NibbleKey),
    /// The cell index: any other list or tuple of small cells.
    Cells(InstanceId, CellsOf, &'b [u8]),
    /// A dense table (`graph::dense`): the list position of `inst` with these cells, at
    /// this rank. Kept as nibbles or cells, as `cells_home` would keep it.
    Dense(InstanceId, u32, &'b [u8]),
    /// The general hash index.
    Hashed,
}

/// Where `term` lives; `buf` holds the cells of a list that fits them.
pub(super) fn home<'b>(term: &Term, buf: &'b mut [u8; MAX_CELLS]) -> Home<'b> {
    let Term::Atom(inst, data) = term else {
        return Home::Hashed;
    };
    let (of, items) = match data {
        Value::Int(n) if IntAtoms::is_dense(*n) => return Home::Int(*inst, *n),
        Value::Tuple(items) => {
            if let [Value::Int(a), Value::Int(b)] = &items[..] {
                if IntAtoms::pair_is_dense(*a, *b) {
                    return Home::Pair(*inst, *a, *b);
                }
            }
            if let Some(key) = TupleKey::of_values(*inst, items) {
                return Home::Key(key);
            }
            (CellsOf::Tuple, items)
        }
        Value::List(items) => (CellsOf::List, items),
        _ => return Home::Hashed,
    };
    let ints = items.iter().map(Value::as_int);
    match pack(ints, items.len(), buf) {
        Some(cells) => cells_home(*inst, of, cells),
        None => Home::Hashed,
    }
}

/// Where the list (or tuple) position of `inst` with these packed cells lives.
pub(super) fn cells_home(inst: InstanceId, of: CellsOf, cells: &[u8]) -> Home<'_> {
    match NibbleKey::of(inst, of, cells) {
        Some(key) => Home::Nibbles(key),
        None => Home::Cells(inst, of, cells),
    }
}

/// The cells of a list of `len` integers, when it fits them (at most [`MAX_CELLS`] items,
/// each an integer from 0 to 255).
pub(super) fn pack(
    items: impl Iterator<Item = Option<i64>>,
    len: usize,
    buf: &mut [u8; MAX_CELLS],
) -> Option<&[u8]> {
    if len > MAX_CELLS {
        return None;
    }
    for (cell, item) in buf.iter_mut().zip(items) {
        *cell = u8::try_from(item?).ok()?;
    }
    Some(&buf[..len])
}

/// The cells of a short list of small cells, packed four bits a cell, with their number: the
/// key of the nibble index and what the store keeps of such a position, in 12 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct NibbleKey {
    /// Cell `i` in bits `4i..4i + 4`.
    bits: [u32; 2],
    /// The instance, whether the cells were a list or a tuple, and how many (see `of`).
    tag: u32,
}

impl NibbleKey {
    /// Most cells a key holds.
    pub(super) const MAX_LEN: usize = 16;

    /// The key of `cells`, when there are at most 16, each below 16, and the instance id is
    /// small enough to share a word with the length.
    pub(super) fn of(inst: InstanceId, of: CellsOf, cells: &[u8]) -> Option<NibbleKey> {
        if cells.len() > Self::MAX_LEN || inst.0 >= 1 << 26 {
            return None;
        }
        let mut bits = 0u64;
        for (i, c) in cells.iter().enumerate() {
            if *c >= 16 {
                return None;
            }
            bits |= u64::from(*c) << (4 * i);
        }
        let of_bit = u32::from(of == CellsOf::Tuple);
        Some(NibbleKey {
            bits: [bits as u32, (bits >> 32) as u32],
            tag: inst.0 << 6 | of_bit << 5 | cells.len() as u32,
        })
    }

    /// [`NibbleKey::of`] the list of integers `items`, read directly (no cells packed first):
    /// the key `of(inst, CellsOf::List, cells)` gives for the same cells, when it gives one.
    #[inline]
    pub(super) fn of_ints(inst: InstanceId, items: &[i64]) -> Option<NibbleKey> {
        if items.len() > Self::MAX_LEN || inst.0 >= 1 << 26 {
            return None;
        }
        let mut bits = 0u64;
        let mut all = 0u64;
        for (i, c) in items.iter().enumerate() {
            // A cell from 0 to 15 has no bit above the low four, and no sign.
            all |= *c as u64;
            bits |= ((*c as u64) & 15) << (4 * i);
        }
        if all >= 16 {
            return None;
        }
        Some(NibbleKey {
            bits: [bits as u32, (bits >> 32) as u32],
            tag: inst.0 << 6 | items.len() as u32,
        })
    }

    fn inst(self) -> InstanceId {
        InstanceId(self.tag >> 6)
    }

    fn cells_of(self) -> CellsOf {
        if self.tag & (1 << 5) != 0 {
            CellsOf::Tuple
        } else {
            CellsOf::List
        }
    }

    /// How many cells.
    pub(super) fn len(self) -> usize {
        (self.tag & 31) as usize
    }

    pub(super) fn cells(self) -> impl Iterator<Item = u8> {
        let bits = u64::from(self.bits[0]) | u64::from(self.bits[1]) << 32;
        (0..self.len()).map(move |i| ((bits >> (4 * i)) & 15) as u8)
    }

    /// The key's hash: one well-mixed word (the nibbles of a board are very regular).
    pub(super) fn hash(self) -> u64 {
        let bits = u64::from(self.bits[0]) | u64::from(self.bits[1]) << 32;
        let mut h = bits ^ u64::from(self.tag).rotate_left(40);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }
}

/// The hash of packed cells in the cell index.
pub(super) fn cells_hash(inst: InstanceId, of: CellsOf, cells: &[u8]) -> u64 {
    FxBuildHasher.hash_one((inst, of, cells))
}

impl TermStore {
    /// How many terms there are.
    pub(super) fn len(&self) -> usize {
        self.stored.len()
    }

    /// Keeps a new term: packed by its home, or `boxed` (the term, given for the homes that
    /// box it: `Home::Key`, `Home::Hashed`).
    pub(super) fn push(&mut self, boxed: Option<Term>, home: &Home<'_>) {
        let stored = match *home {
            Home::Int(inst, n) => Stored::Int { inst: inst.0, n },
            Home::Pair(inst, a, b) => Stored::Pair {
                inst: inst.0,
                a: a as u32,
                b: b as u32,
            },
            Home::Nibbles(key) => Stored::Nibbles(key),
            Home::Dense(inst, _, cells) => match NibbleKey::of(inst, CellsOf::List, cells) {
                Some(key) => Stored::Ranked(key),
                None => self.in_arena(inst, CellsOf::List, cells),
            },
            Home::Cells(inst, of, cells) => self.in_arena(inst, of, cells),
            Home::Key(_) | Home::Hashed => {
                // `GameGraph::insert_at` builds the term for exactly these homes.
                // Fewer boxed terms than terms, whose number is below `u32::MAX`.
                let at = self.boxed.len() as u32;
                self.boxed.extend(boxed);
                Stored::Boxed(at)
            }
        };
        self.stored.push(stored);
    }

    /// A record of cells kept in the arena.
    fn in_arena(&mut self, inst: InstanceId, of: CellsOf, cells: &[u8]) -> Stored {
        let at = self.arena.len() as u64;
        self.arena.extend_from_slice(cells);
        Stored::Cells {
            inst: inst.0,
            of,
            len: cells.len() as u16,
            at,
        }
    }

    /// The cells of `t` into `out` (cleared first) and its instance, when `t` is a position
    /// whose data is a list of integers kept packed; `None` (and `out` untouched) otherwise.
    pub(super) fn list_cells(&self, t: TermId, out: &mut Vec<i64>) -> Option<InstanceId> {
        match self.stored[t.idx()] {
            Stored::Nibbles(key) | Stored::Ranked(key) if key.cells_of() == CellsOf::List => {
                out.clear();
                out.extend(key.cells().map(i64::from));
                Some(key.inst())
            }
            Stored::Cells {
                inst,
                of: CellsOf::List,
                len,
                at,
            } => {
                out.clear();
                let cells = &self.arena[at as usize..at as usize + usize::from(len)];
                out.extend(cells.iter().map(|c| i64::from(*c)));
                Some(InstanceId(inst))
            }
            _ => None,
        }
    }

    /// The bytes of the store's own tables (the records, the cell arena, the boxed terms'
    /// slots; not the boxed data they point to).
    pub(super) fn heap_bytes(&self) -> usize {
        self.stored.len() * std::mem::size_of::<Stored>()
            + self.boxed.len() * std::mem::size_of::<Term>()
            + self.arena.len()
    }

    /// The term `t`, as it was interned.
    pub(super) fn term(&self, t: TermId) -> Term {
        match self.stored[t.idx()] {
            Stored::Int { inst, n } => Term::Atom(InstanceId(inst), Value::Int(n)),
            Stored::Pair { inst, a, b } => Term::Atom(
                InstanceId(inst),
                Value::Tuple(Rc::new([Value::Int(a.into()), Value::Int(b.into())])),
            ),
            Stored::Nibbles(key) | Stored::Ranked(key) => {
                let items: Rc<[Value]> = key.cells().map(|c| Value::Int(c.into())).collect();
                cells_term(key.inst(), key.cells_of(), items)
            }
            Stored::Cells { inst, of, len, at } => {
                let cells = &self.arena[at as usize..at as usize + usize::from(len)];
                let items: Rc<[Value]> = cells.iter().map(|c| Value::Int((*c).into())).collect();
                cells_term(InstanceId(inst), of, items)
            }
            Stored::Boxed(i) => self.boxed[i as usize].clone(),
        }
    }

    /// A term kept boxed, without building anything; `None` for a packed one.
    pub(super) fn boxed(&self, t: TermId) -> Option<&Term> {
        match self.stored[t.idx()] {
            Stored::Boxed(i) => Some(&self.boxed[i as usize]),
            _ => None,
        }
    }

    /// The parts of a compound term.
    pub(super) fn compound(&self, t: TermId) -> Option<(CompoundKind, &[TermId])> {
        match self.boxed(t)? {
            Term::Compound(kind, parts) => Some((*kind, parts)),
            Term::Atom(..) => None,
        }
    }

    /// The instance of an atom.
    pub(super) fn atom_instance(&self, t: TermId) -> Option<InstanceId> {
        match self.stored[t.idx()] {
            Stored::Int { inst, .. } | Stored::Pair { inst, .. } | Stored::Cells { inst, .. } => {
                Some(InstanceId(inst))
            }
            Stored::Nibbles(key) | Stored::Ranked(key) => Some(key.inst()),
            Stored::Boxed(i) => match &self.boxed[i as usize] {
                Term::Atom(inst, _) => Some(*inst),
                Term::Compound(..) => None,
            },
        }
    }

    /// The dense integer position `t`, if it is one.
    pub(super) fn int_atom(&self, t: TermId) -> Option<(InstanceId, i64)> {
        match self.stored[t.idx()] {
            Stored::Int { inst, n } => Some((InstanceId(inst), n)),
            _ => None,
        }
    }

    /// The dense pair position `t`, if it is one.
    pub(super) fn pair_atom(&self, t: TermId) -> Option<(InstanceId, i64, i64)> {
        match self.stored[t.idx()] {
            Stored::Pair { inst, a, b } => Some((InstanceId(inst), a.into(), b.into())),
            _ => None,
        }
    }

    /// How many terms are kept in each way: a dense table's (small integers and pairs),
    /// packed (nibbles, cells) and boxed.
    pub(super) fn kinds(&self) -> [usize; 3] {
        let mut counts = [0; 3];
        for stored in &self.stored {
            counts[match stored {
                Stored::Int { .. } | Stored::Pair { .. } => 0,
                Stored::Nibbles(_) | Stored::Ranked(_) | Stored::Cells { .. } => 1,
                Stored::Boxed(_) => 2,
            }] += 1;
        }
        counts
    }

    /// The key of a position the nibble index finds, if `t` is one.
    #[inline]
    pub(super) fn nibbles(&self, t: TermId) -> Option<NibbleKey> {
        match self.stored[t.idx()] {
            Stored::Nibbles(key) => Some(key),
            _ => None,
        }
    }

    /// Every position the nibble index finds, with its key's hash, in the order of ids:
    /// what the index is built again from when it grows.
    pub(super) fn nibble_hashes(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        // Fewer terms than `u32::MAX`.
        self.stored
            .iter()
            .enumerate()
            .filter_map(|(id, stored)| match stored {
                Stored::Nibbles(key) => Some((id as u32, key.hash())),
                _ => None,
            })
    }

    /// The cells of a list or tuple position kept in the arena, if `t` is one.
    pub(super) fn cells(&self, t: TermId) -> Option<(InstanceId, CellsOf, &[u8])> {
        match self.stored[t.idx()] {
            Stored::Cells { inst, of, len, at } => Some((
                InstanceId(inst),
                of,
                &self.arena[at as usize..at as usize + usize::from(len)],
            )),
            _ => None,
        }
    }
}

/// A list or tuple position of these items.
fn cells_term(inst: InstanceId, of: CellsOf, items: Rc<[Value]>) -> Term {
    let data = match of {
        CellsOf::List => Value::List(items),
        CellsOf::Tuple => Value::Tuple(items),
    };
    Term::Atom(inst, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(ns: &[i64]) -> Rc<[Value]> {
        ns.iter().map(|n| Value::Int(*n)).collect()
    }

    #[test]
    fn a_stored_record_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Stored>(), 16);
    }

    #[test]
    fn every_home_gives_back_the_term_interned() {
        let inst = InstanceId(3);
        let terms = [
            Term::Atom(inst, Value::Int(7)),
            Term::Atom(inst, Value::Int(-7)),
            Term::Atom(inst, Value::Tuple(ints(&[2, 5]))),
            Term::Atom(inst, Value::Tuple(ints(&[2, 5, 9]))),
            Term::Atom(inst, Value::Tuple(ints(&[1, 2, 3, 4, 5]))),
            Term::Atom(inst, Value::List(ints(&[0, 1, 2, 255]))),
            Term::Atom(inst, Value::List(ints(&[]))),
            Term::Atom(inst, Value::List(ints(&[0, 256]))),
            Term::Atom(inst, Value::List(ints(&[0; MAX_CELLS + 1]))),
            Term::Atom(inst, Value::List(ints(&[15; 16]))),
            Term::Atom(inst, Value::List(ints(&[3; 17]))),
            Term::Atom(inst, Value::List(ints(&[0, 16]))),
            Term::Atom(inst, Value::Tuple(ints(&[1, 0, 0, 0, 2]))),
            Term::Compound(CompoundKind::Disjunctive, vec![TermId(0), TermId(2)].into()),
        ];
        let mut store = TermStore::default();
        let mut buf = [0; MAX_CELLS];
        for term in &terms {
            let home = home(term, &mut buf);
            store.push(Some(term.clone()), &home);
        }
        for (i, term) in terms.iter().enumerate() {
            assert_eq!(&store.term(TermId(i as u32)), term, "term {i}");
        }
        assert!(store.cells(TermId(5)).is_some());
        assert!(store.cells(TermId(7)).is_none());
        assert!(store.cells(TermId(8)).is_none());
        assert_eq!(store.atom_instance(TermId(4)), Some(inst));
        assert_eq!(store.atom_instance(TermId(13)), None);
        assert!(store.compound(TermId(13)).is_some());
        // Kept as nibbles: no cells in the arena; longer lists and larger cells are.
        assert!(store.cells(TermId(6)).is_none());
        assert!(store.cells(TermId(9)).is_none());
        assert!(store.cells(TermId(10)).is_some());
        assert!(store.cells(TermId(11)).is_some());
        assert_eq!(store.atom_instance(TermId(12)), Some(inst));
    }

    #[test]
    fn nibble_keys_tell_length_kind_and_instance_apart() {
        let key = |inst: u32, of: CellsOf, cells: &[u8]| NibbleKey::of(InstanceId(inst), of, cells);
        let one = key(1, CellsOf::List, &[1]);
        assert!(one.is_some());
        assert_ne!(one, key(1, CellsOf::List, &[1, 0]));
        assert_ne!(one, key(1, CellsOf::Tuple, &[1]));
        assert_ne!(one, key(2, CellsOf::List, &[1]));
        assert_ne!(key(1, CellsOf::List, &[]), key(1, CellsOf::List, &[0]));
        assert_eq!(key(1, CellsOf::List, &[16]), None);
        assert_eq!(key(1, CellsOf::List, &[0; 17]), None);
        assert_eq!(key(1 << 26, CellsOf::List, &[0]), None);
    }

    #[test]
    fn a_key_read_from_integers_is_the_key_of_their_cells() {
        let inst = InstanceId(5);
        let lists: [&[i64]; 9] = [
            &[],
            &[0],
            &[15; 16],
            &[3, 0, 7, 15, 1],
            &[16],
            &[-1, 2],
            &[1; 17],
            &[i64::MIN],
            &[255, 0],
        ];
        for items in lists {
            let mut buf = [0; MAX_CELLS];
            let packed = pack(items.iter().map(|n| Some(*n)), items.len(), &mut buf);
            let want = packed.and_then(|cells| NibbleKey::of(inst, CellsOf::List, cells));
            assert_eq!(NibbleKey::of_ints(inst, items), want, "{items:?}");
        }
        assert_eq!(NibbleKey::of_ints(InstanceId(1 << 26), &[0]), None);
    }
}
