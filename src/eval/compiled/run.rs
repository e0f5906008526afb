//! Running compiled trees one value at a time: integer and boolean expressions, targets,
//! the buffers of a run, compiled conditions and the driver of a compiled rule.

use std::ops::ControlFlow;
use std::rc::Rc;

use lists::{GenClause, Kind};

use super::*;
use crate::diag::DiagResult;
use crate::eval::arith;
use crate::eval::grid;
use crate::eval::stop::Stop;
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

pub(super) type Eval<T> = Result<T, Interrupt>;

impl IntExpr {
    /// The value of a leaf (a literal or a register) without a call: most operands are one.
    #[inline]
    pub(super) fn leaf(&self, run: &Run<'_>) -> Option<i64> {
        match self {
            IntExpr::Lit(n) => Some(*n),
            IntExpr::Reg(r) => Some(run.b.regs[*r as usize]),
            _ => None,
        }
    }

    /// The value of a leaf, or of `xs[i]` for a list register `xs` and a leaf `i` in range:
    /// a board's cell, the commonest guard's operand, read without a call.
    #[inline]
    pub(super) fn quick(&self, run: &Run<'_>) -> Option<i64> {
        match self {
            IntExpr::Lit(n) => Some(*n),
            IntExpr::Reg(r) => Some(run.b.regs[*r as usize]),
            IntExpr::Index(list, i) => match &**list {
                ListExpr::Reg(r) => {
                    let i = usize::try_from(i.leaf(run)?).ok()?;
                    run.b.lists[*r as usize].get(i).copied()
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The value of an operand: a leaf or a cell read in place, anything else evaluated.
    #[inline]
    pub(super) fn operand(&self, run: &mut Run<'_>) -> Eval<i64> {
        match self.quick(run) {
            Some(v) => Ok(v),
            None => self.eval(run),
        }
    }

    pub(super) fn eval(&self, run: &mut Run<'_>) -> Eval<i64> {
        // Any failure hands the rule to the interpreter, which reports it.
        let checked = |v: Result<i64, arith::ArithError>| v.map_err(|_| Interrupt::Fallback);
        match self {
            IntExpr::Lit(n) => Ok(*n),
            IntExpr::Reg(r) => Ok(run.b.regs[*r as usize]),
            IntExpr::Neg(x) => checked(arith::neg(x.eval(run)?)),
            IntExpr::Abs(x) => checked(arith::abs(x.eval(run)?)),
            IntExpr::Bin(op, l, r) => {
                let a = l.operand(run)?;
                let b = r.operand(run)?;
                checked(op.apply(a, b))
            }
            IntExpr::If(c, t, f) => {
                if c.eval(run)? {
                    t.operand(run)
                } else {
                    f.operand(run)
                }
            }
            IntExpr::Min(xs) | IntExpr::Max(xs) => {
                let min = matches!(self, IntExpr::Min(_));
                let mut best = xs[0].operand(run)?;
                for x in &xs[1..] {
                    let v = x.operand(run)?;
                    if (min && v < best) || (!min && v > best) {
                        best = v;
                    }
                }
                Ok(best)
            }
            IntExpr::ExtremeList(min, list) => list.with(run, |_, items| {
                // The first of the least (greatest) items; an empty list is the
                // interpreter's error.
                let mut best = *items.first().ok_or(Interrupt::Fallback)?;
                for &v in &items[1..] {
                    if (*min && v < best) || (!*min && v > best) {
                        best = v;
                    }
                }
                Ok(best)
            }),
            IntExpr::Call(f, args) => {
                let mut xs = [0i64; 3];
                for (x, a) in xs.iter_mut().zip(args) {
                    *x = a.operand(run)?;
                }
                match f {
                    IntFn::Popcount if xs[0] >= 0 => Ok(i64::from(xs[0].count_ones())),
                    IntFn::Bits if xs[0] >= 0 => Ok(64 - i64::from(xs[0].leading_zeros())),
                    IntFn::Normalize => {
                        grid::normalize(xs[0], xs[1], xs[2]).map_err(|_| Interrupt::Fallback)
                    }
                    _ => Err(Interrupt::Fallback),
                }
            }
            IntExpr::Index(list, i) => rows::index(list, i, run),
            IntExpr::Len(list) => list.with(run, |_, items| Ok(items.len() as i64)),
            IntExpr::SumList(list) => list.with(run, |_, items| {
                let mut total = arith::Sum::default();
                items.iter().for_each(|x| total.add(*x));
                checked(total.total())
            }),
            IntExpr::Fold(fold) => fold.eval(run),
            IntExpr::Let(bindings, body) => {
                lists::bind_all(bindings, run)?;
                body.eval(run)
            }
            IntExpr::Memo(id, bindings, body) if hoist::fixed(id) => hoist::once(id, run, |run| {
                hoist::bind(bindings, run)?;
                body.eval(run)
            }),
            IntExpr::Memo(id, bindings, body) => {
                lists::memoized(id, bindings, run, |run| body.eval(run))
            }
        }
    }

    /// Whether blocks can compute it: integer registers and arithmetic only.
    pub(super) fn blockable(&self) -> bool {
        match self {
            IntExpr::Lit(_) | IntExpr::Reg(_) => true,
            IntExpr::Neg(x) | IntExpr::Abs(x) => x.blockable(),
            IntExpr::Bin(_, l, r) => l.blockable() && r.blockable(),
            IntExpr::If(c, t, f) => c.blockable() && t.blockable() && f.blockable(),
            IntExpr::Min(xs) | IntExpr::Max(xs) => xs.iter().all(IntExpr::blockable),
            IntExpr::Index(..)
            | IntExpr::Len(_)
            | IntExpr::SumList(_)
            | IntExpr::Fold(_)
            | IntExpr::Let(..)
            | IntExpr::Memo(..)
            | IntExpr::ExtremeList(..)
            | IntExpr::Call(..) => false,
        }
    }
}

impl BoolExpr {
    /// The condition's value. The commonest guards, comparisons of variables and literals
    /// and `and`/`or` of them (`(i, j) != (0, 0)`), are answered here, in a small function;
    /// the others in [`BoolExpr::eval_general`], whose frame is large.
    #[inline]
    pub(super) fn eval(&self, run: &mut Run<'_>) -> Eval<bool> {
        match self {
            BoolExpr::Cmp(op, l, r) => {
                if let (Some(a), Some(b)) = (l.quick(run), r.quick(run)) {
                    return Ok(compare(*op, a, b));
                }
            }
            BoolExpr::And(l, r) => return Ok(l.eval(run)? && r.eval(run)?),
            BoolExpr::Or(l, r) => return Ok(l.eval(run)? || r.eval(run)?),
            BoolExpr::Not(x) => return Ok(!x.eval(run)?),
            // A board game's `exists line in LINES: forall i in line: b[i] == p`, the
            // commonest condition, without the general frame.
            BoolExpr::LinesQuant(q) => return q.eval(run),
            // A call on arguments fixed for the run (`won(b, 1)`), in a frame of its own.
            BoolExpr::Memo(id, bindings, body) if hoist::fixed(id) => {
                return hoist::once_bool(id, bindings, body, run)
            }
            _ => {}
        }
        self.eval_general(run)
    }

    /// The value of a condition made of comparisons of variables and literals, `and`, `or`
    /// and `not` (`(i, j) != (0, 0)`), none of which can fail: read from the registers with
    /// no `Run` and no error path. `None` when it is not such (a part that would be evaluated
    /// is something else); then [`BoolExpr::eval`] decides.
    pub(super) fn leaf_value(&self, regs: &[i64]) -> Option<bool> {
        let leaf = |e: &IntExpr| match e {
            IntExpr::Lit(n) => Some(*n),
            IntExpr::Reg(r) => Some(regs[*r as usize]),
            _ => None,
        };
        match self {
            BoolExpr::Cmp(op, l, r) => Some(compare(*op, leaf(l)?, leaf(r)?)),
            BoolExpr::And(l, r) => Some(l.leaf_value(regs)? && r.leaf_value(regs)?),
            BoolExpr::Or(l, r) => Some(l.leaf_value(regs)? || r.leaf_value(regs)?),
            BoolExpr::Not(x) => Some(!x.leaf_value(regs)?),
            BoolExpr::Lit(b) => Some(*b),
            BoolExpr::Reg(r) => Some(regs[*r as usize] != 0),
            _ => None,
        }
    }

    #[inline(never)]
    pub(super) fn eval_general(&self, run: &mut Run<'_>) -> Eval<bool> {
        match self {
            BoolExpr::Lit(b) => Ok(*b),
            BoolExpr::Reg(r) => Ok(run.b.regs[*r as usize] != 0),
            BoolExpr::Same(ne, l, r) => {
                let a = l.eval(run)?;
                let b = r.eval(run)?;
                Ok((a == b) != *ne)
            }
            BoolExpr::Not(x) => Ok(!x.eval(run)?),
            BoolExpr::And(l, r) => Ok(l.eval(run)? && r.eval(run)?),
            BoolExpr::Or(l, r) => Ok(l.eval(run)? || r.eval(run)?),
            BoolExpr::Cmp(op, l, r) => {
                let a = l.operand(run)?;
                let b = r.operand(run)?;
                Ok(compare(*op, a, b))
            }
            BoolExpr::In(negated, x, list) => Ok(rows::contains(x, list, run)? != *negated),
            BoolExpr::TupleCmp(op, l, r) => {
                Ok(rows::tuples_equal(l, r, run)? == (*op == BinaryOp::Eq))
            }
            BoolExpr::Quant(exists, gen, body) => lists::quantified(*exists, gen, body, run),
            BoolExpr::IndexedQuant(q) => q.eval(run),
            BoolExpr::LinesQuant(q) => q.eval(run),
            BoolExpr::Let(bindings, body) => {
                lists::bind_all(bindings, run)?;
                body.eval(run)
            }
            BoolExpr::Memo(id, bindings, body) if hoist::fixed(id) => {
                hoist::once_bool(id, bindings, body, run)
            }
            BoolExpr::Memo(id, bindings, body) => {
                Ok(lists::memoized(id, bindings, run, |run| Ok(i64::from(body.eval(run)?)))? != 0)
            }
        }
    }

    /// Whether blocks can compute it.
    pub(super) fn blockable(&self) -> bool {
        match self {
            BoolExpr::Lit(_) | BoolExpr::Reg(_) => true,
            BoolExpr::Not(x) => x.blockable(),
            BoolExpr::And(l, r) | BoolExpr::Or(l, r) | BoolExpr::Same(_, l, r) => {
                l.blockable() && r.blockable()
            }
            BoolExpr::Cmp(_, l, r) => l.blockable() && r.blockable(),
            BoolExpr::In(..)
            | BoolExpr::TupleCmp(..)
            | BoolExpr::Quant(..)
            | BoolExpr::IndexedQuant(_)
            | BoolExpr::LinesQuant(_)
            | BoolExpr::Let(..)
            | BoolExpr::Memo(..) => false,
        }
    }
}

/// The integers of `list` as values, collected into a list's or a split's items; the
/// scratch list goes back to `run` whether or not the evaluation failed.
fn int_values<C: FromIterator<Value>>(list: &ListExpr, run: &mut Run<'_>) -> Eval<C> {
    let mut out = run.take_list();
    let result = list.eval_into(run, &mut out);
    let values = out.iter().map(|n| Value::Int(*n)).collect();
    run.put_list(out);
    result.map(|()| values)
}

impl Target {
    pub(super) fn eval(&self, run: &mut Run<'_>) -> Eval<Value> {
        Ok(match self {
            Target::Int(e) => Value::Int(e.eval(run)?),
            Target::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(Value::Int(i.eval(run)?));
                }
                Value::tuple(out)
            }
            Target::List(list) => Value::list(int_values(list, run)?),
            Target::Split(parts) => {
                let mut out = Vec::with_capacity(parts.len());
                for p in parts {
                    out.push(p.eval(run)?);
                }
                Value::Split(Rc::from(out))
            }
            Target::Let(bindings, body) => {
                lists::bind_all(bindings, run)?;
                body.eval(run)?
            }
            Target::SplitList(list) => Value::Split(int_values(list, run)?),
        })
    }
}

/// The buffers of a run, kept from run to run (a position's rules run once per scan: these
/// would otherwise be allocated as often).
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) regs: Vec<i64>,
    /// An affine run's parts (`CompiledRule::blocks`).
    pub(super) affine: Vec<(i64, i64)>,
    /// List registers (empty for integer registers).
    pub(super) lists: Vec<Vec<i64>>,
    /// Rows registers (`None` for the others).
    pub(super) rows: Vec<Option<rows::RowsSlot>>,
    /// Free list buffers for intermediate lists.
    pub(super) spare: Vec<Vec<i64>>,
    /// A list target, reused from option to option.
    pub(super) list_out: Vec<i64>,
    /// The remembered calls of the current run, by id.
    pub(super) memo: Vec<lists::Memo>,
    /// The parts of a top-level `split` target, reused from option to option.
    pub(super) parts: Vec<Value>,
    /// The same when every part is an integer.
    pub(super) int_parts: Vec<i64>,
    /// Scratch blocks of expressions.
    pub(super) pool: Pool,
    /// The innermost loop's values in a block, which lanes the guards keep, a guard's value,
    /// the target's integer parts.
    pub(super) values: Vec<i64>,
    pub(super) keep: Vec<bool>,
    pub(super) guard: Vec<bool>,
    pub(super) columns: Vec<Vec<i64>>,
    /// A generator's block: its items' indexes, and the columns of its guard's and its
    /// body's lane programs.
    pub(super) index: Vec<i64>,
    pub(super) guard_cols: Vec<i64>,
    pub(super) body_cols: Vec<i64>,
    /// A block of an innermost loop's values crossed with a list's items (see `cross.rs`):
    /// the input lanes (items, indexes, the loops' variables) and the body's.
    pub(super) cross: Vec<i64>,
    /// What the input lanes of `cross` hold from earlier blocks (see `cross.rs`).
    pub(super) cross_filled: CrossFilled,
}

