//! One thread of the parallel solver: a depth-first search from the root over the shared
//! table, running the game's compiled rules on packed positions.
//!
//! Every thread searches the whole game from the root; they spread because each claims the
//! positions it enters (an entry marked [`ACTIVE`]) and, at a position, first follows the
//! options nobody has claimed, in an order of its own (rotated per thread and position),
//! leaving the ones another thread is solving for a second pass. By the second pass most of
//! those are solved; one that is still active is entered again (its work is done twice,
//! which is harmless: the game is acyclic and every thread computes the same value), so no
//! thread ever waits for another. A position is finished when all its options are: its
//! remoteness is written once its last option has one, by whichever thread gets there.
//!
//! The rules run in blocks, as the graph's search runs them, so a crossed list target computes
//! a block of its loop's values at once and a one-cell `set` comes as the cell it sets; a
//! position's options are all emitted and ranked first, then their entries read in one loop
//! (`Store::peek_all`), so that the reads of a table read at random overlap.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

use rustc_hash::FxHashSet;

use super::store::{Opt, Seen, Store, ACTIVE, DRAW, MAX_REMOTENESS};
use super::{Abort, Shared};
use crate::diag::Diag;
use crate::eval::compiled::{Emitted, InputFrame};
use crate::eval::value::Value;

/// A position on the path: its options are `opts[start..end]`, `next` the first not looked
/// at in this pass.
struct Frame<I> {
    id: I,
    start: usize,
    end: usize,
    next: usize,
    /// Where its code goes in its parent's options (`usize::MAX` for the root).
    parent: usize,
    /// Some option was active in another thread during the first pass.
    deferred: bool,
    /// This is the second pass.
    retry: bool,
}

/// New positions counted locally before they are added to the shared count.
const FLUSH_EVERY: usize = 256;
/// Positions found before the other threads start: below, a thread costs more to start
/// than it saves.
const SPAWN_AFTER: usize = 2048;

/// A thread's search.
pub(super) struct Worker<'s, S: Store> {
    id: usize,
    sh: &'s Shared<'s, S>,
    /// The game's frame (parameters), built in this thread from plain data.
    frame: Vec<Value>,
    /// Its handle for reading the store without a lock.
    view: S::View,
    cells: Vec<i64>,
    /// An option's cells, for a store that builds them to name it (`Store::id_set`).
    scratch: Vec<i64>,
    opts: Vec<Opt<S::Id>>,
    stack: Vec<Frame<S::Id>>,
    on_stack: FxHashSet<S::Id>,
    new_positions: usize,
    new_bytes: usize,
    steps: u32,
    /// Called once, after the first positions, to start the other threads (the first
    /// worker only): a small game is solved before any thread is started.
    spawn: Option<&'s dyn Fn()>,
}

impl<'s, S: Store> Worker<'s, S> {
    pub(super) fn new(id: usize, sh: &'s Shared<'s, S>, spawn: Option<&'s dyn Fn()>) -> Self {
        Worker {
            id,
            sh,
            frame: sh.plan.frame.iter().map(|p| p.to_value()).collect(),
            view: sh.table.view(),
            cells: Vec::new(),
            scratch: Vec::new(),
            opts: Vec::new(),
            stack: Vec::new(),
            on_stack: FxHashSet::default(),
            new_positions: 0,
            new_bytes: 0,
            steps: 0,
            spawn,
        }
    }

    /// Solves `root` and everything below it (or stops when another thread has).
    pub(super) fn run(&mut self, root: S::Id) -> Result<(), Abort> {
        let result = self.search(root);
        self.flush()?;
        result
    }

