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
use crate::eval::{GameTable, Interp, OptionTarget, PositionData, Stop, World};
use crate::memory::{Account, Part};
use std::sync::Arc;

mod batch;
mod cell_ranks;
mod dense;
mod explore;
mod index;
mod list_ranks;
mod moves;
mod nibble_table;
mod sides;
mod sorted_ranks;
mod store;

pub use cell_ranks::Ranks;
pub(crate) use index::cell;
pub use index::InstanceIndex;
use index::{IntAtoms, TupleKey};
pub use list_ranks::ListRanks;
use moves::MoveStore;
pub use sorted_ranks::{Order, SortedRanks};
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

/// How many terms each kind of index finds ([`GameGraph::index_use`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexUse {
    /// Found by indexing a dense table with their value (small integers, pairs of them).
    pub dense: usize,
    /// Found by a packed key, without a boxed value (short lists of small cells, short
    /// tuples of integers).
    pub packed: usize,
    /// Found by hashing a boxed value (any other position, compounds).
    pub hashed: usize,
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
    /// Threads one query may use (`--threads`) in the analyses' solver of
    /// `analysis::parallel`, which takes the positions it can on any number of threads.
    pub threads: usize,
    /// Whether that solver may keep positions beside the graph, in its rank and key tables
    /// (the default). Off, every query goes through the graph, on one thread: the reference
    /// the tests compare the solver with (`CGL_STORE=off` turns it off in a process).
    pub stores: bool,
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
            threads: 1,
            stores: true,
        }
    }
}

/// Memory per position (term, info, node, memo tables), for the memory estimate: measured for
/// boxed positions, an upper bound for packed ones (30-90 bytes); the data of lists and
/// tuples comes on top (`heap_bytes`, or a byte a packed cell).
pub const BYTES_PER_POSITION: usize = 180;

/// What the graph's tables take at their first allocations, counted once by the memory
/// estimate from the first position on: the nibble index starts at 16 groups (1 KiB), which the bytes of a graph of a
/// few positions would not cover (when the solver's stores hold the positions, the graph
/// keeps only the roots).
const FIRST_ALLOCATIONS: usize = 2048;
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

/// Rule tag on generated moves that are compound moves rather than a game rule's.
const PRODUCT_MOVE: u32 = u32::MAX;

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
    /// The same for the positions kept as a [`NibbleKey`], by the key's hash, in groups of
    /// a cache line (`nibble_table`). The key is compared with the term's record, not kept
    /// twice: 5⅓ bytes a slot, not 17.
    nibble_index: nibble_table::NibbleTable,
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
    /// List positions of instances whose cells the rules keep in a small domain, by rank.
    dense: dense::DenseIndex,
    /// Dense indexes turned off (`CGL_DENSE=off`).
    dense_off: bool,
    /// By instance: some option of its positions is a target the batch does not read as it
    /// comes (`batch.rs`), so its options are built by the interpreter first.
    general: Vec<bool>,
    /// The memory account the graph shares with the table of game values and the values
    /// evaluation builds: the graph notes its estimate there, and may take what the others
    /// leave of the limit.
    pub account: Arc<Account>,
    /// Declared last, so dropped after the terms: then lets go of the digests remembered
    /// for their data that nothing else needs ([`crate::eval::value::forget_digests`]).
    _forget: ForgetDigests,
}

/// Lets go, when dropped, of the remembered digests of nodes that nothing else holds.
#[derive(Debug, Default)]
struct ForgetDigests;

impl Drop for ForgetDigests {
    fn drop(&mut self) {
        crate::eval::value::forget_digests();
    }
}

/// Buffers of [`GameGraph::generate`], taken while in use (a nested use, the parts of a
/// compound explored for its moves, finds them empty and makes its own).
#[derive(Debug, Default)]
struct Scratch {
    found: Vec<(TermId, u32)>,
    /// The cells of the position being explored, when it is a packed list.
    cells: Vec<i64>,
    /// A position's options on their way to ids (`batch.rs`).
    batch: batch::Batch,
    /// The set of ids met so far while a position's many moves are made distinct (see
    /// `dedup_moves`): a slot is the call's stamp and an id.
    seen: Vec<u64>,
    /// The stamp of the last call of `dedup_moves`.
    stamp: u32,
}