/// How much of the input lanes of a run's `cross` buffer a block may use as they are: the
/// first `rows` rows of `len` lanes hold the list's items (as the first row has them), the
/// first `index_rows` their indexes, and the first `outer_rows` the values from
/// `outer_start` up, a value a row.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct CrossFilled {
    pub(super) len: usize,
    pub(super) rows: usize,
    pub(super) index_rows: usize,
    pub(super) outer_start: i64,
    pub(super) outer_rows: usize,
}

thread_local! {
    /// Buffers free for the next run (runs nest: an option's first move is generated while
    /// the option is interned). Boxed on purpose: taking buffers from the list and giving
    /// them back then moves a pointer, not the struct.
    #[allow(clippy::vec_box)]
    static FREE_BUFFERS: std::cell::RefCell<Vec<Box<Buffers>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The state of one run of a compiled rule.
pub(super) struct Run<'r> {
    /// How the innermost loop's options are emitted: one at a time, a block at a time, or
    /// (a loop whose target is affine in its variable) as one run.
    pub(super) batch: Batching,
    /// Emit a target that sets one cell of the packed position as that cell (`cells.rs`).
    pub(super) cells: bool,
    /// The visitor takes a filtered list as [`Emitted::Kept`] (`cross.rs`).
    pub(super) kept: bool,
    pub(super) max_collection: u64,
    pub(super) stop: &'r Stop,
    pub(super) ticks: u32,
    /// Boxed: a run takes its buffers from the free list and gives them back, a pointer
    /// each way rather than the whole struct.
    pub(super) b: Box<Buffers>,
}

