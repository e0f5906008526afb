//! The tree-walking interpreter over the IR.

use std::ops::ControlFlow;
use std::rc::Rc;

use super::arith::{self, ArithError, IntOp};
use super::builtins::{self, Builtin};
use super::compiled::{CompiledCond, CompiledGames, Emitted, InputFrame, Interrupt};
use super::games::{GameTable, InstanceInfo};
use super::host::Host;
use super::stop::Stop;
use super::value::{display_bounded, display_short, CompoundKind, InstanceId, PosTerm, Value};
use crate::diag::{Code, Diag, DiagResult, Span};
use crate::lower::ir::Expr;
use crate::lower::ir::{Clause, ConstId, ExprKind, GameId, Pattern, PositionShape, Program};
use crate::syntax::ast::{BinaryOp, Convention, Quantifier, UnaryOp};

/// Limits that keep evaluation finite and within memory.
///
/// Evaluation recurses with the nesting of user-function calls, so the call-depth limit is
/// only reached cleanly on a large enough stack: the CLI runs on a 512 MiB thread; a library
/// user running deep recursion should give `Session` a thread of at least 16 MiB (the default
/// 2 MiB overflows at a depth of about 700). The graph analyses need no large stack.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most nested user-function calls.
    pub max_call_depth: u32,
    /// Longest list, set or range that may be built or iterated.
    pub max_collection: u64,
    /// Run move rules in their compiled form where they have one; off, the interpreter runs
    /// every rule (the reference the compiled form is tested against, and measured against).
    pub compiled_rules: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_call_depth: 2_000,
            max_collection: 50_000_000,
            compiled_rules: true,
        }
    }
}

/// Items (or bytes) from which building a value checks the deadline.
const LARGE_VALUE: usize = 1 << 16;

/// The evaluation state of a constant (constants are evaluated on first use, once).
#[derive(Clone, Debug)]
pub enum ConstState {
    /// Not evaluated yet.
    Pending,
    /// Being evaluated (seeing this again means the constant depends on itself).
    InProgress,
    /// Evaluated.
    Done(Value),
}

/// Everything game rules may touch: the program, the game instances, the constants.
pub struct World<'a> {
    /// The lowered program.
    pub program: &'a Program,
    /// The compiled forms of its games' rules and conditions.
    pub compiled: &'a CompiledGames,
    /// Game instances.
    pub games: &'a mut GameTable,
    /// Constant values.
    pub consts: &'a mut Vec<ConstState>,
    /// Limits.
    pub limits: Limits,
    /// When to stop a long computation.
    pub stop: &'a Stop,
}

impl World<'_> {
    /// A shorter-lived borrow of the same world.
    pub fn reborrow(&mut self) -> World<'_> {
        World {
            program: self.program,
            compiled: self.compiled,
            games: self.games,
            consts: self.consts,
            limits: self.limits,
            stop: self.stop,
        }
    }
}

/// A position's data as its game's clauses read it: a value, or a list of integers not
/// built as one (a packed position: compiled forms read the integers in place).
#[derive(Clone, Copy, Debug)]
pub enum PositionData<'d> {
    /// The data as a value.
    Value(&'d Value),
    /// A list of integers.
    Ints(&'d [i64]),
}

impl PositionData<'_> {
    /// The data as a value (a list of integers built).
    pub fn to_value(self) -> Value {
        match self {
            PositionData::Value(v) => v.clone(),
            PositionData::Ints(items) => {
                Value::List(items.iter().map(|n| Value::Int(*n)).collect())
            }
        }
    }
}

/// The frame of one position's clauses (see [`Interp::position_frame`]).
struct PositionFrame<'d> {
    values: Vec<Value>,
    /// A list of integers for a slot of `values`, not built into it yet: compiled forms
    /// read it from here, and [`PositionFrame::full`] builds it for the interpreter.
    pending: Option<(u32, &'d [i64])>,
}

impl PositionFrame<'_> {
    /// The frame as compiled forms read it.
    fn inputs(&self) -> InputFrame<'_> {
        InputFrame {
            values: &self.values,
            packed: self.pending,
        }
    }

    /// The whole frame, with the pending list built into its slot.
    fn full(&mut self) -> &mut [Value] {
        if let Some((slot, items)) = self.pending.take() {
            self.values[slot as usize] = PositionData::Ints(items).to_value();
        }
        &mut self.values
    }
}

/// The interpreter: a world plus, outside game rules, the host of the graph and analyses.
pub struct Interp<'a> {
    /// What evaluation reads and extends.
    pub world: World<'a>,
    /// The graph and the analyses; `None` while evaluating a game's rules (analyses are not
    /// allowed there).
    host: Option<&'a mut dyn Host>,
    depth: u32,
    ticks: u32,
}

#[cold]
fn type_error(span: Span, message: String, help: &str) -> Box<Diag> {
    Box::new(
        Diag::error(Code::EvalType, message)
            .label(span, "here")
            .help(help.to_string()),
    )
}

#[cold]
/// Evaluation went so deep (calls of user functions, each with nested expressions) that the
/// thread's stack is nearly full: [`crate::stack`] stops it here instead of letting the
/// stack overflow. Where exactly the stack runs out depends on the machine, so the innermost
/// call of a user function takes the label over ([`in_call`]).
fn out_of_stack(span: Span) -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::EvalRecursion,
            "evaluation nests too deeply for the stack",
        )
        .label(span, STACK_RAN_OUT)
        .note(
            "each call of a user function takes stack, and so does each level of a nested \
             expression inside it"
                .to_string(),
        )
        .help(
            "check that the recursion reaches its base case, and keep the expression in each \
             call shallow (a long chain of operators, such as `- - - ... x`, nests deeply)",
        ),
    )
}

/// The label of [`out_of_stack`] until a call takes it over.
const STACK_RAN_OUT: &str = "the stack ran out here";

/// An error that came out of the call at `span`: if it is [`out_of_stack`] not yet placed,
/// it now points at this call, the same place however deep the stack is.
fn in_call(mut diag: Box<Diag>, span: Span, name: &str) -> Box<Diag> {
    if let Some(label) = diag.labels.first_mut() {
        if diag.code == Code::EvalRecursion && label.message == STACK_RAN_OUT {
            label.span = span;
            label.message = format!("the stack ran out inside this call of `{name}`");
        }
    }
    diag
}

fn overflow(span: Span) -> Box<Diag> {
    Box::new(
        Diag::error(Code::EvalOverflow, "integer overflow")
            .label(span, "the result does not fit in 64 bits")
            .help("cgl integers are 64-bit and never wrap; keep the numbers smaller"),
    )
}

/// The diagnostic of a failed integer operation: `span` is the whole operation's, `rhs` its
/// right operand's (the divisor, the exponent).
#[cold]
fn arith_error(e: ArithError, span: Span, rhs: Span) -> Box<Diag> {
    match e {
        ArithError::Overflow => overflow(span),
        ArithError::DivisionByZero => Box::new(
            Diag::error(Code::EvalDivisionByZero, "division by zero")
                .label(rhs, "this is 0")
                .help("guard the division, e.g. `if d != 0 then n / d else ...`"),
        ),
        ArithError::NegativeExponent => Box::new(
            Diag::error(Code::EvalNegativePower, "negative exponent")
                .label(rhs, "this is negative")
                .help("cgl has only integers; use an exponent of 0 or more"),
        ),
    }
}

/// `len(lo..hi)` of a range of 2^63 numbers or more: its length is no integer.
#[cold]
fn range_too_long(lo: i64, hi: i64, span: Span) -> Box<Diag> {
    Box::new(
        Diag::error(Code::EvalOverflow, "integer overflow")
            .label(
                span,
                format!(
                    "this range has {} numbers, more than a 64-bit integer holds",
                    arith::range_count(lo, hi)
                ),
            )
            .help("cgl integers are 64-bit and never wrap; keep the numbers smaller"),
    )
}

fn int(v: &Value, span: Span, what: &str) -> DiagResult<i64> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(type_error(
            span,
            format!(
                "{what} needs an integer, but this is {}",
                other.a_type_name()
            ),
            "use an integer here",
        )),
    }
}

fn boolean(v: &Value, span: Span, what: &str) -> DiagResult<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(type_error(
            span,
            format!(
                "{what} needs a boolean, but this is {}",
                other.a_type_name()
            ),
            "use a comparison or `true`/`false` here",
        )),
    }
}

