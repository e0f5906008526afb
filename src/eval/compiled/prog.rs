//! Flat lane programs: the body and guard of a comprehension or fold that runs in blocks
//! (see [`super::Gen::blocks`]), translated once, at compile time, into a list of column
//! operations. Each operation writes one column of the block (a slice of a reused arena) from
//! the generator's lanes, registers the same in every lane, literals or earlier columns; its
//! operands' kinds are resolved once per block, so a lane costs a few instructions in a loop
//! the compiler can vectorise, and a block has no recursion and no scratch buffers to fetch.
//!
//! The meaning is that of `IntExpr::eval_block` and `BoolExpr::eval_block`: every operation
//! runs in every lane (both arms of an `if`), booleans are 0 or 1, and an error in any lane
//! (an overflow, a division by zero) sends the whole expression to the interpreter.
//!
//! The commonest shape, one comparison of the item as a filter or a counted condition
//! (`ItemTest`), runs as one loop with no columns.

use super::lanes::{compare, flipped, Lanes, LANES, OUTER};
use super::run::Eval;
use super::select::{select, select_cmp, ArmSrc};
use super::{BoolExpr, IntExpr, Interrupt};
use crate::eval::arith::IntOp;
use crate::syntax::ast::BinaryOp;

/// Where an operation reads an operand.
#[derive(Debug, Clone, Copy)]
pub(super) enum Src {
    /// The generator's item, lane by lane.
    Item,
    /// The item's index (`enumerate`), lane by lane.
    Index,
    /// A loop's variable, lane by lane (see `cross.rs`): the innermost loop's (0), or one
    /// the loop around it binds (1 and 2).
    Outer(u8),
    /// A literal.
    Lit(i64),
    /// An integer register, the same in every lane.
    Reg(u32),
    /// A boolean register, read as 0 or 1.
    BoolReg(u32),
    /// The column that operation `k` wrote.
    Col(u32),
}

/// One column operation.
#[derive(Debug, Clone, Copy)]
pub(super) enum Op {
    Int(IntOp, Src, Src),
    Neg(Src),
    Abs(Src),
    Min(Src, Src),
    Max(Src, Src),
    /// A comparison, 1 where it holds.
    Cmp(BinaryOp, Src, Src),
    /// `if c then t else f`.
    Select(Src, Src, Src),
    /// `if a op b then t else f`: a comparison fused with the `if` that uses it, and arms
    /// that may be `min`/`max` of a lane and a uniform value (one pass, see `select.rs`).
    SelectCmp(BinaryOp, [Src; 2], ArmSrc, ArmSrc),
    And(Src, Src),
    Or(Src, Src),
    Not(Src),
    /// `a == b` of booleans (`!=` when set).
    Same(bool, Src, Src),
}

/// A block expression as column operations: operation `k` writes column `k`.
#[derive(Debug, Clone)]
pub(super) struct Prog {
    ops: Vec<Op>,
    out: Src,
    /// Whether an operand is the items' index.
    pub(super) reads_index: bool,
    /// Which loops' variables an operand reads as lanes (see [`Src::Outer`]).
    pub(super) reads_outer: [bool; OUTER],
}

/// A program's value in a block: its lanes, or one value for all of them.
#[derive(Clone, Copy)]
pub(super) enum Out<'a> {
    Lanes(&'a [i64]),
    Same(i64),
}

/// More operations than this and the expression is evaluated item by item instead (each
/// operation's column takes `LANES` integers of the arena).
const MAX_OPS: usize = 48;

/// The translation of one expression.
struct Build {
    ops: Vec<Op>,
    item: Option<u32>,
    index: Option<u32>,
    /// The loops' variables that vary from lane to lane too (see [`Src::Outer`]).
    outer: [Option<u32>; OUTER],
    reads_index: bool,
    reads_outer: [bool; OUTER],
}

impl Build {
    fn push(&mut self, op: Op) -> Option<Src> {
        if self.ops.len() >= MAX_OPS {
            return None;
        }
        self.ops.push(op);
        Some(Src::Col(self.ops.len() as u32 - 1))
    }

