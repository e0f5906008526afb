//! The list part of the compiled fragment: lists of integers held unboxed in registers
//! (a board, Chomp's rows), comprehensions and quantifiers over them, `set`, `len`, `count`,
//! `sum`, `x in xs`, indexing, and calls of user functions, inlined with their arguments
//! evaluated first, as the interpreter evaluates them.
//!
//! As for integer rules, the compiled form means what the interpreter does, in the same order;
//! where the interpreter would raise an error (an index out of range, a comprehension over
//! the collection limit, an overflow), evaluation stops with [`Interrupt::Fallback`] and the
//! interpreter runs the rule again and raises it.

use std::ops::ControlFlow;
use std::rc::Rc;

use super::{
    tick_n, BoolExpr, Compiler, Eval, IntExpr, Interrupt, Lanes, Run, LANES, MAX_NESTING, NO_REG,
};
use crate::eval::arith;
use crate::eval::builtins::Builtin;
use crate::eval::value::Value;
use crate::lower::ir::{Clause, Expr, ExprKind, Pattern};
use crate::syntax::ast::{BinaryOp, Quantifier};

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

/// A family of rows (lists of integers), with each row's cells as a bit mask when every
/// item of every row is below 64: a board game's lines, which [`LinesQuant`] then tests
/// all at once.
#[derive(Debug)]
pub(super) struct RowSet {
    rows: Vec<Rc<[i64]>>,
    /// Per row, the set of its items (`1 << i` for each item `i`), if all are in `0..64`.
    masks: Option<Vec<u64>>,
    /// One more than the greatest item (0 without items): a board at least this long has
    /// every cell the rows name.
    reach: usize,
}

impl RowSet {
    fn new(rows: Vec<Rc<[i64]>>) -> Rc<RowSet> {
        let items = || rows.iter().flat_map(|r| r.iter().copied());
        let masks = items().all(|i| (0..64).contains(&i)).then(|| {
            rows.iter()
                .map(|r| r.iter().fold(0u64, |m, i| m | (1 << i)))
                .collect()
        });
        let reach = items()
            .max()
            .map_or(0, |i| i.saturating_add(1).max(0) as usize);
        Rc::new(RowSet { rows, masks, reach })
    }
}

/// The rows of a `for row in rows` clause: a constant's, or a rows register's.
#[derive(Debug, Clone)]
pub(super) enum RowsSource {
    Const(Rc<RowSet>),
    Reg(u32),
}

impl RowsSource {
    /// The rows (shared, not copied).
    fn get(&self, run: &Run<'_>) -> Eval<Rc<RowSet>> {
        match self {
            RowsSource::Const(rows) => Ok(rows.clone()),
            RowsSource::Reg(r) => run.b.rows[*r as usize]
                .as_ref()
                .map(|slot| slot.rows.clone())
                .ok_or(Interrupt::Fallback),
        }
    }
}

/// What a rows register holds: the rows, and the value they were read from, if an input.
/// A rule's parameters are the same value from run to run; a run whose input is that very
/// value (the same allocation, which the slot keeps alive) reuses the rows instead of reading
/// them again.
#[derive(Debug, Clone)]
pub(super) struct RowsSlot {
    from: Option<Value>,
    /// Whether a row was read from a set: a rule that takes lists only must not reuse it.
    from_sets: bool,
    rows: Rc<RowSet>,
}

/// Loads a rows input from `value` into `slot`; false if it is not a list of integer lists
/// (or, if `sets`, of integer sets, each read as its items in order: see
/// `Compiler::sets_as_rows`).
pub(super) fn load_rows(slot: &mut Option<RowsSlot>, value: &Value, sets: bool) -> bool {
    let Value::List(items) = value else {
        return false;
    };
    if let Some(RowsSlot {
        from: Some(Value::List(seen)),
        from_sets,
        ..
    }) = slot
    {
        if Rc::ptr_eq(seen, items) && (sets || !*from_sets) {
            return true;
        }
    }
    let row = |v: &Value| match v {
        Value::Set(items) if sets => ints(items.iter()),
        v => int_items(v),
    };
    match items
        .iter()
        .map(row)
        .collect::<Option<Vec<_>>>()
        .map(RowSet::new)
    {
        Some(rows) => {
            *slot = Some(RowsSlot {
                from: Some(value.clone()),
                from_sets: items.iter().any(|v| matches!(v, Value::Set(_))),
                rows,
            });
            true
        }
        None => false,
    }
}

/// Calls nest at most this deep when inlined; a deeper (or recursive) call is not compiled.
const MAX_INLINE_DEPTH: usize = 12;

/// A list of integers.
#[derive(Debug, Clone)]
pub(super) enum ListExpr {
    /// A list register.
    Reg(u32),
    /// A literal list.
    Lit(Rc<[i64]>),
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
}

