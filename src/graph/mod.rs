//! The game graph: every position and compound reached so far, interned once, with its moves.
//!
//! A *term* is either an atom (a position of one game instance) or a canonical compound of
//! terms. Terms are hash-consed, so equal positions and equal compounds share one [`TermId`];
//! the moves between terms are stored compactly, each explored term's targets side by side in
//! one arena (4 bytes a move). Atoms' moves come from the game's rules; compounds' moves (the
//! explicit product) are built from their parts' moves, only when an analysis asks for them.
//! [`GameGraph::explored_graph`] hands the explored part to petgraph, for its algorithms.

use hashbrown::HashTable;
use petgraph::graph::{DiGraph, NodeIndex};
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

use crate::diag::{Code, Diag, DiagResult};
use crate::eval::value::{CompoundKind, InstanceId, InstanceNames, PosTerm, Value};
use crate::eval::{Interp, OptionTarget, PositionData, World};

mod explore;
mod sides;
mod store;

use store::{cells_hash, cells_home, home, pack, CellsOf, Home, NibbleKey, TermStore, MAX_CELLS};

/// Index of a term in the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TermId(pub u32);

impl TermId {
    fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A position (atom) or a canonical compound of terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A position of a game instance.
    Atom(InstanceId, Value),
    /// A compound in canonical form: parts sorted by id; no part of the same kind; in
    /// disjunctive and selective compounds no part that is over (terminal and not a draw); at
    /// least two parts, except the empty game (a disjunctive compound of none).
    Compound(CompoundKind, Box<[TermId]>),
}

/// Facts about a term known as soon as it is interned.
#[derive(Clone, Copy, Debug)]
pub struct TermInfo {
    /// No moves.
    pub terminal: bool,
    /// Terminal and declared a draw.
    pub draw: bool,
    /// A position of a partizan game (one with `left move` or `right move` rules), or a
    /// compound with such a part: Left's and Right's moves may differ.
    pub partizan: bool,
}

/// Settings of the graph.
#[derive(Clone, Copy, Debug)]
pub struct GraphConfig {
    /// Most terms (positions and compounds) the graph may hold.
    pub max_positions: usize,
    /// Analyse every compound through its explicit product graph, never by the theorems.
    pub explicit: bool,
    /// Most memory the graph may take, estimated from its size (bytes).
    pub max_memory: usize,
    /// Most moves kept in the graph; moves beyond are generated again when needed.
    pub max_stored_moves: usize,
}

impl Default for GraphConfig {
    /// No limit of positions but the memory (and the index, [`MAX_TERMS`]): a position costs
    /// at least [`BYTES_PER_POSITION`] of the memory budget, so the budget bounds them.
    fn default() -> GraphConfig {
        GraphConfig {
            max_positions: MAX_TERMS,
            explicit: false,
            max_memory: 4 << 30,
            max_stored_moves: 100_000_000,
        }
    }
}

/// Memory per position (term, info, node, memo tables), for the memory estimate: measured for
/// boxed positions, an upper bound for packed ones (30-90 bytes); the data of lists and
/// tuples comes on top (`heap_bytes`, or a byte a packed cell).
pub const BYTES_PER_POSITION: usize = 180;
/// Memory per stored move: its target's id in the move arena.
pub const BYTES_PER_MOVE: usize = 4;
/// Data of one position large enough that the memory budget is checked as it is interned.
const LARGE_DATA: usize = 64 << 10;
/// The code of the memory-limit diagnostic.
const TOO_MUCH_MEMORY: Code = Code::GraphTooMuchMemory;

/// Most terms a graph indexes, whatever `--max-positions` says: a term's id is a `u32` and
/// the dense tables keep `id + 1`; and a remoteness, at most the number of terms, must stay
/// below the three codes the remoteness memo reserves at the top of a `u32`.
pub const MAX_TERMS: usize = (u32::MAX - 3) as usize;

/// The code of the position-limit diagnostic.
const TOO_MANY_POSITIONS: Code = Code::GraphTooManyPositions;

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
struct IntAtoms {
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
    const DENSE_BELOW: i64 = 1 << 20;
    /// Pairs of integers from 0 up to this bound are indexed densely (at most 16 MiB a game).
    const PAIR_BELOW: i64 = 1 << 11;