    fn reg(&mut self, r: u32) -> Src {
        if Some(r) == self.item {
            Src::Item
        } else if Some(r) == self.index {
            self.reads_index = true;
            Src::Index
        } else if let Some(k) = self.outer.iter().position(|o| *o == Some(r)) {
            self.reads_outer[k] = true;
            Src::Outer(k as u8)
        } else {
            Src::Reg(r)
        }
    }

    fn int(&mut self, e: &IntExpr) -> Option<Src> {
        match e {
            IntExpr::Lit(n) => Some(Src::Lit(*n)),
            IntExpr::Reg(r) => Some(self.reg(*r)),
            IntExpr::Neg(x) => {
                let a = self.int(x)?;
                self.push(Op::Neg(a))
            }
            IntExpr::Abs(x) => {
                let a = self.int(x)?;
                self.push(Op::Abs(a))
            }
            IntExpr::Bin(op, l, r) => {
                let a = self.int(l)?;
                let b = self.int(r)?;
                self.push(Op::Int(*op, a, b))
            }
            IntExpr::If(c, t, f) if matches!(**c, BoolExpr::Cmp(..)) => {
                let BoolExpr::Cmp(op, l, r) = &**c else {
                    return None;
                };
                let a = self.int(l)?;
                let b = self.int(r)?;
                let t = self.arm(t)?;
                let f = self.arm(f)?;
                self.push(Op::SelectCmp(*op, [a, b], t, f))
            }
            IntExpr::If(c, t, f) => {
                let c = self.boolean(c)?;
                let t = self.int(t)?;
                let f = self.int(f)?;
                self.push(Op::Select(c, t, f))
            }
            IntExpr::Min(xs) | IntExpr::Max(xs) => {
                let min = matches!(e, IntExpr::Min(_));
                let (first, rest) = xs.split_first()?;
                let mut acc = self.int(first)?;
                for x in rest {
                    let b = self.int(x)?;
                    acc = self.push(if min {
                        Op::Min(acc, b)
                    } else {
                        Op::Max(acc, b)
                    })?;
                }
                Some(acc)
            }
            _ => None,
        }
    }

    /// An arm of a fused select: `min`/`max` of two operands, one or both varying from lane
    /// to lane, computed within the select; any other expression as an operand.
    fn arm(&mut self, e: &IntExpr) -> Option<ArmSrc> {
        if let IntExpr::Min(xs) | IntExpr::Max(xs) = e {
            if let [x, y] = xs.as_slice() {
                let min = matches!(e, IntExpr::Min(_));
                let (a, b) = (self.int(x)?, self.int(y)?);
                if let Some(arm) = ArmSrc::extreme(min, a, b) {
                    return Some(arm);
                }
                let col = self.push(if min { Op::Min(a, b) } else { Op::Max(a, b) })?;
                return Some(ArmSrc::Plain(col));
            }
        }
        Some(ArmSrc::Plain(self.int(e)?))
    }

    fn boolean(&mut self, e: &BoolExpr) -> Option<Src> {
        match e {
            BoolExpr::Lit(b) => Some(Src::Lit(i64::from(*b))),
            // A boolean register is never a generator's (those hold integers).
            BoolExpr::Reg(r) => Some(Src::BoolReg(*r)),
            BoolExpr::Not(x) => {
                let a = self.boolean(x)?;
                self.push(Op::Not(a))
            }
            BoolExpr::And(l, r) | BoolExpr::Or(l, r) | BoolExpr::Same(_, l, r) => {
                let a = self.boolean(l)?;
                let b = self.boolean(r)?;
                self.push(match e {
                    BoolExpr::And(..) => Op::And(a, b),
                    BoolExpr::Or(..) => Op::Or(a, b),
                    BoolExpr::Same(ne, ..) => Op::Same(*ne, a, b),
                    _ => return None,
                })
            }
            BoolExpr::Cmp(op, l, r) => {
                let a = self.int(l)?;
                let b = self.int(r)?;
                self.push(Op::Cmp(*op, a, b))
            }
            _ => None,
        }
    }
}

