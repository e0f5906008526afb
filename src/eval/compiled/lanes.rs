//! Blocks of lanes: the innermost loop of a rule evaluated 256 values at a time, and the
//! affine guards that narrow its range before it runs.
//!
//! A range runs so when its target and guards are arithmetic, after its leading guards that are
//! affine comparisons in the loop's variable have cut the range to the interval they let
//! through (`narrow`): an `or` whose left side is the same over the range counts too, and so
//! does `x == c` or `x != c` with `c` at an end of the range or outside it. An innermost range
//! whose target is a list runs as one loop with its guards. Blocks start at 8 lanes and double,
//! so a caller that wants only the first option does not pay for a whole block; a lane error
//! anywhere in a block sends the rule to the interpreter.

use lists::GenClause;

use super::*;
use crate::eval::arith::{self, IntOp};
use crate::eval::stop::Stop;
use crate::syntax::ast::BinaryOp;

/// Lanes in a block: the innermost loop of a compiled rule runs this many values at a time.
pub(super) const LANES: usize = 256;

/// Blocks of lanes for vectorized evaluation, reused from block to block.
#[derive(Default)]
pub(super) struct Pool {
    pub(super) ints: Vec<Vec<i64>>,
    pub(super) bools: Vec<Vec<bool>>,
}

impl Pool {
    #[inline]
    pub(super) fn ints(&mut self) -> Vec<i64> {
        self.ints.pop().unwrap_or_else(|| vec![0; LANES])
    }
    #[inline]
    pub(super) fn bools(&mut self) -> Vec<bool> {
        self.bools.pop().unwrap_or_else(|| vec![false; LANES])
    }
}

/// Where a block is evaluated: the registers, the register of the innermost loop, and that
/// register's values in the block's lanes; for a loop over a list's items, the register of
/// the items' index (`enumerate`) and its values too (`NO_REG` when there is none).
pub(super) struct Lanes<'l> {
    pub(super) regs: &'l [i64],
    pub(super) reg: u32,
    pub(super) values: &'l [i64],
    pub(super) index_reg: u32,
    pub(super) index_values: &'l [i64],
    /// The innermost loop's values and, when a block runs over the enclosing loop too, the
    /// values of the two registers that loop binds, for a lane program that reads them as
    /// lanes ([`Src::Outer`](super::prog::Src::Outer), `cross.rs`; empty elsewhere).
    pub(super) outer_values: [&'l [i64]; OUTER],
}

/// How many loop registers a crossed block may read as lanes: the innermost loop's and the
/// two that the loop around it binds (an index and an item).
pub(super) const OUTER: usize = 3;

/// No register (see [`Lanes`]).
pub(super) const NO_REG: u32 = u32::MAX;

impl<'l> Lanes<'l> {
    /// The lanes of `r`, if it varies from lane to lane.
    #[inline]
    pub(super) fn varying(&self, r: u32) -> Option<&'l [i64]> {
        if r == self.reg {
            Some(self.values)
        } else if r == self.index_reg {
            Some(self.index_values)
        } else {
            None
        }
    }
}