    fn search(&mut self, root: S::Id) -> Result<(), Abort> {
        match self.sh.table.claim(root) {
            Seen::Done(_) => return Ok(()),
            Seen::New => self.count(root)?,
            Seen::Active => {}
        }
        self.enter(root, usize::MAX)?;
        while !self.tick()? {
            let Some(top) = self.stack.last_mut() else {
                break;
            };
            if top.next < top.end {
                let i = top.next;
                top.next += 1;
                let opt = self.opts[i];
                if opt.code != ACTIVE {
                    continue;
                }
                let retry = top.retry;
                let seen = if retry {
                    self.sh.table.get(opt.id)
                } else {
                    None
                };
                let seen = seen.unwrap_or_else(|| self.sh.table.claim(opt.id));
                match seen {
                    Seen::Done(code) => self.opts[i].code = code,
                    Seen::Active if !retry => top.deferred = true,
                    Seen::Active => {
                        if self.on_stack.contains(&opt.id) {
                            return Err(Abort::Cycle);
                        }
                        self.enter(opt.id, i)?;
                    }
                    Seen::New => {
                        self.count(opt.id)?;
                        self.enter(opt.id, i)?;
                    }
                }
                continue;
            }
            if top.deferred && !top.retry {
                top.retry = true;
                top.next = top.start;
                continue;
            }
            let Some(done) = self.stack.pop() else { break };
            let code = lego(&self.opts[done.start..done.end])?;
            self.opts.truncate(done.start);
            self.on_stack.remove(&done.id);
            self.finish(done.id, done.parent, code);
        }
        Ok(())
    }

    /// Records a solved position, in the table and in its parent's options.
    fn finish(&mut self, id: S::Id, parent: usize, code: u32) {
        self.sh.table.finish(id, code);
        if parent == usize::MAX {
            self.sh.solved.store(true, Ordering::Relaxed);
        } else {
            self.opts[parent].code = code;
        }
    }

    /// Expands `id`: an end of play is finished at once, any other position goes on the
    /// path with its options.
    fn enter(&mut self, id: S::Id, parent: usize) -> Result<(), Abort> {
        let start = self.opts.len();
        match self.expand(id)? {
            Some(code) => self.finish(id, parent, code),
            None => {
                self.on_stack.insert(id);
                self.stack.push(Frame {
                    id,
                    start,
                    end: self.opts.len(),
                    next: start,
                    parent,
                    deferred: false,
                    retry: false,
                });
            }
        }
        Ok(())
    }