/// An operand resolved for one block.
#[derive(Clone, Copy)]
pub(super) enum V<'a> {
    S(&'a [i64]),
    C(i64),
}

impl Prog {
    /// The program of an integer expression over a generator binding `item` and `index`,
    /// when blocks can compute it and it is not too long.
    pub(super) fn int(e: &IntExpr, item: Option<u32>, index: Option<u32>) -> Option<Prog> {
        Self::int_over(e, item, index, [None; OUTER])
    }

    /// [`Prog::int`] with the loops' variables `outer` varying from lane to lane too: the
    /// innermost loop's, and maybe the two the loop around it binds (see `cross.rs`).
    pub(super) fn cross(
        e: &IntExpr,
        item: Option<u32>,
        index: Option<u32>,
        outer: [Option<u32>; OUTER],
    ) -> Option<Prog> {
        Self::int_over(e, item, index, outer)
    }

    /// [`Prog::int`] over the lanes' `outer` variables, if any.
    fn int_over(
        e: &IntExpr,
        item: Option<u32>,
        index: Option<u32>,
        outer: [Option<u32>; OUTER],
    ) -> Option<Prog> {
        let mut b = Build {
            ops: Vec::new(),
            item,
            index,
            outer,
            reads_index: false,
            reads_outer: [false; OUTER],
        };
        let out = b.int(e)?;
        Some(Prog {
            ops: b.ops,
            out,
            reads_index: b.reads_index,
            reads_outer: b.reads_outer,
        })
    }

    /// The same for a condition (its lanes are 0 or 1).
    pub(super) fn boolean(e: &BoolExpr, item: Option<u32>, index: Option<u32>) -> Option<Prog> {
        let mut b = Build {
            ops: Vec::new(),
            item,
            index,
            outer: [None; OUTER],
            reads_index: false,
            reads_outer: [false; OUTER],
        };
        let out = b.boolean(e)?;
        Some(Prog {
            ops: b.ops,
            out,
            reads_index: b.reads_index,
            reads_outer: b.reads_outer,
        })
    }

    /// Runs the program on a block of `at.values.len()` lanes, its columns in `arena`.
    pub(super) fn run<'a>(&self, at: &Lanes<'a>, arena: &'a mut Vec<i64>) -> Eval<Out<'a>> {
        let n = at.values.len();
        let need = self.ops.len() * LANES;
        if arena.len() < need {
            arena.resize(need, 0);
        }
        let mut bad = false;
        for (k, op) in self.ops.iter().enumerate() {
            let (done, rest) = arena.split_at_mut(k * LANES);
            bad |= exec(op, &mut rest[..n], at, done);
        }
        if bad {
            return Err(Interrupt::Fallback);
        }
        let arena: &'a [i64] = arena;
        Ok(match resolve(self.out, at, arena, n) {
            V::S(lanes) => Out::Lanes(lanes),
            V::C(v) => Out::Same(v),
        })
    }

    /// [`Prog::run`] with the program's value written into `dst` (as long as the block): the
    /// last operation writes there directly when it is the value, so no column is copied.
    pub(super) fn run_into(
        &self,
        at: &Lanes<'_>,
        arena: &mut Vec<i64>,
        dst: &mut [i64],
    ) -> Eval<()> {
        let n = dst.len();
        let last = self.ops.len().wrapping_sub(1);
        let direct = matches!(self.out, Src::Col(k) if k as usize == last);
        let columns = if direct { last } else { self.ops.len() };
        let need = columns * LANES;
        if arena.len() < need {
            arena.resize(need, 0);
        }
        let mut bad = false;
        for (k, op) in self.ops[..columns].iter().enumerate() {
            let (done, rest) = arena.split_at_mut(k * LANES);
            bad |= exec(op, &mut rest[..n], at, done);
        }
        if direct {
            bad |= exec(&self.ops[last], dst, at, arena);
        } else {
            match resolve(self.out, at, arena, n) {
                V::S(lanes) => dst.copy_from_slice(&lanes[..n]),
                V::C(v) => dst.fill(v),
            }
        }
        if bad {
            return Err(Interrupt::Fallback);
        }
        Ok(())
    }
}

