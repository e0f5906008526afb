//! All cores for one query (`--threads N`): `reachable`, `outcome` and `remoteness` of a
//! position whose game runs compiled, solved by several threads at once, or by one worker
//! on one thread (the default of the benchmarks), where the store does the work of the
//! graph's search with less memory and no moves kept.
//!
//! It takes a position of an impartial game that is neither loopy nor scored, whose rules
//! and conditions all run compiled and whose positions are lists of small cells: values are
//! `Rc`s and a session cannot leave its thread, but compiled rules read a list's integers
//! and a game's parameters rebuilt from plain data in each thread. The threads search the
//! game depth first from the root, spreading by claiming what they enter (`worker.rs`), over
//! a store of positions (`store.rs`) of one of two kinds:
//!
//! - where the graph gave the position's instance a dense index (`graph::dense`: its cells
//!   in a domain of `m` values inferred from the rules, `m^k` ranks within the budget), a
//!   rank table (`rank.rs`): one byte a rank, claimed by compare-exchange, no lock and no
//!   key stored; `CGL_RANK=off` turns it off, and `CGL_DENSE=off` with the dense indexes;
//! - else a table of positions packed into a [`key::Key`],
//!   sharded by hash (`table.rs`): read without a lock, a position's options as one batch,
//!   and claimed and finished under the shard's lock.
//!
//! The remoteness of every reachable position comes out (hence its outcome), and the store
//! stays beside the memos ([`Solved`]), where `outcome` and `remoteness` of those positions
//! find them.
//!
//! Anything else it cannot do the way the one-thread search does — a rule that hands over
//! to the interpreter (an error to report, an input that is not an integer), a target that
//! the store cannot hold, a cycle, the stop, a limit — ends the run with nothing kept, and
//! the caller runs the one-thread search through the graph, which gives the answer or the
//! diagnostic as it always does. So answers and diagnostics do not depend on the number of
//! threads, nor on the store. `CGL_STORE=off` ([`crate::graph::GraphConfig::stores`])
//! turns both stores off: every query then goes through the graph on one thread, the
//! reference the tests compare the stores with.
//!
//! The compiled forms are shared (`CompiledGames` is `Sync`), and the game's parameters are
//! rebuilt in each thread from plain data. `--stats` shows the store as *rank table* or *key
//! table*, with its bytes, which the graph's memory estimate counts. Interning nothing in the
//! graph, the stores hold neither records nor moves, so a later analysis that needs the moves,
//! such as `line`, explores its positions in the graph again.

mod key;
mod rank;
mod store;
mod table;
mod worker;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use key::Key;
use rank::RankTable;
use store::{Seen, Store, DRAW};
use table::Table;
use worker::Worker;

use super::rem::RemCode;
use super::solve::{MemoTable, Slot};
use super::Analyzer;
use crate::eval::compiled::{CompiledCond, CompiledEnds, CompiledRule};
use crate::eval::value::{InstanceId, Outcome, Value};
use crate::eval::World;
use crate::graph::{ListRanks, Term, TermId, MAX_TERMS};
use crate::lower::ir::{Pattern, PositionShape};
use crate::syntax::ast::Convention;

/// The stack of each worker thread: compiled rules run only with 1 MiB and a red zone to
/// spare.
const WORKER_STACK: usize = 16 << 20;

/// The positions the solver's runs solved, kept beside the memos: every position reachable
/// from their roots, with its remoteness. Runs on positions of the same instance and
/// convention (and of the same kind of store) add to one table.
#[derive(Debug)]
pub struct Solved {
    inst: InstanceId,
    conv: Convention,
    /// The root of the run that `reachable` asked for, and its count.
    reach: Option<(TermId, usize)>,
    held: Held,
}

/// The positions solved: by packed key, or by rank.
#[derive(Debug)]
enum Held {
    Keys(Table),
    Ranks(Box<RankTable>),
}

