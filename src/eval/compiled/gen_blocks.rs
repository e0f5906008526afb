//! A generator's comprehension or fold a block of items at a time (see [`Gen::blocks`]):
//! its guard's and body's lane programs run over the items as lanes, and a guardless one
//! over at most a block writes its body's lanes straight onto its list
//! ([`Gen::body_into`]).

use super::*;

impl Gen {
    /// Runs a generator with lane programs a block of items at a time: `block` gets the
    /// body's value in the block's lanes and which lanes the guard keeps (1) or drops (0). As
    /// with a rule's blocks, a lane error (where a guard would have stopped the interpreter
    /// first, too) sends the whole expression to the interpreter.
    pub(super) fn blocks(
        &self,
        run: &mut Run<'_>,
        mut block: impl FnMut(Out<'_>, Out<'_>, usize) -> Eval<()>,
    ) -> Eval<()> {
        let (Some(simple), Some(progs)) = (self.simple(), self.progs.as_deref()) else {
            return Err(Interrupt::Fallback);
        };
        mark(Reached::Lanes);
        let len = run.b.lists[simple.list as usize].len();
        tick_n(&mut run.ticks, run.stop, len)?;
        let Buffers {
            regs,
            lists,
            index,
            guard_cols,
            body_cols,
            ..
        } = &mut *run.b;
        let items = &lists[simple.list as usize];
        if progs.reads_index && len > LANES && index.len() < LANES {
            index.resize(LANES, 0);
        }
        let mut start = 0;
        while start < len {
            let n = (len - start).min(LANES);
            let next = start + n;
            // The first block's indexes are 0, 1, ...: no need to write them.
            let indexes: &[i64] = match (progs.reads_index, start) {
                (false, _) => &[],
                (true, 0) => &INDEXES[..n],
                (true, _) => {
                    for (k, v) in index[..n].iter_mut().enumerate() {
                        *v = (start + k) as i64;
                    }
                    &index[..n]
                }
            };
            let at = Lanes {
                regs,
                reg: simple.item.unwrap_or(NO_REG),
                values: &items[start..next],
                index_reg: simple.index.unwrap_or(NO_REG),
                index_values: indexes,
                outer_values: [&[]; OUTER],
            };
            let keep = match &progs.guard {
                Some(guard) => guard.run(&at, guard_cols)?,
                None => Out::Same(1),
            };
            start = next;
            if let Out::Same(0) = keep {
                continue;
            }
            let values = progs.body.run(&at, body_cols)?;
            block(values, keep, n)?;
        }
        Ok(())
    }

    /// A generator with lane programs and no guard over a list of at most one block (see
    /// [`Gen::blocks`]): the body's lanes appended to `out`, the last operation writing
    /// there directly (no columns, no copy); how many. `None`, with nothing done, when the
    /// generator is not of that shape.
    #[inline]
    pub(super) fn body_into(&self, run: &mut Run<'_>, out: &mut Vec<i64>) -> Option<Eval<usize>> {
        let simple = self.simple()?;
        let progs = self.progs.as_deref()?;
        let len = run.b.lists[simple.list as usize].len();
        if progs.guard.is_some() || len > LANES {
            return None;
        }
        mark(Reached::Lanes);
        Some(body_lanes(simple, progs, run, out, len).map(|()| len))
    }
}

/// The lane of each item's index in a block that starts at the list's first item.
pub(super) static INDEXES: [i64; LANES] = {
    let mut index = [0; LANES];
    let mut k = 0;
    while k < LANES {
        index[k] = k as i64;
        k += 1;
    }
    index
};

/// [`Gen::body_into`] of `len` items, at most a block: counted as [`Gen::blocks`] counts
/// them, then the body computed into `out`'s new lanes.
fn body_lanes(
    simple: SimpleGen<'_>,
    progs: &GenProgs,
    run: &mut Run<'_>,
    out: &mut Vec<i64>,
    len: usize,
) -> Eval<()> {
    tick_n(&mut run.ticks, run.stop, len)?;
    if len == 0 {
        // No block: the body is not run (a uniform operation could fail on nothing).
        return Ok(());
    }
    let Buffers {
        regs,
        lists,
        body_cols,
        ..
    } = &mut *run.b;
    let at = Lanes {
        regs,
        reg: simple.item.unwrap_or(NO_REG),
        values: &lists[simple.list as usize][..len],
        index_reg: simple.index.unwrap_or(NO_REG),
        index_values: if progs.reads_index {
            &INDEXES[..len]
        } else {
            &[]
        },
        outer_values: [&[]; OUTER],
    };
    let start = out.len();
    out.resize(start + len, 0);
    progs.body.run_into(&at, body_cols, &mut out[start..])
}
