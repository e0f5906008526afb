//! Rows: families of integer lists (winning lines, sets) held as one table, and the
//! quantifiers over them recognised as single loops.
//!
//! Registers of kind `Kind::Rows` hold a parameter's list of integer lists, or of integer sets
//! when no row is read as only a list allows, converted once and reused while the parameter is
//! the same value. A quantifier comparing a board's indexed cells (`forall i in l: b[i] == p`,
//! also over a constant's or a parameter's rows) is one loop (`IndexedQuant`, `LinesQuant`);
//! rows whose items are below 64 are kept as bit masks too (`RowSet`) and tested against the
//! mask of the cells that pass when the board holds them all. `CellTest` is an innermost loop's
//! first guard `b[i] op y`, tested in place.

use std::rc::Rc;
use std::sync::Arc;

use super::lanes::flipped;
use super::*;
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

/// A family of rows (lists of integers), with each row's cells as a bit mask when every
/// item of every row is below 64: a board game's lines, which [`LinesQuant`] then tests
/// all at once.
#[derive(Debug)]
pub(super) struct RowSet {
    pub(super) rows: Vec<Arc<[i64]>>,
    /// Per row, the set of its items (`1 << i` for each item `i`), if all are in `0..64`.
    pub(super) masks: Option<Vec<u64>>,
    /// One more than the greatest item (0 without items): a board at least this long has
    /// every cell the rows name.
    pub(super) reach: usize,
}

impl RowSet {
    pub(super) fn new(rows: Vec<Arc<[i64]>>) -> Arc<RowSet> {
        let items = || rows.iter().flat_map(|r| r.iter().copied());
        let masks = items().all(|i| (0..64).contains(&i)).then(|| {
            rows.iter()
                .map(|r| r.iter().fold(0u64, |m, i| m | (1 << i)))
                .collect()
        });
        let reach = items()
            .max()
            .map_or(0, |i| i.saturating_add(1).max(0) as usize);
        Arc::new(RowSet { rows, masks, reach })
    }
}

/// The rows of a `for row in rows` clause: a constant's, or a rows register's.
#[derive(Debug, Clone)]
pub(super) enum RowsSource {
    Const(Arc<RowSet>),
    Reg(u32),
}

