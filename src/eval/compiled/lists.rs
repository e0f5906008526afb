//! The list part of the compiled fragment: lists of integers held unboxed in registers
//! (a board, Chomp's rows), comprehensions and quantifiers over them, `set`, `len`, `count`,
//! `sum`, `x in xs`, indexing, and calls of user functions, inlined with their arguments
//! evaluated first, as the interpreter evaluates them.
//!
//! As for integer rules, the compiled form means what the interpreter does, in the same order;
//! where the interpreter would raise an error (an index out of range, a comprehension over
//! the collection limit, an overflow), evaluation stops with [`Interrupt::Fallback`] and the
//! interpreter runs the rule again and raises it.
//!
//! An inlined call reads a variable argument in place, not copied, and is remembered within a
//! run when its arguments are variables, keyed only by those that can change during the run. A
//! comprehension or fold over a list's items with an arithmetic body runs in blocks too, items
//! and indexes as lanes (`gen_blocks.rs`, `prog.rs`). Registers hold integers, booleans (0 or
//! 1), lists, or rows (`rows.rs`).

use std::ops::ControlFlow;
use std::sync::Arc;

use super::*;
use crate::eval::arith;
use crate::eval::grid;

/// What a register holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Int,
    List,
    /// A boolean, 0 or 1 in an integer register (a parameter such as `maker_first`).
    Bool,
    /// A list of lists of integers, read only by `for row in rows` (a family of winning
    /// sets passed as a parameter); its rows live in [`super::Buffers`]' `rows`.
    Rows,
}

/// Calls nest at most this deep when inlined; a deeper (or recursive) call is not compiled.
pub(super) const MAX_INLINE_DEPTH: usize = 12;

/// A list of integers.
#[derive(Debug, Clone)]
pub(super) enum ListExpr {
    /// A list register.
    Reg(u32),
    /// A literal list.
    Lit(Arc<[i64]>),
    /// `[a, b, c]`.
    Elems(Vec<IntExpr>),
    /// `[body for ...]`.
    Comp(Box<Gen>, Box<IntExpr>),
    /// `set(list, index, value)`.
    SetAt(Box<ListExpr>, Box<IntExpr>, Box<IntExpr>),
    /// `[value; count]`.
    Repeat(Box<IntExpr>, Box<IntExpr>),
    /// `reversed(xs)`.
    Reversed(Box<ListExpr>),
    /// `min(xs, ys, ...)` (true) or `max`: the least (greatest) list, item by item.
    Extreme(bool, Vec<ListExpr>),
    /// `min([xs for ...])` (true) or `max`: the least (greatest) of the lists made.
    ExtremeOf(bool, Box<Gen>, Box<ListExpr>),
    /// An inlined call: the arguments bound, then the body.
    Let(Vec<Binding>, Box<ListExpr>),
    /// `regions(m, w)`: the connected components of a bit-mask board.
    Regions(Box<IntExpr>, Box<IntExpr>),
    /// A filter of a computed list, fused (see `fused.rs`).
    Filter(Box<fused::Filter>),
}

/// An argument of an inlined call, bound to the callee's register.
#[derive(Debug, Clone)]
pub(super) enum Binding {
    Int(u32, IntExpr),
    List(u32, ListExpr),
    Bool(u32, BoolExpr),
    /// A constant list of lists, for a parameter read as rows.
    Rows(u32, Arc<RowSet>),
    /// A variable of the caller that the callee reads in place (see `Compiler::inline`):
    /// nothing to bind; the memo key reads it.
    Alias(Kind, u32),
}

/// The clauses of a comprehension or quantifier (or of a rule).
#[derive(Debug, Clone)]
pub(super) struct Gen {
    pub(super) clauses: Vec<GenClause>,
    /// When a comprehension or fold over this generator runs a block of items at a time
    /// (see [`Gen::blocks`]), its guard's and body's lane programs; set when the body is known.
    pub(super) progs: Option<Box<GenProgs>>,
}

/// The lane programs of a generator that runs in blocks.
#[derive(Debug, Clone)]
pub(super) struct GenProgs {
    pub(super) guard: Option<Prog>,
    pub(super) body: Prog,
    /// Whether either reads the items' index.
    pub(super) reads_index: bool,
    /// The shape that runs as one loop with no columns: the guard (or, without a guard, the
    /// body) is an [`ItemTest`], and with a guard the body is the item (`[l for l in rows if
    /// l > 0]`, `count(c == p for c in b)`).
    pub(super) test: Option<ItemTest>,
}