impl GameGraph {
    /// An empty graph with these settings.
    pub fn new(config: GraphConfig) -> GameGraph {
        GameGraph {
            config,
            dense_off: !dense::enabled(),
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
            let account = self.account.clone();
            *self = GameGraph::new(self.config);
            self.account = account;
            self.account.note(Part::Graph, 0);
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
        let first = if self.terms.len() == 0 {
            0
        } else {
            FIRST_ALLOCATIONS
        };
        first
            + self.terms.len() * BYTES_PER_POSITION
            + self.data_bytes
            + self.moves.len() * BYTES_PER_MOVE
            + self.int_atoms.bytes()
            + self.value_table_bytes
            + self.sides.bytes()
            + self.dense.used_bytes()
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
            + self.nibble_index.bytes()
            + table::<(TupleKey, u32)>(self.tuple_atoms.capacity())
            + vec(&self.info)
            + vec(&self.moves.spans)
            + vec(&self.moves.targets)
            + self.int_atoms.bytes()
            + self.sides.bytes()
            + self.dense.used_bytes()
    }

    /// Checks `stop`, first noting the graph's size (positions, the bytes its memory budget
    /// counts) on the stop's meter, which the progress line reads.
    #[inline]
    pub fn check_stop(&self, stop: &Stop) -> DiagResult<()> {
        if let Some(meter) = stop.meter() {
            meter.note(self.terms.len(), self.estimated_bytes());
        }
        stop.check()
    }

    /// An error if adding `new_moves` moves would take the graph over its memory budget.
    fn check_memory(&self, new_moves: usize) -> DiagResult<()> {
        let estimate = self.estimated_bytes() + new_moves * BYTES_PER_MOVE;
        self.account.note(Part::Graph, estimate);
        let room = self.account.room_for(Part::Graph);
        let most = self.config.max_memory.min(room);
        if estimate <= most {
            return Ok(());
        }
        Err(Box::new(
            Diag::error(
                TOO_MUCH_MEMORY,
                format!(
                    "the game graph would take more than {} MiB ({} positions, {} moves)",
                    most >> 20,
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

    /// How the terms are found: how many by a dense table, by a packed key (nibbles,
    /// cells, short tuples) and by hashing their value. Looks at every term once.
    pub fn index_use(&self) -> IndexUse {
        let [dense, packed, boxed] = self.terms.kinds();
        // Boxed short tuples are found by their packed key.
        let keyed = self.tuple_atoms.len();
        // Positions in a dense table of lists are kept packed.
        let ranked = self.dense.count();
        IndexUse {
            dense: dense + ranked,
            packed: packed + keyed - ranked.min(packed + keyed),
            hashed: boxed - keyed.min(boxed),
        }
    }

    /// Decides, before the first position of `inst` is interned, whether its list positions
    /// get a dense table: when `first` (that position's cells, if it is a list of integers)
    /// and the rules' inferred domain give `m^k` ids within the budget.
    fn decide_dense(&mut self, w: &World<'_>, inst: InstanceId, first: Option<&[i64]>) {
        if self.dense.is_decided(inst) {
            return;
        }
        // All the tables, box tables too, take at most a share of the memory budget.
        let budget = self.dense_allowance();
        let table = first
            .filter(|cells| !self.dense_off && cells.len() <= MAX_CELLS)
            .and_then(|cells| {
                let info = w.games.info(inst);
                let game = w.program.games.get(info.game.0 as usize)?;
                let compiled = w.compiled.games.get(info.game.0 as usize)?;
                let domain =
                    crate::eval::compiled::cell_domain(compiled, game, &info.params, cells);
                let table = domain.and_then(|d| dense::DenseTable::new(cells.len(), &d, budget));
                // Where `m^k` ranks are too many, sorted lists may still be few.
                table.or_else(|| {
                    let d =
                        crate::eval::compiled::sorted_domain(compiled, game, &info.params, cells)?;
                    let order = if d.non_increasing {
                        Order::NonIncreasing
                    } else {
                        Order::NonDecreasing
                    };
                    let ranks = SortedRanks::new(d.len, d.lo, d.hi, d.fixed, order)?;
                    dense::DenseTable::sorted(ranks, budget)
                })
            });
        self.dense.decide(inst, table);
    }

    /// The ranks of `inst`'s dense table, if it has one: the analyses' rank table
    /// (`analysis::parallel`) ranks the same instance's positions alike.
    pub fn dense_ranks(&self, inst: InstanceId) -> Option<&ListRanks> {
        self.dense.ranks(inst)
    }

    /// Where `term` lives: [`home`], or a dense table's rank for a list position of an
    /// instance that has one, when its cells are in the table's domain.
    fn home_of<'b>(&self, term: &Term, buf: &'b mut [u8; MAX_CELLS]) -> Home<'b> {
        if let Some(home) = self.int_atoms.home(term) {
            return home;
        }
        if let Term::Atom(inst, Value::List(items)) = term {
            if let Some(rank) =
                self.dense
                    .rank_of(*inst, items.len(), items.iter().map(Value::as_int))
            {
                // Ranked: at most `MAX_CELLS` cells, each from 0 to 255.
                for (cell, item) in buf.iter_mut().zip(items.iter()) {
                    *cell = item.as_int().unwrap_or(0) as u8;
                }
                return Home::Dense(*inst, rank, &buf[..items.len()]);
            }
        }
        home(term, buf)
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

    /// The position a term stands for, as a value-level term (its instances' handles from
    /// `games`).
    pub fn pos_term(&self, games: &GameTable, t: TermId) -> PosTerm {
        match self.term(t) {
            Term::Atom(inst, data) => PosTerm::Atom(games.instance(inst), data),
            Term::Compound(kind, parts) => {
                // Compounds nest as deeply as the terms interned: stack enough at each level.
                let parts = parts
                    .iter()
                    .map(|p| crate::stack::grow(|| self.pos_term(games, *p)));
                PosTerm::compound(kind, parts.collect::<Vec<_>>())
            }
        }
    }

    /// How a term prints in a diagnostic (cut after
    /// [`crate::eval::value::SHOWN_IN_DIAGNOSTICS`] bytes).
    pub fn show(&self, games: &GameTable, t: TermId) -> String {
        let term = self.pos_term(games, t);
        let convention = first_convention(&term, games);
        let position = crate::eval::value::Position { term, convention };
        crate::eval::value::display_short(&Value::Pos(std::rc::Rc::new(position)), games)
    }

    fn insert(&mut self, term: Term, info: TermInfo) -> DiagResult<TermId> {
        let mut buf = [0; MAX_CELLS];
        let home = self.home_of(&term, &mut buf);
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
                Home::Cells(_, _, cells) | Home::Dense(_, _, cells) => cells.len(),
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
            Home::Dense(inst, rank, _) => self.dense.insert(*inst, *rank, id),
            Home::Nibbles(key) => {
                let terms = &self.terms;
                self.nibble_index
                    .insert(key.hash(), id, || terms.nibble_hashes());
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
        Ok(TermId(id))
    }

    fn lookup(&self, term: &Term) -> Option<TermId> {
        let mut buf = [0; MAX_CELLS];
        match self.home_of(term, &mut buf) {
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
            Home::Dense(inst, rank, _) => self.dense.get(inst, rank),
            Home::Nibbles(key) => self
                .nibble_index
                .find(key.hash(), |i| self.terms.nibbles(TermId(i)) == Some(key))
                .map(TermId),
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
            if self.int_atoms.pair_is_dense_in(inst, *a, *b) {
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
        self.decide_dense(w, inst, Some(items));
        if let Some(rank) = self.dense.rank(inst, items) {
            if let Some(id) = self.dense.get(inst, rank) {
                return Ok(id);
            }
            // Ranked: at most `MAX_CELLS` cells, each from 0 to 255.
            for (cell, item) in buf.iter_mut().zip(items) {
                *cell = *item as u8;
            }
            let home = Home::Dense(inst, rank, &buf[..items.len()]);
            let info = self.atom_info(w, inst, data)?;
            return self
                .insert_at(home, || Term::Atom(inst, data.to_value()), info)
                .map_err(|d| self.while_adding(w, inst, data, d));
        }
        if let Some(key) = NibbleKey::of_ints(inst, items) {
            return self.intern_nibbles(w, inst, key, key.hash(), items);
        }
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
            PosTerm::Atom(inst, data) => self.intern_atom(w, inst.id(), data),
            PosTerm::Compound(kind, parts) => {
                let mut ids = Vec::with_capacity(parts.len());
                for part in parts.iter() {
                    // A compound of compounds ... nested deeply: stack enough at each level.
                    ids.push(crate::stack::grow(|| self.intern(w, part))?);
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
        if !self.dense.is_decided(inst) {
            let cells: Option<Vec<i64>> = match &data {
                Value::List(items) => items.iter().map(Value::as_int).collect(),
                _ => None,
            };
            self.decide_dense(w, inst, cells.as_deref());
            self.decide_box(w, inst, &data);
        }
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
    let position = PosTerm::Atom(w.games.instance(inst), data.to_value());
    crate::eval::value::display_short(
        &Value::pos(position.clone(), first_convention(&position, &*w.games)),
        &*w.games,
    )
}

/// The convention a term is naturally played under: that of its first game.
fn first_convention(term: &PosTerm, names: &dyn InstanceNames) -> crate::syntax::ast::Convention {
    term.first_instance()
        .map_or(crate::syntax::ast::Convention::Normal, |i| {
            names.instance_convention(i)
        })
}