    #[inline]
    fn pair_is_dense(a: i64, b: i64) -> bool {
        // Both in 0..PAIR_BELOW, a power of two: no bit at or above it in either, and no sign.
        (a as u64 | b as u64) < Self::PAIR_BELOW as u64
    }

    fn get_pair(&self, inst: InstanceId, a: i64, b: i64) -> Option<TermId> {
        let id = *self
            .pairs
            .get(inst.0 as usize)?
            .get(a as usize)?
            .get(b as usize)?;
        (id > 0).then(|| TermId(id - 1))
    }

    /// Indexes the pair when it is dense; false when it is not (the caller hashes it).
    fn insert_pair(&mut self, inst: InstanceId, a: i64, b: i64, id: u32) -> bool {
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
    fn bytes(&self) -> usize {
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

    fn get(&self, inst: InstanceId, n: i64) -> Option<TermId> {
        match self.slot(inst, n) {
            Some(id) if id > 0 => Some(TermId(id - 1)),
            _ => None,
        }
    }

    /// Whether the tables hold `n`: then every interned atom `n` is in them, and one that is
    /// not is not interned.
    fn is_dense(n: i64) -> bool {
        (0..Self::DENSE_BELOW).contains(&n)
    }

    /// Indexes `n` when it is dense; false when it is not (the caller hashes it).
    fn insert(&mut self, inst: InstanceId, n: i64, id: u32) -> bool {
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
struct TupleKey {
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
    fn of_ints(inst: InstanceId, items: &[i64]) -> Option<TupleKey> {
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

    fn of_values(inst: InstanceId, items: &[Value]) -> Option<TupleKey> {
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

/// Rule tag on generated moves that are compound moves rather than a game rule's.
const PRODUCT_MOVE: u32 = u32::MAX;

/// The stored moves: each explored term's targets side by side in one arena, in the order
/// the rules produce them. A move takes 4 bytes, a term 8 (where its moves start, how many).
/// Which rule made a move is not kept: the rare question (a diagnostic's label) generates
/// the moves again.
#[derive(Debug, Default)]
struct MoveStore {
    /// Per term: the start of its moves in `targets` and their number; `NOT_STORED` as the
    /// start when the term's moves are not stored.
    spans: Vec<(u32, u32)>,
    /// The targets' ids.
    targets: Vec<u32>,
}

impl MoveStore {
    const NOT_STORED: u32 = u32::MAX;
    /// The most moves the arena can index.
    const MAX_MOVES: usize = (u32::MAX - 1) as usize;

    fn add_term(&mut self) {
        self.spans.push((Self::NOT_STORED, 0));
    }

    fn len(&self) -> usize {
        self.targets.len()
    }

    /// The moves of `t`, if stored.
    fn get(&self, t: TermId) -> Option<&[u32]> {
        let (start, len) = self.spans[t.idx()];
        (start != Self::NOT_STORED)
            .then(|| &self.targets[start as usize..start as usize + len as usize])
    }

    /// Stores the moves of `t` (not stored before; the caller checked there is room).
    fn store(&mut self, t: TermId, found: &[(TermId, u32)]) {
        let start = self.targets.len() as u32;
        self.targets.extend(found.iter().map(|(id, _)| id.0));
        self.spans[t.idx()] = (start, found.len() as u32);
    }
}

/// The game graph of a session, shared by every query so later ones reuse earlier work.
#[derive(Debug, Default)]
pub struct GameGraph {
    /// The terms, by id; small positions packed.
    terms: TermStore,
    /// The ids of the terms that no dense table, packed key or the cell index finds, by the
    /// terms' hash: the commonest positions (small integers, short integer tuples, boards)
    /// are never hashed as values.
    index: HashTable<u32>,
    /// The ids of list (and long tuple) positions of small cells, by the hash of the cells.
    cells_index: HashTable<u32>,
    /// The same for the positions kept as a [`NibbleKey`], the key beside the id: a look-up
    /// reads the table only, not the terms.
    nibble_index: HashTable<(NibbleKey, u32)>,
    info: Vec<TermInfo>,
    /// The moves of the explored terms.
    moves: MoveStore,
    /// Settings.
    pub config: GraphConfig,
    /// Heap memory of the positions' data (lists, tuples), estimated as they are interned:
    /// a byte a packed cell, the boxed values' heap size.
    data_bytes: usize,
    /// The boxed values' part of `data_bytes`.
    boxed_data_bytes: usize,
    /// The shared nodes of the positions' data already counted in `data_bytes`
    /// ([`Value::heap_bytes_seen`]): positions that share their parts count them once.
    counted_nodes: rustc_hash::FxHashSet<usize>,
    /// Positions that are small integers, indexed directly (no hashing) by instance and value.
    int_atoms: IntAtoms,
    /// Positions that are short tuples of integers, by a packed key (no boxed value to hash).
    tuple_atoms: rustc_hash::FxHashMap<TupleKey, u32>,
    /// Per term, the last round of [`GameGraph::dedup_moves`] that met it (grown when a
    /// position has many moves).
    dedup_marks: Vec<u32>,
    dedup_round: u32,
    /// Buffers for generating moves, reused from position to position.
    scratch: Scratch,
    /// Bytes the analyses keep beside the graph in tables indexed by position value rather
    /// than by term (their dense Grundy and outcome tables), reported by the analyses with
    /// [`GameGraph::set_value_table_bytes`] so that the memory estimate covers them.
    value_table_bytes: usize,
    /// The Left and Right options of the partizan terms explored.
    sides: sides::SideStore,
    /// Some partizan position is interned (then impartial positions' moves are checked not
    /// to reach one).
    has_partizan: bool,
}

/// Buffers of [`GameGraph::generate`], taken while in use (a nested use, the parts of a
/// compound explored for its moves, finds them empty and makes its own).
#[derive(Debug, Default)]
struct Scratch {
    options: Vec<(OptionTarget, u32)>,
    ints: Vec<i64>,
    found: Vec<(TermId, u32)>,
    /// The cells of the position being explored, when it is a packed list.
    cells: Vec<i64>,
    /// The options' targets already interned, found in one batch (see `find_nibble_batch`).
    known: Vec<Option<TermId>>,
}

impl GameGraph {
    /// An empty graph with these settings.
    pub fn new(config: GraphConfig) -> GameGraph {
        GameGraph {
            config,
            ..GameGraph::default()
        }
    }

    /// After a query went over the position limit, starts afresh so that later, smaller
    /// queries can still run: the terms it left behind would otherwise count against them.
    /// Cached answers are lost; they are recomputed on demand.
    /// Says whether it did.
    pub fn recover(&mut self, error: &Diag) -> bool {
        let fresh = error.code == TOO_MANY_POSITIONS || error.code == TOO_MUCH_MEMORY;
        if fresh {
            *self = GameGraph::new(self.config);
        }
        fresh
    }

    /// The estimated memory of the graph and of the analyses' memos, in bytes: a fixed figure
    /// per position and per stored move, the positions' data, and the tables indexed by
    /// position value (which a sparse set of values, bit masks say, can make much larger
    /// than the positions in them) at their real size. It is an upper bound of
    /// [`GameGraph::measured_bytes`] plus the memos (what `--stats` reports); tests/newcomer.rs
    /// checks it on games of every kind of position.
    pub fn estimated_bytes(&self) -> usize {
        self.terms.len() * BYTES_PER_POSITION
            + self.data_bytes
            + self.moves.len() * BYTES_PER_MOVE
            + self.int_atoms.bytes()
            + self.value_table_bytes
            + self.sides.bytes()
    }

    /// Records the bytes the analyses hold in tables indexed by position value (see
    /// [`GameGraph::estimated_bytes`]); checked against the budget at the next check.
    pub fn set_value_table_bytes(&mut self, bytes: usize) {
        self.value_table_bytes = bytes;
    }

    /// The memory the graph holds now, in bytes: the items of each of its tables, the
    /// buckets of its hash tables, and the positions' boxed data. This is what `--stats` reports;
    /// [`GameGraph::estimated_bytes`], an upper bound of it, is what the memory limit counts.
    pub fn measured_bytes(&self) -> usize {
        // A vector's items in use: the rest of its capacity is mostly never touched.
        fn vec<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        // A hash table's buckets (a power of two at most 7/8 full) and a control byte each.
        fn table<T>(capacity: usize) -> usize {
            if capacity == 0 {
                return 0;
            }
            let buckets = (capacity * 8 / 7).next_power_of_two().max(4);
            buckets * (std::mem::size_of::<T>() + 1)
        }
        self.terms.heap_bytes()
            + self.boxed_data_bytes
            + table::<u32>(self.index.capacity())
            + table::<u32>(self.cells_index.capacity())
            + table::<(NibbleKey, u32)>(self.nibble_index.capacity())
            + table::<(TupleKey, u32)>(self.tuple_atoms.capacity())
            + vec(&self.info)
            + vec(&self.moves.spans)
            + vec(&self.moves.targets)
            + self.int_atoms.bytes()
            + vec(&self.dedup_marks)
            + self.sides.bytes()
    }

    /// An error if adding `new_moves` moves would take the graph over its memory budget.
    fn check_memory(&self, new_moves: usize) -> DiagResult<()> {
        let estimate = self.estimated_bytes() + new_moves * BYTES_PER_MOVE;
        if estimate <= self.config.max_memory {
            return Ok(());
        }
        Err(Box::new(
            Diag::error(
                TOO_MUCH_MEMORY,
                format!(
                    "the game graph would take more than {} MiB ({} positions, {} moves)",
                    self.config.max_memory >> 20,
                    self.terms.len(),
                    self.moves.len() + new_moves
                ),
            )
            .help(
                "analyse a smaller position, or allow more memory with --max-memory (MiB); \
                 positions with very many moves cost memory as positions do",
            ),
        ))
    }

    /// Number of terms interned.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True when nothing is interned yet.
    pub fn is_empty(&self) -> bool {
        self.terms.len() == 0
    }

    /// Number of moves stored.
    pub fn edge_count(&self) -> usize {
        self.moves.len()
    }

    /// The explored part of the graph as a petgraph graph: node `i` is term `i`, an edge per
    /// stored move (terms whose moves are not stored have none), for petgraph's algorithms and
    /// for drawing.
    pub fn explored_graph(&self) -> DiGraph<TermId, ()> {
        let mut graph = DiGraph::with_capacity(self.len(), self.moves.len());
        for i in 0..self.len() {
            graph.add_node(TermId(i as u32));
        }
        for i in 0..self.len() {
            for to in self.moves.get(TermId(i as u32)).unwrap_or(&[]) {
                graph.add_edge(NodeIndex::new(i), NodeIndex::new(*to as usize), ());
            }
        }
        graph
    }

    /// The term behind an id (built afresh when it is kept packed).
    pub fn term(&self, t: TermId) -> Term {
        self.terms.term(t)
    }

    /// The kind and parts of a compound term; `None` for a position.
    pub fn compound_of(&self, t: TermId) -> Option<(CompoundKind, &[TermId])> {
        self.terms.compound(t)
    }

    /// The game instance of a position; `None` for a compound.
    pub fn atom_instance(&self, t: TermId) -> Option<InstanceId> {
        self.terms.atom_instance(t)
    }

    /// Whether the term is terminal, and a draw.
    pub fn info(&self, t: TermId) -> TermInfo {
        self.info[t.idx()]
    }

    /// The position a term stands for, as a value-level term.
    pub fn pos_term(&self, t: TermId) -> PosTerm {
        match self.term(t) {
            Term::Atom(inst, data) => PosTerm::Atom(inst, data),
            Term::Compound(kind, parts) => {
                PosTerm::compound(kind, parts.iter().map(|p| self.pos_term(*p)))
            }
        }
    }

    /// How a term prints in a diagnostic (cut after
    /// [`crate::eval::value::SHOWN_IN_DIAGNOSTICS`] bytes).
    pub fn show(&self, names: &dyn InstanceNames, t: TermId) -> String {
        let position = crate::eval::value::Position {
            term: self.pos_term(t),
            convention: first_convention(&self.pos_term(t), names),
        };
        crate::eval::value::display_short(&Value::Pos(std::rc::Rc::new(position)), names)
    }

    fn insert(&mut self, term: Term, info: TermInfo) -> DiagResult<TermId> {
        let mut buf = [0; MAX_CELLS];
        let home = home(&term, &mut buf);
        self.insert_at(home, move || term, info)
    }

    /// [`GameGraph::insert`] with the term's home known: `make_term` is called only for a
    /// term kept boxed (`Home::Key`, `Home::Hashed`), so a packed position is never built.
    fn insert_at(
        &mut self,
        home: Home<'_>,
        make_term: impl FnOnce() -> Term,
        info: TermInfo,
    ) -> DiagResult<TermId> {
        // Ids are `u32`s, and the dense tables keep `id + 1`: a larger `--max-positions`
        // is capped there rather than let an id wrap.
        let limit = self.config.max_positions.min(MAX_TERMS);
        if self.terms.len() >= limit {
            return Err(Box::new(
                Diag::error(TOO_MANY_POSITIONS, format!("more than {limit} positions")).help(
                    if limit == MAX_TERMS {
                        "the game is larger than the graph can index (4,294,967,292 positions); \
                         analyse a smaller position"
                    } else {
                        "the game is larger than the position limit; analyse a smaller position, \
                         or raise the limit with --max-positions"
                    },
                ),
            ));
        }
        let boxed = matches!(home, Home::Key(_) | Home::Hashed).then(make_term);
        let boxed_data = match &boxed {
            Some(Term::Atom(_, data)) => {
                let before = self.counted_nodes.len();
                let bytes = data.heap_bytes_seen(&mut self.counted_nodes);
                // An entry of the set of counted nodes, counted as its memory.
                bytes + (self.counted_nodes.len() - before) * 16
            }
            Some(Term::Compound(_, parts)) => parts.len() * 4 + 16,
            None => 0,
        };
        let data = boxed_data
            + match &home {
                Home::Nibbles(key) => key.len(),
                Home::Cells(_, _, cells) => cells.len(),
                _ => 0,
            };
        self.boxed_data_bytes += boxed_data;
        self.data_bytes += data;
        // Positions found by the streaming solver add no moves: the budget is checked here,
        // every 4096 positions and for every position whose data is large (a list position
        // may hold megabytes).
        if self.terms.len() % 4096 == 4095 || data >= LARGE_DATA {
            self.check_memory(0)?;
        }
        // Below `MAX_TERMS` (checked above): fits.
        let id = self.terms.len() as u32;
        match &home {
            Home::Int(inst, n) => {
                self.int_atoms.insert(*inst, *n, id);
            }
            Home::Pair(inst, a, b) => {
                self.int_atoms.insert_pair(*inst, *a, *b, id);
            }
            Home::Key(key) => {
                self.tuple_atoms.insert(*key, id);
            }
            Home::Nibbles(key) => {
                self.nibble_index
                    .insert_unique(key.hash(), (*key, id), |(k, _)| k.hash());
            }
            Home::Cells(inst, of, cells) => {
                let terms = &self.terms;
                self.cells_index
                    .insert_unique(cells_hash(*inst, *of, cells), id, |i| {
                        terms
                            .cells(TermId(*i))
                            .map_or(0, |(inst, of, cells)| cells_hash(inst, of, cells))
                    });
            }
            Home::Hashed => {
                let terms = &self.terms;
                let hash = boxed.as_ref().map_or(0, |t| FxBuildHasher.hash_one(t));
                self.index.insert_unique(hash, id, |i| {
                    terms
                        .boxed(TermId(*i))
                        .map_or(0, |t| FxBuildHasher.hash_one(t))
                });
            }
        }
        self.terms.push(boxed, &home);
        self.has_partizan |= info.partizan;
        self.info.push(info);
        self.moves.add_term();
        Ok(TermId(id))
    }

    fn lookup(&self, term: &Term) -> Option<TermId> {
        let mut buf = [0; MAX_CELLS];
        match home(term, &mut buf) {
            Home::Hashed => self
                .index
                .find(FxBuildHasher.hash_one(term), |i| {
                    self.terms.boxed(TermId(*i)) == Some(term)
                })
                .map(|i| TermId(*i)),
            packed => self.find_packed(&packed),
        }
    }

    /// The term whose home is `home`, if interned; `None` for `Home::Hashed`, which needs the
    /// term itself (see [`GameGraph::lookup`]).
    fn find_packed(&self, home: &Home<'_>) -> Option<TermId> {
        match *home {
            Home::Int(inst, n) => self.int_atoms.get(inst, n),
            Home::Pair(inst, a, b) => self.int_atoms.get_pair(inst, a, b),
            Home::Key(key) => self.tuple_atoms.get(&key).map(|id| TermId(*id)),
            Home::Nibbles(key) => self
                .nibble_index
                .find(key.hash(), |(k, _)| *k == key)
                .map(|(_, id)| TermId(*id)),
            Home::Cells(inst, of, cells) => self
                .cells_index
                .find(cells_hash(inst, of, cells), |i| {
                    self.terms.cells(TermId(*i)) == Some((inst, of, cells))
                })
                .map(|i| TermId(*i)),
            Home::Hashed => None,
        }
    }

    /// The position `(items...)` of `inst` (a game whose positions are tuples of integers),
    /// if interned.
    pub(crate) fn lookup_int_tuple(&self, inst: InstanceId, items: &[i64]) -> Option<TermId> {
        if let [a, b] = items {
            if IntAtoms::pair_is_dense(*a, *b) {
                return self.int_atoms.get_pair(inst, *a, *b);
            }
        }
        match TupleKey::of_ints(inst, items) {
            Some(key) => self.tuple_atoms.get(&key).map(|id| TermId(*id)),
            None => {
                let data = Value::Tuple(items.iter().map(|n| Value::Int(*n)).collect());
                self.lookup(&Term::Atom(inst, data))
            }
        }
    }

    /// The instance and value of `t` when it is an integer position.
    pub(crate) fn int_atom(&self, t: TermId) -> Option<(InstanceId, i64)> {
        self.terms.int_atom(t)
    }

    /// The instance and values of `t` when it is a position of a pair of integers.
    pub(crate) fn pair_atom(&self, t: TermId) -> Option<(InstanceId, i64, i64)> {
        self.terms.pair_atom(t)
    }

    /// The position `n` of `inst` (a game whose positions are integers), if interned.
    pub(crate) fn lookup_int(&self, inst: InstanceId, n: i64) -> Option<TermId> {
        self.lookup(&Term::Atom(inst, Value::Int(n)))
    }

    /// The position of `inst` whose data is the list `items`, interned if it is new: a list
    /// of small cells is found by its packed cells, without building it.
    pub(crate) fn intern_int_list(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        items: &[i64],
    ) -> DiagResult<TermId> {
        let mut buf = [0u8; MAX_CELLS];
        let data = PositionData::Ints(items);
        if let Some(cells) = pack(items.iter().map(|n| Some(*n)), items.len(), &mut buf) {
            let home = cells_home(inst, CellsOf::List, cells);
            if let Some(id) = self.find_packed(&home) {
                return Ok(id);
            }
            // Not interned: its home is found by its cells, so it is new; it is inserted by
            // them, never built.
            let info = self.atom_info(w, inst, data)?;
            return self
                .insert_at(home, || Term::Atom(inst, data.to_value()), info)
                .map_err(|d| self.while_adding(w, inst, data, d));
        }
        self.intern_atom_owned(w, inst, data.to_value())
    }

    /// Interns a value-level position term.
    pub fn intern(&mut self, w: &mut World<'_>, term: &PosTerm) -> DiagResult<TermId> {
        match term {
            PosTerm::Atom(inst, data) => self.intern_atom(w, *inst, data),
            PosTerm::Compound(kind, parts) => {
                let mut ids = Vec::with_capacity(parts.len());
                for part in parts.iter() {
                    ids.push(self.intern(w, part)?);
                }
                self.compound(*kind, ids)
            }
        }
    }

    fn intern_atom(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        data: &Value,
    ) -> DiagResult<TermId> {
        self.intern_atom_owned(w, inst, data.clone())
    }

    /// Interns the position `data` of `inst`, taking the data (no copy when it is known).
    pub(crate) fn intern_atom_owned(
        &mut self,
        w: &mut World<'_>,
        inst: InstanceId,
        data: Value,
    ) -> DiagResult<TermId> {
        let key = Term::Atom(inst, data);
        if let Some(id) = self.lookup(&key) {
            return Ok(id);
        }
        let Term::Atom(_, data) = key else {
            return Err(Box::new(Diag::internal("an atom key changed kind")));
        };
        let info = self.atom_info(w, inst, PositionData::Value(&data))?;
        // A list's items are shared (`Rc`): the clone copies no cells.
        self.insert(Term::Atom(inst, data.clone()), info)
            .map_err(|d| self.while_adding(w, inst, PositionData::Value(&data), d))
    }

    /// What is known of the position `data` of `inst` as it is interned: whether it is
    /// terminal, learnt from its first option only (its options' own options are not
    /// needed, so interning never recurses into the game), and whether it is a draw.
    fn atom_info(
        &self,
        w: &mut World<'_>,
        inst: InstanceId,
        data: PositionData<'_>,
    ) -> DiagResult<TermInfo> {
        let mut interp = Interp::new(w.reborrow(), None);
        let forced = interp
            .has_options(inst, data)
            .map_err(|d| self.while_generating(w, inst, data, d))?;
        let terminal = forced.is_none_or(|any| !any);
        let partizan = w.program.games[w.games.info(inst).game.0 as usize].partizan;
        let draw = terminal && {
            let mut interp = Interp::new(w.reborrow(), None);
            interp
                .is_draw(inst, data)
                .map_err(|d| self.while_generating(w, inst, data, d))?
        };
        Ok(TermInfo {
            terminal,
            draw,
            partizan,
        })
    }

    /// Adds "the limit was reached while adding ..." to an error of interning a position.
    #[cold]
    fn while_adding(
        &self,
        w: &World<'_>,
        inst: InstanceId,
        data: PositionData<'_>,
        d: Box<Diag>,
    ) -> Box<Diag> {
        noted(d, w, inst, data, |shown| {
            format!("the limit was reached while adding {shown}; if positions keep growing, the game may never end")
        })
    }

    /// Adds "while generating the moves of ..." to an error raised by a position's rules.
    #[cold]
    pub(crate) fn while_generating(
        &self,
        w: &World<'_>,
        inst: InstanceId,
        data: PositionData<'_>,
        d: Box<Diag>,
    ) -> Box<Diag> {
        noted(d, w, inst, data, |shown| {
            format!("while generating the moves of {shown}")
        })
    }

    /// Interns the canonical form of a compound of `parts`.
    pub fn compound(&mut self, kind: CompoundKind, parts: Vec<TermId>) -> DiagResult<TermId> {
        let mut flat = Vec::with_capacity(parts.len());
        for part in parts {
            match self.compound_of(part) {
                Some((k, inner)) if k == kind => flat.extend(inner.iter().copied()),
                _ => {
                    let info = self.info(part);
                    let over = info.terminal && !info.draw;
                    if kind != CompoundKind::Conjunctive && over {
                        continue;
                    }
                    flat.push(part);
                }
            }
        }
        flat.sort_unstable();
        if flat.len() == 1 {
            return Ok(flat[0]);
        }
        let (kind, flat) = if flat.is_empty() {
            (CompoundKind::Disjunctive, flat)
        } else {
            (kind, flat)
        };
        let infos: Vec<TermInfo> = flat.iter().map(|p| self.info(*p)).collect();
        let terminal = match kind {
            _ if infos.is_empty() => true,
            CompoundKind::Conjunctive => infos.iter().any(|i| i.terminal),
            _ => infos.iter().all(|i| i.terminal),
        };
        let draw = terminal && infos.iter().any(|i| i.terminal && i.draw);
        let partizan = infos.iter().any(|i| i.partizan);
        let key = Term::Compound(kind, flat.into_boxed_slice());
        if let Some(id) = self.lookup(&key) {
            return Ok(id);
        }
        self.insert(
            key,
            TermInfo {
                terminal,
                draw,
                partizan,
            },
        )
    }
}

/// `d` with a note that names the position `data` of `inst`, as `note` words it.
#[cold]
fn noted(
    mut d: Box<Diag>,
    w: &World<'_>,
    inst: InstanceId,
    data: PositionData<'_>,
    note: impl FnOnce(&str) -> String,
) -> Box<Diag> {
    d.notes.push(note(&shown_position(w, inst, data)));
    d
}

/// The position `data` of `inst` as the user writes it, for a diagnostic's note.
fn shown_position(w: &World<'_>, inst: InstanceId, data: PositionData<'_>) -> String {
    let position = PosTerm::Atom(inst, data.to_value());
    crate::eval::value::display_short(
        &Value::pos(position.clone(), first_convention(&position, &*w.games)),
        &*w.games,
    )
}

/// The convention a term is naturally played under: that of its first game.
fn first_convention(term: &PosTerm, names: &dyn InstanceNames) -> crate::syntax::ast::Convention {
    let mut instances = Vec::new();
    term.instances(&mut instances);
    instances
        .first()
        .map_or(crate::syntax::ast::Convention::Normal, |i| {
            names.instance_convention(*i)
        })
}