/// Evaluates `items` in order into a buffer of the run's (no allocation per option), hands
/// the values to `emit`, and gives the buffer back.
pub(super) fn emit_each<X, T>(
    run: &mut Run<'_>,
    buffer: fn(&mut Buffers) -> &mut Vec<T>,
    items: &[X],
    eval: impl Fn(&X, &mut Run<'_>) -> Eval<T>,
    emit: impl FnOnce(&[T]) -> DiagResult<ControlFlow<()>>,
) -> Result<ControlFlow<()>, Interrupt> {
    let mut out = std::mem::take(buffer(&mut run.b));
    out.clear();
    let result = items.iter().try_for_each(|x| {
        out.push(eval(x, run)?);
        Ok(())
    });
    let flow = result.and_then(|()| emit(&out).map_err(Interrupt::Error));
    out.clear();
    *buffer(&mut run.b) = out;
    flow
}

impl Run<'_> {
    /// Counts one step of a loop; looks at the clock now and then, as the interpreter does.
    pub(super) fn tick(&mut self) -> Eval<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(4096) {
            self.stop.check().map_err(Interrupt::Error)?;
        }
        Ok(())
    }

    /// An empty list buffer.
    pub(super) fn take_list(&mut self) -> Vec<i64> {
        let mut buf = self.b.spare.pop().unwrap_or_default();
        buf.clear();
        buf
    }

    /// Gives a buffer from [`Run::take_list`] back.
    pub(super) fn put_list(&mut self, buf: Vec<i64>) {
        self.b.spare.push(buf);
    }
}