impl Solved {
    /// The memory it holds.
    pub(super) fn bytes(&self) -> usize {
        match &self.held {
            Held::Keys(table) => table.bytes(),
            Held::Ranks(table) => table.bytes(),
        }
    }

    /// The positions it solved.
    pub(super) fn count(&self) -> usize {
        match &self.held {
            Held::Keys(table) => table.len(),
            Held::Ranks(table) => table.len(),
        }
    }

    /// Whether its positions are kept by rank (a byte each) rather than by key.
    pub(super) fn by_rank(&self) -> bool {
        matches!(self.held, Held::Ranks(_))
    }

    /// What it says of the position of these cells.
    fn get(&self, cells: &[i64]) -> Option<Seen> {
        match &self.held {
            Held::Keys(table) => Store::get(table, table.id(cells)?),
            Held::Ranks(table) => table.get(table.id(cells)?),
        }
    }
}

impl super::Analyzer {
    /// How many positions the solver of `parallel` (`--threads`, and a game with a dense
    /// domain on one thread) solved and keeps beside the graph; 0 if none did.
    pub fn solved_in_parallel(&self) -> usize {
        self.memos.parallel.as_ref().map_or(0, |s| s.count())
    }

    /// The bytes those positions take.
    pub fn solved_aside_bytes(&self) -> usize {
        self.memos.parallel.as_ref().map_or(0, |s| s.bytes())
    }

    /// Whether those positions are kept by rank (a byte each, in the rank table) rather
    /// than by packed key.
    pub fn solved_by_rank(&self) -> bool {
        self.memos.parallel.as_ref().is_some_and(|s| s.by_rank())
    }
}

/// Why a parallel run stopped without an answer (the one-thread search then runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Abort {
    /// A rule or condition handed over to the interpreter, or made a target that does not
    /// pack.
    Rules,
    /// A position was met again on a thread's own path.
    Cycle,
    /// The deadline or Ctrl-C.
    Stopped,
    /// Over `--max-positions` or `--max-memory`.
    Limit,
    /// Another thread stopped.
    Elsewhere,
    /// An inconsistency (a bug): the one-thread search answers.
    Internal,
}

/// A game parameter as plain data, rebuilt as a value in each thread.
#[derive(Clone, Debug)]
enum Plain {
    None,
    Bool(bool),
    Int(i64),
    List(Vec<Plain>),
    Tuple(Vec<Plain>),
    Set(Vec<Plain>),
}

impl Plain {
    /// The plain form of `v`; what has none (strings, positions, ...) is `none`, which a
    /// compiled rule that reads it refuses (it then hands over, and the run stops).
    fn of(v: &Value) -> Plain {
        match v {
            Value::Bool(b) => Plain::Bool(*b),
            Value::Int(n) => Plain::Int(*n),
            Value::List(items) => Plain::List(items.iter().map(Plain::of).collect()),
            Value::Tuple(items) => Plain::Tuple(items.iter().map(Plain::of).collect()),
            Value::Set(items) => Plain::Set(items.iter().map(Plain::of).collect()),
            _ => Plain::None,
        }
    }

    fn to_value(&self) -> Value {
        match self {
            Plain::None => Value::None,
            Plain::Bool(b) => Value::Bool(*b),
            Plain::Int(n) => Value::Int(*n),
            Plain::List(items) => Value::List(items.iter().map(Plain::to_value).collect()),
            Plain::Tuple(items) => Value::Tuple(items.iter().map(Plain::to_value).collect()),
            Plain::Set(items) => Value::Set(std::rc::Rc::new(
                items.iter().map(Plain::to_value).collect::<BTreeSet<_>>(),
            )),
        }
    }
}

