//! All cores for one query (`--threads N`): `reachable`, `outcome` and `remoteness` of a
//! position whose game runs compiled, solved by several threads at once.
//!
//! It takes a position of an impartial game that is neither loopy nor scored, whose rules
//! and conditions all run compiled and whose positions are lists of small cells (they pack
//! into a [`key::Key`]): values are `Rc`s and a session cannot leave its thread, but compiled
//! rules read a packed list's integers and a game's parameters rebuilt from plain data in
//! each thread. The threads share a table sharded by hash (`table.rs`), each shard behind
//! its own lock, and search the game depth first from the root, spreading by claiming what
//! they enter (`worker.rs`). The remoteness of every reachable position comes out (hence its
//! outcome), and the table stays beside the memos ([`Solved`]), where `outcome` and
//! `remoteness` of those positions find them.
//!
//! Anything else it cannot do the way the one-thread search does — a rule that hands over
//! to the interpreter (an error to report, an input that is not an integer), a target that
//! does not pack, a cycle, the stop, a limit — ends the parallel run with nothing kept, and
//! the caller runs the one-thread search, which gives the answer or the diagnostic as it
//! always does. So answers and diagnostics do not depend on the number of threads.

mod key;
mod table;
mod worker;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use key::Key;
use table::{Seen, Table, DRAW};
use worker::Worker;

use super::memo::RemCode;
use super::solve::{MemoTable, Slot};
use super::{conv_index, Analyzer};
use crate::eval::compiled::{CompiledCond, CompiledRule};
use crate::eval::value::{InstanceId, Outcome, PosTerm, Value};
use crate::eval::World;
use crate::graph::{TermId, MAX_TERMS};
use crate::lower::ir::{Pattern, PositionShape};
use crate::syntax::ast::Convention;

/// The stack of each worker thread: compiled rules run only with 1 MiB and a red zone to
/// spare.
const WORKER_STACK: usize = 16 << 20;

/// The positions parallel runs solved, kept beside the memos: every position reachable
/// from their roots, with its remoteness. Runs on positions of the same instance and
/// convention add to one table.
#[derive(Debug)]
pub struct Solved {
    inst: InstanceId,
    conv: Convention,
    /// The root of the run that `reachable` asked for, and its count.
    reach: Option<(Key, usize)>,
    table: Table,
}