/// Where compiled forms read their inputs: a position's frame, and maybe one slot whose
/// value is a list of integers given as such (a packed position, whose list is not built
/// into the frame).
#[derive(Clone, Copy, Debug)]
pub struct InputFrame<'f> {
    /// The frame's values, by slot.
    pub values: &'f [Value],
    /// The slot read from the integers instead of `values`, and the integers.
    pub packed: Option<(u32, &'f [i64])>,
}

/// What a compiled rule or condition needs to start a run: the frame slots it reads
/// without binding them (with what each must hold), the rows inputs that may hold integer
/// sets (see `Compiler::sets_as_rows`), the registers it needs and how deep its inlined
/// calls nest (the interpreter's call-depth limit must allow it).
#[derive(Debug, Clone)]
pub(super) struct RunShape {
    pub(super) inputs: Vec<(u32, Kind)>,
    pub(super) set_rows: Vec<u32>,
    pub(super) registers: usize,
    pub(super) call_depth: usize,
}

impl Run<'_> {
    /// Whether the innermost loop's options go a block at a time.
    pub(super) fn blocks(&self) -> bool {
        self.batch != Batching::One
    }
}

/// Sets up a run (buffers from the free list, the inputs loaded from `frame`), runs `f` in
/// it, and gives the buffers back.
pub(super) fn with_run<T>(
    shape: &RunShape,
    frame: InputFrame<'_>,
    max_collection: u64,
    stop: &Stop,
    batch: Batching,
    f: impl FnOnce(&mut Run<'_>) -> Eval<T>,
) -> Eval<T> {
    let RunShape {
        inputs,
        set_rows,
        registers,
        ..
    } = shape;
    let registers = *registers;
    // A compiled tree nests at most `MAX_NESTING` levels, which `RUN_STACK` holds; with
    // less stack left (a rule run from deep inside a recursion), the interpreter runs it and
    // checks the stack at each level.
    if !crate::stack::left_at_least(RUN_STACK + crate::stack::RED_ZONE) {
        return Err(Interrupt::Fallback);
    }
    let mut b = FREE_BUFFERS
        .with(|free| free.borrow_mut().pop())
        .unwrap_or_default();
    let registers = registers.max(frame.values.len());
    b.regs.clear();
    b.regs.resize(registers, 0);
    if b.lists.len() < registers {
        b.lists.resize_with(registers, Vec::new);
        b.rows.resize(registers, None);
    }
    for (slot, kind) in inputs {
        if let Some((at, items)) = frame.packed.filter(|(at, _)| at == slot) {
            if *kind == Kind::List {
                let list = &mut b.lists[at as usize];
                list.clear();
                list.extend_from_slice(items);
                continue;
            }
            FREE_BUFFERS.with(|free| free.borrow_mut().push(b));
            return Err(Interrupt::Fallback);
        }
        let loaded = match (kind, frame.values.get(*slot as usize)) {
            (Kind::Int, Some(Value::Int(n))) => {
                b.regs[*slot as usize] = *n;
                true
            }
            (Kind::Bool, Some(Value::Bool(x))) => {
                b.regs[*slot as usize] = i64::from(*x);
                true
            }
            (Kind::Rows, Some(value)) => {
                let sets = set_rows.contains(slot);
                rows::load_rows(&mut b.rows[*slot as usize], value, sets)
            }
            (Kind::List, Some(Value::List(items))) => {
                let list = &mut b.lists[*slot as usize];
                list.clear();
                items.iter().all(|item| match item {
                    Value::Int(n) => {
                        list.push(*n);
                        true
                    }
                    _ => false,
                })
            }
            _ => false,
        };
        if !loaded {
            FREE_BUFFERS.with(|free| free.borrow_mut().push(b));
            return Err(Interrupt::Fallback);
        }
    }
    // Remembered calls hold for one run: the next may be of another rule.
    b.memo.iter_mut().for_each(|m| m.valid = false);
    // A list the interpreter would refuse for its memory (it asks twice an item's bytes),
    // the rule hands to the interpreter, which says so: the engines fail alike.
    let room = stop.account().room() / (2 * crate::eval::interp::ITEM_BYTES);
    let mut run = Run {
        batch,
        cells: false,
        kept: false,
        max_collection: max_collection.min(room as u64),
        stop,
        ticks: 0,
        b,
    };
    let result = f(&mut run);
    run.b.parts.clear();
    FREE_BUFFERS.with(|free| free.borrow_mut().push(run.b));
    result
}

impl CompiledRule {
    /// How deep the rule's inlined calls nest: it may run only where the interpreter would
    /// allow calls that deep.
    pub fn call_depth(&self) -> usize {
        self.shape.call_depth
    }

    /// Runs the rule for a position whose frame (parameters and position fields bound) is
    /// `frame`, calling `emit` with each target value in the interpreter's order.
    pub fn run(
        &self,
        frame: InputFrame<'_>,
        max_collection: u64,
        stop: &Stop,
        batch: Batching,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        mark(Reached::Rule);
        with_run(&self.shape, frame, max_collection, stop, batch, |run| {
            self.steps_from(0, run, emit)
        })
    }

    pub(super) fn steps_from(
        &self,
        k: usize,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let Some(step) = self.steps.get(k) else {
            return self.emit_target(run, emit);
        };
        match step {
            GenClause::Range {
                reg,
                lo,
                hi,
                inclusive,
            } if self.last_for == Some(k) => {
                let (a, b) = lists::range(run, lo, hi, *inclusive)?;
                let guards = &self.steps[k + 1..];
                match &self.int_parts {
                    Some(parts) => self.blocks(*reg, a, b, guards, parts, run, emit),
                    None => self.inner_loop(*reg, a, b, guards, run, emit),
                }
            }
            // The loop around the innermost one, maybe run with it as one (`cross.rs`).
            GenClause::Items { .. } | GenClause::Range { .. } if self.last_for == Some(k + 1) => {
                match self.flat(k, run, emit) {
                    Some(flow) => {
                        mark(Reached::Flat);
                        flow
                    }
                    None => self.one_step(k, run, emit),
                }
            }
            _ => self.one_step(k, run, emit),
        }
    }

    /// The innermost loop, `for reg in a..b` followed only by guards, a value at a time: the
    /// guards evaluated in order and the target emitted, with no recursion per value. As for
    /// blocks, leading affine guards cut the range first.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn inner_loop(
        &self,
        reg: u32,
        a: i64,
        b: i64,
        guards: &[GenClause],
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let (a, b, narrowed) = narrow(reg, a, b, guards, &run.b.regs);
        if narrowed > 0 {
            mark(Reached::Narrow);
        }
        let guards = &guards[narrowed..];
        if let (Some(cross), true, []) = (&self.cross, run.blocks(), guards) {
            // All the options are wanted: their targets computed a block of values at once.
            if let Some(flow) = cross.run(reg, a, b, run, emit) {
                mark(Reached::Cross);
                return flow;
            }
        }
        // A first guard that reads a cell of a list at the loop's value is tested in place.
        let cell = match guards.first() {
            Some(GenClause::If(cond)) => rows::CellTest::recognise(cond, reg),
            _ => None,
        };
        if cell.is_some() {
            mark(Reached::CellTest);
        }
        'values: for v in a..b {
            run.tick()?;
            run.b.regs[reg as usize] = v;
            let mut rest = guards;
            if let Some(test) = &cell {
                match test.test(run, v) {
                    Some(false) => continue 'values,
                    Some(true) => rest = &guards[1..],
                    None => {}
                }
            }
            for guard in rest {
                if let GenClause::If(cond) = guard {
                    let holds = match cond.leaf_value(&run.b.regs) {
                        Some(holds) => holds,
                        None => cond.eval(run)?,
                    };
                    if !holds {
                        continue 'values;
                    }
                }
            }
            if self.emit_target(run, emit)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Runs clause `k` alone, the rest of the rule for each binding it makes.
    pub(super) fn one_step(
        &self,
        k: usize,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        lists::run_clauses(&self.steps[k..=k], run, &mut |run| {
            self.steps_from(k + 1, run, emit)
        })
    }

    /// Computes the target in the registers as they are and hands it to `emit`.
    pub(super) fn emit_target(
        &self,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        if run.cells {
            return self.emit_cell(run, emit);
        }
        if let (LaneShape::Split, Some(parts)) = (self.int_shape, &self.int_parts) {
            return emit_each(
                run,
                |b| &mut b.int_parts,
                parts,
                |p, run| p.eval(run),
                |ints| emit(Emitted::IntSplit(ints)),
            );
        }
        if let Target::Split(parts) = &self.target {
            return emit_each(
                run,
                |b| &mut b.parts,
                parts,
                |p, run| p.eval(run),
                |values| emit(Emitted::Split(values)),
            );
        }
        if let Target::List(list) | Target::SplitList(list) = &self.target {
            let split = matches!(self.target, Target::SplitList(_));
            let mut out = std::mem::take(&mut run.b.list_out);
            out.clear();
            let flow = list.eval_into(run, &mut out).and_then(|()| {
                let emitted = if split {
                    Emitted::IntSplit(&out)
                } else {
                    Emitted::IntList(&out)
                };
                emit(emitted).map_err(Interrupt::Error)
            });
            run.b.list_out = out;
            return flow;
        }
        let value = self.target.eval(run)?;
        emit(Emitted::Value(value)).map_err(Interrupt::Error)
    }

    /// The innermost loop, `for reg in a..b` followed only by guards, a block of lanes at a
    /// time: the guards and the target's integer parts are computed for the whole block,
    /// then the lanes the guards let through are emitted in order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn blocks(
        &self,
        reg: u32,
        a: i64,
        b: i64,
        guards: &[GenClause],
        parts: &[IntExpr],
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let Buffers {
            regs,
            affine,
            int_parts,
            pool,
            values,
            keep,
            guard,
            columns,
            ..
        } = &mut *run.b;
        // Guards that are affine in the loop's variable cut the range down first.
        let (a, b, narrowed) = narrow(reg, a, b, guards, regs);
        if narrowed > 0 {
            mark(Reached::Narrow);
        }
        let guards = &guards[narrowed..];
        // (A loop of more than 2^40 values goes in blocks: it would outlast any deadline, and
        // blocks check it as they go.)
        if run.batch == Batching::Affine
            && guards.is_empty()
            && a < b
            && arith::range_count(a, b) <= 1 << 40
        {
            affine.clear();
            for part in parts {
                // Each part at the first value and its slope, if it is affine over the range.
                let Some(fit) = lanes::affine(part, reg, regs, a, b - 1).and_then(|(k, c)| {
                    let first = i64::try_from(k * i128::from(a) + c).ok()?;
                    Some((first, i64::try_from(k).ok()?))
                }) else {
                    break;
                };
                affine.push(fit);
            }
            if affine.len() == parts.len() {
                let len = arith::range_count(a, b) as usize;
                tick_n(&mut run.ticks, run.stop, len)?;
                mark(Reached::Affine);
                let whole = AffineRun {
                    shape: self.int_shape,
                    parts: affine,
                    len,
                };
                return emit(Emitted::Affine(&whole)).map_err(Interrupt::Error);
            }
        }
        mark(Reached::Blocks);
        values.resize(LANES, 0);
        keep.resize(LANES, true);
        guard.resize(LANES, false);
        columns.resize_with(parts.len().max(columns.len()), || vec![0; LANES]);
        let mut start = a;
        // Blocks start small and double: a caller that wants only the first option (to learn
        // whether a position is terminal) should not pay for a whole block.
        let mut width = 8;
        while start < b {
            let n = arith::range_count(start, b).min(width as u64) as usize;
            width = (width * 2).min(LANES);
            for (i, v) in values[..n].iter_mut().enumerate() {
                *v = start + i as i64;
            }
            tick_n(&mut run.ticks, run.stop, n)?;
            let at = Lanes {
                regs,
                reg,
                values: &values[..n],
                index_reg: NO_REG,
                index_values: &[],
                outer_values: [&[]; OUTER],
            };
            keep[..n].fill(true);
            for step in guards {
                if let GenClause::If(cond) = step {
                    cond.eval_block(&at, &mut guard[..n], pool)?;
                    for (k, g) in keep[..n].iter_mut().zip(&guard[..n]) {
                        *k &= *g;
                    }
                }
            }
            if !keep[..n].contains(&true) {
                // The guards let no lane through: no target to compute (nor to fail).
                start += n as i64;
                continue;
            }
            for (part, column) in parts.iter().zip(columns.iter_mut()) {
                part.eval_block(&at, &mut column[..n], pool)?;
            }
            if run.batch != Batching::One {
                let block = Block {
                    shape: self.int_shape,
                    columns,
                    width: parts.len(),
                    keep: &keep[..n],
                };
                if emit(Emitted::Block(&block))
                    .map_err(Interrupt::Error)?
                    .is_break()
                {
                    return Ok(ControlFlow::Break(()));
                }
                start += n as i64;
                continue;
            }
            for lane in 0..n {
                if !keep[lane] {
                    continue;
                }
                int_parts.clear();
                int_parts.extend(columns[..parts.len()].iter().map(|c| c[lane]));
                let target = match self.int_shape {
                    LaneShape::Int => Emitted::Value(Value::Int(int_parts[0])),
                    LaneShape::Tuple => Emitted::IntTuple(int_parts),
                    LaneShape::Split => Emitted::IntSplit(int_parts),
                };
                if emit(target).map_err(Interrupt::Error)?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            start += n as i64;
        }
        Ok(ControlFlow::Continue(()))
    }
}