/// Runs one operation into `dst`, its operands read from `at` and the columns `done`; true
/// when some lane fails. Each operation kind's loops are a function of their own, which
/// keeps the loop over operations small.
#[inline]
fn exec(op: &Op, dst: &mut [i64], at: &Lanes<'_>, done: &[i64]) -> bool {
    let n = dst.len();
    let get = |s: Src| resolve(s, at, done, n);
    match *op {
        Op::Int(op, a, b) => int_op(op, dst, get(a), get(b)),
        Op::Neg(a) => neg(dst, get(a)),
        Op::Abs(a) => abs(dst, get(a)),
        Op::Min(a, b) => extreme(true, dst, get(a), get(b)),
        Op::Max(a, b) => extreme(false, dst, get(a), get(b)),
        Op::Cmp(op, a, b) => cmp_op(op, dst, get(a), get(b)),
        Op::Select(c, t, f) => select(dst, get(c), get(t), get(f)),
        Op::SelectCmp(op, [a, b], t, f) => {
            let (t, f) = (t.resolve(get, at, done, n), f.resolve(get, at, done, n));
            select_cmp(op, dst, [get(a), get(b)], t, f)
        }
        Op::And(a, b) => logic(0, dst, get(a), get(b)),
        Op::Or(a, b) => logic(1, dst, get(a), get(b)),
        Op::Same(ne, a, b) => logic(if ne { 3 } else { 2 }, dst, get(a), get(b)),
        Op::Not(a) => logic(4, dst, get(a), V::C(0)),
    }
}

#[inline(never)]
fn neg(dst: &mut [i64], a: V<'_>) -> bool {
    map1(dst, a, |x| x.overflowing_neg())
}

#[inline(never)]
fn abs(dst: &mut [i64], a: V<'_>) -> bool {
    map1(dst, a, |x| (x.wrapping_abs(), x == i64::MIN))
}

#[inline(never)]
fn extreme(min: bool, dst: &mut [i64], a: V<'_>, b: V<'_>) -> bool {
    if min {
        map2(dst, a, b, |x, y| (x.min(y), false))
    } else {
        map2(dst, a, b, |x, y| (x.max(y), false))
    }
}

/// `and` (0), `or` (1), `==` (2), `!=` (3) of booleans, or `not` of `a` (4).
#[inline(never)]
fn logic(which: u8, dst: &mut [i64], a: V<'_>, b: V<'_>) -> bool {
    match which {
        0 => map2(dst, a, b, |x, y| (x & y, false)),
        1 => map2(dst, a, b, |x, y| (x | y, false)),
        2 => map2(dst, a, b, |x, y| (1 ^ x ^ y, false)),
        3 => map2(dst, a, b, |x, y| (x ^ y, false)),
        _ => map1(dst, a, |x| (x ^ 1, false)),
    }
}

#[inline]
fn resolve<'a>(s: Src, at: &Lanes<'a>, done: &'a [i64], n: usize) -> V<'a> {
    match s {
        Src::Item => V::S(at.values),
        Src::Index => V::S(at.index_values),
        Src::Outer(k) => V::S(at.outer_values[k as usize]),
        Src::Lit(v) => V::C(v),
        Src::Reg(r) => V::C(at.regs[r as usize]),
        Src::BoolReg(r) => V::C(i64::from(at.regs[r as usize] != 0)),
        Src::Col(k) => V::S(&done[k as usize * LANES..][..n]),
    }
}

/// `dst = f(a)` lane by lane; true when some lane fails.
#[inline]
fn map1(dst: &mut [i64], a: V<'_>, f: impl Fn(i64) -> (i64, bool)) -> bool {
    let mut bad = false;
    match a {
        V::S(xs) => dst.iter_mut().zip(xs).for_each(|(d, x)| {
            let (v, o) = f(*x);
            *d = v;
            bad |= o;
        }),
        V::C(x) => {
            let (v, o) = f(x);
            dst.fill(v);
            bad = o;
        }
    }
    bad
}

