//! An innermost loop whose target is a comprehension over a list, or a fused filter of one
//! (Chomp's `trim([if r >= i then min(l, j) else l for (r, l) in enumerate(rows)])` for
//! `j in 0..w`), run for a block of the loop's values at once: the comprehension's body is
//! one lane program over the loop's values crossed with the list's items (lane `q * len + k`
//! is value `q` and item `k`), so its operations are dispatched once a block rather than
//! once an option; then each value's row of lanes is filtered into its target and emitted,
//! in order. A visitor that asked for cells ([`CompiledRule::run_cells`]) takes the whole
//! block's rows unfiltered, with the filter's test, as one [`Emitted::Kept`], and ranks each
//! row as it filters it, when the test does not read the loop's variable. For such a
//! visitor, the loop around the innermost one and the innermost run as one when they can
//! ([`CompiledRule::flat`]): the outer loop's registers become lanes too, and the rows of
//! every pair of values fill whole blocks (Chomp's bites of all rows in one or two blocks,
//! where a block a row left a few options a block to pay each block's set-up).
//!
//! The meaning is the loop's: each value's target is the comprehension's list (filtered),
//! counted and limited as it would be. A lane error anywhere in the block (where computing
//! the options one by one might have stopped earlier, at an emitted option) sends the rule
//! to the interpreter before any of the block is emitted: the interpreter, which skips what
//! was emitted, then makes the same options in the same order and raises the same error.

use std::ops::ControlFlow;

use super::gen_blocks::INDEXES;
use super::run::CrossFilled;
use super::*;
use crate::diag::DiagResult;
use crate::eval::arith;

/// The plan of a crossed target.
#[derive(Debug, Clone)]
pub(super) struct Cross {
    /// The list register the comprehension runs over.
    list: u32,
    /// The body, with the loop's variable, the item and the index as lanes.
    body: Prog,
    /// The fused filter's test, if the comprehension is filtered.
    test: Option<ItemTest>,
    /// The body with the registers that the loop around the innermost one binds as lanes
    /// too, when that loop and the innermost can run as one (see [`CompiledRule::flat`]).
    flat: Option<Prog>,
}

impl Cross {
    /// The plan of `target` inside the innermost loop over `reg`: a comprehension over a
    /// list register with no guard whose body lane programs compute (see [`Gen::with_body`]),
    /// maybe under a fused filter. `around` is the loop around the innermost one, if any.
    pub(super) fn plan(
        target: &ListExpr,
        reg: u32,
        around: Option<&GenClause>,
    ) -> Option<Box<Cross>> {
        let (comp, test) = match target {
            ListExpr::Filter(filter) if filter.comp_blocks => (&filter.list, Some(filter.test)),
            ListExpr::Comp(..) => (target, None),
            _ => return None,
        };
        let ListExpr::Comp(gen, body) = comp else {
            return None;
        };
        let simple = gen.simple()?;
        let progs = gen.progs.as_deref()?;
        if simple.guard.is_some() || progs.guard.is_some() {
            return None;
        }
        if simple.item == Some(reg) || simple.index == Some(reg) {
            return None;
        }
        let flat = around.and_then(bound).and_then(|[x, y]| {
            // The loops' registers are not the comprehension's, and the filter reads none.
            let loops = [Some(reg), x, y];
            let own = |r: &Option<u32>| r.is_some() && (*r == simple.item || *r == simple.index);
            let read = |t: &ItemTest| loops.iter().flatten().any(|r| t.reads(*r));
            if loops.iter().any(own) || test.as_ref().is_some_and(read) {
                return None;
            }
            Prog::cross(body, simple.item, simple.index, loops)
        });
        let body = Prog::cross(body, simple.item, simple.index, [Some(reg), None, None])?;
        Some(Box::new(Cross {
            list: simple.list,
            body,
            test,
            flat,
        }))
    }