/// An integer expression as `k * x + c` in the loop's variable `x`, the other registers read
/// as they are, when it is one (sums, differences, negations, products with a side that does
/// not depend on `x`), and when evaluating it at `x = lo` and at `x = hi` overflows nowhere:
/// each of its subexpressions is affine in `x` too, so then it overflows nowhere in between.
pub(super) fn affine(e: &IntExpr, x: u32, regs: &[i64], lo: i64, hi: i64) -> Option<(i128, i128)> {
    // `(k, c)`, when `k * v + c` is an `i64` at both ends (all in `i128`, checked).
    let fits = |k: Option<i128>, c: Option<i128>| {
        let (k, c) = (k?, c?);
        let fit = |v: i64| {
            k.checked_mul(i128::from(v))
                .and_then(|kv| kv.checked_add(c))
                .is_some_and(|y| i64::try_from(y).is_ok())
        };
        (fit(lo) && fit(hi)).then_some((k, c))
    };
    match e {
        IntExpr::Lit(n) => Some((0, i128::from(*n))),
        IntExpr::Reg(r) if *r == x => Some((1, 0)),
        IntExpr::Reg(r) => Some((0, i128::from(regs[*r as usize]))),
        IntExpr::Neg(y) => {
            let (k, c) = affine(y, x, regs, lo, hi)?;
            fits(k.checked_neg(), c.checked_neg())
        }
        IntExpr::Bin(op @ (IntOp::Add | IntOp::Sub | IntOp::Mul), l, r) => {
            let (k1, c1) = affine(l, x, regs, lo, hi)?;
            let (k2, c2) = affine(r, x, regs, lo, hi)?;
            match op {
                IntOp::Add => fits(k1.checked_add(k2), c1.checked_add(c2)),
                IntOp::Sub => fits(k1.checked_sub(k2), c1.checked_sub(c2)),
                _ if k1 == 0 => fits(c1.checked_mul(k2), c1.checked_mul(c2)),
                _ if k2 == 0 => fits(k1.checked_mul(c2), c1.checked_mul(c2)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The part of the range `a..b` of the loop's variable `x` that its first guards let
/// through, and how many guards that accounts for. A guard counts when it is a comparison, or
/// an `and` of them, of expressions affine in `x` (see [`affine`]) that overflow nowhere in
/// what is left of the range: each comparison is then monotone in `x`, so the values it lets
/// through are one interval, found by bisection, and it raises no error on the values it cuts
/// off. Cutting stops at the first comparison that does not count, as the interpreter would
/// evaluate it on every value not cut off before it.
pub(super) fn narrow(
    x: u32,
    mut a: i64,
    mut b: i64,
    guards: &[GenClause],
    regs: &[i64],
) -> (i64, i64, usize) {
    let mut narrowed = 0;
    for guard in guards {
        if a >= b {
            // Nothing is left: no guard is evaluated on anything.
            return (a, a, guards.len());
        }
        let GenClause::If(cond) = guard else {
            break;
        };
        match narrow_and(cond, x, (a, b), regs) {
            Ok(range) => (a, b) = range,
            Err((lo, hi)) => return (lo, hi, narrowed),
        }
        narrowed += 1;
    }
    (a, b, narrowed)
}

/// The range cut by the operands of an `and` chain, left to right (the order the interpreter
/// evaluates them); `Err` with the range cut so far at the first operand that does not count.
/// An `or` counts when its left operand holds everywhere or nowhere in the range.
pub(super) fn narrow_and(
    cond: &BoolExpr,
    x: u32,
    range: (i64, i64),
    regs: &[i64],
) -> Result<(i64, i64), (i64, i64)> {
    match cond {
        BoolExpr::And(l, r) => {
            let range = narrow_and(l, x, range, regs)?;
            narrow_and(r, x, range, regs)
        }
        // Nothing is left: the operand is evaluated on nothing.
        _ if range.0 >= range.1 => Ok(range),
        // `l or r` with `l` the same over the range (it does not depend on `x`, as in
        // `(i, j) != (0, 0)` looping over `j`): every value where `l` holds, or `r` cut.
        BoolExpr::Or(l, r) => match narrow_by(l, x, range.0, range.1, regs) {
            Some(cut) if cut == range => Ok(range),
            Some((lo, hi)) if lo >= hi => narrow_and(r, x, range, regs),
            _ => Err(range),
        },
        other => narrow_by(other, x, range.0, range.1, regs).ok_or(range),
    }
}

/// The values of the non-empty range `a..b` that the comparison `cond` lets through, an
/// interval, when it is an affine comparison (see [`narrow`]); `None` when it is not.
pub(super) fn narrow_by(
    cond: &BoolExpr,
    x: u32,
    a: i64,
    b: i64,
    regs: &[i64],
) -> Option<(i64, i64)> {
    let BoolExpr::Cmp(op, l, r) = cond else {
        return None;
    };
    if let Some(cut) = narrow_leaves(*op, l, r, x, a, b, regs) {
        return cut;
    }
    let (k1, c1) = affine(l, x, regs, a, b - 1)?;
    let (k2, c2) = affine(r, x, regs, a, b - 1)?;
    // The comparison holds at `v` iff `k v + c op 0`.
    let (k, c) = (k1.checked_sub(k2)?, c1.checked_sub(c2)?);
    let exact = |v: i64| {
        k.checked_mul(i128::from(v))
            .and_then(|kv| kv.checked_add(c))
    };
    exact(a)?;
    exact(b - 1)?;
    if matches!(op, BinaryOp::Eq | BinaryOp::Ne) && k != 0 {
        // Not monotone: a point, or all but a point.
        return None;
    }
    let holds = |v: i64| {
        // `k v + c` lies between its values at the ends, which fit: no overflow.
        let d = k * i128::from(v) + c;
        match op {
            BinaryOp::Eq => d == 0,
            BinaryOp::Ne => d != 0,
            BinaryOp::Lt => d < 0,
            BinaryOp::Le => d <= 0,
            BinaryOp::Gt => d > 0,
            _ => d >= 0,
        }
    };
    Some(match (holds(a), holds(b - 1)) {
        (true, true) => (a, b),
        (false, false) => (a, a),
        // True up to some value: the first one that does not hold ends the range.
        (true, false) => (a, first_where(a, b - 1, false, holds)),
        // True from some value on: the first one that holds starts the range.
        (false, true) => (first_where(a, b - 1, true, holds), b),
    })
}

/// [`narrow_by`] of the commonest comparisons, of variables and literals (`i != 0`,
/// `j < k`), worked out directly: `None` when they are not such (then the general way
/// decides), else the interval of the values that pass (an empty one as `(a, a)`), or
/// `Some(None)` when they are not an interval. Unlike the general way, `x == c` and
/// `x != c` with `c` at an end of the range or outside it narrow too (`j != 0` over `0..w`).
fn narrow_leaves(
    op: BinaryOp,
    l: &IntExpr,
    r: &IntExpr,
    x: u32,
    a: i64,
    b: i64,
    regs: &[i64],
) -> Option<Option<(i64, i64)>> {
    // `None` for the loop's variable, else the value.
    let leaf = |e: &IntExpr| match e {
        IntExpr::Lit(n) => Some(Some(*n)),
        IntExpr::Reg(r) if *r == x => Some(None),
        IntExpr::Reg(r) => Some(Some(regs[*r as usize])),
        _ => None,
    };
    let all_or_none = |holds: bool| Some(Some(if holds { (a, b) } else { (a, a) }));
    let (op, c) = match (leaf(l)?, leaf(r)?) {
        (Some(p), Some(q)) => return all_or_none(compare(op, p, q)),
        (None, None) => {
            return all_or_none(matches!(op, BinaryOp::Eq | BinaryOp::Le | BinaryOp::Ge))
        }
        (None, Some(c)) => (op, c),
        (Some(c), None) => (flipped(op), c),
    };
    // `x op c` over `a..b`: the values below `end` (or from `end` on).
    let (below, end) = match op {
        BinaryOp::Lt => (true, i128::from(c)),
        BinaryOp::Le => (true, i128::from(c) + 1),
        BinaryOp::Gt => (false, i128::from(c) + 1),
        BinaryOp::Ge => (false, i128::from(c)),
        // `x == c`: the point, if in the range.
        BinaryOp::Eq => return Some(Some(point(a, b, c).unwrap_or((a, a)))),
        // `x != c`: all of the range when `c` lies outside it, all but an end when it is
        // one; a hole in the middle is not an interval.
        _ => {
            return match point(a, b, c) {
                None => all_or_none(true),
                Some(_) if c == a => Some(Some(if a + 1 < b { (a + 1, b) } else { (a, a) })),
                Some(_) if c == b - 1 => Some(Some((a, b - 1))),
                Some(_) => Some(None),
            }
        }
    };
    let end = end.clamp(i128::from(a), i128::from(b)) as i64;
    let (lo, hi) = if below { (a, end) } else { (end, b) };
    Some(Some(if lo < hi { (lo, hi) } else { (a, a) }))
}

/// `c..c + 1` when `c` lies in `a..b`.
fn point(a: i64, b: i64, c: i64) -> Option<(i64, i64)> {
    (a <= c && c < b).then(|| (c, c + 1))
}

/// The first value in `lo..=hi` at which `holds` is `want`, by bisection: it is not at
/// `lo`, it is at `hi`, and it changes once in between.
pub(super) fn first_where(
    mut lo: i64,
    mut hi: i64,
    want: bool,
    holds: impl Fn(i64) -> bool,
) -> i64 {
    while arith::range_count(lo, hi) > 1 {
        // The floor of the mean, between them, computed where it cannot overflow.
        let mid = ((i128::from(lo) + i128::from(hi)) >> 1) as i64;
        if holds(mid) == want {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Counts `n` steps of a loop at once (see [`Run::tick`]).
pub(super) fn tick_n(ticks: &mut u32, stop: &Stop, n: usize) -> Eval<()> {
    // Past `u32::MAX` steps (a limit raised by a library user) the stop is checked anyway.
    let n = u32::try_from(n).unwrap_or(u32::MAX);
    *ticks = ticks.wrapping_add(n);
    if n >= 4096 || *ticks % 4096 < n {
        stop.check().map_err(Interrupt::Error)?;
    }
    Ok(())
}

impl IntExpr {
    /// Evaluates the expression in every lane of a block, into `out` (as long as the block).
    /// Any lane's error (overflow, division by 0) stops the block with `Fallback`: the
    /// interpreter then finds out whether a lane the guards let through really fails.
    pub(super) fn eval_block(&self, at: &Lanes<'_>, out: &mut [i64], pool: &mut Pool) -> Eval<()> {
        let mut bad = false;
        match self {
            IntExpr::Lit(n) => out.fill(*n),
            IntExpr::Reg(r) => match at.varying(*r) {
                Some(values) => out.copy_from_slice(values),
                None => out.fill(at.regs[*r as usize]),
            },
            IntExpr::Neg(x) => {
                x.eval_block(at, out, pool)?;
                bad |= arith::neg_lanes(out);
            }
            IntExpr::Abs(x) => {
                x.eval_block(at, out, pool)?;
                bad |= arith::abs_lanes(out);
            }
            IntExpr::Bin(op, l, r) => {
                // A side that is the same in every lane (a literal, a register other than the
                // loop's) is not spread over a block: `n - i`, `2 * i`.
                if let Some(b) = r.scalar(at) {
                    l.eval_block(at, out, pool)?;
                    bad |= op.apply_lanes(out, std::iter::repeat(b));
                } else if let Some(a) = l.scalar(at) {
                    r.eval_block(at, out, pool)?;
                    bad |= op.apply_lanes_to(a, out);
                } else {
                    l.eval_block(at, out, pool)?;
                    let mut rhs = pool.ints();
                    let rhs_block = &mut rhs[..out.len()];
                    r.eval_block(at, rhs_block, pool)?;
                    bad |= op.apply_lanes(out, rhs_block.iter().copied());
                    pool.ints.push(rhs);
                }
            }
            IntExpr::If(c, t, f) => {
                let mut cond = pool.bools();
                let n = out.len();
                c.eval_block(at, &mut cond[..n], pool)?;
                t.eval_block(at, out, pool)?;
                // A register's lanes (or one value) are read in place, not copied first.
                if let Some(e) = f.scalar(at) {
                    for (v, c) in out.iter_mut().zip(&cond[..n]) {
                        if !*c {
                            *v = e;
                        }
                    }
                } else if let Some(other) = f.lanes_in_place(at) {
                    for ((v, c), e) in out.iter_mut().zip(&cond[..n]).zip(other) {
                        if !*c {
                            *v = *e;
                        }
                    }
                } else {
                    let mut other = pool.ints();
                    f.eval_block(at, &mut other[..n], pool)?;
                    for ((v, c), e) in out.iter_mut().zip(&cond[..n]).zip(&other[..n]) {
                        if !*c {
                            *v = *e;
                        }
                    }
                    pool.ints.push(other);
                }
                pool.bools.push(cond);
            }
            IntExpr::Min(xs) | IntExpr::Max(xs) => {
                let min = matches!(self, IntExpr::Min(_));
                xs[0].eval_block(at, out, pool)?;
                for x in &xs[1..] {
                    if let Some(w) = x.scalar(at) {
                        // `min(l, j)` with `j` the same in every lane: no block of `j`s.
                        for v in out.iter_mut() {
                            if (min && w < *v) || (!min && w > *v) {
                                *v = w;
                            }
                        }
                        continue;
                    }
                    let mut next = pool.ints();
                    let block = &mut next[..out.len()];
                    x.eval_block(at, block, pool)?;
                    for (v, w) in out.iter_mut().zip(block.iter()) {
                        if (min && *w < *v) || (!min && *w > *v) {
                            *v = *w;
                        }
                    }
                    pool.ints.push(next);
                }
            }
            // Not blockable: a rule with these never runs in blocks.
            IntExpr::Index(..)
            | IntExpr::Len(_)
            | IntExpr::SumList(_)
            | IntExpr::Fold(_)
            | IntExpr::Let(..)
            | IntExpr::Memo(..)
            | IntExpr::ExtremeList(..)
            | IntExpr::Call(..) => return Err(Interrupt::Fallback),
        }
        if bad {
            return Err(Interrupt::Fallback);
        }
        Ok(())
    }
}

impl IntExpr {
    /// The lanes of a register that varies from lane to lane, to be read in place.
    #[inline]
    pub(super) fn lanes_in_place<'l>(&self, at: &Lanes<'l>) -> Option<&'l [i64]> {
        match self {
            IntExpr::Reg(r) => at.varying(*r),
            _ => None,
        }
    }

    /// The expression's value when it is the same in every lane of a block, and costs
    /// nothing to compute (a literal, or a register other than the loop's).
    pub(super) fn scalar(&self, at: &Lanes<'_>) -> Option<i64> {
        match self {
            IntExpr::Lit(n) => Some(*n),
            IntExpr::Reg(r) if at.varying(*r).is_none() => Some(at.regs[*r as usize]),
            _ => None,
        }
    }
}

/// `op` with its operands swapped: `y op x` is `x flipped(op) y`.
pub(super) fn flipped(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// A comparison of two integers (the operator is one of `==`, `!=`, `<`, `<=`, `>`, `>=`).
pub(super) fn compare(op: BinaryOp, x: i64, y: i64) -> bool {
    match op {
        BinaryOp::Eq => x == y,
        BinaryOp::Ne => x != y,
        BinaryOp::Lt => x < y,
        BinaryOp::Le => x <= y,
        BinaryOp::Gt => x > y,
        _ => x >= y,
    }
}

/// `out[i] = xs[i] op ys[i]` in every lane, the operator chosen once for the block.
pub(super) fn compare_lanes(
    op: BinaryOp,
    out: &mut [bool],
    xs: &[i64],
    ys: impl Iterator<Item = i64>,
) {
    let lanes = out.iter_mut().zip(xs).zip(ys);
    match op {
        BinaryOp::Eq => lanes.for_each(|((v, x), y)| *v = *x == y),
        BinaryOp::Ne => lanes.for_each(|((v, x), y)| *v = *x != y),
        BinaryOp::Lt => lanes.for_each(|((v, x), y)| *v = *x < y),
        BinaryOp::Le => lanes.for_each(|((v, x), y)| *v = *x <= y),
        BinaryOp::Gt => lanes.for_each(|((v, x), y)| *v = *x > y),
        _ => lanes.for_each(|((v, x), y)| *v = *x >= y),
    }
}

impl BoolExpr {
    /// Evaluates the condition in every lane of a block (both sides of `and`/`or`: a lane
    /// error that short-circuiting would have avoided only sends the rule to the interpreter).
    pub(super) fn eval_block(&self, at: &Lanes<'_>, out: &mut [bool], pool: &mut Pool) -> Eval<()> {
        match self {
            BoolExpr::Lit(b) => out.fill(*b),
            // A boolean register is never a loop's (those hold integers): one value.
            BoolExpr::Reg(r) => out.fill(at.regs[*r as usize] != 0),
            BoolExpr::Not(x) => {
                x.eval_block(at, out, pool)?;
                out.iter_mut().for_each(|v| *v = !*v);
            }
            BoolExpr::And(l, r) | BoolExpr::Or(l, r) | BoolExpr::Same(_, l, r) => {
                l.eval_block(at, out, pool)?;
                let mut rhs = pool.bools();
                let block = &mut rhs[..out.len()];
                r.eval_block(at, block, pool)?;
                let lanes = out.iter_mut().zip(block.iter());
                if let BoolExpr::Same(ne, ..) = self {
                    lanes.for_each(|(v, w)| *v = (*v == *w) != *ne);
                } else if matches!(self, BoolExpr::And(..)) {
                    lanes.for_each(|(v, w)| *v = *v && *w);
                } else {
                    lanes.for_each(|(v, w)| *v = *v || *w);
                }
                pool.bools.push(rhs);
            }
            BoolExpr::Cmp(op, l, r) if r.scalar(at).is_some() => {
                let y = r.scalar(at).unwrap_or(0);
                if let Some(xs) = l.lanes_in_place(at) {
                    // A loop's register against one value (`l > 0`, `r >= i`): read in place.
                    compare_lanes(*op, out, xs, std::iter::repeat(y));
                    return Ok(());
                }
                let n = out.len();
                let mut a = pool.ints();
                l.eval_block(at, &mut a[..n], pool)?;
                compare_lanes(*op, out, &a[..n], std::iter::repeat(y));
                pool.ints.push(a);
            }
            BoolExpr::Cmp(op, l, r) => {
                let n = out.len();
                let mut a = pool.ints();
                let mut b = pool.ints();
                l.eval_block(at, &mut a[..n], pool)?;
                r.eval_block(at, &mut b[..n], pool)?;
                compare_lanes(*op, out, &a[..n], b[..n].iter().copied());
                pool.ints.push(a);
                pool.ints.push(b);
            }
            // Not blockable: a rule with these never runs in blocks.
            BoolExpr::In(..)
            | BoolExpr::TupleCmp(..)
            | BoolExpr::Quant(..)
            | BoolExpr::IndexedQuant(_)
            | BoolExpr::LinesQuant(_)
            | BoolExpr::Let(..)
            | BoolExpr::Memo(..) => return Err(Interrupt::Fallback),
        }
        Ok(())
    }
}

/// Values the lane kernels' tests try: every comparison, and integers at the ends and
/// around zero.
#[cfg(test)]
pub(super) mod test_values {
    use crate::syntax::ast::BinaryOp;

    pub(in crate::eval::compiled) const OPS: [BinaryOp; 6] = [
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
    ];

    pub(in crate::eval::compiled) const EDGES: [i64; 9] = [
        i64::MIN,
        i64::MIN + 1,
        -2,
        -1,
        0,
        1,
        2,
        i64::MAX - 1,
        i64::MAX,
    ];
}