/// An argument of an inlined call, bound to the callee's register.
#[derive(Debug, Clone)]
pub(super) enum Binding {
    Int(u32, IntExpr),
    List(u32, ListExpr),
    Bool(u32, BoolExpr),
    /// A constant list of lists, for a parameter read as rows.
    Rows(u32, Rc<RowSet>),
    /// A variable of the caller that the callee reads in place (see `Compiler::inline`):
    /// nothing to bind; the memo key reads it.
    Alias(Kind, u32),
}

/// The clauses of a comprehension or quantifier (or of a rule).
#[derive(Debug, Clone)]
pub(super) struct Gen {
    pub(super) clauses: Vec<GenClause>,
    /// Whether a comprehension or fold over this generator runs a block of items at a time
    /// (see [`Gen::blocks`]); set when the body is known.
    pub(super) in_blocks: bool,
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

type Body<'b> = dyn FnMut(&mut Run<'_>) -> Eval<ControlFlow<()>> + 'b;

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

    /// Notes whether a comprehension or fold over this generator, with a body that
    /// `body_blocks` says blocks can compute, runs in blocks: a simple generator (see
    /// [`Gen::simple`]) whose guard blocks can compute too.
    fn with_body(mut self, body_blocks: bool) -> Gen {
        self.in_blocks = body_blocks
            && self
                .simple()
                .is_some_and(|g| g.guard.is_none_or(BoolExpr::blockable));
        self
    }

    /// Runs a generator marked `in_blocks` a block of items at a time: `block` gets the
    /// lanes (the items, and their indexes) and which lanes the guard keeps. As with a rule's
    /// blocks, a lane error (where a guard would have stopped the interpreter first, too)
    /// sends the whole expression to the interpreter.
    fn blocks(
        &self,
        run: &mut Run<'_>,
        mut block: impl FnMut(&Lanes<'_>, &[bool], &mut super::Pool) -> Eval<()>,
    ) -> Eval<()> {
        let Some(simple) = self.simple() else {
            return Err(Interrupt::Fallback);
        };
        let len = run.b.lists[simple.list as usize].len();
        tick_n(&mut run.ticks, run.stop, len)?;
        let b = &mut run.b;
        let mut keep = b.pool.bools();
        let mut index = b.pool.ints();
        let items = &b.lists[simple.list as usize];
        for start in (0..len).step_by(LANES) {
            let n = (len - start).min(LANES);
            for (k, v) in index[..n].iter_mut().enumerate() {
                *v = (start + k) as i64;
            }
            let at = Lanes {
                regs: &b.regs,
                reg: simple.item.unwrap_or(NO_REG),
                values: &items[start..start + n],
                index_reg: simple.index.unwrap_or(NO_REG),
                index_values: &index[..n],
            };
            match simple.guard {
                Some(cond) => cond.eval_block(&at, &mut keep[..n], &mut b.pool)?,
                None => keep[..n].fill(true),
            }
            block(&at, &keep[..n], &mut b.pool)?;
        }
        b.pool.bools.push(keep);
        b.pool.ints.push(index);
        Ok(())
    }

    /// The commonest generator, `for x in xs` or `for (i, x) in enumerate(xs)` over a list
    /// register, with at most one guard: its parts, for a loop without recursion.
    fn simple(&self) -> Option<SimpleGen<'_>> {
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
struct SimpleGen<'g> {
    index: Option<u32>,
    item: Option<u32>,
    list: u32,
    guard: Option<&'g BoolExpr>,
}