    /// Runs the position's `terminal if` conditions and rules, as the interpreter would:
    /// the code of an end of play, or `None` with its options appended to `opts`.
    fn expand(&mut self, id: S::Id) -> Result<Option<u32>, Abort> {
        let plan = self.sh.plan;
        let stop = self.sh.stop;
        let table = &self.sh.table;
        table.cells(id, &mut self.cells);
        let Worker {
            frame,
            cells,
            scratch,
            opts,
            view,
            ..
        } = self;
        let inputs = InputFrame {
            values: frame,
            packed: plan.slot.map(|s| (s, &cells[..])),
        };
        let holds = |conds: &[&crate::eval::compiled::CompiledCond]| -> Result<bool, Abort> {
            for c in conds {
                match c.eval(inputs, plan.max_collection, stop) {
                    Ok(true) => return Ok(true),
                    Ok(false) => {}
                    Err(_) => return Err(Abort::Rules),
                }
            }
            Ok(false)
        };
        let end = |draw: bool| {
            if draw {
                DRAW
            } else if plan.misere {
                1
            } else {
                0
            }
        };
        // The conditions in one run; one by one where that run hands over.
        let ended = match plan.ends.map(|e| e.end(inputs, plan.max_collection, stop)) {
            Some(Ok(ended)) => ended,
            _ if holds(&plan.terminal)? => Some(holds(&plan.draw)?),
            _ => None,
        };
        if let Some(draw) = ended {
            return Ok(Some(end(draw)));
        }
        let start = opts.len();
        for rule in &plan.rules {
            let mut emit = |target: Emitted<'_>| {
                let mut push =
                    |id: Option<S::Id>| id.map(|id| opts.push(Opt { id, code: ACTIVE })).is_some();
                let held = match target {
                    Emitted::IntList(items) => push(table.id(items)),
                    // Filtered rows, each ranked as it is filtered (no list built).
                    Emitted::Kept { rows, len, keep } => rows
                        .chunks_exact(len)
                        .all(|row| push(table.id_kept(row, keep, scratch))),
                    // `set(b, i, v)` of the position: its id from the position's, as the
                    // store has it (a rank moves by one cell's code), no list built.
                    Emitted::SetCell(i, v) => push(table.id_set(id, cells, (i, v), scratch)),
                    _ => false,
                };
                if !held {
                    // Not a position the store holds: the one-thread search takes it.
                    return Err(Box::new(Diag::internal("not a target of the store")));
                }
                Ok(ControlFlow::Continue(()))
            };
            if rule
                .run_cells(inputs, plan.max_collection, stop, &mut emit)
                .is_err()
            {
                return Err(Abort::Rules);
            }
        }
        // The options' codes are read after all of them are made, in a loop of independent
        // reads without a lock: the table is read at random (a board's options are ranks
        // `m^i` apart, a key's slot is its hash's), and so the reads' misses overlap instead
        // of waiting one at a time between rule runs. Only what is not solved yet is claimed
        // (under a lock for keys) by the search.
        table.peek_all(view, &mut opts[start..]);
        let n = opts.len() - start;
        if n == 0 {
            return Ok(Some(end(holds(&plan.draw)?)));
        }
        if self.id > 0 {
            // Each thread its own order, so that threads starting together spread out.
            let turn = (S::mix(id).rotate_left(self.id as u32 * 17) % n as u64) as usize;
            opts[start..].rotate_left(turn);
        }
        Ok(None)
    }

    /// Counts a new position against the limits.
    fn count(&mut self, id: S::Id) -> Result<(), Abort> {
        self.new_positions += 1;
        self.new_bytes += self.sh.table.position_bytes(id);
        if self.new_positions.is_multiple_of(FLUSH_EVERY) {
            let positions = self.flush()?;
            if positions >= SPAWN_AFTER {
                if let Some(spawn) = self.spawn.take() {
                    spawn();
                }
            }
        }
        Ok(())
    }

    /// Adds the positions counted here to the shared count, and checks the limits; the
    /// positions counted so far.
    fn flush(&mut self) -> Result<usize, Abort> {
        let (n, b) = (self.new_positions, self.new_bytes);
        self.new_positions = 0;
        self.new_bytes = 0;
        let positions = self.sh.positions.fetch_add(n, Ordering::Relaxed) + n;
        let bytes = self.sh.bytes.fetch_add(b, Ordering::Relaxed) + b;
        if self.id == 0 {
            self.sh
                .stop
                .note(self.sh.plan.base_positions + positions, bytes);
        }
        if positions > self.sh.plan.max_new || bytes > self.sh.plan.max_bytes {
            return Err(Abort::Limit);
        }
        Ok(positions)
    }

    /// Counts a step: now and then, looks whether another thread failed, and at the stop.
    /// True once the root is solved (by any thread): so is everything below it, and there
    /// is nothing left to do.
    fn tick(&mut self) -> Result<bool, Abort> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(64) {
            if self.sh.failed.load(Ordering::Relaxed) {
                return Err(Abort::Elsewhere);
            }
            if self.sh.solved.load(Ordering::Relaxed) {
                return Ok(true);
            }
        }
        if self.steps.is_multiple_of(4096) && self.sh.stop.check().is_err() {
            return Err(Abort::Stopped);
        }
        Ok(false)
    }
}

/// A position's code from its options' (none unknown): the remoteness rule of
/// `analysis::lego_rule` (the least even remoteness plus one; else a draw if an option is
/// one; else the greatest plus one).
fn lego<I>(opts: &[Opt<I>]) -> Result<u32, Abort> {
    let mut least_even = u32::MAX;
    let mut greatest = 0;
    let mut draw = false;
    for o in opts {
        match o.code {
            ACTIVE => return Err(Abort::Internal),
            DRAW => draw = true,
            c if c % 2 == 0 => least_even = least_even.min(c),
            c => greatest = greatest.max(c),
        }
    }
    let r = if least_even != u32::MAX {
        least_even
    } else if draw {
        return Ok(DRAW);
    } else {
        greatest
    };
    if r + 1 >= MAX_REMOTENESS {
        return Err(Abort::Internal);
    }
    Ok(r + 1)
}