/// What runs once per binding of a comprehension's clauses.
pub type Visit<'v, 'a> =
    dyn FnMut(&mut Interp<'a>, &mut [Value]) -> DiagResult<ControlFlow<()>> + 'v;

/// What [`Interp::scan_options`] runs on each move target: the target's value, the index of
/// the rule that made it, and the target expression's span.
pub type ScanVisit<'v, 'a> =
    dyn FnMut(&mut Interp<'a>, Emitted<'_>, u32, Span) -> DiagResult<ControlFlow<()>> + 'v;

/// An option as [`Interp::options_packed`] gives it.
#[derive(Debug)]
pub enum OptionTarget {
    /// The option's position term.
    Term(PosTerm),
    /// A position of the same game whose data is the list of these integers (a range of the
    /// caller's buffer).
    IntList(std::ops::Range<usize>),
}

/// Iterates the items of a collection value.
enum Items {
    Range(i64, i64),
    Seq(Rc<[Value]>, usize),
    Set(std::vec::IntoIter<Value>),
}

impl Iterator for Items {
    type Item = Value;
    fn next(&mut self) -> Option<Value> {
        match self {
            Items::Range(a, b) => {
                if a < b {
                    let v = *a;
                    *a += 1;
                    Some(Value::Int(v))
                } else {
                    None
                }
            }
            Items::Seq(items, i) => {
                let v = items.get(*i).cloned();
                *i += 1;
                v
            }
            Items::Set(it) => it.next(),
        }
    }
}

impl<'a> Interp<'a> {
    /// An interpreter over a world, with a host when analyses are allowed.
    pub fn new(world: World<'a>, host: Option<&'a mut dyn Host>) -> Interp<'a> {
        Interp {
            world,
            host,
            depth: 0,
            ticks: 0,
        }
    }

    /// Counts a step of work and, every so often, checks whether to stop.
    fn tick(&mut self) -> DiagResult<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(4096) {
            self.world.stop.check()?;
        }
        Ok(())
    }

    /// An error unless a value of `len` items (bytes, for a string) fits the collection
    /// limit. Every constructor whose result may be large asks before it builds (or, where
    /// the size is known only after, right after), and checks the deadline.
    fn sized(&self, len: usize, span: Span, what: &str) -> DiagResult<()> {
        let limit = self.world.limits.max_collection;
        if len as u64 > limit {
            let unit = if what == "string" { "bytes" } else { "items" };
            return Err(Box::new(
                Diag::error(
                    Code::EvalTooLarge,
                    format!("this {what} would have {len} {unit}, more than the limit of {limit}"),
                )
                .label(span, format!("this {what}"))
                .help(format!(
                    "--max-items sets how many items a list, set or tuple, and how many bytes \
                     a string, may hold ({limit}); a value that keeps doubling soon outgrows \
                     any limit"
                )),
            ));
        }
        if len >= LARGE_VALUE {
            self.world.stop.check()?;
        }
        Ok(())
    }

    /// Prints a value for a diagnostic (cut short if long).
    pub fn show(&self, value: &Value) -> String {
        display_short(value, &*self.world.games)
    }

    /// Evaluates a top-level body in a fresh frame.
    pub fn eval_body(&mut self, expr: &Expr, frame_size: usize) -> DiagResult<Value> {
        let mut frame = vec![Value::None; frame_size];
        self.eval(expr, &mut frame)
    }

    fn items(&self, v: &Value, span: Span) -> DiagResult<Items> {
        Ok(match v {
            Value::Range(a, b) => {
                let len = arith::range_count(*a, *b);
                if len > self.world.limits.max_collection {
                    return Err(Box::new(
                        Diag::error(
                            Code::EvalTooLarge,
                            format!("range of {len} numbers is too large"),
                        )
                        .label(span, "this range")
                        .help(format!(
                            "--max-items sets how many items cgl iterates ({}); use a smaller range",
                            self.world.limits.max_collection
                        )),
                    ));
                }
                Items::Range(*a, *b)
            }
            Value::List(items) | Value::Tuple(items) => Items::Seq(items.clone(), 0),
            Value::Set(items) => Items::Set(items.iter().cloned().collect::<Vec<_>>().into_iter()),
            other => {
                return Err(type_error(
                    span,
                    format!("cannot iterate over {}", other.a_type_name()),
                    "iterate over a list, set, tuple or range",
                ))
            }
        })
    }

    fn collect(&self, v: &Value, span: Span) -> DiagResult<Vec<Value>> {
        let mut items = Vec::new();
        for (n, item) in self.items(v, span)?.enumerate() {
            if n % LARGE_VALUE == LARGE_VALUE - 1 {
                self.world.stop.check()?;
            }
            items.push(item);
        }
        Ok(items)
    }

    fn bind(&self, pattern: &Pattern, value: Value, frame: &mut [Value]) -> DiagResult<()> {
        match pattern {
            Pattern::Bind(slot, _) => {
                frame[*slot as usize] = value;
                Ok(())
            }
            Pattern::Wildcard(_) => Ok(()),
            Pattern::Tuple(parts, span) => {
                let items = match &value {
                    Value::Tuple(items) | Value::List(items) if items.len() == parts.len() => {
                        items.clone()
                    }
                    other => return Err(Box::new(
                        Diag::error(
                            Code::EvalPattern,
                            format!(
                                "cannot unpack {} into a pattern of {} fields",
                                self.show(other),
                                parts.len()
                            ),
                        )
                        .label(*span, "this pattern")
                        .help(
                            "the value must be a tuple or list with as many items as the pattern",
                        ),
                    )),
                };
                for (p, v) in parts.iter().zip(items.iter()) {
                    self.bind(p, v.clone(), frame)?;
                }
                Ok(())
            }
        }
    }

    fn matches(pattern: &Pattern, value: &Value) -> bool {
        match pattern {
            Pattern::Bind(..) | Pattern::Wildcard(_) => true,
            Pattern::Tuple(parts, _) => match value {
                Value::Tuple(items) => {
                    items.len() == parts.len()
                        && parts
                            .iter()
                            .zip(items.iter())
                            .all(|(p, v)| Self::matches(p, v))
                }
                _ => false,
            },
        }
    }

    /// Runs `body` once for every binding the clauses produce, in order; stops early when the
    /// body breaks. After a break the frame still holds the bindings that broke.
    pub fn run_clauses(
        &mut self,
        clauses: &[Clause],
        frame: &mut [Value],
        body: &mut Visit<'_, 'a>,
    ) -> DiagResult<ControlFlow<()>> {
        self.for_each(clauses, frame, body)
    }

    fn for_each(
        &mut self,
        clauses: &[Clause],
        frame: &mut [Value],
        body: &mut Visit<'_, 'a>,
    ) -> DiagResult<ControlFlow<()>> {
        let Some((first, rest)) = clauses.split_first() else {
            return body(self, frame);
        };
        match first {
            Clause::If(cond) => {
                let c = self.eval(cond, frame)?;
                if boolean(&c, cond.span, "a guard")? {
                    self.for_each(rest, frame, body)
                } else {
                    Ok(ControlFlow::Continue(()))
                }
            }
            // `for (i, x) in enumerate(xs)`: the pairs are bound without building them.
            Clause::For(Pattern::Tuple(pair, _), source)
                if pair.len() == 2
                    && matches!(&source.kind, ExprKind::CallBuiltin(Builtin::Enumerate, args) if args.len() == 1) =>
            {
                let ExprKind::CallBuiltin(_, args) = &source.kind else {
                    return Ok(ControlFlow::Continue(()));
                };
                let src = self.eval(&args[0], frame)?;
                for (i, item) in self.items(&src, args[0].span)?.enumerate() {
                    self.tick()?;
                    self.bind(&pair[0], Value::Int(i as i64), frame)?;
                    self.bind(&pair[1], item, frame)?;
                    if self.for_each(rest, frame, body)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                Ok(ControlFlow::Continue(()))
            }
            Clause::For(pattern, source) => {
                let src = self.eval(source, frame)?;
                for item in self.items(&src, source.span)? {
                    self.tick()?;
                    self.bind(pattern, item, frame)?;
                    if self.for_each(rest, frame, body)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                Ok(ControlFlow::Continue(()))
            }
        }
    }

    /// Evaluates an expression in a frame.
    pub fn eval(&mut self, expr: &Expr, frame: &mut [Value]) -> DiagResult<Value> {
        let span = expr.span;
        if !crate::stack::enough() {
            return Err(out_of_stack(span));
        }
        Ok(match &expr.kind {
            ExprKind::Lit(v) => v.clone(),
            ExprKind::Local(slot) => frame[*slot as usize].clone(),
            ExprKind::Const(id) => self.constant(*id, span)?,
            ExprKind::Game(id) => Value::Game(self.default_instance(*id)?),
            ExprKind::Unary(op, e) => {
                let v = self.eval(e, frame)?;
                match op {
                    UnaryOp::Neg => Value::Int(
                        arith::neg(int(&v, e.span, "`-`")?)
                            .map_err(|e| arith_error(e, span, span))?,
                    ),
                    UnaryOp::Not => Value::Bool(!boolean(&v, e.span, "`not`")?),
                }
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, frame, span)?,
            ExprKind::If(c, t, e) => {
                let cond = self.eval(c, frame)?;
                if boolean(&cond, c.span, "`if`")? {
                    self.eval(t, frame)?
                } else {
                    self.eval(e, frame)?
                }
            }
            ExprKind::Tuple(items) => Value::tuple(self.eval_all(items, frame)?),
            ExprKind::List(items) => Value::list(self.eval_all(items, frame)?),
            ExprKind::Set(items) => builtins::set_of(self.eval_all(items, frame)?),
            ExprKind::Repeat(v, n) => {
                let value = self.eval(v, frame)?;
                let count = int(&self.eval(n, frame)?, n.span, "a repeat count")?;
                if count < 0 || count as u64 > self.world.limits.max_collection {
                    return Err(Box::new(
                        Diag::error(Code::EvalTooLarge, format!("cannot repeat {count} times"))
                            .label(n.span, "this count")
                            .help(format!(
                                "--max-items sets the collection limit, {}; the count must be \
                             between 0 and it",
                                self.world.limits.max_collection
                            )),
                    ));
                }
                let list = Value::list(vec![value; count as usize]);
                // Building a long list is work the deadline should see.
                self.world.stop.check()?;
                list
            }
            ExprKind::ListComp(body, clauses) => {
                Value::list(self.comprehension(body, clauses, frame)?)
            }
            ExprKind::SetComp(body, clauses) => {
                builtins::set_of(self.comprehension(body, clauses, frame)?)
            }
            ExprKind::Quantified(q, clauses, body) => {
                let want = *q == Quantifier::Exists;
                let mut found = false;
                let _stopped = self.for_each(clauses, frame, &mut |this, frame| {
                    let v = this.eval(body, frame)?;
                    if boolean(&v, body.span, "a quantifier's body")? == want {
                        found = true;
                        return Ok(ControlFlow::Break(()));
                    }
                    Ok(ControlFlow::Continue(()))
                })?;
                Value::Bool(if want { found } else { !found })
            }
            ExprKind::CallFn(id, args) => {
                let function = &self.world.program.fns[id.0 as usize];
                // The arguments go straight into the callee's frame.
                let mut inner = Vec::with_capacity(function.body.frame_size.max(function.arity));
                for arg in args {
                    inner.push(self.eval(arg, frame)?);
                }
                if self.depth >= self.world.limits.max_call_depth {
                    return Err(Box::new(
                        Diag::error(Code::EvalRecursion, format!("function `{}` recurses too deeply", function.name))
                            .label(span, "this call")
                            .help(format!(
                                "calls nest at most {} deep; check that the recursion reaches its base case",
                                self.world.limits.max_call_depth
                            )),
                    ));
                }
                inner.resize(function.body.frame_size.max(function.arity), Value::None);
                self.tick()?;
                self.depth += 1;
                let result = self.eval(&function.body.expr, &mut inner);
                self.depth -= 1;
                result.map_err(|e| in_call(e, span, &function.name))?
            }
            // `min(a, b)`, `max(a, b)` of integers, common in rules: no argument list built.
            ExprKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
                let x = self.eval(&args[0], frame)?;
                let y = self.eval(&args[1], frame)?;
                if let (Value::Int(m), Value::Int(n)) = (&x, &y) {
                    return Ok(Value::Int(if *b == Builtin::Min {
                        *m.min(n)
                    } else {
                        *m.max(n)
                    }));
                }
                self.builtin(*b, vec![x, y], args, span)?
            }
            ExprKind::CallBuiltin(b, args) => {
                let values = self.eval_all(args, frame)?;
                self.builtin(*b, values, args, span)?
            }
            ExprKind::CallValue(callee, args) => {
                let callee_value = self.eval(callee, frame)?;
                let args = self.eval_all(args, frame)?;
                match callee_value {
                    Value::Game(inst) => self.make_position(inst, args, span)?,
                    other => {
                        return Err(type_error(
                            callee.span,
                            format!("{} cannot be called", other.a_type_name()),
                            "only games (to make positions) and functions can be called",
                        ))
                    }
                }
            }
            ExprKind::Bracket(base, args)
                if matches!(args.as_slice(), [(None, _)])
                    && !matches!(base.kind, ExprKind::Game(_)) =>
            {
                // `xs[i]`, the commonest bracket: indexed in place, nothing built.
                let base_value = self.eval(base, frame)?;
                let index_expr = &args[0].1;
                let index = self.eval(index_expr, frame)?;
                if let (Value::List(items) | Value::Tuple(items), Value::Int(i)) =
                    (&base_value, &index)
                {
                    if let Some(item) = usize::try_from(*i).ok().and_then(|i| items.get(i)) {
                        return Ok(item.clone());
                    }
                }
                self.bracket(base_value, vec![(None, index, index_expr.span)], span)?
            }
            ExprKind::Bracket(base, args) => {
                let mut values = Vec::with_capacity(args.len());
                for (name, e) in args {
                    values.push((name.clone(), self.eval(e, frame)?, e.span));
                }
                if let ExprKind::Game(game) = base.kind {
                    // `G[...]` names its parameters afresh: the others take their defaults,
                    // computed from the given ones, and `G` itself need not be complete.
                    self.variant(game, None, values, span)?
                } else {
                    let base_value = self.eval(base, frame)?;
                    self.bracket(base_value, values, span)?
                }
            }
            ExprKind::TupleField(base, i) => {
                let v = self.eval(base, frame)?;
                match &v {
                    Value::Tuple(items) | Value::List(items) => {
                        items.get(*i).cloned().ok_or_else(|| {
                            Box::new(
                                Diag::error(
                                    Code::EvalIndex,
                                    format!("no field .{i} in {}", self.show(&v)),
                                )
                                .label(span, format!("it has {} fields", items.len()))
                                .help("fields are numbered from 0"),
                            )
                        })?
                    }
                    other => {
                        return Err(type_error(
                            span,
                            format!("{} has no fields", other.a_type_name()),
                            "`.0`, `.1`, ... take fields of tuples",
                        ))
                    }
                }
            }
            ExprKind::NamedField(base, name) => {
                let v = self.eval(base, frame)?;
                match (&v, name.as_str()) {
                    (Value::Game(inst), "start") => self.start_position(*inst, span)?,
                    _ => {
                        return Err(type_error(
                            span,
                            format!("{} has no field `{name}`", v.a_type_name()),
                            "games have `.start`; tuples have `.0`, `.1`, ...",
                        ))
                    }
                }
            }
        })
    }

    fn eval_all(&mut self, exprs: &[Expr], frame: &mut [Value]) -> DiagResult<Vec<Value>> {
        exprs.iter().map(|e| self.eval(e, frame)).collect()
    }

    fn comprehension(
        &mut self,
        body: &Expr,
        clauses: &[Clause],
        frame: &mut [Value],
    ) -> DiagResult<Vec<Value>> {
        let mut out = Vec::new();
        let limit = self.world.limits.max_collection as usize;
        let _complete = self.for_each(clauses, frame, &mut |this, frame| {
            out.push(this.eval(body, frame)?);
            if out.len() > limit {
                return Err(Box::new(
                    Diag::error(Code::EvalTooLarge, "comprehension produces too many items")
                        .label(body.span, "this comprehension")
                        .help(format!(
                            "--max-items sets how many items a collection may hold ({limit})"
                        )),
                ));
            }
            Ok(ControlFlow::Continue(()))
        })?;
        Ok(out)
    }

    fn constant(&mut self, id: ConstId, span: Span) -> DiagResult<Value> {
        let idx = id.0 as usize;
        match &self.world.consts[idx] {
            ConstState::Done(v) => return Ok(v.clone()),
            ConstState::InProgress => {
                let name = &self.world.program.consts[idx].name;
                return Err(Box::new(
                    Diag::error(Code::EvalConstCycle, format!("constant `{name}` depends on itself"))
                        .label(span, "used here while it is being defined")
                        .help("break the cycle: a constant cannot refer to itself, directly or through others"),
                ));
            }
            ConstState::Pending => {}
        }
        self.world.consts[idx] = ConstState::InProgress;
        let body = &self.world.program.consts[idx].body;
        let result = self.eval_body(&body.expr, body.frame_size);
        match result {
            Ok(v) => {
                self.world.consts[idx] = ConstState::Done(v.clone());
                Ok(v)
            }
            Err(e) => {
                self.world.consts[idx] = ConstState::Pending;
                Err(e)
            }
        }
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        l: &Expr,
        r: &Expr,
        frame: &mut [Value],
        span: Span,
    ) -> DiagResult<Value> {
        match op {
            BinaryOp::And | BinaryOp::Or => {
                let what = if op == BinaryOp::And { "`and`" } else { "`or`" };
                let lv = boolean(&self.eval(l, frame)?, l.span, what)?;
                if (op == BinaryOp::And) != lv {
                    return Ok(Value::Bool(lv));
                }
                return Ok(Value::Bool(boolean(&self.eval(r, frame)?, r.span, what)?));
            }
            _ => {}
        }
        let a = self.eval(l, frame)?;
        let b = self.eval(r, frame)?;
        // Integers, the commonest case, without the general dispatch (a failure still goes
        // there, for its diagnostic).
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            let (x, y) = (*x, *y);
            let quick = match op {
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => IntOp::of(op)
                    .and_then(|o| o.apply(x, y).ok())
                    .map(Value::Int),
                BinaryOp::Eq => Some(Value::Bool(x == y)),
                BinaryOp::Ne => Some(Value::Bool(x != y)),
                BinaryOp::Lt => Some(Value::Bool(x < y)),
                BinaryOp::Le => Some(Value::Bool(x <= y)),
                BinaryOp::Gt => Some(Value::Bool(x > y)),
                BinaryOp::Ge => Some(Value::Bool(x >= y)),
                BinaryOp::Xor => Some(Value::Int(x ^ y)),
                _ => None,
            };
            if let Some(v) = quick {
                return Ok(v);
            }
        }
        self.apply_binary(op, a, b, l.span, r.span, span)
    }

    /// Applies a (non short-circuit) binary operator to two values.
    pub fn apply_binary(
        &mut self,
        op: BinaryOp,
        a: Value,
        b: Value,
        ls: Span,
        rs: Span,
        span: Span,
    ) -> DiagResult<Value> {
        use Value::{Int, Pos};
        let mismatch = |this: &Self, a: &Value, b: &Value| {
            Box::new(
                Diag::error(
                    Code::EvalType,
                    format!(
                        "`{}` cannot combine {} and {}",
                        op.symbol(),
                        a.a_type_name(),
                        b.a_type_name()
                    ),
                )
                .label(ls, format!("this is {}", this.show(a)))
                .label(rs, format!("this is {}", this.show(b)))
                .help(format!(
                    "`{}` needs two values of fitting types (see spec/language.md §6)",
                    op.symbol()
                )),
            )
        };
        Ok(match op {
            BinaryOp::Eq => Value::Bool(a == b),
            BinaryOp::Ne => Value::Bool(a != b),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                let comparable = matches!(
                    (&a, &b),
                    (Int(_), Int(_))
                        | (Value::Str(_), Value::Str(_))
                        | (Value::List(_), Value::List(_))
                        | (Value::Tuple(_), Value::Tuple(_))
                );
                if !comparable {
                    return Err(mismatch(self, &a, &b));
                }
                let ord = a.cmp(&b);
                Value::Bool(match op {
                    BinaryOp::Lt => ord.is_lt(),
                    BinaryOp::Le => ord.is_le(),
                    BinaryOp::Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                })
            }
            BinaryOp::In | BinaryOp::NotIn => {
                let found = match &b {
                    Value::List(items) | Value::Tuple(items) => items.contains(&a),
                    Value::Set(items) => items.contains(&a),
                    Value::Range(lo, hi) => matches!(a, Int(n) if *lo <= n && n < *hi),
                    Value::Str(s) => match &a {
                        Value::Str(sub) => s.contains(&**sub),
                        _ => return Err(mismatch(self, &a, &b)),
                    },
                    _ => {
                        return Err(type_error(
                            rs,
                            format!(
                                "`in` needs a collection on its right, but this is {}",
                                b.a_type_name()
                            ),
                            "use a list, set, tuple, range or string",
                        ))
                    }
                };
                Value::Bool(found == (op == BinaryOp::In))
            }
            BinaryOp::Is => {
                let Value::Outcome(want) = b else {
                    return Err(type_error(
                        rs,
                        format!(
                            "`is` needs an outcome (N, P or D) on its right, not {}",
                            b.a_type_name()
                        ),
                        "write `p is P`, `p is N` or `p is D`",
                    ));
                };
                Value::Bool(self.outcome_of(&a, ls)? == Value::Outcome(want))
            }
            BinaryOp::Range | BinaryOp::RangeIncl => {
                let lo = int(&a, ls, "a range")?;
                let mut hi = int(&b, rs, "a range")?;
                if op == BinaryOp::RangeIncl {
                    hi = arith::inclusive_end(hi).map_err(|e| arith_error(e, span, rs))?;
                }
                Value::Range(lo, hi.max(lo))
            }
            BinaryOp::Add => match (&a, &b) {
                (Int(x), Int(y)) => Int(arith::add(*x, *y).map_err(|e| arith_error(e, span, rs))?),
                (Value::List(x), Value::List(y)) => {
                    self.sized(x.len() + y.len(), span, "list")?;
                    Value::list(x.iter().chain(y.iter()).cloned().collect())
                }
                (Value::Tuple(x), Value::Tuple(y)) => {
                    self.sized(x.len() + y.len(), span, "tuple")?;
                    Value::tuple(x.iter().chain(y.iter()).cloned().collect())
                }
                (Value::Str(x), Value::Str(y)) => {
                    self.sized(x.len() + y.len(), span, "string")?;
                    Value::Str(format!("{x}{y}").into())
                }
                (Pos(_), Pos(_)) => self.compound(CompoundKind::Disjunctive, &a, &b, span)?,
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::BitAnd => match (&a, &b) {
                (Int(x), Int(y)) => Int(x & y),
                (Value::Set(x), Value::Set(y)) => {
                    Value::Set(Rc::new(x.intersection(y).cloned().collect()))
                }
                (Pos(_), Pos(_)) => self.compound(CompoundKind::Conjunctive, &a, &b, span)?,
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::BitOr => match (&a, &b) {
                (Int(x), Int(y)) => Int(x | y),
                (Value::Set(x), Value::Set(y)) => {
                    let union: std::collections::BTreeSet<Value> = x.union(y).cloned().collect();
                    self.sized(union.len(), span, "set")?;
                    Value::Set(Rc::new(union))
                }
                (Pos(_), Pos(_)) => self.compound(CompoundKind::Selective, &a, &b, span)?,
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::Sub => match (&a, &b) {
                (Int(x), Int(y)) => Int(arith::sub(*x, *y).map_err(|e| arith_error(e, span, rs))?),
                (Value::Set(x), Value::Set(y)) => {
                    Value::Set(Rc::new(x.difference(y).cloned().collect()))
                }
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::Mul => match (&a, &b) {
                (Int(x), Int(y)) => Int(arith::mul(*x, *y).map_err(|e| arith_error(e, span, rs))?),
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::Div | BinaryOp::Rem => {
                let (Int(x), Int(y)) = (&a, &b) else {
                    return Err(mismatch(self, &a, &b));
                };
                let result = if op == BinaryOp::Div {
                    arith::div(*x, *y)
                } else {
                    arith::rem(*x, *y)
                };
                Int(result.map_err(|e| arith_error(e, span, rs))?)
            }
            BinaryOp::Xor => Int(int(&a, ls, "`^`")? ^ int(&b, rs, "`^`")?),
            BinaryOp::Pow => {
                let base = int(&a, ls, "`**`")?;
                let exp = int(&b, rs, "`**`")?;
                Int(arith::pow(base, exp).map_err(|e| arith_error(e, span, rs))?)
            }
            BinaryOp::And | BinaryOp::Or => Value::Bool(
                boolean(&a, ls, "a boolean operator")? && boolean(&b, rs, "a boolean operator")?,
            ),
        })
    }

    fn compound(
        &mut self,
        kind: CompoundKind,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> DiagResult<Value> {
        let (Value::Pos(x), Value::Pos(y)) = (a, b) else {
            return Err(Box::new(Diag::internal("compound of non-positions")));
        };
        if x.convention != y.convention {
            return Err(Box::new(
                Diag::error(
                    Code::EvalMixedConvention,
                    "cannot combine a misère position with a normal-play one",
                )
                .label(span, format!("{} and {}", self.show(a), self.show(b)))
                .help("misère play applies to a whole game: write `misere(x + y)`"),
            ));
        }
        // Parts of the same kind are flattened into the new compound: `p + p` doubles.
        let parts = |t: &PosTerm| match t {
            PosTerm::Compound(k, parts) if *k == kind => parts.len(),
            _ => 1,
        };
        self.sized(parts(&x.term) + parts(&y.term), span, "compound")?;
        let term = self.canonical(
            PosTerm::compound(kind, [x.term.clone(), y.term.clone()]),
            span,
        )?;
        Ok(Value::pos(term, x.convention))
    }

    /// The canonical form of a compound written by the user: the form the graph keeps, in
    /// which parts that are over are dropped, so `Kayles(0) + Kayles(3) == Kayles(3)`. Inside
    /// game rules (no graph) the term is left as built; the graph canonicalises it anyway.
    fn canonical(&mut self, term: PosTerm, span: Span) -> DiagResult<PosTerm> {
        let Some(host) = self.host.as_deref_mut() else {
            return Ok(term);
        };
        match host.canonical(&mut self.world, &term) {
            Ok(term) => Ok(term),
            Err(mut d) => {
                if d.labels.is_empty() {
                    d.labels.push(crate::diag::Label {
                        span,
                        message: "in this compound".into(),
                    });
                }
                Err(d)
            }
        }
    }

    fn bracket(
        &mut self,
        base: Value,
        args: Vec<(Option<String>, Value, Span)>,
        span: Span,
    ) -> DiagResult<Value> {
        if let Value::Game(inst) = base {
            let game = self.world.games.info(inst).game;
            return self.variant(game, Some(inst), args, span);
        }
        let [(None, index, ispan)] = args.as_slice() else {
            return Err(type_error(
                span,
                format!(
                    "{} cannot take `[...]` with these arguments",
                    base.a_type_name()
                ),
                "index a list with one integer: `xs[i]`",
            ));
        };
        if let Value::Range(lo, hi) = index {
            return self.slice(&base, *lo, *hi, *ispan);
        }
        let i = int(index, *ispan, "an index")?;
        let items = match &base {
            Value::List(items) | Value::Tuple(items) => items.clone(),
            other => {
                return Err(type_error(
                    span,
                    format!("{} cannot be indexed", other.a_type_name()),
                    "index lists and tuples",
                ))
            }
        };
        usize::try_from(i)
            .ok()
            .and_then(|i| items.get(i).cloned())
            .ok_or_else(|| {
                Box::new(
                    Diag::error(Code::EvalIndex, format!("index {i} is out of range"))
                        .label(*ispan, format!("the list has {} items", items.len()))
                        .help("indices run from 0 to len - 1"),
                )
            })
    }

    /// `xs[a..b]`: the items from `a` up to `b` (exclusive) of a list, tuple or string.
    fn slice(&self, base: &Value, lo: i64, hi: i64, span: Span) -> DiagResult<Value> {
        let len = match base {
            Value::List(items) | Value::Tuple(items) => items.len(),
            Value::Str(s) => s.chars().count(),
            other => {
                return Err(type_error(
                    span,
                    format!("{} cannot be sliced", other.a_type_name()),
                    "slice lists, tuples and strings: `xs[1..3]`",
                ))
            }
        };
        let (Ok(a), Ok(b)) = (usize::try_from(lo), usize::try_from(hi)) else {
            return Err(out_of_range(lo, len, span));
        };
        if b > len {
            return Err(out_of_range(hi, len, span));
        }
        let a = a.min(b);
        Ok(match base {
            Value::List(items) => Value::list(items[a..b].to_vec()),
            Value::Tuple(items) => Value::tuple(items[a..b].to_vec()),
            Value::Str(s) => Value::Str(s.chars().skip(a).take(b - a).collect::<String>().into()),
            _ => Value::None,
        })
    }

    // ------------------------------------------------------------------ games and positions

    fn default_instance(&mut self, game: GameId) -> DiagResult<InstanceId> {
        if let Some(id) = self.world.games.default_instances.get(&game) {
            return Ok(*id);
        }
        let n = self.world.program.games[game.0 as usize].params.len();
        let id = self.instance(
            game,
            vec![None; n],
            self.world.program.games[game.0 as usize].span,
        )?;
        self.world.games.default_instances.insert(game, id);
        Ok(id)
    }

    /// A variant of `game_id`: of its defaults (`base` is `None`), or of the instance `base`,
    /// whose parameters all count as given.
    fn variant(
        &mut self,
        game_id: GameId,
        base: Option<InstanceId>,
        args: Vec<(Option<String>, Value, Span)>,
        span: Span,
    ) -> DiagResult<Value> {
        let game = &self.world.program.games[game_id.0 as usize];
        let mut params: Vec<Option<Value>> = match base {
            Some(inst) => self
                .world
                .games
                .info(inst)
                .params
                .iter()
                .cloned()
                .map(Some)
                .collect(),
            None => vec![None; game.params.len()],
        };
        let mut positional = 0;
        for (name, value, aspan) in args {
            let idx = match name {
                Some(name) => game
                    .params
                    .iter()
                    .position(|p| p.name == name)
                    .ok_or_else(|| {
                        Box::new(
                            Diag::error(
                                Code::EvalUnknownParam,
                                format!("game `{}` has no parameter `{name}`", game.name),
                            )
                            .label(aspan, "unknown parameter")
                            .help("use one of the parameters the game declares"),
                        )
                    })?,
                None => {
                    positional += 1;
                    positional - 1
                }
            };
            if idx >= params.len() {
                return Err(Box::new(
                    Diag::error(
                        Code::EvalArity,
                        format!("game `{}` has only {} parameters", game.name, params.len()),
                    )
                    .label(aspan, "one too many")
                    .help("name the parameters: `G[p = value]`"),
                ));
            }
            params[idx] = Some(value);
        }
        Ok(Value::Game(self.instance(game_id, params, span)?))
    }

    /// The instance of `game` with these parameters (missing ones take their defaults).
    pub fn instance(
        &mut self,
        game_id: GameId,
        given: Vec<Option<Value>>,
        span: Span,
    ) -> DiagResult<InstanceId> {
        self.within_game(game_id, span, |this| {
            this.instance_unguarded(game_id, given, span)
        })
    }

    fn instance_unguarded(
        &mut self,
        game_id: GameId,
        given: Vec<Option<Value>>,
        span: Span,
    ) -> DiagResult<InstanceId> {
        let program = self.world.program;
        let game = &program.games[game_id.0 as usize];
        let mut frame = vec![Value::None; game.frame_size];
        let mut params = Vec::with_capacity(game.params.len());
        for (i, (param, value)) in game.params.iter().zip(given).enumerate() {
            let v = match (value, &param.default) {
                (Some(v), _) => v,
                (None, Some(default)) => self.eval(default, &mut frame)?,
                (None, None) => {
                    return Err(Box::new(
                        Diag::error(
                            Code::EvalMissingParam,
                            format!("game `{}` needs a value for `{}`", game.name, param.name),
                        )
                        .label(span, "used here without it")
                        .label(param.span, "this parameter has no default")
                        .help(format!("give it: `{}[{} = ...]`", game.name, param.name)),
                    ))
                }
            };
            frame[i] = v.clone();
            params.push(v);
        }
        let params: Rc<[Value]> = Rc::from(params);
        if let Some(id) = self.world.games.find(game_id, &params) {
            return Ok(id);
        }
        let mode = match &game.compound {
            None => CompoundKind::Disjunctive,
            Some(e) => match self.eval(e, &mut frame)? {
                Value::Mode(m) => m,
                other => return Err(type_error(
                    e.span,
                    format!("`compound` needs a mode, but this is {}", self.show(&other)),
                    "write `compound disjunctive`, `compound conjunctive` or `compound selective`",
                )),
            },
        };
        let field_defaults = match &game.position {
            PositionShape::Fields(fields) => {
                let mut out = Vec::new();
                for (_, default) in fields {
                    out.push(match default {
                        Some(e) => Some(self.eval(e, &mut frame)?),
                        None => None,
                    });
                }
                out
            }
            PositionShape::Single(_) => Vec::new(),
        };
        let mut label = game.name.clone();
        let mut shown = Vec::new();
        let mut default_frame = vec![Value::None; game.frame_size];
        for (i, param) in game.params.iter().enumerate() {
            let default = match &param.default {
                Some(e) => self.eval(e, &mut default_frame).ok(),
                None => None,
            };
            if default.as_ref() != Some(&params[i]) {
                shown.push(format!("{} = {}", param.name, self.show(&params[i])));
            }
            default_frame[i] = params[i].clone();
        }
        if !shown.is_empty() {
            label = format!("{}[{}]", label, shown.join(", "));
        }
        Ok(self.world.games.insert(InstanceInfo {
            game: game_id,
            params,
            mode,
            convention: game.convention,
            label,
            field_defaults,
        }))
    }

    fn make_position(
        &mut self,
        inst: InstanceId,
        args: Vec<Value>,
        span: Span,
    ) -> DiagResult<Value> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        let (lo, hi) = game.position.arity();
        if args.len() < lo || args.len() > hi {
            return Err(Box::new(
                Diag::error(
                    Code::EvalArity,
                    format!(
                        "a position of `{}` has {} fields, but {} were given",
                        game.name,
                        if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo} to {hi}")
                        },
                        args.len()
                    ),
                )
                .label(span, "here")
                .help("give one value per field of the game's `position` pattern"),
            ));
        }
        let data = match &game.position {
            PositionShape::Single(Pattern::Tuple(..)) => Value::tuple(args),
            PositionShape::Single(_) => args.into_iter().next().unwrap_or(Value::None),
            PositionShape::Fields(_) => {
                let mut fields = args;
                for default in info.field_defaults.iter().skip(fields.len()) {
                    fields.push(default.clone().unwrap_or(Value::None));
                }
                Value::tuple(fields)
            }
        };
        let pattern = game.position.pattern();
        if !Self::matches(&pattern, &data) {
            return Err(Box::new(
                Diag::error(
                    Code::EvalPositionShape,
                    format!(
                        "{} does not fit the position pattern of `{}`",
                        self.show(&data),
                        game.name
                    ),
                )
                .label(span, "this position")
                .label(pattern.span(), "the pattern")
                .help("nested tuples in the pattern need tuples of the same size"),
            ));
        }
        Ok(Value::pos(PosTerm::Atom(inst, data), info.convention))
    }

    fn start_position(&mut self, inst: InstanceId, span: Span) -> DiagResult<Value> {
        let game = self.world.games.info(inst).game;
        self.within_game(game, span, |this| this.start_position_unguarded(inst, span))
    }

    /// Evaluates a game's own clauses (`start`, parameter defaults, `compound`) one level
    /// deeper: they may name the game again (`start G[k = k + 1].start`), and each level
    /// counts against the call-depth limit, as a call does, so that such a definition ends
    /// in a diagnostic instead of overflowing the stack.
    fn within_game<T>(
        &mut self,
        game: GameId,
        span: Span,
        f: impl FnOnce(&mut Self) -> DiagResult<T>,
    ) -> DiagResult<T> {
        if self.depth >= self.world.limits.max_call_depth {
            let name = &self.world.program.games[game.0 as usize].name;
            return Err(Box::new(
                Diag::error(
                    Code::EvalRecursion,
                    format!("game `{name}` is defined in terms of itself too deeply"),
                )
                .label(span, "needed here")
                .label(self.world.program.games[game.0 as usize].span, "this game")
                .help(format!(
                    "its `start`, a parameter's default or its `compound` uses the game again, \
                     {} levels deep; make sure that chain ends",
                    self.world.limits.max_call_depth
                )),
            ));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn start_position_unguarded(&mut self, inst: InstanceId, span: Span) -> DiagResult<Value> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        let Some(start) = &game.start else {
            return Err(Box::new(
                Diag::error(
                    Code::EvalNoStart,
                    format!("game `{}` has no `start` clause", game.name),
                )
                .label(span, "`.start` used here")
                .label(game.span, "this game")
                .help("add `start <position>` to the game, or give a position: `G(...)`"),
            ));
        };
        let mut frame = vec![Value::None; game.frame_size];
        for (slot, p) in frame.iter_mut().zip(info.params.iter()) {
            *slot = p.clone();
        }
        let start_span = start.span;
        let value = self.eval(start, &mut frame)?;
        self.target_term(inst, value, start_span)
            .map(|t| Value::pos(t, self.world.games.info(inst).convention))
    }

    /// Turns the value of a move target (or `start`) into a position term of `inst`'s game:
    /// position data, a position of any game, or a `split(...)` of either.
    fn target_term(&mut self, inst: InstanceId, value: Value, span: Span) -> DiagResult<PosTerm> {
        match value {
            Value::Pos(p) => Ok(p.term.clone()),
            Value::Split(parts) => {
                let mode = self.world.games.info(inst).mode;
                let mut terms = Vec::with_capacity(parts.len());
                for part in parts.iter() {
                    terms.push(self.target_term(inst, part.clone(), span)?);
                }
                Ok(PosTerm::compound(mode, terms))
            }
            data => {
                self.check_target_data(inst, &data, span)?;
                Ok(PosTerm::Atom(inst, data))
            }
        }
    }

    /// The frame in which a game's clauses run for one position: parameters and position
    /// fields bound. A list of integers bound to one variable (`position b`) stays apart
    /// for the compiled forms until the interpreter needs it.
    fn position_frame<'d>(
        &mut self,
        inst: InstanceId,
        data: PositionData<'d>,
    ) -> DiagResult<PositionFrame<'d>> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        let mut values = vec![Value::None; game.frame_size];
        for (slot, p) in values.iter_mut().zip(info.params.iter()) {
            *slot = p.clone();
        }
        let data = match (data, &game.position) {
            (PositionData::Ints(items), PositionShape::Single(Pattern::Bind(slot, _))) => {
                return Ok(PositionFrame {
                    values,
                    pending: Some((*slot, items)),
                });
            }
            (data, _) => data.to_value(),
        };
        let pattern = game.position.pattern();
        self.bind(&pattern, data, &mut values)?;
        Ok(PositionFrame {
            values,
            pending: None,
        })
    }

    /// Whether compiled code whose inlined calls nest `call_depth` deep may run here: compiled
    /// forms are on, and the interpreter would allow calls that deep from here.
    fn may_run_compiled(&self, call_depth: usize) -> bool {
        self.world.limits.compiled_rules
            && self.depth as usize + call_depth <= self.world.limits.max_call_depth as usize
    }

    /// Whether any of a game's conditions holds, in order; compiled ones run compiled
    /// (the interpreter evaluates one that hands over, and raises its error).
    fn any_true(
        &mut self,
        conds: &[Expr],
        compiled: &[Option<CompiledCond>],
        frame: &mut PositionFrame<'_>,
        what: &str,
    ) -> DiagResult<bool> {
        for (i, cond) in conds.iter().enumerate() {
            let fast = compiled
                .get(i)
                .and_then(Option::as_ref)
                .filter(|c| self.may_run_compiled(c.call_depth()));
            if let Some(c) = fast {
                match c.eval(
                    frame.inputs(),
                    self.world.limits.max_collection,
                    self.world.stop,
                ) {
                    Ok(true) => return Ok(true),
                    Ok(false) => continue,
                    Err(Interrupt::Error(e)) => return Err(e),
                    Err(Interrupt::Fallback) => {}
                }
            }
            let v = self.eval(cond, frame.full())?;
            if boolean(&v, cond.span, what)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The options of a position of `inst` in rule order, each with the index of the rule
    /// that made it, and whether a `terminal if` clause holds. A list of integers that fits
    /// the position pattern is not built as a value: its items are appended to `ints` and
    /// the option names their range, so the caller can find the position by its packed
    /// cells.
    ///
    /// `live` says the position is known not to be terminal (see [`Interp::scan_options`]).
    pub fn options_packed(
        &mut self,
        inst: InstanceId,
        data: PositionData<'_>,
        live: bool,
        out: &mut Vec<(OptionTarget, u32)>,
        ints: &mut Vec<i64>,
    ) -> DiagResult<bool> {
        let values_fit = self.any_value_fits(inst);
        self.scan_options(inst, data, false, live, &mut |this, target, rule, span| {
            let option = match target {
                Emitted::IntList(items) if values_fit => {
                    let start = ints.len();
                    ints.extend_from_slice(items);
                    OptionTarget::IntList(start..ints.len())
                }
                target => OptionTarget::Term(this.target_term(inst, target.into_value(), span)?),
            };
            out.push((option, rule));
            Ok(ControlFlow::Continue(()))
        })
    }

    /// Whether a position of `inst` has an option: `None` when a `terminal if` clause holds,
    /// else whether its first option exists. The first option is checked as
    /// [`Interp::options_packed`] would check it, without building it where it is integers that fit
    /// the position pattern.
    pub fn has_options(
        &mut self,
        inst: InstanceId,
        data: PositionData<'_>,
    ) -> DiagResult<Option<bool>> {
        let values_fit = self.any_value_fits(inst);
        let tuple_len = self.int_tuple_len(inst);
        let mut any = false;
        let forced = self.scan_options(
            inst,
            data,
            false,
            false,
            &mut |this, target, _rule, span| {
                let checked = match &target {
                    Emitted::Value(Value::Int(_)) | Emitted::IntSplit(_) | Emitted::IntList(_) => {
                        values_fit
                    }
                    Emitted::IntTuple(items) => tuple_len == Some(items.len()),
                    _ => false,
                };
                if !checked {
                    this.target_term(inst, target.into_value(), span)?;
                }
                any = true;
                Ok(ControlFlow::Break(()))
            },
        )?;
        Ok((!forced).then_some(any))
    }

    /// Runs `visit` on the value of every move target of a position of `inst`, in rule order,
    /// with the rule's index and the target's span; stops when `visit` breaks. Nothing is
    /// built per option beyond the target value itself. Returns whether a `terminal if`
    /// clause holds (then there are no options).
    ///
    /// With `blocks`, the options that a compiled rule's innermost loop computes together come
    /// as one [`Emitted::Block`]; the visitor takes the block apart. With `live`, the caller
    /// knows the position is not terminal (the graph learnt it when the position was
    /// interned): its `terminal if` conditions, which are pure, are not evaluated again.
    pub fn scan_options(
        &mut self,
        inst: InstanceId,
        data: PositionData<'_>,
        blocks: bool,
        live: bool,
        visit: &mut ScanVisit<'_, 'a>,
    ) -> DiagResult<bool> {
        let program = self.world.program;
        let game_id = self.world.games.info(inst).game;
        let game = &program.games[game_id.0 as usize];
        let compiled = self.world.compiled.game(game_id);
        let mut frame = self.position_frame(inst, data)?;
        if !live
            && self.any_true(
                &game.terminal,
                &compiled.terminal,
                &mut frame,
                "`terminal if`",
            )?
        {
            return Ok(true);
        }
        for (rule_idx, (rule, compiled)) in game.rules.iter().zip(&compiled.rules).enumerate() {
            let rule_idx = rule_idx as u32;
            let span = rule.target.span;
            // Targets already visited by the compiled rule before it handed over.
            let mut visited: u64 = 0;
            if let Some(compiled) = compiled
                .as_ref()
                .filter(|c| self.may_run_compiled(c.call_depth()))
            {
                let stop = self.world.stop;
                let max = self.world.limits.max_collection;
                let mut emit = |v: Emitted<'_>| {
                    visited += v.count();
                    visit(self, v, rule_idx, span)
                };
                match compiled.run(frame.inputs(), max, stop, blocks, &mut emit) {
                    Ok(flow) if flow.is_break() => break,
                    Ok(_) => continue,
                    Err(Interrupt::Error(e)) => return Err(e),
                    // An input is not an integer, or the rule raises an error: the interpreter
                    // runs it (again), skipping what was visited, and raises that error.
                    Err(Interrupt::Fallback) => {}
                }
            }
            let flow = self.for_each(&rule.clauses, frame.full(), &mut |this, frame| {
                let value = this.eval(&rule.target, frame)?;
                if visited > 0 {
                    visited -= 1;
                    return Ok(ControlFlow::Continue(()));
                }
                visit(this, Emitted::Value(value), rule_idx, span)
            })?;
            if flow.is_break() {
                break;
            }
        }
        Ok(false)
    }

    /// The positions of a disjunctive sum that a move target of `inst` stands for, appended to
    /// `out` as (instance, data) pairs, with the checks `Interp::target_term` makes. False
    /// when the target is, or contains, a compound of another kind (a `split` of a game whose
    /// mode is not disjunctive, a conjunctive or selective position): the caller must then use
    /// `target_term`. The empty game adds nothing.
    pub fn disjunctive_parts(
        &mut self,
        inst: InstanceId,
        target: Emitted<'_>,
        span: Span,
        out: &mut Vec<(InstanceId, Value)>,
    ) -> DiagResult<bool> {
        match target {
            Emitted::Value(value) => self.disjunctive_value(inst, value, span, out),
            Emitted::Split(parts) => self.disjunctive_split(inst, parts, span, out),
            Emitted::Block(_) => Err(Box::new(Diag::internal(
                "a block of options reached a visitor that does not take blocks",
            ))),
            data @ (Emitted::IntTuple(_) | Emitted::IntList(_)) => {
                self.disjunctive_value(inst, data.into_value(), span, out)
            }
            Emitted::IntSplit(parts) => {
                if parts.len() > 1 && self.world.games.info(inst).mode != CompoundKind::Disjunctive
                {
                    return Ok(false);
                }
                for n in parts {
                    let data = Value::Int(*n);
                    self.check_target_data(inst, &data, span)?;
                    out.push((inst, data));
                }
                Ok(true)
            }
        }
    }

    fn disjunctive_split(
        &mut self,
        inst: InstanceId,
        parts: &[Value],
        span: Span,
        out: &mut Vec<(InstanceId, Value)>,
    ) -> DiagResult<bool> {
        if parts.len() > 1 && self.world.games.info(inst).mode != CompoundKind::Disjunctive {
            return Ok(false);
        }
        for part in parts {
            if !self.disjunctive_value(inst, part.clone(), span, out)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn disjunctive_value(
        &mut self,
        inst: InstanceId,
        value: Value,
        span: Span,
        out: &mut Vec<(InstanceId, Value)>,
    ) -> DiagResult<bool> {
        match value {
            Value::Pos(p) => Ok(flatten_disjunctive(&p.term, out)),
            Value::Split(parts) => self.disjunctive_split(inst, &parts, span, out),
            data => {
                self.check_target_data(inst, &data, span)?;
                out.push((inst, data));
                Ok(true)
            }
        }
    }

    /// Whether a `split` of several parts makes a disjunctive sum in `inst`'s game.
    pub fn splits_disjunctively(&self, inst: InstanceId) -> bool {
        self.world.games.info(inst).mode == CompoundKind::Disjunctive
    }

    /// Whether every value (an integer, a list, ...) fits `inst`'s position pattern
    /// (`position n`, `position b`).
    pub fn any_value_fits(&self, inst: InstanceId) -> bool {
        let game = &self.world.program.games[self.world.games.info(inst).game.0 as usize];
        matches!(
            game.position,
            PositionShape::Single(Pattern::Bind(..) | Pattern::Wildcard(_))
        )
    }

    /// The length of tuples of integers that fit `inst`'s position pattern, when every such
    /// tuple does (`position (a, b)`, `position (x, y, h = 3)`).
    pub fn int_tuple_len(&self, inst: InstanceId) -> Option<usize> {
        let game = &self.world.program.games[self.world.games.info(inst).game.0 as usize];
        let plain = |p: &Pattern| matches!(p, Pattern::Bind(..) | Pattern::Wildcard(_));
        match &game.position {
            PositionShape::Single(Pattern::Tuple(items, _)) if items.iter().all(plain) => {
                Some(items.len())
            }
            PositionShape::Fields(fields) if fields.iter().all(|(p, _)| plain(p)) => {
                Some(fields.len())
            }
            _ => None,
        }
    }

    /// An error unless `data` has the shape of `inst`'s position pattern.
    fn check_target_data(&self, inst: InstanceId, data: &Value, span: Span) -> DiagResult<()> {
        let info = self.world.games.info(inst);
        let game = &self.world.program.games[info.game.0 as usize];
        if fits_shape(&game.position, data) {
            return Ok(());
        }
        let pattern = game.position.pattern();
        Err(Box::new(
            Diag::error(Code::EvalPositionShape, format!("move target {} does not fit the position pattern of `{}`", self.show(data), game.name))
                .label(span, "this target")
                .label(pattern.span(), "the pattern")
                .help("a target must have the shape of the `position` pattern (a tuple with the same number of fields)"),
        ))
    }

    /// Whether a terminal position of `inst` is a draw (`draw if`).
    pub fn is_draw(&mut self, inst: InstanceId, data: PositionData<'_>) -> DiagResult<bool> {
        let program = self.world.program;
        let game_id = self.world.games.info(inst).game;
        let game = &program.games[game_id.0 as usize];
        if game.draw.is_empty() {
            return Ok(false);
        }
        let compiled = &self.world.compiled.game(game_id).draw;
        let mut frame = self.position_frame(inst, data)?;
        self.any_true(&game.draw, compiled, &mut frame, "`draw if`")
    }

    // ------------------------------------------------------------------ built-ins

    /// The outcome of a position, for `p is X`.
    pub fn outcome_of(&mut self, position: &Value, span: Span) -> DiagResult<Value> {
        if !matches!(position, Value::Pos(_)) {
            return Err(type_error(
                span,
                format!(
                    "`is` needs a position on its left, but this is {} ({})",
                    position.a_type_name(),
                    self.show(position)
                ),
                "write `p is P` for a position `p`, such as `Nim(3) is N`",
            ));
        }
        self.analyse(Builtin::Outcome, position, span)
    }

    fn analyse(&mut self, builtin: Builtin, arg: &Value, span: Span) -> DiagResult<Value> {
        let Value::Pos(position) = arg else {
            return Err(type_error(
                span,
                format!(
                    "`{}` needs a position, but this is {} ({})",
                    builtin.name(),
                    arg.a_type_name(),
                    self.show(arg)
                ),
                "make a position by calling a game: `Kayles(5)`",
            ));
        };
        let Some(host) = self.host.as_deref_mut() else {
            return Err(Box::new(
                Diag::error(Code::EvalAnalysisInRules, format!("`{}` cannot be used inside a game's rules", builtin.name()))
                    .label(span, "called while generating moves")
                    .help("rules must say what the moves are, not analyse positions; compute such values outside the game"),
            ));
        };
        let position = position.clone();
        host.analyse(&mut self.world, builtin, &position)
            .map_err(|mut d| {
                if d.labels.is_empty() {
                    d.labels.push(crate::diag::Label {
                        span,
                        message: "while analysing this".into(),
                    });
                }
                d
            })
    }

    fn builtin(
        &mut self,
        b: Builtin,
        mut args: Vec<Value>,
        exprs: &[Expr],
        span: Span,
    ) -> DiagResult<Value> {
        let arg_span = |i: usize| exprs.get(i).map_or(span, |e| e.span);
        if b.is_analysis() {
            return self.analyse(b, &args[0], arg_span(0));
        }
        let ints = |this: &Self, v: &Value, s: Span| -> DiagResult<Vec<u64>> {
            let mut out = Vec::new();
            for item in this.items(v, s)? {
                // The message is built only for the item that is not an integer.
                let n = match item {
                    Value::Int(n) => n,
                    other => int(&other, s, &format!("`{}`", b.name()))?,
                };
                out.push(u64::try_from(n).map_err(|_| {
                    type_error(
                        s,
                        format!("`{}` needs non-negative integers, but got {n}", b.name()),
                        "remove the negative numbers",
                    )
                })?);
            }
            Ok(out)
        };
        Ok(match b {
            Builtin::Mex => {
                let mex = builtins::mex(&ints(self, &args[0], arg_span(0))?);
                Value::Int(i64::try_from(mex).map_err(|_| overflow(span))?)
            }
            Builtin::Lego => match builtins::lego(ints(self, &args[0], arg_span(0))?) {
                Some(v) => Value::Int(v as i64),
                None => {
                    return Err(Box::new(
                        Diag::error(Code::EvalEmpty, "`lego` of an empty collection")
                            .label(arg_span(0), "this is empty")
                            .help("lego picks from the remoteness values of the options; a terminal position has none"),
                    ))
                }
            },
            Builtin::Len | Builtin::Count => {
                let v = &args[0];
                match v {
                    Value::Str(s) => Value::Int(arith::count(s.chars().count()).map_err(|_| overflow(span))?),
                    Value::Range(a, c) => Value::Int(arith::range_len(*a, *c).map_err(|_| range_too_long(*a, *c, arg_span(0)))?),
                    // The length of a sequence or set, without copying its items.
                    Value::List(items) | Value::Tuple(items) if b == Builtin::Len => Value::Int(arith::count(items.len()).map_err(|_| overflow(span))?),
                    Value::Set(items) if b == Builtin::Len => Value::Int(arith::count(items.len()).map_err(|_| overflow(span))?),
                    _ => {
                        let items = self.collect(v, arg_span(0))?;
                        if b == Builtin::Count && items.iter().all(|i| matches!(i, Value::Bool(_))) && !items.is_empty() {
                            Value::Int(arith::count(items.iter().filter(|i| **i == Value::Bool(true)).count()).map_err(|_| overflow(span))?)
                        } else {
                            Value::Int(arith::count(items.len()).map_err(|_| overflow(span))?)
                        }
                    }
                }
            }
            Builtin::Popcount => Value::Int(nonneg(&args[0], arg_span(0), "popcount")?.count_ones() as i64),
            Builtin::Bits => Value::Int(64 - nonneg(&args[0], arg_span(0), "bits")?.leading_zeros() as i64),
            Builtin::V2 => {
                let n = nonneg(&args[0], arg_span(0), "v2")?;
                if n == 0 {
                    return Err(Box::new(
                        Diag::error(Code::EvalDomain, "`v2(0)` is undefined")
                            .label(arg_span(0), "this is 0")
                            .help("every power of two divides 0; v2 needs a positive number"),
                    ));
                }
                Value::Int(n.trailing_zeros() as i64)
            }
            Builtin::Gcd => {
                let (mut x, mut y) = (int(&args[0], arg_span(0), "gcd")?.unsigned_abs(), int(&args[1], arg_span(1), "gcd")?.unsigned_abs());
                while y != 0 {
                    (x, y) = (y, x % y);
                }
                Value::Int(i64::try_from(x).map_err(|_| overflow(span))?)
            }
            Builtin::Abs => Value::Int(arith::abs(int(&args[0], arg_span(0), "abs")?).map_err(|_| overflow(span))?),
            Builtin::Sorted => {
                let items = self.collect(&args[0], arg_span(0))?;
                let first_type = items.first().map(std::mem::discriminant);
                if items.iter().any(|v| Some(std::mem::discriminant(v)) != first_type) {
                    return Err(type_error(arg_span(0), "`sorted` needs items of one type".to_string(), "sort numbers with numbers, strings with strings"));
                }
                builtins::sorted(items)
            }
            Builtin::Reversed => {
                let mut items = self.collect(&args[0], arg_span(0))?;
                items.reverse();
                Value::list(items)
            }
            Builtin::List => Value::list(self.collect(&args[0], arg_span(0))?),
            Builtin::Enumerate => Value::list(
                self.items(&args[0], arg_span(0))?
                    .enumerate()
                    .map(|(i, v)| Value::tuple(vec![Value::Int(i as i64), v]))
                    .collect(),
            ),
            Builtin::Zip => {
                let xs = self.collect(&args[0], arg_span(0))?;
                let ys = self.collect(&args[1], arg_span(1))?;
                Value::list(xs.into_iter().zip(ys).map(|(x, y)| Value::tuple(vec![x, y])).collect())
            }
            Builtin::SetAt => {
                let i = int(&args[1], arg_span(1), "set")?;
                let value = args.pop().unwrap_or(Value::None);
                match &args[0] {
                    Value::List(items) | Value::Tuple(items) => {
                        let idx = usize::try_from(i).ok().filter(|i| *i < items.len()).ok_or_else(|| {
                            Box::new(
                                Diag::error(Code::EvalIndex, format!("index {i} is out of range"))
                                    .label(arg_span(1), format!("the list has {} items", items.len()))
                                    .help("indices run from 0 to len - 1"),
                            )
                        })?;
                        let mut new: Vec<Value> = items.to_vec();
                        new[idx] = value;
                        if matches!(args[0], Value::Tuple(_)) { Value::tuple(new) } else { Value::list(new) }
                    }
                    other => return Err(type_error(arg_span(0), format!("`set` needs a list, not {}", other.a_type_name()), "write `set(list, index, value)`")),
                }
            }
            Builtin::Min | Builtin::Max => {
                let items = if args.len() == 1 { self.collect(&args[0], arg_span(0))? } else { args };
                let first_type = items.first().map(std::mem::discriminant);
                if items.iter().any(|v| Some(std::mem::discriminant(v)) != first_type) {
                    return Err(type_error(span, format!("`{}` needs items of one type", b.name()), "compare numbers with numbers"));
                }
                let pick = if b == Builtin::Min { items.into_iter().min() } else { items.into_iter().max() };
                pick.ok_or_else(|| {
                    Box::new(
                        Diag::error(Code::EvalEmpty, format!("`{}` of an empty collection", b.name()))
                            .label(span, "nothing to choose from")
                            .help("check that the collection has items, e.g. with `len(xs) > 0`"),
                    )
                })?
            }
            Builtin::Sum => {
                // Exact: only a total that does not fit is an overflow.
                let mut total = arith::Sum::default();
                for item in self.items(&args[0], arg_span(0))? {
                    total.add(int(&item, arg_span(0), "sum")?);
                }
                Value::Int(total.total().map_err(|_| overflow(span))?)
            }
            Builtin::Any | Builtin::All => {
                let want = b == Builtin::Any;
                let mut result = !want;
                for item in self.items(&args[0], arg_span(0))? {
                    if boolean(&item, arg_span(0), b.name())? == want {
                        result = want;
                        break;
                    }
                }
                Value::Bool(result)
            }
            Builtin::Str => Value::Str(match &args[0] {
                Value::Str(s) => s.clone(),
                other => {
                    let limit = usize::try_from(self.world.limits.max_collection).unwrap_or(usize::MAX);
                    let (text, cut) = display_bounded(other, &*self.world.games, limit);
                    if cut {
                        return Err(Box::new(
                            Diag::error(Code::EvalTooLarge, format!("the printed form of this value is longer than the limit of {limit} bytes"))
                                .label(arg_span(0), "this value")
                                .help("--max-items sets how many bytes a string may hold; make a string of a part of the value"),
                        ));
                    }
                    self.sized(text.len(), span, "string")?;
                    text.into()
                }
            }),
            Builtin::Split => {
                let parts: Vec<Value> = match args.as_slice() {
                    [Value::List(items)] => items.to_vec(),
                    _ => args,
                };
                if self.host.is_none() {
                    // Inside a game's rules: the parts (data or positions) become a compound
                    // in the game's own mode, once the target is read (`target_term`).
                    Value::Split(Rc::from(parts))
                } else if parts.iter().all(|p| matches!(p, Value::Pos(_))) {
                    let mut convention = None;
                    let mut terms = Vec::new();
                    for p in &parts {
                        if let Value::Pos(pos) = p {
                            if convention.is_some_and(|c| c != pos.convention) {
                                return Err(Box::new(
                                    Diag::error(Code::EvalMixedConvention, "cannot combine a misère position with a normal-play one")
                                        .label(span, "in this split")
                                        .help("misère play applies to a whole game: write `misere(split(...))`"),
                                ));
                            }
                            convention = Some(pos.convention);
                            terms.push(pos.term.clone());
                        }
                    }
                    let term = self.canonical(PosTerm::compound(CompoundKind::Disjunctive, terms), span)?;
                    Value::pos(term, convention.unwrap_or(Convention::Normal))
                } else {
                    // Outside rules there is no game to give position data a meaning.
                    return Err(type_error(
                        span,
                        "`split` outside a game's rules takes positions, such as `split(Nim(1), Nim(2))`".to_string(),
                        "inside a `move` rule, parts may be position data of the game; elsewhere make positions by calling a game",
                    ));
                }
            }
            Builtin::Period => {
                let items = self.collect(&args[0], arg_span(0))?;
                match builtins::period(&items) {
                    Some((pre, per)) => Value::tuple(vec![Value::Int(pre as i64), Value::Int(per as i64)]),
                    None => {
                        return Err(Box::new(
                            Diag::error(Code::EvalNoPeriod, format!("no period found in {} values", items.len()))
                                .label(arg_span(0), "this sequence")
                                .help("a period counts only when it repeats at least twice after the preperiod; compute more values"),
                        ))
                    }
                }
            }
            Builtin::Misere | Builtin::Normal => match &args[0] {
                Value::Pos(p) => Value::pos(p.term.clone(), if b == Builtin::Misere { Convention::Misere } else { Convention::Normal }),
                other => return Err(type_error(arg_span(0), format!("`{}` needs a position, not {}", b.name(), other.a_type_name()), "make a position by calling a game: `Nim(3)`")),
            },
            Builtin::Outcome | Builtin::Grundy | Builtin::Remoteness | Builtin::Moves | Builtin::WinningMoves | Builtin::Line
            | Builtin::Reachable => {
                return Err(Box::new(Diag::internal("analysis dispatched as a pure built-in")))
            }
        })
    }
}

/// Whether position data fits a game's position shape (what `Interp::matches` checks against
/// `PositionShape::pattern`, without building the pattern).
fn fits_shape(shape: &PositionShape, data: &Value) -> bool {
    match shape {
        PositionShape::Single(p) => Interp::matches(p, data),
        PositionShape::Fields(fields) => match data {
            Value::Tuple(items) => {
                items.len() == fields.len()
                    && fields
                        .iter()
                        .zip(items.iter())
                        .all(|((p, _), v)| Interp::matches(p, v))
            }
            _ => false,
        },
    }
}

/// Appends the atoms of a disjunctive compound term (or of an atom) to `out`; false when the
/// term contains a compound of another kind.
fn flatten_disjunctive(term: &PosTerm, out: &mut Vec<(InstanceId, Value)>) -> bool {
    match term {
        PosTerm::Atom(i, d) => {
            out.push((*i, d.clone()));
            true
        }
        PosTerm::Compound(CompoundKind::Disjunctive, parts) => {
            parts.iter().all(|p| flatten_disjunctive(p, out))
        }
        PosTerm::Compound(_, parts) => parts.is_empty(),
    }
}

fn nonneg(v: &Value, span: Span, what: &str) -> DiagResult<u64> {
    let n = int(v, span, &format!("`{what}`"))?;
    u64::try_from(n).map_err(|_| {
        type_error(
            span,
            format!("`{what}` needs a non-negative integer, but got {n}"),
            "use 0 or a positive number",
        )
    })
}

/// Floor modulo: the result has the sign of the divisor (Python's `%`).
#[cold]
fn out_of_range(index: i64, len: usize, span: Span) -> Box<Diag> {
    Box::new(
        Diag::error(Code::EvalIndex, format!("index {index} is out of range"))
            .label(span, format!("the collection has {len} items"))
            .help("indices run from 0 to len - 1; a slice `a..b` needs 0 <= a and b <= len"),
    )
}
