//! The tree-walking interpreter over the IR: the types it works with and its core (binding,
//! iteration); expressions, instances, moves and calls are in the files beside.
//!
//! One `impl Interp` split by job: this file its types, binding and iteration; `expr.rs`
//! expressions and operators; `instances.rs` game instances and positions; `moves.rs` running a
//! position's rules (`scan_options` hands each move target to a visitor); `calls.rs` built-ins
//! and the analyses via the host; `show.rs` a game's `show` clause (run without the host, as
//! rules are; a compound's picture is its parts' side by side) and `picture`, `grid`, `join`;
//! `strategic.rs` strategic-form games. A position comes as `PositionData`: a value, or a
//! packed list's integers, which the frame keeps apart for compiled forms to load directly
//! (`InputFrame`) and builds into a list only when the interpreter runs.

mod calls;
mod expr;
mod instances;
mod moves;
mod show;
mod strategic;

use std::ops::ControlFlow;
use std::rc::Rc;

use super::arith::{self, ArithError, IntOp};
use super::builtins::{self, Builtin};
use super::compiled::{CompiledCond, CompiledGames, Emitted, InputFrame, Interrupt};
use super::games::{GameTable, InstanceInfo, StrategicTable};
use super::grid;
use super::host::Host;
use super::stop::Stop;
use super::value::{
    display_bounded, display_short, joint_convention, CompoundKind, InstanceId, PosTerm, Position,
    Value,
};
use super::values;
use crate::diag::{Code, Diag, DiagResult, Span};
use crate::lower::ir::Expr;
use crate::lower::ir::{Clause, ConstId, ExprKind, GameId, Pattern, PositionShape, Program};
use crate::num::{Rational, Unfit, MAX_FRACTION_BITS};
use crate::syntax::ast::{BinaryOp, Convention, Quantifier, UnaryOp};
use num_rational::BigRational;

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
pub(super) const LARGE_VALUE: usize = 1 << 16;

/// Bytes an item of a list, tuple or set takes in memory (a value, and for a set its share
/// of the tree's nodes).
pub(crate) const ITEM_BYTES: usize = 2 * std::mem::size_of::<Value>();

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

/// An exact result of fractions that the language cannot hold: an integer past 64 bits, or a
/// fraction whose numerator or denominator is past [`MAX_FRACTION_BITS`].
#[cold]
fn fraction_overflow(why: Unfit, span: Span) -> Box<Diag> {
    let (label, help) = match why {
        Unfit::Integer => (
            "the result is an integer that does not fit in 64 bits",
            "cgl's integers are 64-bit (its fractions may be of any size); keep the numbers smaller",
        ),
        Unfit::Size => (
            "the numerator or denominator of the result has more than 2^20 bits",
            "cgl's fractions are exact, of any size up to 2^20 bits (about 315,000 digits); keep the numbers smaller",
        ),
    };
    Box::new(
        Diag::error(Code::EvalOverflow, "rational overflow")
            .label(span, label)
            .help(help),
    )
}

/// `a op b` of two numbers of which one at least is a fraction, exact: in 64 bits when the
/// operands and the result fit (`small`), else on big rationals (`big`).
fn fraction_op(
    a: &Value,
    b: &Value,
    small: fn(Rational, Rational) -> Option<Rational>,
    big: fn(BigRational, BigRational) -> BigRational,
    span: Span,
) -> DiagResult<Value> {
    if let Some(r) = values::small(a)
        .zip(values::small(b))
        .and_then(|(x, y)| small(x, y))
    {
        return Ok(Value::number(r));
    }
    Value::fraction(big(values::big(a), values::big(b))).map_err(|why| fraction_overflow(why, span))
}

/// A big rational as a value, or the overflow diagnostic.
fn fraction(q: BigRational, span: Span) -> DiagResult<Value> {
    Value::fraction(q).map_err(|why| fraction_overflow(why, span))
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
                .help("guard the division, e.g. `if d != 0 then n div d else ...`"),
        ),
        ArithError::NegativeExponent => Box::new(
            Diag::error(Code::EvalNegativePower, "negative exponent")
                .label(rhs, "this is negative")
                .help(
                    "`**` takes an exponent of 0 or more; for a reciprocal, divide: `1 / x ** n`",
                ),
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
            not_an_integer_help(other),
        )),
    }
}

/// `base ** exp` of a rational base, exactly, by squaring; a negative exponent is an error
/// as for integers.
fn rational_pow(base: &Value, exp: i64, span: Span, rhs: Span) -> DiagResult<Value> {
    if exp < 0 {
        return Err(arith_error(ArithError::NegativeExponent, span, rhs));
    }
    let base = values::big(base);
    // A part of `b` bits raised to `exp` has between `exp * (b - 1) + 1` and `exp * b` bits:
    // a power surely too large is refused before it is taken, and any other is at most
    // twice the limit while it is checked.
    let bits = base.numer().bits().max(base.denom().bits());
    if bits.saturating_sub(1).saturating_mul(exp.unsigned_abs()) >= MAX_FRACTION_BITS {
        return Err(fraction_overflow(Unfit::Size, span));
    }
    let exp = u32::try_from(exp).map_err(|_| fraction_overflow(Unfit::Size, span))?;
    fraction(num_traits::Pow::pow(base, exp), span)
}

/// The help of a diagnostic where an integer was needed and `found` came: a rational is most
/// often a `/` meant as floor division.
fn not_an_integer_help(found: &Value) -> &'static str {
    match found {
        Value::Rational(_) | Value::Wide(_) => {
            "`/` is exact division; write `a div b` for floor division"
        }
        _ => "use an integer here",
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
    /// A position of the same game whose data is this value.
    Atom(Value),
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
            let item = if what == "string" { 1 } else { ITEM_BYTES };
            self.fits_in_memory(len.saturating_mul(item), span, what)?;
        }
        Ok(())
    }

    /// An error unless a value of `bytes` fits in what the memory budget leaves beside the
    /// game graph and the table of game values: asked before the value is built, so that a
    /// value that doubles is refused before it takes the memory, not found too large after.
    /// Twice the bytes are asked for, since a value is gathered and then moved into its
    /// final block.
    pub(super) fn fits_in_memory(&self, bytes: usize, span: Span, what: &str) -> DiagResult<()> {
        let account = self.world.stop.account();
        let room = account.room();
        let asked = bytes.saturating_mul(2);
        if asked <= room {
            return Ok(());
        }
        let mib = |b: usize| b.div_ceil(1 << 20);
        Err(Box::new(
            Diag::error(
                Code::GraphTooMuchMemory,
                format!(
                    "this {what} would need about {} MiB, and {} MiB of the {} MiB of \
                     --max-memory are left",
                    mib(asked),
                    room >> 20,
                    account.limit() >> 20
                ),
            )
            .label(span, format!("this {what}"))
            .help(
                "build smaller values, or allow more memory with --max-memory (MiB); the \
                 values being built share the budget with the game graph and the table of \
                 game values",
            ),
        ))
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
                    if matches!(other, Value::Str(_)) {
                        "iterate over `chars(s)`, the list of the string's characters"
                    } else {
                        "iterate over a list, set, tuple or range"
                    },
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
            out.push((i.id(), d.clone()));
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

/// A slice bound outside `0..=len`.
#[cold]
fn out_of_range(index: i64, len: usize, span: Span) -> Box<Diag> {
    Box::new(
        Diag::error(Code::EvalIndex, format!("index {index} is out of range"))
            .label(span, format!("the collection has {len} items"))
            .help("indices run from 0 to len - 1; a slice `a..b` needs 0 <= a and b <= len"),
    )
}
