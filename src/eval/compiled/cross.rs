//! An innermost loop whose target is a comprehension over a list, or a fused filter of one
//! (Chomp's `trim([if r >= i then min(l, j) else l for (r, l) in enumerate(rows)])` for
//! `j in 0..w`), run for a block of the loop's values at once: the comprehension's body is
//! one lane program over the loop's values crossed with the list's items (lane `q * len + k`
//! is value `q` and item `k`), so its operations are dispatched once a block rather than
//! once an option; then each value's row of lanes is filtered into its target and emitted,
//! in order. A visitor that asked for cells ([`CompiledRule::run_cells`]) takes the whole
//! block's rows unfiltered, with the filter's test, as one [`Emitted::Kept`], and ranks each
//! row as it filters it, when the test does not read the loop's variable.
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
}

impl Cross {
    /// The plan of `target` inside the innermost loop over `reg`: a comprehension over a
    /// list register with no guard whose body lane programs compute (see [`Gen::with_body`]),
    /// maybe under a fused filter.
    pub(super) fn plan(target: &ListExpr, reg: u32) -> Option<Box<Cross>> {
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
        let body = Prog::cross(body, simple.item, simple.index, reg)?;
        Some(Box::new(Cross {
            list: simple.list,
            body,
            test,
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
                let rows = &run.b.cross[3 * LANES..][..lanes];
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
                let rows = &run.b.cross[3 * LANES + q * len..][..len];
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

    /// The body's lanes for the `m` values from `start`, into the fourth quarter of the
    /// run's `cross` buffer (its first three hold the items', indexes' and values' lanes).
    fn compute(&self, start: i64, m: usize, len: usize, run: &mut Run<'_>) -> Eval<()> {
        let Buffers {
            regs,
            lists,
            cross,
            cross_filled: filled,
            body_cols,
            ..
        } = &mut *run.b;
        if cross.len() < 4 * LANES {
            cross.resize(4 * LANES, 0);
        }
        let lanes = m * len;
        let items = &lists[self.list as usize][..len];
        let (inputs, values) = cross.split_at_mut(3 * LANES);
        let (item_lanes, rest) = inputs.split_at_mut(LANES);
        let (index_lanes, outer_lanes) = rest.split_at_mut(LANES);
        // The lanes are filled only where earlier blocks (of this run's loops, or of the
        // next value of an enclosing loop, over the same list) did not leave them as this
        // block needs them: rows of the same items, the same values.
        if filled.len != len || filled.rows == 0 || item_lanes[..len] != *items {
            *filled = CrossFilled {
                len,
                ..CrossFilled::default()
            };
        }
        for q in filled.rows..m {
            let at = q * len;
            item_lanes[at..at + len].copy_from_slice(items);
            index_lanes[at..at + len].copy_from_slice(&INDEXES[..len]);
        }
        filled.rows = filled.rows.max(m);
        if filled.outer_start != start {
            filled.outer_start = start;
            filled.outer_rows = 0;
        }
        for q in filled.outer_rows..m {
            outer_lanes[q * len..][..len].fill(start + q as i64);
        }
        filled.outer_rows = filled.outer_rows.max(m);
        let at = Lanes {
            regs,
            reg: NO_REG,
            values: &item_lanes[..lanes],
            index_reg: NO_REG,
            index_values: &index_lanes[..lanes],
            outer_values: &outer_lanes[..lanes],
        };
        self.body.run_into(&at, body_cols, &mut values[..lanes])
    }
}