impl RowsSource {
    /// The rows (shared, not copied).
    pub(super) fn get(&self, run: &Run<'_>) -> Eval<Arc<RowSet>> {
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
    pub(super) from: Option<Value>,
    /// Whether a row was read from a set: a rule that takes lists only must not reuse it.
    pub(super) from_sets: bool,
    pub(super) rows: Arc<RowSet>,
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

/// `exists`/`forall x in xs: ys[x] op y`, `xs` and `ys` list registers and `y` a literal or a
/// register other than `x` (or the comparison the other way round): the quantifier of a
/// board game's lines (`forall i in line: b[i] == p`), run as one loop over the items instead
/// of a generator and a body per item. It means what the general form does: items in order,
/// stopping at the first that decides, an index out of range handed to the interpreter.
#[derive(Debug, Clone)]
pub(super) struct IndexedQuant {
    pub(super) exists: bool,
    pub(super) items: u32,
    pub(super) board: u32,
    /// The comparison with the indexed item on its left.
    pub(super) op: BinaryOp,
    pub(super) other: IntExpr,
}

impl IndexedQuant {
    /// The quantifier `exists gen: body` (`forall` when not `exists`) in this form, if it is.
    pub(super) fn recognise(exists: bool, gen: &Gen, body: &BoolExpr) -> Option<IndexedQuant> {
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
        mark(Reached::Quantifier);
        let y = self.other.leaf(run).ok_or(Interrupt::Fallback)?;
        let b = &run.b;
        let (items, board) = (&b.lists[self.items as usize], &b.lists[self.board as usize]);
        let (value, steps) = self.over(items, board, y)?;
        tick_n(&mut run.ticks, run.stop, steps)?;
        Ok(value)
    }

    /// The quantifier's value over `items`, and how many items it looked at.
    #[inline]
    pub(super) fn over(&self, items: &[i64], board: &[i64], y: i64) -> Eval<(bool, usize)> {
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
    pub(super) exists: bool,
    pub(super) rows: RowsSource,
    pub(super) inner: IndexedQuant,
}

impl LinesQuant {
    /// The quantifier `exists gen: body` in this form, if it is.
    pub(super) fn recognise(exists: bool, gen: &Gen, body: &BoolExpr) -> Option<LinesQuant> {
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
        mark(Reached::Quantifier);
        let y = self.inner.other.leaf(run).ok_or(Interrupt::Fallback)?;
        // The rows read in place (a constant's, or a register's), not shared out.
        let rows: &RowSet = match &self.rows {
            RowsSource::Const(rows) => rows,
            RowsSource::Reg(r) => run.b.rows[*r as usize]
                .as_ref()
                .map(|slot| &*slot.rows)
                .ok_or(Interrupt::Fallback)?,
        };
        let board = &run.b.lists[self.inner.board as usize];
        if let (Some(masks), true) = (&rows.masks, board.len() >= rows.reach) {
            // Every cell the rows name is on the board, so no item can fail: the cells
            // that pass the comparison, as a bit mask, decide each row at once.
            let pass = pass_mask(self.inner.op, &board[..rows.reach], y);
            let value = match (self.exists, self.inner.exists) {
                (true, false) => masks.iter().any(|m| m & !pass == 0),
                (true, true) => masks.iter().any(|m| m & pass != 0),
                (false, false) => masks.iter().all(|m| m & !pass == 0),
                (false, true) => masks.iter().all(|m| m & pass != 0),
            };
            let steps = rows.reach + masks.len();
            tick_n(&mut run.ticks, run.stop, steps)?;
            return Ok(value);
        }
        let rows = self.rows.get(run)?;
        let board = &run.b.lists[self.inner.board as usize];
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

/// The cells `c` (at most 64) for which `c op y` holds, as a bit mask: one loop, the
/// operator chosen once.
fn pass_mask(op: BinaryOp, cells: &[i64], y: i64) -> u64 {
    fn mask(cells: &[i64], test: impl Fn(i64) -> bool) -> u64 {
        // From the last cell down, a shift and an `or` a cell.
        cells
            .iter()
            .rev()
            .fold(0u64, |pass, c| (pass << 1) | u64::from(test(*c)))
    }
    match op {
        BinaryOp::Eq => mask(cells, |c| c == y),
        BinaryOp::Ne => mask(cells, |c| c != y),
        BinaryOp::Lt => mask(cells, |c| c < y),
        BinaryOp::Le => mask(cells, |c| c <= y),
        BinaryOp::Gt => mask(cells, |c| c > y),
        _ => mask(cells, |c| c >= y),
    }
}

/// A guard `xs[x] op y` (or `y op xs[x]`) of a loop over `x`, `xs` a list register and `y`
/// a literal or another register: a board's `if b[i] == 0`, tested in place for each value
/// of the loop without walking the expression.
pub(super) struct CellTest {
    list: u32,
    op: BinaryOp,
    other: IntExpr,
}

impl CellTest {
    /// The guard `cond` of the loop over register `x` in this form, if it is.
    pub(super) fn recognise(cond: &BoolExpr, x: u32) -> Option<CellTest> {
        let BoolExpr::Cmp(op, l, r) = cond else {
            return None;
        };
        let cell = |e: &IntExpr| match e {
            IntExpr::Index(list, i) => match (&**list, &**i) {
                (ListExpr::Reg(list), IntExpr::Reg(i)) if *i == x => Some(*list),
                _ => None,
            },
            _ => None,
        };
        let leaf =
            |e: &IntExpr| matches!(e, IntExpr::Lit(_)) || matches!(e, IntExpr::Reg(r) if *r != x);
        let (list, op, other) = match (cell(l), cell(r)) {
            (Some(list), _) if leaf(r) => (list, *op, r),
            (_, Some(list)) if leaf(l) => (list, flipped(*op), l),
            _ => return None,
        };
        Some(CellTest {
            list,
            op,
            other: other.clone(),
        })
    }

    /// The guard's value at `x = v`; `None` where the cell is not on the list (the general
    /// evaluation then hands the rule to the interpreter).
    #[inline]
    pub(super) fn test(&self, run: &Run<'_>, v: i64) -> Option<bool> {
        let y = self.other.leaf(run)?;
        let cell = *run.b.lists[self.list as usize].get(usize::try_from(v).ok()?)?;
        Some(super::compare(self.op, cell, y))
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
    let v = x.operand(run)?;
    if let ListExpr::Reg(r) = list {
        return Ok(run.b.lists[*r as usize].contains(&v));
    }
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
pub(super) fn int_items(v: &Value) -> Option<Arc<[i64]>> {
    match v {
        Value::List(items) => ints(items.iter()),
        _ => None,
    }
}

/// The integers of `items`, if all are integers.
pub(super) fn ints<'v>(items: impl Iterator<Item = &'v Value>) -> Option<Arc<[i64]>> {
    items.map(Value::as_int).collect()
}