/// What the threads share about the game: its compiled forms, its frame, the limits.
struct Plan<'p> {
    rules: Vec<&'p CompiledRule>,
    terminal: Vec<&'p CompiledCond>,
    draw: Vec<&'p CompiledCond>,
    /// The same conditions compiled together (one run a position, shared calls).
    ends: Option<&'p CompiledEnds>,
    /// The frame's slots: the parameters, `none` elsewhere.
    frame: Vec<Plain>,
    /// The slot the position's list is bound to (`None` for `position _`).
    slot: Option<u32>,
    max_collection: u64,
    misere: bool,
    /// Positions already in the graph (for the progress meter).
    base_positions: usize,
    /// Most new positions and estimated bytes the run may add, from what the graph holds:
    /// past them the one-thread search would reach its limit too (or come close), and runs.
    max_new: usize,
    max_bytes: usize,
}

/// The state the threads share.
struct Shared<'s, S> {
    plan: &'s Plan<'s>,
    table: S,
    stop: &'s crate::eval::Stop,
    /// A thread stopped: the others stop too.
    failed: AtomicBool,
    /// The root is solved.
    solved: AtomicBool,
    /// The counts the threads add to now and then, on cache lines of their own: the rest
    /// of the struct is read on every step, by every thread.
    positions: Apart<AtomicUsize>,
    bytes: Apart<AtomicUsize>,
}

/// A value alone on its cache lines (two, which the prefetcher fetches together).
#[repr(align(128))]
struct Apart<T>(T);

impl<T> std::ops::Deref for Apart<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// How a run keeps its positions.
enum Kind {
    /// By packed key (`--threads` 2 and more).
    Keys(Key),
    /// By rank in the instance's dense domain.
    Ranks(Box<ListRanks>),
}

/// `reachable(t)` by the solver, where it applies: the count, with every position's
/// remoteness kept for later queries. `None` where the one-thread search must answer.
pub(super) fn reachable(
    an: &mut Analyzer,
    w: &World<'_>,
    t: TermId,
    conv: Convention,
) -> Option<usize> {
    let (inst, _) = applies(an, w, t)?;
    if let Some(s) = &an.memos.parallel {
        if let Some((known, count)) = s.reach {
            if s.inst == inst && s.conv == conv && known == t {
                return Some(count);
            }
        }
    }
    solve(an, w, t, conv, true)?.reach.map(|(_, count)| count)
}

/// Solves `t` by the solver where it applies and its remoteness is not known yet;
/// afterwards [`recall`] finds it. Nothing happens where it does not apply.
pub(super) fn prepare(an: &mut Analyzer, w: &World<'_>, t: TermId, conv: Convention) {
    if known(an, t, conv) {
        return;
    }
    recall(an, t, conv);
    if !known(an, t, conv) {
        solve(an, w, t, conv, false);
    }
}

fn known(an: &Analyzer, t: TermId, conv: Convention) -> bool {
    matches!(an.memos.remoteness(conv).slot(t.0 as usize), Slot::Done(_))
}

/// Writes what a run found of `t` (its remoteness and outcome) into the memos.
pub(super) fn recall(an: &mut Analyzer, t: TermId, conv: Convention) {
    let Some(s) = &an.memos.parallel else {
        return;
    };
    if s.conv != conv || an.graph.atom_instance(t) != Some(s.inst) || known(an, t, conv) {
        return;
    }
    let Some(cells) = cells_of(an, t) else { return };
    if let Some(Seen::Done(code)) = s.get(&cells) {
        write(an, t, conv, code);
    }
}

/// Records a solved position's code in the remoteness and outcome memos.
fn write(an: &mut Analyzer, t: TermId, conv: Convention, code: u32) {
    let (rem, outcome) = match code {
        DRAW => (RemCode::DRAW, Outcome::D),
        r if r % 2 == 0 => (RemCode(r), Outcome::P),
        r => (RemCode(r), Outcome::N),
    };
    an.memos
        .remoteness_mut(conv)
        .put(t.0 as usize, Slot::Done(rem));
    an.memos
        .outcome_mut(conv)
        .put(t.0 as usize, Slot::Done(outcome));
}

/// The cells of the atom `t`'s data, if it is a list of integers.
fn cells_of(an: &Analyzer, t: TermId) -> Option<Vec<i64>> {
    let Term::Atom(_, Value::List(items)) = &an.graph.term(t) else {
        return None;
    };
    items.iter().map(Value::as_int).collect()
}