impl Solved {
    /// The memory it holds.
    pub(super) fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The positions it solved.
    pub(super) fn count(&self) -> usize {
        self.table.len()
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
struct Shared<'s> {
    plan: &'s Plan<'s>,
    table: Table,
    stop: &'s crate::eval::Stop,
    /// A thread stopped: the others stop too.
    failed: AtomicBool,
    /// The root is solved.
    solved: AtomicBool,
    positions: AtomicUsize,
    bytes: AtomicUsize,
}

/// `reachable(t)` by the parallel solver, where it applies: the count, with every
/// position's remoteness kept for later queries. `None` where the one-thread search must
/// answer.
pub(super) fn reachable(
    an: &mut Analyzer,
    w: &World<'_>,
    t: TermId,
    conv: Convention,
) -> Option<usize> {
    let (inst, root) = applies(an, w, t)?;
    if let Some(s) = &an.memos.parallel {
        if let Some((known, count)) = s.reach {
            if s.inst == inst && s.conv == conv && known == root {
                return Some(count);
            }
        }
    }
    solve(an, w, t, conv, true)?.reach.map(|(_, count)| count)
}

/// Solves `t` by the parallel solver where it applies and its remoteness is not known yet;
/// afterwards [`recall`] finds it. Nothing happens where it does not apply.
pub(super) fn prepare(an: &mut Analyzer, w: &World<'_>, t: TermId, conv: Convention) {
    if an.graph.config.threads < 2 || known(an, t, conv) {
        return;
    }
    recall(an, t, conv);
    if !known(an, t, conv) {
        solve(an, w, t, conv, false);
    }
}

fn known(an: &Analyzer, t: TermId, conv: Convention) -> bool {
    matches!(
        an.memos.remoteness[conv_index(conv)].slot(t.0 as usize),
        Slot::Done(_)
    )
}

/// Writes what a parallel run found of `t` (its remoteness and outcome) into the memos.
pub(super) fn recall(an: &mut Analyzer, t: TermId, conv: Convention) {
    let Some(s) = &an.memos.parallel else {
        return;
    };
    if s.conv != conv || an.graph.atom_instance(t) != Some(s.inst) || known(an, t, conv) {
        return;
    }
    let Some(key) = key_of(an, t) else { return };
    if let Some(Seen::Done(code)) = s.table.get(key, key.hash()) {
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
    let i = conv_index(conv);
    an.memos.remoteness[i].put(t.0 as usize, Slot::Done(rem));
    an.memos.outcome[i].put(t.0 as usize, Slot::Done(outcome));
}

/// The packed key of the atom `t`'s data, if it is a list that packs.
fn key_of(an: &Analyzer, t: TermId) -> Option<Key> {
    let term = an.graph.pos_term(t);
    let PosTerm::Atom(_, Value::List(items)) = &term else {
        return None;
    };
    let cells: Option<Vec<i64>> = items.iter().map(Value::as_int).collect();
    Key::of(&cells?)
}

/// Whether the parallel solver takes `t`: more than one thread, an atom of an impartial,
/// acyclic-by-declaration (not `loopy`), unscored game whose rules and conditions all run
/// compiled, and a list of small cells. Its instance and key.
fn applies(an: &Analyzer, w: &World<'_>, t: TermId) -> Option<(InstanceId, Key)> {
    if an.graph.config.threads < 2 || !w.limits.compiled_rules {
        return None;
    }
    let inst = an.graph.atom_instance(t)?;
    let game = &w.program.games[w.games.info(inst).game.0 as usize];
    if game.partizan || game.loopy || !game.payoffs.is_empty() || game.strategic.is_some() {
        return None;
    }
    Some((inst, key_of(an, t)?))
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

/// Runs the threads from `t`; on success keeps the table beside the memos and writes `t`'s
/// remoteness. `fresh` (for `reachable`, which counts the table) starts from an empty
/// table; otherwise the positions solved before for the same game and convention are
/// reused, and the table grows.
fn solve<'a>(
    an: &'a mut Analyzer,
    w: &World<'_>,
    t: TermId,
    conv: Convention,
    fresh: bool,
) -> Option<&'a Solved> {
    let (inst, root) = applies(an, w, t)?;
    let plan = plan(an, w, inst, conv)?;
    let threads = an.graph.config.threads;
    let before = an
        .memos
        .parallel
        .take()
        .filter(|s| !fresh && s.inst == inst && s.conv == conv);
    let reach = before.as_ref().and_then(|s| s.reach);
    let shared = Shared {
        plan: &plan,
        table: before.map_or_else(|| Table::new(threads), |s| s.table),
        stop: w.stop,
        failed: AtomicBool::new(false),
        solved: AtomicBool::new(false),
        positions: AtomicUsize::new(0),
        bytes: AtomicUsize::new(0),
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
    let mut table = shared.table;
    let code = match table.get(root, root.hash()) {
        Some(Seen::Done(code)) if failed.is_none() => code,
        _ => {
            // Nothing of this run is kept; what earlier runs solved is.
            if !fresh {
                table.forget_active();
                an.memos.parallel = Some(Box::new(Solved {
                    inst,
                    conv,
                    reach,
                    table,
                }));
            }
            return None;
        }
    };
    write(an, t, conv, code);
    let reach = if fresh {
        Some((root, table.len()))
    } else {
        reach
    };
    an.memos.parallel = Some(Box::new(Solved {
        inst,
        conv,
        reach,
        table,
    }));
    an.memos.parallel.as_deref()
}