/// The body of a comprehension or fold, for [`Gen::with_body`].
pub(super) enum LaneBody<'e> {
    Int(&'e IntExpr),
    Bool(&'e BoolExpr),
}

/// One clause of a generator.
#[derive(Debug, Clone)]
pub(super) enum GenClause {
    /// `for reg in lo..hi` (`..=` when inclusive).
    Range {
        reg: u32,
        lo: IntExpr,
        hi: IntExpr,
        inclusive: bool,
    },
    /// `for item in list`, or `for (index, item) in enumerate(list)`; `None` for `_`.
    Items {
        index: Option<u32>,
        item: Option<u32>,
        list: ListExpr,
    },
    /// `for row in rows`, a constant list of integer lists or a rows register, each row into
    /// a list register.
    Rows { reg: u32, rows: RowsSource },
    /// `if cond`.
    If(BoolExpr),
}

pub(super) type Body<'b> = dyn FnMut(&mut Run<'_>) -> Eval<ControlFlow<()>> + 'b;

impl Gen {
    /// Runs the clauses from the first, calling `body` for every binding they make. The
    /// commonest generator (see [`Gen::simple`]) runs as a plain loop with `body` inlined;
    /// any other goes through [`run_clauses`].
    pub(super) fn for_each(
        &self,
        run: &mut Run<'_>,
        mut body: impl FnMut(&mut Run<'_>) -> Eval<ControlFlow<()>>,
    ) -> Eval<ControlFlow<()>> {
        let Some(simple) = self.simple() else {
            return run_clauses(&self.clauses, run, &mut body);
        };
        for k in 0..run.b.lists[simple.list as usize].len() {
            if simple.bind(run, k)? && body(run)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Notes whether a comprehension or fold over this generator with `body` runs in blocks:
    /// a simple generator (see [`Gen::simple`]) whose guard and body translate into lane
    /// programs (see [`Prog`]).
    pub(super) fn with_body(mut self, body: LaneBody<'_>) -> Gen {
        self.progs = self.simple().and_then(|g| {
            let guard = match g.guard {
                Some(cond) => Some(Prog::boolean(cond, g.item, g.index)?),
                None => None,
            };
            let body = match body {
                LaneBody::Int(e) => Prog::int(e, g.item, g.index)?,
                LaneBody::Bool(e) => Prog::boolean(e, g.item, g.index)?,
            };
            let reads_index = body.reads_index || guard.as_ref().is_some_and(|p| p.reads_index);
            let test = match &guard {
                Some(guard) if body.is_item() => guard.item_test(),
                Some(_) => None,
                None => body.item_test(),
            };
            Some(Box::new(GenProgs {
                guard,
                body,
                reads_index,
                test,
            }))
        });
        self
    }

    /// A generator whose lane programs make an [`ItemTest`] (see [`GenProgs::test`]): the
    /// list register, the test, and whether it is the guard (else the body).
    pub(super) fn item_test(&self) -> Option<(u32, ItemTest, bool)> {
        let progs = self.progs.as_deref()?;
        let test = progs.test?;
        Some((self.simple()?.list, test, progs.guard.is_some()))
    }

    /// The commonest generator, `for x in xs` or `for (i, x) in enumerate(xs)` over a list
    /// register, with at most one guard: its parts, for a loop without recursion.
    pub(super) fn simple(&self) -> Option<SimpleGen<'_>> {
        match self.clauses.as_slice() {
            [GenClause::Items {
                index,
                item,
                list: ListExpr::Reg(list),
            }, rest @ ..]
                if rest.len() <= 1 && rest.iter().all(|c| matches!(c, GenClause::If(_))) =>
            {
                Some(SimpleGen {
                    index: *index,
                    item: *item,
                    list: *list,
                    guard: match rest {
                        [GenClause::If(cond)] => Some(cond),
                        _ => None,
                    },
                })
            }
            _ => None,
        }
    }
}

/// `for (index, item) in enumerate(list) if guard`, `list` a register.
pub(super) struct SimpleGen<'g> {
    pub(super) index: Option<u32>,
    pub(super) item: Option<u32>,
    pub(super) list: u32,
    pub(super) guard: Option<&'g BoolExpr>,
}

impl SimpleGen<'_> {
    /// Binds the `k`-th item; whether the guard lets it through.
    #[inline]
    pub(super) fn bind(&self, run: &mut Run<'_>, k: usize) -> Eval<bool> {
        let v = run.b.lists[self.list as usize][k];
        bind_item(run, self.index, self.item, k, v)?;
        match self.guard {
            Some(cond) => cond.eval(run),
            None => Ok(true),
        }
    }
}