/// Whether the solver takes `t`: an atom of an impartial, acyclic-by-declaration (not
/// `loopy`), unscored game whose rules and conditions all run compiled, and a list of
/// small cells; kept by rank where its instance has a dense index whose domain holds it,
/// else by key, on any number of threads. Its instance and kind.
fn applies(an: &Analyzer, w: &World<'_>, t: TermId) -> Option<(InstanceId, Kind)> {
    if !w.limits.compiled_rules || !an.graph.config.stores {
        return None;
    }
    let inst = an.graph.atom_instance(t)?;
    let game = &w.program.games[w.games.info(inst).game.0 as usize];
    if game.partizan || game.loopy || !game.payoffs.is_empty() || game.strategic.is_some() {
        return None;
    }
    let cells = cells_of(an, t)?;
    if let Some(ranks) = an.graph.dense_ranks(inst).filter(|_| rank_tables()) {
        if ranks.of_ints(&cells).is_some() {
            return Some((inst, Kind::Ranks(Box::new(ranks.clone()))));
        }
    }
    Some((inst, Kind::Keys(Key::of(&cells)?)))
}

/// The game's plan for the threads, if all its rules and conditions run compiled.
fn plan<'w>(an: &Analyzer, w: &World<'w>, inst: InstanceId, conv: Convention) -> Option<Plan<'w>> {
    let info = w.games.info(inst);
    let game = &w.program.games[info.game.0 as usize];
    let slot = match &game.position {
        PositionShape::Single(Pattern::Bind(slot, _)) => Some(*slot),
        PositionShape::Single(Pattern::Wildcard(_)) => None,
        _ => return None,
    };
    let compiled = w.compiled.game(info.game);
    let depth = w.limits.max_call_depth as usize;
    let rules = compiled
        .rules
        .iter()
        .map(|r| r.as_ref().filter(|r| r.call_depth() <= depth))
        .collect::<Option<Vec<_>>>()?;
    let conds = |cs: &'w [Option<CompiledCond>]| {
        cs.iter()
            .map(|c| c.as_ref().filter(|c| c.call_depth() <= depth))
            .collect::<Option<Vec<_>>>()
    };
    let mut frame = vec![Plain::None; game.frame_size];
    for (slot, p) in frame.iter_mut().zip(info.params.iter()) {
        *slot = Plain::of(p);
    }
    let limit = an.graph.config.max_positions.min(MAX_TERMS);
    Some(Plan {
        rules,
        terminal: conds(&compiled.terminal)?,
        draw: conds(&compiled.draw)?,
        ends: compiled.ends.as_ref().filter(|e| e.call_depth() <= depth),
        frame,
        slot,
        max_collection: w.limits.max_collection,
        misere: conv == Convention::Misere,
        base_positions: an.graph.len(),
        max_new: limit.saturating_sub(an.graph.len()),
        max_bytes: an
            .graph
            .config
            .max_memory
            .saturating_sub(an.graph.estimated_bytes()),
    })
}

/// Whether rank tables are on: `CGL_RANK=off` in the environment turns them off (for tests
/// and measurements: the one-thread search then answers what they would, with the same
/// answers), as `CGL_DENSE=off` does with the dense indexes they take their domain from.
fn rank_tables() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("CGL_RANK").is_none_or(|v| v != "off"))
}