    /// Emits the targets of the loop's values `a..b` (the register `reg`), in order; `None`,
    /// with nothing done, when the list is empty or longer than a block (then one by one).
    pub(super) fn run(
        &self,
        reg: u32,
        a: i64,
        b: i64,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Option<Result<ControlFlow<()>, Interrupt>> {
        let len = run.b.lists[self.list as usize].len();
        if len == 0 || len > LANES {
            return None;
        }
        let mut out = std::mem::take(&mut run.b.list_out);
        if out.len() < len {
            out.resize(len, 0);
        }
        let flow = self.blocks(reg, a, b, len, run, &mut out, emit);
        run.b.list_out = out;
        Some(flow)
    }

    #[allow(clippy::too_many_arguments)]
    fn blocks(
        &self,
        reg: u32,
        a: i64,
        b: i64,
        len: usize,
        run: &mut Run<'_>,
        out: &mut [i64],
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let per = LANES / len;
        let limit = run.max_collection;
        let mut start = a;
        while start < b {
            let m = arith::range_count(start, b).min(per as u64) as usize;
            let lanes = m * len;
            self.compute(start, m, len, run)?;
            if len as u64 > limit {
                return Err(Interrupt::Fallback);
            }
            // A visitor that filters the rows itself takes the whole block in one call when
            // the filter's test is the same for every value of the loop: the steps of the
            // values counted at once, the variable left at the last value.
            // (A test that keeps nothing goes value by value, each row filtered to nothing.)
            let whole = self.test.as_ref().filter(|t| run.kept && !t.reads(reg));
            if let Some(keep) = whole.and_then(|t| t.keep(&run.b.regs)) {
                tick_n(&mut run.ticks, run.stop, m * (2 * len + 1))?;
                run.b.regs[reg as usize] = start + m as i64 - 1;
                let rows = &run.b.cross[VALUES..][..lanes];
                mark(Reached::Kept);
                if emit(Emitted::Kept { rows, len, keep })
                    .map_err(Interrupt::Error)?
                    .is_break()
                {
                    return Ok(ControlFlow::Break(()));
                }
                start += m as i64;
                continue;
            }
            for q in 0..m {
                // As the loop does it value by value: the step, the variable, then the
                // comprehension's steps (its limit checked above), and the filter's.
                run.tick()?;
                run.b.regs[reg as usize] = start + q as i64;
                tick_n(&mut run.ticks, run.stop, len)?;
                let rows = &run.b.cross[VALUES + q * len..][..len];
                let emitted = match &self.test {
                    Some(test) => {
                        tick_n(&mut run.ticks, run.stop, len)?;
                        let kept = test.filter_into(out, rows, &run.b.regs);
                        Emitted::IntList(&out[..kept])
                    }
                    None => Emitted::IntList(rows),
                };
                if emit(emitted).map_err(Interrupt::Error)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            debug_assert!(lanes <= LANES);
            start += m as i64;
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The body's lanes for the `m` values from `start`, into the values' block of the
    /// run's `cross` buffer (see [`CROSS_BLOCKS`]).
    fn compute(&self, start: i64, m: usize, len: usize, run: &mut Run<'_>) -> Eval<()> {
        self.fill_rows(m, len, run);
        let Buffers {
            cross,
            cross_filled: filled,
            ..
        } = &mut *run.b;
        if filled.outer_start != start {
            filled.outer_start = start;
            filled.outer_rows = 0;
        }
        let outer_lanes = &mut cross[OUTER_LANES[0]..][..LANES];
        for q in filled.outer_rows..m {
            outer_lanes[q * len..][..len].fill(start + q as i64);
        }
        filled.outer_rows = filled.outer_rows.max(m);
        self.run_body(&self.body, m, len, run)
    }

    /// Fills the items' and indexes' lanes of the first `m` rows of `len` lanes, where
    /// earlier blocks (of this run's loops, or of the next value of an enclosing loop, over
    /// the same list) did not leave them as this block needs them: rows of the same items,
    /// of the same length. The outer lanes' rows are kept only when their length is the same.
    fn fill_rows(&self, m: usize, len: usize, run: &mut Run<'_>) {
        let Buffers {
            lists,
            cross,
            cross_filled: filled,
            ..
        } = &mut *run.b;
        sized(cross);
        let items = &lists[self.list as usize][..len];
        let (item_lanes, rest) = cross.split_at_mut(LANES);
        let index_lanes = &mut rest[..LANES];
        if filled.len != len {
            *filled = CrossFilled {
                len,
                ..CrossFilled::default()
            };
        } else if filled.rows == 0 || item_lanes[..len] != *items {
            filled.rows = 0;
        }
        if filled.rows == 0 {
            item_lanes[..len].copy_from_slice(items);
        }
        repeat_rows(item_lanes, len, filled.rows, m);
        filled.rows = filled.rows.max(m);
        // The indexes depend on the length only.
        if filled.index_rows == 0 {
            index_lanes[..len].copy_from_slice(&INDEXES[..len]);
        }
        repeat_rows(index_lanes, len, filled.index_rows, m);
        filled.index_rows = filled.index_rows.max(m);
    }

    /// `body`'s lanes for the first `m` rows of the input lanes as they are, into the
    /// values' block.
    fn run_body(&self, body: &Prog, m: usize, len: usize, run: &mut Run<'_>) -> Eval<()> {
        let Buffers {
            regs,
            cross,
            body_cols,
            ..
        } = &mut *run.b;
        let lanes = m * len;
        let (inputs, values) = cross.split_at_mut(VALUES);
        let lane = |at: usize| &inputs[at..][..lanes];
        let at = Lanes {
            regs,
            reg: NO_REG,
            values: lane(0),
            index_reg: NO_REG,
            index_values: lane(LANES),
            outer_values: OUTER_LANES.map(lane),
        };
        body.run_into(&at, body_cols, &mut values[..lanes])
    }
}

/// The run's `cross` buffer grown to its [`CROSS_BLOCKS`] blocks, if it is not yet.
fn sized(cross: &mut Vec<i64>) {
    if cross.len() < CROSS_BLOCKS * LANES {
        cross.resize(CROSS_BLOCKS * LANES, 0);
    }
}

/// Rows `from..m` of `len` lanes as copies of the first, which holds its values (and so
/// do rows up to `from`), doubling the copied rows at each step.
fn repeat_rows(lanes: &mut [i64], len: usize, from: usize, m: usize) {
    let mut have = from.max(1);
    while have < m {
        let n = have.min(m - have);
        lanes.copy_within(..n * len, have * len);
        have += n;
    }
}

/// The registers a loop around the innermost one binds, when it can run with it as one
/// (see [`CompiledRule::flat`]): an index and an item of a list register's items, or a
/// range's variable.
fn bound(around: &GenClause) -> Option<[Option<u32>; 2]> {
    match around {
        GenClause::Items {
            index,
            item,
            list: ListExpr::Reg(_),
        } => Some([*index, *item]),
        GenClause::Range { reg, .. } => Some([Some(*reg), None]),
        _ => None,
    }
}

impl CompiledRule {
    /// Clause `k` (the loop around the innermost one, `k + 1`) and the innermost loop run as
    /// one crossed loop, for a visitor that asked for cells (filtered rows come to it as
    /// [`Emitted::Kept`]): the
    /// rows of every pair of their values go into blocks as full as a block allows, rather
    /// than a block for each value of the outer loop (Chomp's rows times their bites: a
    /// position's options in one or two blocks instead of one a row). `None`, with nothing
    /// done, when the rule is not of that shape or this run cannot (the list is empty or
    /// longer than a block, the filter keeps nothing): then clause by clause.
    ///
    /// The meaning is the clauses': the same bindings and guards in the same order, each
    /// value's step and its target's steps counted, the same targets emitted in the same
    /// order. A value of the outer loop whose guards do not all narrow the inner range sends
    /// the rows so far, then runs its inner loop alone.
    pub(super) fn flat(
        &self,
        k: usize,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Option<Result<ControlFlow<()>, Interrupt>> {
        let cross = self.cross.as_deref()?;
        let body = cross.flat.as_ref()?;
        let bound = bound(&self.steps[k])?;
        if !run.kept || !run.blocks() || self.int_parts.is_some() {
            return None;
        }
        let len = run.b.lists[cross.list as usize].len();
        if len == 0 || len > LANES {
            return None;
        }
        let keep = match &cross.test {
            Some(test) => Some(test.keep(&run.b.regs)?),
            None => None,
        };
        if len as u64 > run.max_collection {
            return Some(Err(Interrupt::Fallback));
        }
        sized(&mut run.b.cross);
        let mut rows = FlatRows {
            cross,
            body,
            bound,
            keep,
            len,
            per: LANES / len,
            // A value's step, its target's, and its filter's (see `Cross::blocks`).
            steps: 1 + len * (1 + usize::from(cross.test.is_some())),
            pending: 0,
        };
        // The outer loop binds its values as it would alone, then the rows left are sent.
        let flow = lists::run_clauses(&self.steps[k..=k], run, &mut |run| {
            self.flat_inner(k + 1, &mut rows, run, emit)
        });
        Some(match flow {
            Ok(ControlFlow::Continue(())) => rows.send(run, emit),
            other => other,
        })
    }

    /// The innermost loop (clause `k`) for the outer loop's value in the registers: its rows
    /// added to the pending block, sent whenever the block is full.
    fn flat_inner(
        &self,
        k: usize,
        rows: &mut FlatRows<'_>,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let GenClause::Range {
            reg,
            lo,
            hi,
            inclusive,
        } = &self.steps[k]
        else {
            return Err(Interrupt::Fallback);
        };
        let guards = &self.steps[k + 1..];
        let (a0, b0) = lists::range(run, lo, hi, *inclusive)?;
        let (a, b, narrowed) = narrow(*reg, a0, b0, guards, &run.b.regs);
        if narrowed < guards.len() {
            if rows.send(run, emit)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
            return self.inner_loop(*reg, a0, b0, guards, run, emit);
        }
        let values = rows.bound.map(|r| r.map_or(0, |r| run.b.regs[r as usize]));
        let len = rows.len;
        let mut start = a;
        while start < b {
            let m = arith::range_count(start, b).min((rows.per - rows.pending) as u64) as usize;
            tick_n(&mut run.ticks, run.stop, m * rows.steps)?;
            // The lanes of the loops' variables that the body reads: the innermost loop's a
            // value a row, the outer loop's the same in all `m` rows.
            let at = rows.pending * len;
            let lanes = &mut run.b.cross;
            let read = rows.body.reads_outer;
            if read[0] {
                let inner = lanes[OUTER_LANES[0] + at..][..m * len].chunks_exact_mut(len);
                for (q, row) in inner.enumerate() {
                    row.fill(start + q as i64);
                }
            }
            for s in (1..OUTER).filter(|s| read[*s]) {
                lanes[OUTER_LANES[s] + at..][..m * len].fill(values[s - 1]);
            }
            rows.pending += m;
            start += m as i64;
            run.b.regs[*reg as usize] = start - 1;
            if rows.pending == rows.per && rows.send(run, emit)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// The pending rows of a flat crossed loop (see [`CompiledRule::flat`]).
struct FlatRows<'c> {
    cross: &'c Cross,
    body: &'c Prog,
    /// The registers the outer loop binds (see [`bound`]).
    bound: [Option<u32>; 2],
    /// The filter's test (the rows go as [`Emitted::Kept`]), or none (each row is a list).
    keep: Option<Keep>,
    len: usize,
    /// Rows a block holds.
    per: usize,
    /// Steps a row counts.
    steps: usize,
    /// Rows whose outer lanes are written and not yet sent.
    pending: usize,
}

impl FlatRows<'_> {
    /// The pending rows computed and emitted: as one [`Emitted::Kept`] under a filter,
    /// else a list each.
    fn send(
        &mut self,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let m = std::mem::take(&mut self.pending);
        if m == 0 {
            return Ok(ControlFlow::Continue(()));
        }
        self.cross.fill_rows(m, self.len, run);
        // The outer lanes were written here: no block may take them as its own.
        run.b.cross_filled.outer_rows = 0;
        self.cross.run_body(self.body, m, self.len, run)?;
        let (rows, len) = (&run.b.cross[VALUES..][..m * self.len], self.len);
        let Some(keep) = self.keep else {
            for row in rows.chunks_exact(len) {
                if emit(Emitted::IntList(row))
                    .map_err(Interrupt::Error)?
                    .is_break()
                {
                    return Ok(ControlFlow::Break(()));
                }
            }
            return Ok(ControlFlow::Continue(()));
        };
        mark(Reached::Kept);
        emit(Emitted::Kept { rows, len, keep }).map_err(Interrupt::Error)
    }
}

/// The run's `cross` buffer holds this many blocks of `LANES` lanes: the items', the
/// indexes', the three outer lanes' (see [`OUTER_LANES`]) and the body's values
/// ([`VALUES`]), last.
const CROSS_BLOCKS: usize = 6;
/// Where the outer lanes start in the `cross` buffer: the innermost loop's values, then the
/// two registers the loop around it binds.
const OUTER_LANES: [usize; OUTER] = [2 * LANES, 3 * LANES, 4 * LANES];
/// Where the body's values start in the `cross` buffer.
const VALUES: usize = 5 * LANES;