impl SimpleGen<'_> {
    /// Binds the `k`-th item; whether the guard lets it through.
    #[inline]
    fn bind(&self, run: &mut Run<'_>, k: usize) -> Eval<bool> {
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
fn bind_item(
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
    fn bind(&self, run: &mut Run<'_>) -> Eval<()> {
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
    fn is_simple(&self) -> bool {
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
    fn write_key(&self, run: &Run<'_>, key: &mut Vec<i64>) {
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
    id: u32,
    /// Per argument, whether it goes into the key (it may change within a run).
    keyed: Vec<bool>,
}

/// A remembered call: its arguments' values (the key) and its value.
#[derive(Default, Debug)]
pub(super) struct Memo {
    pub(super) valid: bool,
    key: Vec<i64>,
    value: i64,
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

/// Appends the lanes of `values` that `keep` keeps, in order: all of them in one copy when
/// every lane is kept (the common case, a comprehension without a guard or one that keeps
/// all), else one by one without a branch per lane.
fn extend_kept(out: &mut Vec<i64>, values: &[i64], keep: &[bool]) {
    if keep.iter().all(|k| *k) {
        out.extend_from_slice(&values[..keep.len()]);
        return;
    }
    let start = out.len();
    out.resize(start + keep.len(), 0);
    let mut n = start;
    for (v, k) in values.iter().zip(keep) {
        out[n] = *v;
        n += usize::from(*k);
    }
    out.truncate(n);
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
            ListExpr::Comp(gen, body) if gen.in_blocks => {
                let limit = run.max_collection as usize;
                gen.blocks(run, |at, keep, pool| {
                    out.reserve(keep.len());
                    if let Some(items) = body.lanes_in_place(at) {
                        // `[x for x in xs if ...]`: the kept items, read in place.
                        extend_kept(out, items, keep);
                        return if out.len() > limit {
                            Err(Interrupt::Fallback)
                        } else {
                            Ok(())
                        };
                    }
                    let mut values = pool.ints();
                    let lanes = &mut values[..keep.len()];
                    let result = body.eval_block(at, lanes, pool);
                    extend_kept(out, lanes, keep);
                    pool.ints.push(values);
                    result?;
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
        if gen.in_blocks {
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

    /// [`Fold::eval`] a block of items at a time (the generator is `in_blocks`).
    fn eval_blocks(&self, gen: &Gen, run: &mut Run<'_>) -> Eval<i64> {
        let limit = run.max_collection;
        let mut items: u64 = 0;
        let mut total = arith::Sum::default();
        gen.blocks(run, |at, keep, pool| {
            items += keep.iter().filter(|k| **k).count() as u64;
            if items > limit {
                return Err(Interrupt::Fallback);
            }
            match self {
                Fold::CountTrue(_, cond) => {
                    let mut truth = pool.bools();
                    let lanes = &mut truth[..keep.len()];
                    let result = cond.eval_block(at, lanes, pool);
                    let n = lanes.iter().zip(keep).filter(|(t, k)| **t && **k).count();
                    pool.bools.push(truth);
                    result?;
                    total.add(arith::count(n).map_err(|_| Interrupt::Fallback)?);
                }
                Fold::CountItems(_, body) | Fold::Sum(_, body) => {
                    let mut values = pool.ints();
                    let lanes = &mut values[..keep.len()];
                    let result = body.eval_block(at, lanes, pool);
                    for (v, k) in lanes.iter().zip(keep) {
                        let add = match self {
                            Fold::Sum(..) => *v,
                            _ => 1,
                        };
                        if *k {
                            total.add(add);
                        }
                    }
                    pool.ints.push(values);
                    result?;
                }
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

/// `exists`/`forall x in xs: ys[x] op y`, `xs` and `ys` list registers and `y` a literal or a
/// register other than `x` (or the comparison the other way round): the quantifier of a
/// board game's lines (`forall i in line: b[i] == p`), run as one loop over the items instead
/// of a generator and a body per item. It means what the general form does: items in order,
/// stopping at the first that decides, an index out of range handed to the interpreter.
#[derive(Debug, Clone)]
pub(super) struct IndexedQuant {
    exists: bool,
    items: u32,
    board: u32,
    /// The comparison with the indexed item on its left.
    op: BinaryOp,
    other: IntExpr,
}

impl IndexedQuant {
    /// The quantifier `exists gen: body` (`forall` when not `exists`) in this form, if it is.
    fn recognise(exists: bool, gen: &Gen, body: &BoolExpr) -> Option<IndexedQuant> {
        let [GenClause::Items {
            index: None,
            item: Some(x),
            list: ListExpr::Reg(items),
        }] = gen.clauses.as_slice()
        else {
            return None;
        };
        let BoolExpr::Cmp(op, l, r) = body else {
            return None;
        };
        let indexed = |e: &IntExpr| match e {
            IntExpr::Index(list, i) => match (&**list, &**i) {
                (ListExpr::Reg(board), IntExpr::Reg(i)) if i == x && board != x => Some(*board),
                _ => None,
            },
            _ => None,
        };
        let leaf_not_x = |e: &IntExpr| match e {
            IntExpr::Lit(_) => true,
            IntExpr::Reg(r) => r != x,
            _ => false,
        };
        let (board, op, other) = match (indexed(l), indexed(r)) {
            (Some(board), _) if leaf_not_x(r) => (board, *op, r.clone()),
            (_, Some(board)) if leaf_not_x(l) => (board, flipped(*op), l.clone()),
            _ => return None,
        };
        Some(IndexedQuant {
            exists,
            items: *items,
            board,
            op,
            other,
        })
    }

    pub(super) fn eval(&self, run: &mut Run<'_>) -> Eval<bool> {
        let y = self.other.leaf(run).ok_or(Interrupt::Fallback)?;
        let b = &run.b;
        let (items, board) = (&b.lists[self.items as usize], &b.lists[self.board as usize]);
        let (value, steps) = self.over(items, board, y)?;
        tick_n(&mut run.ticks, run.stop, steps)?;
        Ok(value)
    }

    /// The quantifier's value over `items`, and how many items it looked at.
    #[inline]
    fn over(&self, items: &[i64], board: &[i64], y: i64) -> Eval<(bool, usize)> {
        let mut steps = 0;
        for i in items {
            steps += 1;
            let v = usize::try_from(*i)
                .ok()
                .and_then(|i| board.get(i))
                .ok_or(Interrupt::Fallback)?;
            if super::compare(self.op, *v, y) == self.exists {
                return Ok((self.exists, steps));
            }
        }
        Ok((!self.exists, steps))
    }
}

/// `exists`/`forall line in LINES: <an [`IndexedQuant`] over line>`, `LINES` a constant list
/// of lists: whether a board has a line of one player's marks, as one loop over the
/// constant's rows, read in place rather than copied into a register one by one.
#[derive(Debug, Clone)]
pub(super) struct LinesQuant {
    exists: bool,
    rows: RowsSource,
    inner: IndexedQuant,
}

impl LinesQuant {
    /// The quantifier `exists gen: body` in this form, if it is.
    fn recognise(exists: bool, gen: &Gen, body: &BoolExpr) -> Option<LinesQuant> {
        let [GenClause::Rows { reg, rows }] = gen.clauses.as_slice() else {
            return None;
        };
        let BoolExpr::IndexedQuant(inner) = body else {
            return None;
        };
        (inner.items == *reg && inner.board != *reg).then(|| LinesQuant {
            exists,
            rows: rows.clone(),
            inner: (**inner).clone(),
        })
    }

    pub(super) fn eval(&self, run: &mut Run<'_>) -> Eval<bool> {
        let y = self.inner.other.leaf(run).ok_or(Interrupt::Fallback)?;
        let rows = self.rows.get(run)?;
        let board = &run.b.lists[self.inner.board as usize];
        if let (Some(masks), true) = (&rows.masks, board.len() >= rows.reach) {
            // Every cell the rows name is on the board, so no item can fail: the cells
            // that pass the comparison, as a bit mask, decide each row at once.
            let mut pass = 0u64;
            for (k, v) in board[..rows.reach].iter().enumerate() {
                pass |= u64::from(super::compare(self.inner.op, *v, y)) << k;
            }
            let row = |mask: &u64| {
                if self.inner.exists {
                    mask & pass != 0
                } else {
                    mask & !pass == 0
                }
            };
            let value = if self.exists {
                masks.iter().any(row)
            } else {
                masks.iter().all(row)
            };
            tick_n(&mut run.ticks, run.stop, rows.reach + masks.len())?;
            return Ok(value);
        }
        let mut steps = 0;
        let mut value = !self.exists;
        for row in rows.rows.iter() {
            let (inner, n) = self.inner.over(row, board, y)?;
            steps += n + 1;
            if inner == self.exists {
                value = self.exists;
                break;
            }
        }
        tick_n(&mut run.ticks, run.stop, steps)?;
        Ok(value)
    }
}

/// The comparison `y op' x` that means `x op y`.
fn flipped(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// `(a, b) == (c, d)` (or `!=`): both tuples evaluated, left then right, then compared.
pub(super) fn tuples_equal(left: &[IntExpr], right: &[IntExpr], run: &mut Run<'_>) -> Eval<bool> {
    const SHORT: usize = 8;
    if left.len() <= SHORT && right.len() <= SHORT {
        // The common case, `(i, j) != (0, 0)`: no buffers.
        let (mut xs, mut ys) = ([0i64; SHORT], [0i64; SHORT]);
        for (x, e) in xs.iter_mut().zip(left) {
            *x = e.operand(run)?;
        }
        for (y, e) in ys.iter_mut().zip(right) {
            *y = e.operand(run)?;
        }
        // Item by item: comparing the arrays whole would be a call to `memcmp`.
        let mut equal = left.len() == right.len();
        for (x, y) in xs.iter().zip(&ys).take(left.len()) {
            equal &= x == y;
        }
        return Ok(equal);
    }
    let mut xs = run.take_list();
    let mut ys = run.take_list();
    let result = (|| {
        for e in left {
            let v = e.eval(run)?;
            xs.push(v);
        }
        for e in right {
            let v = e.eval(run)?;
            ys.push(v);
        }
        Ok(xs == ys)
    })();
    run.put_list(xs);
    run.put_list(ys);
    result
}

/// `x in xs` over integers.
pub(super) fn contains(x: &IntExpr, list: &ListExpr, run: &mut Run<'_>) -> Eval<bool> {
    let v = x.eval(run)?;
    list.with(run, |_, items| Ok(items.contains(&v)))
}

/// `xs[i]`.
pub(super) fn index(list: &ListExpr, i: &IntExpr, run: &mut Run<'_>) -> Eval<i64> {
    if let ListExpr::Reg(r) = list {
        let i = i.operand(run)?;
        return usize::try_from(i)
            .ok()
            .and_then(|i| run.b.lists[*r as usize].get(i).copied())
            .ok_or(Interrupt::Fallback);
    }
    let mut buf = run.take_list();
    let result = list.eval_into(run, &mut buf).and_then(|()| {
        let i = i.eval(run)?;
        usize::try_from(i)
            .ok()
            .and_then(|i| buf.get(i).copied())
            .ok_or(Interrupt::Fallback)
    });
    run.put_list(buf);
    result
}

/// The items of a literal list of integers.
fn int_items(v: &Value) -> Option<Rc<[i64]>> {
    match v {
        Value::List(items) => ints(items.iter()),
        _ => None,
    }
}

/// The integers of `items`, if all are integers.
fn ints<'v>(items: impl Iterator<Item = &'v Value>) -> Option<Rc<[i64]>> {
    items
        .map(|i| match i {
            Value::Int(n) => Some(*n),
            _ => None,
        })
        .collect()
}

impl Compiler<'_> {
    /// Compiles with `f`, or leaves the compiler as it was if `f` cannot.
    pub(super) fn attempt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let saved = self.snapshot();
        let result = f(self);
        if result.is_none() {
            self.restore(saved);
        }
        result
    }

    /// The value of a constant whose definition is a literal.
    fn literal_const(&self, e: &Expr) -> Option<Value> {
        match &e.kind {
            ExprKind::Lit(v) => Some(v.clone()),
            ExprKind::Const(id) => match &self.program?.consts.get(id.0 as usize)?.body.expr.kind {
                ExprKind::Lit(v) => Some(v.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Notes that `list`, if a register, is read in a way that only a list allows: indexed,
    /// changed by `set`, compared, copied as a value. A set's items in order read the same
    /// as a list only through iteration, `in`, `len`, `count` and `sum`.
    pub(super) fn as_list_only(&mut self, list: &ListExpr) {
        if let ListExpr::Reg(r) = list {
            self.list_only[*r as usize] = true;
        }
    }

    /// The rows inputs that may hold sets of integers as well as lists: those whose rows
    /// the rule reads only as a set allows (see [`Compiler::as_list_only`]). Hex's winning
    /// paths, computed as sets, then reach the compiled form too.
    pub(super) fn sets_as_rows(&self) -> Vec<u32> {
        self.inputs
            .iter()
            .filter(|(_, kind)| *kind == Kind::Rows)
            .map(|(input, _)| *input)
            .filter(|input| {
                self.rows_read
                    .iter()
                    .filter(|(from, _)| from == input)
                    .all(|(_, row)| !self.list_only[*row as usize])
            })
            .collect()
    }

    /// A literal list of integer lists (a constant's rows).
    fn const_rows(&self, e: &Expr) -> Option<Rc<RowSet>> {
        match self.literal_const(e)? {
            Value::List(ref rows) => rows
                .iter()
                .map(int_items)
                .collect::<Option<Vec<_>>>()
                .map(RowSet::new),
            _ => None,
        }
    }

    /// A literal integer constant.
    pub(super) fn const_int(&self, e: &Expr) -> Option<i64> {
        match self.literal_const(e)? {
            Value::Int(n) if matches!(e.kind, ExprKind::Const(_)) => Some(n),
            _ => None,
        }
    }

    /// A list of integers.
    pub(super) fn list(&mut self, e: &Expr) -> Option<ListExpr> {
        self.nested(|c| c.list_here(e))
    }

    fn list_here(&mut self, e: &Expr) -> Option<ListExpr> {
        if let Some(v) = self.literal_const(e) {
            return int_items(&v).map(ListExpr::Lit);
        }
        Some(match &e.kind {
            ExprKind::Local(slot) => ListExpr::Reg(self.local(*slot, Kind::List)?),
            ExprKind::List(items) => ListExpr::Elems(
                items
                    .iter()
                    .map(|i| self.int(i))
                    .collect::<Option<Vec<_>>>()?,
            ),
            ExprKind::ListComp(body, clauses) => self.with_gen(clauses, |c, gen| {
                let body = c.int(body)?;
                let gen = gen.with_body(body.blockable());
                Some(ListExpr::Comp(Box::new(gen), Box::new(body)))
            })?,
            ExprKind::CallBuiltin(Builtin::Reversed, args) if args.len() == 1 => {
                ListExpr::Reversed(Box::new(self.list(&args[0])?))
            }
            // `min([xs for ...])`: the least of the lists a comprehension makes.
            ExprKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() == 1 => {
                let ExprKind::ListComp(body, clauses) = &args[0].kind else {
                    return None;
                };
                self.with_gen(clauses, |c, gen| {
                    let body = c.list(body)?;
                    c.as_list_only(&body);
                    Some(ListExpr::ExtremeOf(
                        *b == Builtin::Min,
                        Box::new(gen),
                        Box::new(body),
                    ))
                })?
            }
            // `min(xs, ys)` of lists: the interpreter compares them as values, item by item.
            ExprKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() >= 2 => {
                let lists = args
                    .iter()
                    .map(|a| self.list(a))
                    .collect::<Option<Vec<_>>>()?;
                lists.iter().for_each(|l| self.as_list_only(l));
                ListExpr::Extreme(*b == Builtin::Min, lists)
            }
            ExprKind::Repeat(value, count) => {
                ListExpr::Repeat(Box::new(self.int(value)?), Box::new(self.int(count)?))
            }
            ExprKind::CallBuiltin(Builtin::SetAt, args) if args.len() == 3 => {
                let list = self.list(&args[0])?;
                self.as_list_only(&list);
                ListExpr::SetAt(
                    Box::new(list),
                    Box::new(self.int(&args[1])?),
                    Box::new(self.int(&args[2])?),
                )
            }
            ExprKind::CallFn(id, args) => {
                let (bindings, body) = self.inline(id.0 as usize, args, |c, body| c.list(body))?;
                ListExpr::Let(bindings, Box::new(body))
            }
            _ => return None,
        })
    }

    /// Compiles a generator and what is built on it (`then`). The first clause's source is
    /// read as a list of integers; failing that, a variable there is read as rows (`for s in
    /// sets`, `sets` a list of integer lists, each `s` a list).
    pub(super) fn with_gen<T>(
        &mut self,
        clauses: &[Clause],
        then: impl Fn(&mut Self, Gen) -> Option<T>,
    ) -> Option<T> {
        let rows_source = match clauses.first() {
            Some(Clause::For(Pattern::Bind(slot, _), source)) => match source.kind {
                ExprKind::Local(source) => Some((*slot, source)),
                _ => None,
            },
            _ => None,
        };
        let plain = |c: &mut Self| {
            c.attempt(|c| {
                let gen = c.gen(clauses)?;
                then(c, gen)
            })
        };
        let Some((slot, source)) = rows_source else {
            return plain(self);
        };
        let rest = &clauses[1..];
        let resolved = self.resolved(self.base + source);
        let over_rows = |c: &mut Self| {
            c.wanted_rows.push(resolved);
            c.attempt(|c| {
                let rows = c.local(source, Kind::Rows)?;
                let reg = c.bind(slot, Kind::List)?;
                c.rows_read.push((rows, reg));
                let mut clauses = vec![GenClause::Rows {
                    reg,
                    rows: RowsSource::Reg(rows),
                }];
                for clause in rest {
                    clauses.push(c.gen_clause(clause)?);
                }
                let gen = Gen {
                    clauses,
                    in_blocks: false,
                };
                then(c, gen)
            })
        };
        if self.prefer_rows.contains(&resolved) {
            over_rows(self).or_else(|| plain(self))
        } else {
            plain(self).or_else(|| over_rows(self))
        }
    }

    /// Generator clauses; each binds fresh registers.
    pub(super) fn gen(&mut self, clauses: &[Clause]) -> Option<Gen> {
        if clauses.len() > MAX_NESTING {
            return None;
        }
        let mut out = Vec::with_capacity(clauses.len());
        for clause in clauses {
            out.push(self.gen_clause(clause)?);
        }
        Some(Gen {
            clauses: out,
            in_blocks: false,
        })
    }

    pub(super) fn gen_clause(&mut self, clause: &Clause) -> Option<GenClause> {
        self.nested(|c| c.gen_clause_here(clause))
    }

    fn gen_clause_here(&mut self, clause: &Clause) -> Option<GenClause> {
        let (pattern, source) = match clause {
            Clause::If(cond) => return Some(GenClause::If(self.boolean(cond)?)),
            Clause::For(pattern, source) => (pattern, source),
        };
        // The source is evaluated before its variables are bound.
        if let ExprKind::Binary(op @ (BinaryOp::Range | BinaryOp::RangeIncl), lo, hi) = &source.kind
        {
            let Pattern::Bind(slot, _) = pattern else {
                return None;
            };
            let lo = self.int(lo)?;
            let hi = self.int(hi)?;
            return Some(GenClause::Range {
                reg: self.bind(*slot, Kind::Int)?,
                lo,
                hi,
                inclusive: *op == BinaryOp::RangeIncl,
            });
        }
        if let ExprKind::CallBuiltin(Builtin::Enumerate, args) = &source.kind {
            let ([arg], Pattern::Tuple(pair, _)) = (args.as_slice(), pattern) else {
                return None;
            };
            let [first, second] = pair.as_slice() else {
                return None;
            };
            let list = self.list(arg)?;
            return Some(GenClause::Items {
                index: self.bind_pattern(first)?,
                item: self.bind_pattern(second)?,
                list,
            });
        }
        if let Some(rows) = self.const_rows(source) {
            let Pattern::Bind(slot, _) = pattern else {
                return None;
            };
            return Some(GenClause::Rows {
                reg: self.bind(*slot, Kind::List)?,
                rows: RowsSource::Const(rows),
            });
        }
        let list = self.list(source)?;
        let item = match pattern {
            Pattern::Tuple(..) => return None,
            p => self.bind_pattern(p)?,
        };
        Some(GenClause::Items {
            index: None,
            item,
            list,
        })
    }

    /// Binds an integer pattern variable; `Some(None)` for `_`.
    fn bind_pattern(&mut self, p: &Pattern) -> Option<Option<u32>> {
        match p {
            Pattern::Bind(slot, _) => Some(Some(self.bind(*slot, Kind::Int)?)),
            Pattern::Wildcard(_) => Some(None),
            Pattern::Tuple(..) => None,
        }
    }

    /// An integer from the list part of the fragment.
    pub(super) fn list_int(&mut self, e: &Expr) -> Option<IntExpr> {
        if let Some(n) = self.const_int(e) {
            return Some(IntExpr::Lit(n));
        }
        Some(match &e.kind {
            ExprKind::Bracket(base, args)
                if matches!(args.as_slice(), [(None, _)])
                    && !matches!(base.kind, ExprKind::Game(_)) =>
            {
                let list = self.list(base)?;
                self.as_list_only(&list);
                IntExpr::Index(Box::new(list), Box::new(self.int(&args[0].1)?))
            }
            ExprKind::CallBuiltin(b @ (Builtin::Len | Builtin::Count | Builtin::Sum), args)
                if args.len() == 1 =>
            {
                let arg = &args[0];
                if let ExprKind::ListComp(body, clauses) = &arg.kind {
                    let fold = self.with_gen(clauses, |c, gen| {
                        Some(match b {
                            Builtin::Sum => {
                                let body = c.int(body)?;
                                Fold::Sum(Box::new(gen.with_body(body.blockable())), Box::new(body))
                            }
                            Builtin::Count => match c.attempt(|c| c.boolean(body)) {
                                Some(cond) => Fold::CountTrue(
                                    Box::new(gen.with_body(cond.blockable())),
                                    Box::new(cond),
                                ),
                                None => {
                                    let body = c.int(body)?;
                                    Fold::CountItems(
                                        Box::new(gen.with_body(body.blockable())),
                                        Box::new(body),
                                    )
                                }
                            },
                            _ => {
                                let body = c.int(body)?;
                                Fold::CountItems(
                                    Box::new(gen.with_body(body.blockable())),
                                    Box::new(body),
                                )
                            }
                        })
                    });
                    if let Some(fold) = fold {
                        return Some(IntExpr::Fold(Box::new(fold)));
                    }
                }
                let list = self.list(arg)?;
                match b {
                    Builtin::Sum => IntExpr::SumList(Box::new(list)),
                    _ => IntExpr::Len(Box::new(list)),
                }
            }
            ExprKind::CallFn(id, args) => {
                let (bindings, body) = self.inline(id.0 as usize, args, |c, body| c.int(body))?;
                match self.memo_key(&bindings) {
                    Some(key) => IntExpr::Memo(key, bindings, Box::new(body)),
                    None => IntExpr::Let(bindings, Box::new(body)),
                }
            }
            _ => return None,
        })
    }

    /// A condition from the list part of the fragment.
    pub(super) fn list_bool(&mut self, e: &Expr) -> Option<BoolExpr> {
        Some(match &e.kind {
            ExprKind::Binary(op @ (BinaryOp::In | BinaryOp::NotIn), x, xs) => {
                let x = self.int(x)?;
                let xs = self.list(xs)?;
                BoolExpr::In(*op == BinaryOp::NotIn, x, Box::new(xs))
            }
            ExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), l, r) => {
                let left = self.int_tuple(l)?;
                let right = self.int_tuple(r)?;
                BoolExpr::TupleCmp(*op, left, right)
            }
            ExprKind::Quantified(q, clauses, body) => {
                let exists = *q == Quantifier::Exists;
                self.with_gen(clauses, |c, gen| {
                    let body = c.boolean(body)?;
                    Some(
                        if let Some(q) = IndexedQuant::recognise(exists, &gen, &body) {
                            BoolExpr::IndexedQuant(Box::new(q))
                        } else if let Some(q) = LinesQuant::recognise(exists, &gen, &body) {
                            BoolExpr::LinesQuant(Box::new(q))
                        } else {
                            BoolExpr::Quant(exists, Box::new(gen), Box::new(body))
                        },
                    )
                })?
            }
            ExprKind::CallFn(id, args) => {
                let (bindings, body) =
                    self.inline(id.0 as usize, args, |c, body| c.boolean(body))?;
                match self.memo_key(&bindings) {
                    Some(key) => BoolExpr::Memo(key, bindings, Box::new(body)),
                    None => BoolExpr::Let(bindings, Box::new(body)),
                }
            }
            _ => return None,
        })
    }

    /// A tuple of integers, written out or literal.
    fn int_tuple(&mut self, e: &Expr) -> Option<Vec<IntExpr>> {
        match &e.kind {
            ExprKind::Tuple(items) => items.iter().map(|i| self.int(i)).collect(),
            ExprKind::Lit(Value::Tuple(items)) => items
                .iter()
                .map(|v| match v {
                    Value::Int(n) => Some(IntExpr::Lit(*n)),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    /// How to remember a call whose arguments are variables or literals (comparing them is
    /// cheap and cannot fail); `None` for other calls. An argument that is a literal or an
    /// input of the rule (the position, a parameter: loaded when the run starts and never
    /// bound again) is the same all through a run, so it is left out of the key; a call of
    /// such arguments only (`turn(b)`) is then computed once a run and never compared.
    fn memo_key(&mut self, bindings: &[Binding]) -> Option<MemoKey> {
        if !bindings.iter().all(Binding::is_simple) {
            return None;
        }
        let fixed = |b: &Binding| match b {
            Binding::Int(_, IntExpr::Lit(_))
            | Binding::List(_, ListExpr::Lit(_))
            | Binding::Bool(_, BoolExpr::Lit(_))
            | Binding::Rows(..)
            | Binding::Alias(Kind::Rows, _) => true,
            Binding::Int(_, IntExpr::Reg(r))
            | Binding::List(_, ListExpr::Reg(r))
            | Binding::Bool(_, BoolExpr::Reg(r))
            | Binding::Alias(_, r) => self.inputs.iter().any(|(input, _)| input == r),
            Binding::Int(..) | Binding::List(..) | Binding::Bool(..) => false,
        };
        let keyed = bindings.iter().map(|b| !fixed(b)).collect();
        self.memos += 1;
        Some(MemoKey {
            id: self.memos - 1,
            keyed,
        })
    }

    /// Inlines a call of function `id`: its body compiled by `body` in a frame of fresh
    /// registers, and its arguments bound to the parameters' registers, in order. The
    /// parameters' kinds come from how the body uses them. An argument that is a variable
    /// is not copied: the parameter is an alias of the caller's register (which the body,
    /// writing only its own frame, cannot change), so `won(b, 1)` reads the board in place.
    fn inline<T>(
        &mut self,
        id: usize,
        args: &[Expr],
        body: impl FnOnce(&mut Self, &Expr) -> Option<T>,
    ) -> Option<(Vec<Binding>, T)> {
        let function = self.program?.fns.get(id)?;
        if self.depth >= MAX_INLINE_DEPTH || args.len() != function.arity {
            return None;
        }
        let base = self.next;
        self.next += function.body.frame_size.max(function.arity) as u32;
        self.grow();
        for j in 0..function.arity {
            self.bound[base as usize + j] = true;
        }
        for (j, arg) in args.iter().enumerate() {
            if let ExprKind::Local(slot) = arg.kind {
                let caller = self.base + slot;
                if (caller as usize) < self.kinds.len() {
                    self.alias[base as usize + j] = Some(self.resolved(caller));
                }
            }
        }
        let caller_base = std::mem::replace(&mut self.base, base);
        self.depth += 1;
        self.call_depth = self.call_depth.max(self.depth);
        let compiled = body(self, &function.body.expr);
        self.depth -= 1;
        self.base = caller_base;
        let compiled = compiled?;
        let mut bindings = Vec::with_capacity(args.len());
        for (j, arg) in args.iter().enumerate() {
            let reg = base + j as u32;
            let alias = self.alias[reg as usize];
            let target_kind = alias.and_then(|t| self.kinds[t as usize]);
            bindings.push(match (self.kinds[reg as usize], alias) {
                (Some(kind), Some(target)) => Binding::Alias(kind, target),
                // A parameter the body passes on to a further call as a variable, which
                // reads the caller's register in place: an alias too, of what it reads.
                (None, Some(target)) if target_kind.is_some() => {
                    Binding::Alias(target_kind.unwrap_or(Kind::Int), target)
                }
                (Some(Kind::Int), None) => Binding::Int(reg, self.int(arg)?),
                (Some(Kind::List), None) => {
                    let list = self.list(arg)?;
                    self.as_list_only(&list);
                    Binding::List(reg, list)
                }
                (Some(Kind::Bool), None) => Binding::Bool(reg, self.boolean(arg)?),
                (Some(Kind::Rows), None) => Binding::Rows(reg, self.const_rows(arg)?),
                // An unused parameter: its argument is still evaluated.
                (None, _) => {
                    if let Some(e) = self.attempt(|c| c.int(arg)) {
                        Binding::Int(reg, e)
                    } else if let Some(e) = self.attempt(|c| c.list(arg)) {
                        Binding::List(reg, e)
                    } else {
                        Binding::Bool(reg, self.boolean(arg)?)
                    }
                }
            });
        }
        Some((bindings, compiled))
    }
}