/// `dst = f(a, b)` lane by lane; true when some lane fails.
#[inline]
fn map2(dst: &mut [i64], a: V<'_>, b: V<'_>, f: impl Fn(i64, i64) -> (i64, bool)) -> bool {
    let mut bad = false;
    match (a, b) {
        (V::S(xs), V::S(ys)) => dst.iter_mut().zip(xs).zip(ys).for_each(|((d, x), y)| {
            let (v, o) = f(*x, *y);
            *d = v;
            bad |= o;
        }),
        (V::S(xs), V::C(y)) => dst.iter_mut().zip(xs).for_each(|(d, x)| {
            let (v, o) = f(*x, y);
            *d = v;
            bad |= o;
        }),
        (V::C(x), V::S(ys)) => dst.iter_mut().zip(ys).for_each(|(d, y)| {
            let (v, o) = f(x, *y);
            *d = v;
            bad |= o;
        }),
        (V::C(x), V::C(y)) => {
            let (v, o) = f(x, y);
            dst.fill(v);
            bad = o;
        }
    }
    bad
}

/// Checked arithmetic, as the interpreter's.
#[inline(never)]
fn int_op(op: IntOp, dst: &mut [i64], a: V<'_>, b: V<'_>) -> bool {
    match op {
        IntOp::Add => map2(dst, a, b, i64::overflowing_add),
        IntOp::Sub => map2(dst, a, b, i64::overflowing_sub),
        IntOp::Mul => map2(dst, a, b, i64::overflowing_mul),
        IntOp::Xor => map2(dst, a, b, |x, y| (x ^ y, false)),
        IntOp::And => map2(dst, a, b, |x, y| (x & y, false)),
        IntOp::Or => map2(dst, a, b, |x, y| (x | y, false)),
        IntOp::Div | IntOp::Rem | IntOp::Pow => map2(dst, a, b, |x, y| match op.apply(x, y) {
            Ok(v) => (v, false),
            Err(_) => (0, true),
        }),
    }
}

#[inline(never)]
fn cmp_op(op: BinaryOp, dst: &mut [i64], a: V<'_>, b: V<'_>) -> bool {
    match op {
        BinaryOp::Eq => map2(dst, a, b, |x, y| (i64::from(x == y), false)),
        BinaryOp::Ne => map2(dst, a, b, |x, y| (i64::from(x != y), false)),
        BinaryOp::Lt => map2(dst, a, b, |x, y| (i64::from(x < y), false)),
        BinaryOp::Le => map2(dst, a, b, |x, y| (i64::from(x <= y), false)),
        BinaryOp::Gt => map2(dst, a, b, |x, y| (i64::from(x > y), false)),
        _ => map2(dst, a, b, |x, y| (i64::from(x >= y), false)),
    }
}

/// A comparison of the generator's item with a value the same in every lane (`l > 0`,
/// `c == p`): the commonest filter and counted condition. A comprehension or fold made of one
/// (see [`GenProgs`](super::lists::GenProgs)) runs as one loop over the items, with no
/// columns.
#[derive(Debug, Clone, Copy)]
pub(super) struct ItemTest {
    /// The comparison, with the item on its left.
    op: BinaryOp,
    other: Src,
}