/// Runs the threads from `t`; on success keeps the positions beside the memos and writes
/// `t`'s remoteness. `fresh` (for `reachable`, which counts the positions) starts from an
/// empty store; otherwise the positions solved before for the same game and convention are
/// reused, and the store grows.
fn solve<'a>(
    an: &'a mut Analyzer,
    w: &World<'_>,
    t: TermId,
    conv: Convention,
    fresh: bool,
) -> Option<&'a Solved> {
    let (inst, kind) = applies(an, w, t)?;
    let cells = cells_of(an, t)?;
    // What earlier runs solved leaves the estimate the run's limit starts from: a table
    // reused counts again from its bytes, and one not reused is dropped.
    let earlier = an.memos.parallel.take();
    an.graph.set_value_table_bytes(an.memos.value_table_bytes());
    let Some(plan) = plan(an, w, inst, conv) else {
        an.memos.parallel = earlier;
        an.graph.set_value_table_bytes(an.memos.value_table_bytes());
        return None;
    };
    let threads = an.graph.config.threads.max(1);
    let before = earlier.filter(|s| !fresh && s.inst == inst && s.conv == conv);
    let reach = before.as_ref().and_then(|s| s.reach);
    let before = before.map(|s| s.held);
    let (held, code) = match kind {
        Kind::Keys(root) => {
            let table = match before {
                Some(Held::Keys(table)) => table,
                _ => Table::new(threads),
            };
            let (mut table, code, _) = run(&plan, w.stop, table, 0, threads, root);
            if code.is_none() {
                table.forget_active();
            }
            (Held::Keys(table), code)
        }
        Kind::Ranks(ranks) => {
            let table = match before {
                Some(Held::Ranks(table)) if table.is_for(&ranks) => table,
                _ => Box::new(RankTable::of(*ranks)),
            };
            let root = table.id(&cells)?;
            // The table counts in full against the memory limit, from the start.
            let bytes = table.bytes();
            let (mut table, code, positions) = run(&plan, w.stop, *table, bytes, threads, root);
            table.add_held(positions);
            if code.is_none() {
                table.forget_active();
            }
            (Held::Ranks(Box::new(table)), code)
        }
    };
    let mut solved = Solved {
        inst,
        conv,
        reach,
        held,
    };
    let Some(code) = code else {
        // Nothing of this run is kept; what earlier runs solved is.
        if !fresh {
            an.memos.parallel = Some(Box::new(solved));
        }
        an.graph.set_value_table_bytes(an.memos.value_table_bytes());
        return None;
    };
    write(an, t, conv, code);
    if fresh {
        solved.reach = Some((t, solved.count()));
    }
    an.memos.parallel = Some(Box::new(solved));
    an.graph.set_value_table_bytes(an.memos.value_table_bytes());
    an.memos.parallel.as_deref()
}

/// Runs `threads` workers from `root` over `table`, whose count of bytes against the limit
/// starts at `bytes`: the table back, the root's code if the run solved it, and how many
/// positions the run claimed.
fn run<S: Store>(
    plan: &Plan<'_>,
    stop: &crate::eval::Stop,
    table: S,
    bytes: usize,
    threads: usize,
    root: S::Id,
) -> (S, Option<u32>, usize) {
    let shared = Shared {
        plan,
        table,
        stop,
        failed: AtomicBool::new(false),
        solved: AtomicBool::new(false),
        positions: Apart(AtomicUsize::new(0)),
        bytes: Apart(AtomicUsize::new(bytes)),
    };
    let failure: Mutex<Option<Abort>> = Mutex::new(None);
    let fail = |why: Abort| {
        shared.failed.store(true, Ordering::Relaxed);
        let mut f = failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f.get_or_insert(why);
    };
    std::thread::scope(|scope| {
        let spawn = || {
            for id in 1..threads {
                let (shared, fail) = (&shared, &fail);
                let started = std::thread::Builder::new()
                    .name(format!("cgl-solver-{id}"))
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, move || {
                        if let Err(why) = Worker::new(id, shared, None).run(root) {
                            fail(why);
                        }
                    });
                // A thread the system will not start is one fewer helper.
                if started.is_err() {
                    break;
                }
            }
        };
        if let Err(why) = Worker::new(0, &shared, Some(&spawn)).run(root) {
            fail(why);
        }
    });
    let failed = failure
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let code = match shared.table.get(root) {
        Some(Seen::Done(code)) if failed.is_none() => Some(code),
        _ => None,
    };
    let positions = shared.positions.0.into_inner();
    (shared.table, code, positions)
}