/// One step of `for (index, item) in enumerate(...)` (or `for item in ...`): the item `v` at
/// `k` bound, the step counted.
#[inline]
pub(super) fn bind_item(
    run: &mut Run<'_>,
    index: Option<u32>,
    item: Option<u32>,
    k: usize,
    v: i64,
) -> Eval<()> {
    run.tick()?;
    if let Some(i) = index {
        run.b.regs[i as usize] = k as i64;
    }
    if let Some(x) = item {
        run.b.regs[x as usize] = v;
    }
    Ok(())
}

pub(super) fn run_clauses(
    clauses: &[GenClause],
    run: &mut Run<'_>,
    body: &mut Body<'_>,
) -> Eval<ControlFlow<()>> {
    let Some((first, rest)) = clauses.split_first() else {
        return body(run);
    };
    match first {
        GenClause::If(cond) => {
            if cond.eval(run)? {
                run_clauses(rest, run, body)
            } else {
                Ok(ControlFlow::Continue(()))
            }
        }
        GenClause::Range {
            reg,
            lo,
            hi,
            inclusive,
        } => {
            let (a, b) = range(run, lo, hi, *inclusive)?;
            for v in a..b {
                run.tick()?;
                run.b.regs[*reg as usize] = v;
                if run_clauses(rest, run, body)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
        GenClause::Items { index, item, list } => {
            // A list register is read in place (nothing inside the loop rebinds it); any
            // other list is computed once, as the interpreter evaluates the source once.
            let (source, owned) = match list {
                ListExpr::Reg(r) => (*r as usize, None),
                other => {
                    let mut buf = run.take_list();
                    other.eval_into(run, &mut buf)?;
                    (usize::MAX, Some(buf))
                }
            };
            let len = owned
                .as_ref()
                .map_or_else(|| run.b.lists[source].len(), Vec::len);
            let mut flow = ControlFlow::Continue(());
            for k in 0..len {
                let v = match &owned {
                    Some(buf) => buf[k],
                    None => run.b.lists[source][k],
                };
                bind_item(run, *index, *item, k, v)?;
                if run_clauses(rest, run, body)?.is_break() {
                    flow = ControlFlow::Break(());
                    break;
                }
            }
            if let Some(buf) = owned {
                run.put_list(buf);
            }
            Ok(flow)
        }
        GenClause::Rows { reg, rows } => {
            for row in rows.get(run)?.rows.iter() {
                run.tick()?;
                let target = &mut run.b.lists[*reg as usize];
                target.clear();
                target.extend_from_slice(row);
                if run_clauses(rest, run, body)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        }
    }
}

/// The bounds of `lo..hi` (`..=`), checked as the interpreter checks a range it iterates.
pub(super) fn range(
    run: &mut Run<'_>,
    lo: &IntExpr,
    hi: &IntExpr,
    inclusive: bool,
) -> Eval<(i64, i64)> {
    let a = lo.eval(run)?;
    let mut b = hi.eval(run)?;
    if inclusive {
        b = arith::inclusive_end(b).map_err(|_| Interrupt::Fallback)?;
    }
    let b = b.max(a);
    if arith::range_count(a, b) > run.max_collection {
        return Err(Interrupt::Fallback);
    }
    Ok((a, b))
}

impl Binding {
    pub(super) fn bind(&self, run: &mut Run<'_>) -> Eval<()> {
        match self {
            Binding::Int(reg, e) => {
                let v = e.eval(run)?;
                run.b.regs[*reg as usize] = v;
            }
            Binding::List(reg, e) => {
                let mut buf = std::mem::take(&mut run.b.lists[*reg as usize]);
                buf.clear();
                let result = e.eval_into(run, &mut buf);
                run.b.lists[*reg as usize] = buf;
                result?;
            }
            Binding::Bool(reg, e) => {
                let v = e.eval(run)?;
                run.b.regs[*reg as usize] = i64::from(v);
            }
            Binding::Rows(reg, rows) => {
                run.b.rows[*reg as usize] = Some(RowsSlot {
                    from: None,
                    from_sets: false,
                    rows: rows.clone(),
                });
            }
            Binding::Alias(..) => {}
        }
        Ok(())
    }
}

impl Binding {
    /// A variable or a literal: read without evaluating anything.
    pub(super) fn is_simple(&self) -> bool {
        matches!(
            self,
            Binding::Int(_, IntExpr::Reg(_) | IntExpr::Lit(_))
                | Binding::List(_, ListExpr::Reg(_) | ListExpr::Lit(_))
                | Binding::Bool(_, BoolExpr::Reg(_) | BoolExpr::Lit(_))
                | Binding::Rows(..)
                | Binding::Alias(..)
        )
    }

    /// Appends the argument's value to a memo key (a list as its length, then its items).
    pub(super) fn write_key(&self, run: &Run<'_>, key: &mut Vec<i64>) {
        match self {
            Binding::Int(_, IntExpr::Reg(r))
            | Binding::Bool(_, BoolExpr::Reg(r))
            | Binding::Alias(Kind::Int | Kind::Bool, r) => {
                key.push(run.b.regs[*r as usize]);
            }
            Binding::Int(_, IntExpr::Lit(n)) => key.push(*n),
            Binding::Bool(_, BoolExpr::Lit(b)) => key.push(i64::from(*b)),
            // A rows register holds the same rows all through a run (an input, or a
            // constant bound at each call): nothing to compare.
            Binding::Rows(..) | Binding::Alias(Kind::Rows, _) => {}
            Binding::List(_, ListExpr::Reg(r)) | Binding::Alias(Kind::List, r) => {
                let items = &run.b.lists[*r as usize];
                key.push(items.len() as i64);
                key.extend_from_slice(items);
            }
            Binding::List(_, ListExpr::Lit(items)) => {
                key.push(items.len() as i64);
                key.extend_from_slice(items);
            }
            // Not remembered (see `is_simple`).
            Binding::Int(..) | Binding::List(..) | Binding::Bool(..) => key.push(i64::MIN),
        }
    }
}

/// Which remembered call a call is, and which of its arguments make its key (see
/// `Compiler::memo_key`).
#[derive(Debug, Clone)]
pub(super) struct MemoKey {
    pub(super) id: u32,
    /// Per argument, whether it goes into the key (it may change within a run).
    pub(super) keyed: Vec<bool>,
}

/// A remembered call: its arguments' values (the key) and its value.
#[derive(Default, Debug)]
pub(super) struct Memo {
    pub(super) valid: bool,
    pub(super) key: Vec<i64>,
    pub(super) value: i64,
}

/// Evaluates a remembered call: its value from the memo when its arguments are those of the
/// last evaluation in this run (the body is pure, so it would give the same value), else
/// the arguments bound and the body evaluated.
pub(super) fn memoized(
    call: &MemoKey,
    bindings: &[Binding],
    run: &mut Run<'_>,
    body: impl FnOnce(&mut Run<'_>) -> Eval<i64>,
) -> Eval<i64> {
    let i = call.id as usize;
    if run.b.memo.len() <= i {
        run.b.memo.resize_with(i + 1, Memo::default);
    }
    let mut key = std::mem::take(&mut run.b.memo[i].key);
    let mut fresh = run.take_list();
    for (b, keyed) in bindings.iter().zip(&call.keyed) {
        if *keyed {
            b.write_key(run, &mut fresh);
        }
    }
    // Empty keys are compared by length alone: comparing two empty `Vec`s still calls
    // `memcmp` on their dangling pointers, whose masked vector load costs a microcode assist.
    if run.b.memo[i].valid && fresh.len() == key.len() && (key.is_empty() || fresh == key) {
        run.b.memo[i].key = key;
        run.put_list(fresh);
        return Ok(run.b.memo[i].value);
    }
    run.b.memo[i].valid = false;
    let result = bind_all(bindings, run).and_then(|()| body(run));
    key.clear();
    key.extend_from_slice(&fresh);
    run.put_list(fresh);
    let value = result?;
    run.b.memo[i] = Memo {
        valid: true,
        key,
        value,
    };
    Ok(value)
}

/// Appends the lanes of `values` that `keep` keeps (lanes of 1), in order: all of them in one
/// copy when every lane is kept, else one by one.
pub(super) fn extend_kept(out: &mut Vec<i64>, values: Out<'_>, keep: Out<'_>, n: usize) {
    match (values, keep) {
        (_, Out::Same(0)) => {}
        (Out::Lanes(values), Out::Same(_)) => out.extend_from_slice(&values[..n]),
        (Out::Same(v), Out::Same(_)) => out.resize(out.len() + n, v),
        (Out::Lanes(values), Out::Lanes(keep)) => {
            out.reserve(n);
            for (v, k) in values.iter().zip(keep) {
                if *k != 0 {
                    out.push(*v);
                }
            }
        }
        (Out::Same(v), Out::Lanes(keep)) => {
            let m = keep.iter().filter(|k| **k != 0).count();
            out.resize(out.len() + m, v);
        }
    }
}

/// How many lanes `keep` keeps.
pub(super) fn count_kept(keep: Out<'_>, n: usize) -> u64 {
    match keep {
        Out::Same(k) => u64::from(k != 0) * n as u64,
        Out::Lanes(keep) => keep.iter().map(|k| (*k & 1) as u64).sum(),
    }
}

/// How many kept lanes hold a true condition (1).
fn count_true(values: Out<'_>, keep: Out<'_>, n: usize) -> u64 {
    match (values, keep) {
        (_, Out::Same(0)) => 0,
        (Out::Same(v), keep) => u64::from(v != 0) * count_kept(keep, n),
        (Out::Lanes(values), Out::Same(_)) => values.iter().map(|v| (*v & 1) as u64).sum(),
        (Out::Lanes(values), Out::Lanes(keep)) => values
            .iter()
            .zip(keep)
            .map(|(v, k)| (*v & *k & 1) as u64)
            .sum(),
    }
}

/// Adds the kept lanes of `values` to `total`.
fn sum_kept(values: Out<'_>, keep: Out<'_>, n: usize, total: &mut arith::Sum) {
    match (values, keep) {
        (_, Out::Same(0)) => {}
        (Out::Same(v), keep) => (0..count_kept(keep, n)).for_each(|_| total.add(v)),
        (Out::Lanes(values), Out::Same(_)) => values.iter().for_each(|v| total.add(*v)),
        (Out::Lanes(values), Out::Lanes(keep)) => values
            .iter()
            .zip(keep)
            .for_each(|(v, k)| total.add(*v & -(*k & 1))),
    }
}

/// Binds an inlined call's arguments, in order.
pub(super) fn bind_all(bindings: &[Binding], run: &mut Run<'_>) -> Eval<()> {
    bindings.iter().try_for_each(|b| b.bind(run))
}

impl ListExpr {
    /// Appends the list's items to `out` (empty on entry).
    pub(super) fn eval_into(&self, run: &mut Run<'_>, out: &mut Vec<i64>) -> Eval<()> {
        match self {
            ListExpr::Reg(r) => out.extend_from_slice(&run.b.lists[*r as usize]),
            ListExpr::Lit(items) => out.extend_from_slice(items),
            ListExpr::Elems(items) => {
                for item in items {
                    let v = item.eval(run)?;
                    out.push(v);
                }
            }
            ListExpr::Comp(gen, _) if gen.progs.is_some() => {
                let limit = run.max_collection as usize;
                if let Some((list, test, true)) = gen.item_test() {
                    // `[x for x in xs if x > 0]`: the items that pass, in one loop.
                    let items = &run.b.lists[list as usize];
                    tick_n(&mut run.ticks, run.stop, items.len())?;
                    out.reserve(items.len());
                    test.each(items, &run.b.regs, |v| out.push(v));
                    if out.len() > limit {
                        return Err(Interrupt::Fallback);
                    }
                    return Ok(());
                }
                if let Some(done) = gen.body_into(run, out) {
                    done?;
                    if out.len() > limit {
                        return Err(Interrupt::Fallback);
                    }
                    return Ok(());
                }
                gen.blocks(run, |values, keep, n| {
                    extend_kept(out, values, keep, n);
                    if out.len() > limit {
                        return Err(Interrupt::Fallback);
                    }
                    Ok(())
                })?;
            }
            ListExpr::Comp(gen, body) => {
                let limit = run.max_collection as usize;
                let _complete = gen.for_each(run, |run| {
                    let v = body.operand(run)?;
                    out.push(v);
                    if out.len() > limit {
                        return Err(Interrupt::Fallback);
                    }
                    Ok(ControlFlow::Continue(()))
                })?;
            }
            ListExpr::SetAt(list, index, value) => {
                list.eval_into(run, out)?;
                let i = index.eval(run)?;
                let v = value.eval(run)?;
                let slot = usize::try_from(i)
                    .ok()
                    .and_then(|i| out.get_mut(i))
                    .ok_or(Interrupt::Fallback)?;
                *slot = v;
            }
            ListExpr::Repeat(value, count) => {
                let v = value.eval(run)?;
                let n = count.eval(run)?;
                if n < 0 || n as u64 > run.max_collection {
                    return Err(Interrupt::Fallback);
                }
                out.resize(n as usize, v);
            }
            ListExpr::Reversed(list) => {
                list.eval_into(run, out)?;
                out.reverse();
            }
            ListExpr::Regions(m, w) => {
                let m = m.eval(run)?;
                let w = w.eval(run)?;
                let regions = grid::regions(m, w).map_err(|_| Interrupt::Fallback)?;
                if regions.len() as u64 > run.max_collection {
                    return Err(Interrupt::Fallback);
                }
                out.extend_from_slice(&regions);
            }
            ListExpr::Extreme(min, lists) => {
                // Every argument is evaluated, in order, as the interpreter does; the first
                // of equal extremes is kept (equal lists are the same value).
                lists[0].eval_into(run, out)?;
                let mut other = run.take_list();
                for list in &lists[1..] {
                    other.clear();
                    if let Err(e) = list.eval_into(run, &mut other) {
                        run.put_list(other);
                        return Err(e);
                    }
                    let better = if *min {
                        other.as_slice() < out.as_slice()
                    } else {
                        other.as_slice() > out.as_slice()
                    };
                    if better {
                        std::mem::swap(out, &mut other);
                    }
                }
                run.put_list(other);
            }
            ListExpr::ExtremeOf(min, gen, body) => {
                // The interpreter builds the whole list of lists first (every item evaluated,
                // the collection limit applied), then picks.
                let limit = run.max_collection;
                let mut items = 0u64;
                let mut other = run.take_list();
                let result = gen.for_each(run, |run| {
                    items += 1;
                    if items > limit {
                        return Err(Interrupt::Fallback);
                    }
                    other.clear();
                    body.eval_into(run, &mut other)?;
                    let better = items == 1
                        || if *min {
                            other.as_slice() < out.as_slice()
                        } else {
                            other.as_slice() > out.as_slice()
                        };
                    if better {
                        std::mem::swap(out, &mut other);
                    }
                    Ok(ControlFlow::Continue(()))
                });
                run.put_list(other);
                let _complete = result?;
                if items == 0 {
                    // `min` of an empty collection: the interpreter's error.
                    return Err(Interrupt::Fallback);
                }
            }
            ListExpr::Let(bindings, body) => {
                bind_all(bindings, run)?;
                body.eval_into(run, out)?;
            }
            ListExpr::Filter(filter) => filter.eval_into(run, out)?,
        }
        Ok(())
    }

    /// Runs `f` on the list's items: in place for a register, else computed into a buffer.
    pub(super) fn with<T>(
        &self,
        run: &mut Run<'_>,
        f: impl FnOnce(&mut Run<'_>, &[i64]) -> Eval<T>,
    ) -> Eval<T> {
        if let ListExpr::Reg(r) = self {
            let items = std::mem::take(&mut run.b.lists[*r as usize]);
            let result = f(run, &items);
            run.b.lists[*r as usize] = items;
            return result;
        }
        let mut buf = run.take_list();
        let result = self.eval_into(run, &mut buf).and_then(|()| f(run, &buf));
        run.put_list(buf);
        result
    }
}

/// `count(...)` / `sum(...)` of a comprehension: the body is counted (a condition) or added.
#[derive(Debug, Clone)]
pub(super) enum Fold {
    /// `count(cond for ...)`: how many bindings make the condition true.
    CountTrue(Box<Gen>, Box<BoolExpr>),
    /// `count(x for ...)` with an integer body: how many items.
    CountItems(Box<Gen>, Box<IntExpr>),
    /// `sum(x for ...)`.
    Sum(Box<Gen>, Box<IntExpr>),
}

impl Fold {
    pub(super) fn eval(&self, run: &mut Run<'_>) -> Eval<i64> {
        let gen = match self {
            Fold::CountTrue(gen, _) | Fold::CountItems(gen, _) | Fold::Sum(gen, _) => gen,
        };
        if gen.progs.is_some() {
            return self.eval_blocks(gen, run);
        }
        let limit = run.max_collection;
        let mut items: u64 = 0;
        let mut total = arith::Sum::default();
        // The interpreter builds the comprehension's list first (checking its length), then
        // folds it: every body is evaluated even where the fold's answer is already known.
        let mut step = |run: &mut Run<'_>| -> Eval<i64> {
            items += 1;
            if items > limit {
                return Err(Interrupt::Fallback);
            }
            Ok(match self {
                Fold::CountTrue(_, cond) => i64::from(cond.eval(run)?),
                Fold::CountItems(_, body) => {
                    body.eval(run)?;
                    1
                }
                Fold::Sum(_, body) => body.eval(run)?,
            })
        };
        let _complete = gen.for_each(run, |run| {
            let v = step(run)?;
            total.add(v);
            Ok(ControlFlow::Continue(()))
        })?;
        // `sum` is exact: it fails only when the whole total does not fit.
        total.total().map_err(|_| Interrupt::Fallback)
    }

    /// [`Fold::eval`] a block of items at a time (the generator has lane programs).
    pub(super) fn eval_blocks(&self, gen: &Gen, run: &mut Run<'_>) -> Eval<i64> {
        let limit = run.max_collection;
        if let Some((list, test, guarded)) = gen.item_test() {
            // `count(c == p for c in b)`, `sum(x for x in xs if x > 0)`: one loop.
            let items = &run.b.lists[list as usize];
            tick_n(&mut run.ticks, run.stop, items.len())?;
            let (mut passed, mut total) = (0u64, arith::Sum::default());
            test.each(items, &run.b.regs, |v| {
                passed += 1;
                total.add(v);
            });
            let made = if guarded { passed } else { items.len() as u64 };
            if made > limit {
                return Err(Interrupt::Fallback);
            }
            return match (self, guarded) {
                (Fold::CountTrue(..), false) | (Fold::CountItems(..), true) => {
                    i64::try_from(passed).map_err(|_| Interrupt::Fallback)
                }
                (Fold::Sum(..), true) => total.total().map_err(|_| Interrupt::Fallback),
                // `count(x for x in xs)` with a test for a body counts every item; a sum
                // of truths or a count of truths under a guard takes the general way.
                (Fold::CountItems(..), false) => {
                    i64::try_from(items.len()).map_err(|_| Interrupt::Fallback)
                }
                _ => self.eval_lanes(gen, run),
            };
        }
        self.eval_lanes(gen, run)
    }

    /// [`Fold::eval_blocks`] through the lane programs.
    fn eval_lanes(&self, gen: &Gen, run: &mut Run<'_>) -> Eval<i64> {
        let limit = run.max_collection;
        let mut items: u64 = 0;
        let mut total = arith::Sum::default();
        gen.blocks(run, |values, keep, n| {
            items += count_kept(keep, n);
            match self {
                Fold::CountTrue(..) => {
                    let t = count_true(values, keep, n);
                    total.add(i64::try_from(t).map_err(|_| Interrupt::Fallback)?);
                }
                Fold::CountItems(..) => {
                    total.add(i64::try_from(count_kept(keep, n)).map_err(|_| Interrupt::Fallback)?);
                }
                Fold::Sum(..) => sum_kept(values, keep, n, &mut total),
            }
            if items > limit {
                return Err(Interrupt::Fallback);
            }
            Ok(())
        })?;
        total.total().map_err(|_| Interrupt::Fallback)
    }
}

/// `forall`/`exists`.
pub(super) fn quantified(
    exists: bool,
    gen: &Gen,
    body: &BoolExpr,
    run: &mut Run<'_>,
) -> Eval<bool> {
    let mut found = false;
    let _stopped = gen.for_each(run, |run| {
        if body.eval(run)? == exists {
            found = true;
            return Ok(ControlFlow::Break(()));
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(if exists { found } else { !found })
}