impl Prog {
    /// The program as an [`ItemTest`], when it is one comparison of the item.
    pub(super) fn item_test(&self) -> Option<ItemTest> {
        let uniform = |s: Src| matches!(s, Src::Lit(_) | Src::Reg(_) | Src::BoolReg(_));
        match (self.ops.as_slice(), self.out) {
            ([Op::Cmp(op, a, b)], Src::Col(0)) => match (*a, *b) {
                (Src::Item, other) if uniform(other) => Some(ItemTest { op: *op, other }),
                (other, Src::Item) if uniform(other) => Some(ItemTest {
                    op: flipped(*op),
                    other,
                }),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether the program's value is the item itself.
    pub(super) fn is_item(&self) -> bool {
        self.ops.is_empty() && matches!(self.out, Src::Item)
    }
}

impl ItemTest {
    /// The comparison and what the item is compared with (the item on the left).
    pub(super) fn parts(&self) -> (BinaryOp, Src) {
        (self.op, self.other)
    }

    /// Calls `pass` with each of `items` the test lets through, in order.
    #[inline]
    pub(super) fn each(&self, items: &[i64], regs: &[i64], mut pass: impl FnMut(i64)) {
        let y = match self.other {
            Src::Reg(r) => regs[r as usize],
            Src::BoolReg(r) => i64::from(regs[r as usize] != 0),
            Src::Lit(v) => v,
            // Not made (see `item_test`).
            Src::Item | Src::Index | Src::Outer(_) | Src::Col(_) => return,
        };
        let pass = &mut pass;
        match self.op {
            BinaryOp::Eq => each_where(items, |v| v == y, pass),
            BinaryOp::Ne => each_where(items, |v| v != y, pass),
            BinaryOp::Lt => each_where(items, |v| v < y, pass),
            BinaryOp::Le => each_where(items, |v| v <= y, pass),
            BinaryOp::Gt => each_where(items, |v| v > y, pass),
            _ => each_where(items, |v| v >= y, pass),
        }
    }
}

/// `$body` with `$test` bound to the closure `x op y`, a copy per comparison (so that each
/// loop is compiled with its comparison inlined).
macro_rules! by_test {
    ($op:expr, $y:expr, |$test:ident| $body:expr) => {{
        let y = $y;
        match $op {
            BinaryOp::Eq => {
                let $test = |v: i64| v == y;
                $body
            }
            BinaryOp::Ne => {
                let $test = |v: i64| v != y;
                $body
            }
            BinaryOp::Lt => {
                let $test = |v: i64| v < y;
                $body
            }
            BinaryOp::Le => {
                let $test = |v: i64| v <= y;
                $body
            }
            BinaryOp::Gt => {
                let $test = |v: i64| v > y;
                $body
            }
            _ => {
                let $test = |v: i64| v >= y;
                $body
            }
        }
    }};
}

/// A filter's test on integers, with the value it compares with read: an item is kept when
/// it lies in `from..=from + width`, counted around the ends of the integers (`!= y` is the
/// range from `y + 1` round to `y - 1`). Every comparison of an integer with one value that
/// keeps something is such a range, so one unsigned comparison covers the six.
#[derive(Debug, Clone, Copy)]
pub struct Keep {
    from: i64,
    width: u64,
}

impl Keep {
    /// Whether the test keeps `v`.
    #[inline(always)]
    pub fn keeps(&self, v: i64) -> bool {
        // Below `from`, the difference wraps past `width`.
        v.wrapping_sub(self.from) as u64 <= self.width
    }

    /// The items of `cells` it keeps, in order, into `out` (cleared first).
    pub fn filter_into(&self, cells: &[i64], out: &mut Vec<i64>) {
        out.clear();
        out.extend(cells.iter().filter(|c| self.keeps(**c)));
    }
}

impl ItemTest {
    /// The value the item is compared with.
    pub(super) fn other_value(&self, regs: &[i64]) -> i64 {
        match self.other {
            Src::Reg(r) => regs[r as usize],
            Src::BoolReg(r) => i64::from(regs[r as usize] != 0),
            Src::Lit(v) => v,
            // Not made (see `item_test`).
            Src::Item | Src::Index | Src::Outer(_) | Src::Col(_) => 0,
        }
    }

    /// Whether the test reads register `reg`.
    pub(super) fn reads(&self, reg: u32) -> bool {
        matches!(self.other, Src::Reg(r) | Src::BoolReg(r) if r == reg)
    }

    /// The test with what the item is compared with read from `regs`; `None` when it keeps
    /// nothing (`< i64::MIN`, `> i64::MAX`).
    pub(super) fn keep(&self, regs: &[i64]) -> Option<Keep> {
        let y = self.other_value(regs);
        let (from, to) = match self.op {
            BinaryOp::Eq => (y, y),
            BinaryOp::Ne => (y.wrapping_add(1), y.wrapping_sub(1)),
            BinaryOp::Lt => (i64::MIN, y.checked_sub(1)?),
            BinaryOp::Le => (i64::MIN, y),
            BinaryOp::Gt => (y.checked_add(1)?, i64::MAX),
            _ => (y, i64::MAX),
        };
        Some(Keep {
            from,
            width: to.wrapping_sub(from) as u64,
        })
    }

    /// Keeps, in order, the items of `out[start..]` that the test lets through.
    pub(super) fn retain_from(&self, out: &mut Vec<i64>, start: usize, regs: &[i64]) {
        let y = self.other_value(regs);
        let kept = by_test!(self.op, y, |test| compact(&mut out[start..], test));
        out.truncate(start + kept);
    }

    /// Writes to the front of `dst` (at least as long as `row`), in order, the items of
    /// `row` that the test lets through; how many. They are read from `row` and written once
    /// (not copied first and read back, which would wait for the copy's stores), into a
    /// buffer that is not resized or cleared per row.
    pub(super) fn filter_into(&self, dst: &mut [i64], row: &[i64], regs: &[i64]) -> usize {
        let y = self.other_value(regs);
        by_test!(self.op, y, |test| compact_into(dst, row, test))
    }

    /// Appends to `out`, in order, the lanes of `values` that `keep` keeps (lanes of 1) and
    /// that pass the test against `y`.
    pub(super) fn extend_passing(
        &self,
        out: &mut Vec<i64>,
        values: Out<'_>,
        keep: Out<'_>,
        n: usize,
        y: i64,
    ) {
        match (values, keep) {
            (_, Out::Same(0)) => {}
            (Out::Same(v), keep) => {
                if compare(self.op, v, y) {
                    let m = match keep {
                        Out::Lanes(keep) => keep.iter().filter(|k| **k != 0).count(),
                        Out::Same(_) => n,
                    };
                    out.resize(out.len() + m, v);
                }
            }
            (Out::Lanes(values), Out::Same(_)) => {
                let start = out.len();
                out.extend_from_slice(&values[..n]);
                let kept = by_test!(self.op, y, |test| compact(&mut out[start..], test));
                out.truncate(start + kept);
            }
            (Out::Lanes(values), Out::Lanes(keep)) => {
                out.reserve(n);
                for (v, k) in values.iter().zip(keep) {
                    if *k != 0 && compare(self.op, *v, y) {
                        out.push(*v);
                    }
                }
            }
        }
    }
}

/// Moves the items that pass `test` to the front of `items`, in order, with no branch per
/// item; how many passed.
#[inline(always)]
fn compact(items: &mut [i64], test: impl Fn(i64) -> bool) -> usize {
    let mut kept = 0;
    for k in 0..items.len() {
        let v = items[k];
        items[kept] = v;
        kept += usize::from(test(v));
    }
    kept
}

/// Writes the items of `src` that pass `test` to the front of `dst` (at least as long), in
/// order, with no branch per item; how many passed.
#[inline(always)]
fn compact_into(dst: &mut [i64], src: &[i64], test: impl Fn(i64) -> bool) -> usize {
    let dst = &mut dst[..src.len()];
    let mut kept = 0;
    for &v in src {
        // `kept` is at most the items read before this one, so always in bounds.
        dst[kept] = v;
        kept += usize::from(test(v));
    }
    kept
}

#[inline(always)]
fn each_where(items: &[i64], test: impl Fn(i64) -> bool, pass: &mut impl FnMut(i64)) {
    for &v in items {
        if test(v) {
            pass(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lanes::test_values::{EDGES, OPS};
    use super::*;

    #[test]
    fn a_keep_test_keeps_what_its_comparison_holds_for() {
        for op in OPS {
            for y in EDGES {
                let keep = ItemTest {
                    op,
                    other: Src::Lit(y),
                }
                .keep(&[]);
                for v in EDGES {
                    let kept = keep.is_some_and(|k| k.keeps(v));
                    assert_eq!(kept, compare(op, v, y), "{v} {op:?} {y}");
                }
            }
        }
    }
}
