//! Move rules compiled once, at lowering, for the common case where every variable a rule
//! reads holds an integer: `move split(i, n - 1 - i) for i in 0..n`, `move (a - k, b) for k in
//! 1..=a`, guards such as `if 2 * i < n`. Such a rule runs over unboxed `i64` registers with
//! no allocation but the target value itself, instead of walking the IR per option.
//!
//! The compiled form means exactly what the interpreter does with the same rule: the same
//! order of evaluation, the same checked arithmetic, the same range limits. Where the
//! interpreter would raise an error (overflow, division by zero, a range too long), the
//! compiled rule stops with [`Interrupt::Fallback`] and the caller re-runs the rule in the
//! interpreter, which raises the error with its diagnostic. Rules outside the fragment (lists,
//! sets, function calls, constants, tuple patterns) are not compiled and are interpreted.

use std::ops::ControlFlow;
use std::rc::Rc;

use super::builtins::{floor_div, floor_mod, Builtin};
use super::stop::Stop;
use super::value::Value;
use crate::diag::{Diag, DiagResult};
use crate::lower::ir::{Clause, Expr, ExprKind, Pattern};
use crate::syntax::ast::{BinaryOp, UnaryOp};

/// An integer expression over registers.
#[derive(Debug, Clone)]
enum IntExpr {
    Lit(i64),
    Reg(u32),
    Neg(Box<IntExpr>),
    Abs(Box<IntExpr>),
    Bin(IntOp, Box<IntExpr>, Box<IntExpr>),
    If(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
    Min(Vec<IntExpr>),
    Max(Vec<IntExpr>),
}

#[derive(Debug, Clone, Copy)]
enum IntOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Xor,
    And,
    Or,
}

/// A boolean expression over registers.
#[derive(Debug, Clone)]
enum BoolExpr {
    Lit(bool),
    Cmp(BinaryOp, IntExpr, IntExpr),
    Not(Box<BoolExpr>),
    And(Box<BoolExpr>, Box<BoolExpr>),
    Or(Box<BoolExpr>, Box<BoolExpr>),
}

/// A move target: position data (an integer or a tuple of them) or a `split` of targets.
#[derive(Debug, Clone)]
enum Target {
    Int(IntExpr),
    Tuple(Vec<IntExpr>),
    Split(Vec<Target>),
}

#[derive(Debug, Clone)]
enum Step {
    /// `for reg in lo..hi` (`lo..=hi` when inclusive).
    For {
        reg: u32,
        lo: IntExpr,
        hi: IntExpr,
        inclusive: bool,
    },
    /// `if cond`.
    If(BoolExpr),
}

/// A move rule in compiled form.
#[derive(Debug, Clone)]
pub struct CompiledRule {
    steps: Vec<Step>,
    target: Target,
    /// Frame slots the rule reads without binding them: each must hold an integer.
    inputs: Vec<u32>,
    /// Registers needed (the frame's size).
    registers: usize,
    /// The target's parts when it is a `split` of integers only.
    int_split: Option<Vec<IntExpr>>,
}

/// Why a compiled rule stopped before its end.
pub enum Interrupt {
    /// The interpreter must run the rule: an input is not an integer, or evaluation would
    /// raise an error that the interpreter reports.
    Fallback,
    /// An error from the caller's visitor, or the stop condition.
    Error(Box<Diag>),
}

/// Compiles a move rule, if it lies in the integer fragment.
pub fn compile_rule(clauses: &[Clause], target: &Expr, frame_size: usize) -> Option<CompiledRule> {
    let mut c = Compiler {
        bound: Vec::new(),
        inputs: Vec::new(),
    };
    let mut steps = Vec::new();
    for clause in clauses {
        match clause {
            Clause::For(Pattern::Bind(slot, _), source) => {
                let ExprKind::Binary(op @ (BinaryOp::Range | BinaryOp::RangeIncl), lo, hi) =
                    &source.kind
                else {
                    return None;
                };
                let lo = c.int(lo)?;
                let hi = c.int(hi)?;
                c.bound.push(*slot);
                steps.push(Step::For {
                    reg: *slot,
                    lo,
                    hi,
                    inclusive: *op == BinaryOp::RangeIncl,
                });
            }
            Clause::For(..) => return None,
            Clause::If(cond) => steps.push(Step::If(c.boolean(cond)?)),
        }
    }
    let target = c.target(target)?;
    let int_split = match &target {
        Target::Split(parts) => parts
            .iter()
            .map(|p| match p {
                Target::Int(e) => Some(e.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    };
    Some(CompiledRule {
        steps,
        target,
        inputs: c.inputs,
        registers: frame_size,
        int_split,
    })
}

struct Compiler {
    /// Slots bound by the rule's own generators so far.
    bound: Vec<u32>,
    /// Slots read from the position's frame.
    inputs: Vec<u32>,
}

impl Compiler {
    fn reg(&mut self, slot: u32) -> IntExpr {
        if !self.bound.contains(&slot) && !self.inputs.contains(&slot) {
            self.inputs.push(slot);
        }
        IntExpr::Reg(slot)
    }

    fn int(&mut self, e: &Expr) -> Option<IntExpr> {
        Some(match &e.kind {
            ExprKind::Lit(Value::Int(n)) => IntExpr::Lit(*n),
            ExprKind::Local(slot) => self.reg(*slot),
            ExprKind::Unary(UnaryOp::Neg, x) => IntExpr::Neg(Box::new(self.int(x)?)),
            ExprKind::Binary(op, l, r) => {
                let op = match op {
                    BinaryOp::Add => IntOp::Add,
                    BinaryOp::Sub => IntOp::Sub,
                    BinaryOp::Mul => IntOp::Mul,
                    BinaryOp::Div => IntOp::Div,
                    BinaryOp::Rem => IntOp::Rem,
                    BinaryOp::Xor => IntOp::Xor,
                    BinaryOp::BitAnd => IntOp::And,
                    BinaryOp::BitOr => IntOp::Or,
                    _ => return None,
                };
                IntExpr::Bin(op, Box::new(self.int(l)?), Box::new(self.int(r)?))
            }
            ExprKind::If(c, t, f) => IntExpr::If(
                Box::new(self.boolean(c)?),
                Box::new(self.int(t)?),
                Box::new(self.int(f)?),
            ),
            ExprKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() >= 2 => {
                let args = args
                    .iter()
                    .map(|a| self.int(a))
                    .collect::<Option<Vec<_>>>()?;
                if *b == Builtin::Min {
                    IntExpr::Min(args)
                } else {
                    IntExpr::Max(args)
                }
            }
            ExprKind::CallBuiltin(Builtin::Abs, args) if args.len() == 1 => {
                IntExpr::Abs(Box::new(self.int(&args[0])?))
            }
            _ => return None,
        })
    }

    fn boolean(&mut self, e: &Expr) -> Option<BoolExpr> {
        Some(match &e.kind {
            ExprKind::Lit(Value::Bool(b)) => BoolExpr::Lit(*b),
            ExprKind::Unary(UnaryOp::Not, x) => BoolExpr::Not(Box::new(self.boolean(x)?)),
            ExprKind::Binary(BinaryOp::And, l, r) => {
                BoolExpr::And(Box::new(self.boolean(l)?), Box::new(self.boolean(r)?))
            }
            ExprKind::Binary(BinaryOp::Or, l, r) => {
                BoolExpr::Or(Box::new(self.boolean(l)?), Box::new(self.boolean(r)?))
            }
            ExprKind::Binary(
                op @ (BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge),
                l,
                r,
            ) => BoolExpr::Cmp(*op, self.int(l)?, self.int(r)?),
            _ => return None,
        })
    }

    fn target(&mut self, e: &Expr) -> Option<Target> {
        Some(match &e.kind {
            ExprKind::Tuple(items) => Target::Tuple(
                items
                    .iter()
                    .map(|i| self.int(i))
                    .collect::<Option<Vec<_>>>()?,
            ),
            // `split(xs)` of one list argument splits the list's items: not compiled.
            ExprKind::CallBuiltin(Builtin::Split, args) => Target::Split(
                args.iter()
                    .map(|a| match &a.kind {
                        ExprKind::CallBuiltin(Builtin::Split, _) | ExprKind::Tuple(_) => {
                            self.target(a)
                        }
                        _ => self.int(a).map(Target::Int),
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
            _ => Target::Int(self.int(e)?),
        })
    }
}

type Eval<T> = Result<T, Interrupt>;

impl IntExpr {
    fn eval(&self, regs: &[i64]) -> Eval<i64> {
        let checked = |v: Option<i64>| v.ok_or(Interrupt::Fallback);
        match self {
            IntExpr::Lit(n) => Ok(*n),
            IntExpr::Reg(r) => Ok(regs[*r as usize]),
            IntExpr::Neg(x) => checked(x.eval(regs)?.checked_neg()),
            IntExpr::Abs(x) => checked(x.eval(regs)?.checked_abs()),
            IntExpr::Bin(op, l, r) => {
                let (a, b) = (l.eval(regs)?, r.eval(regs)?);
                match op {
                    IntOp::Add => checked(a.checked_add(b)),
                    IntOp::Sub => checked(a.checked_sub(b)),
                    IntOp::Mul => checked(a.checked_mul(b)),
                    IntOp::Div if b != 0 => checked(floor_div(a, b)),
                    IntOp::Rem if b != 0 => checked(floor_mod(a, b)),
                    IntOp::Div | IntOp::Rem => Err(Interrupt::Fallback),
                    IntOp::Xor => Ok(a ^ b),
                    IntOp::And => Ok(a & b),
                    IntOp::Or => Ok(a | b),
                }
            }
            IntExpr::If(c, t, f) => {
                if c.eval(regs)? {
                    t.eval(regs)
                } else {
                    f.eval(regs)
                }
            }
            IntExpr::Min(xs) | IntExpr::Max(xs) => {
                let min = matches!(self, IntExpr::Min(_));
                let mut best = xs[0].eval(regs)?;
                for x in &xs[1..] {
                    let v = x.eval(regs)?;
                    if (min && v < best) || (!min && v > best) {
                        best = v;
                    }
                }
                Ok(best)
            }
        }
    }
}

impl BoolExpr {
    fn eval(&self, regs: &[i64]) -> Eval<bool> {
        match self {
            BoolExpr::Lit(b) => Ok(*b),
            BoolExpr::Not(x) => Ok(!x.eval(regs)?),
            BoolExpr::And(l, r) => Ok(l.eval(regs)? && r.eval(regs)?),
            BoolExpr::Or(l, r) => Ok(l.eval(regs)? || r.eval(regs)?),
            BoolExpr::Cmp(op, l, r) => {
                let (a, b) = (l.eval(regs)?, r.eval(regs)?);
                Ok(match op {
                    BinaryOp::Eq => a == b,
                    BinaryOp::Ne => a != b,
                    BinaryOp::Lt => a < b,
                    BinaryOp::Le => a <= b,
                    BinaryOp::Gt => a > b,
                    _ => a >= b,
                })
            }
        }
    }
}

impl Target {
    fn eval(&self, regs: &[i64]) -> Eval<Value> {
        Ok(match self {
            Target::Int(e) => Value::Int(e.eval(regs)?),
            Target::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(Value::Int(i.eval(regs)?));
                }
                Value::tuple(out)
            }
            Target::Split(parts) => {
                let mut out = Vec::with_capacity(parts.len());
                for p in parts {
                    out.push(p.eval(regs)?);
                }
                Value::Split(Rc::from(out))
            }
        })
    }
}

/// A move target as a compiled rule emits it: a value, or the parts of a top-level `split`
/// (kept in a reused buffer rather than allocated per option).
pub enum Emitted<'t> {
    /// The target's value.
    Value(Value),
    /// `split(parts...)`.
    Split(&'t [Value]),
    /// `split(parts...)` where every part is an integer.
    IntSplit(&'t [i64]),
}

impl Emitted<'_> {
    /// The target's value, as the interpreter computes it.
    pub fn into_value(self) -> Value {
        match self {
            Emitted::Value(v) => v,
            Emitted::Split(parts) => Value::Split(Rc::from(parts)),
            Emitted::IntSplit(parts) => {
                Value::Split(parts.iter().map(|n| Value::Int(*n)).collect())
            }
        }
    }
}

/// The state of one run of a compiled rule.
struct Run<'r> {
    regs: Vec<i64>,
    max_collection: u64,
    stop: &'r Stop,
    ticks: u32,
    /// The parts of a top-level `split` target, reused from option to option.
    parts: Vec<Value>,
    /// The same when every part is an integer.
    int_parts: Vec<i64>,
}

impl CompiledRule {
    /// Runs the rule for a position whose frame (parameters and position fields bound) is
    /// `frame`, calling `emit` with each target value in the interpreter's order.
    pub fn run(
        &self,
        frame: &[Value],
        max_collection: u64,
        stop: &Stop,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let mut regs = vec![0; self.registers.max(frame.len())];
        for slot in &self.inputs {
            match frame.get(*slot as usize) {
                Some(Value::Int(n)) => regs[*slot as usize] = *n,
                _ => return Err(Interrupt::Fallback),
            }
        }
        let mut run = Run {
            regs,
            max_collection,
            stop,
            ticks: 0,
            parts: Vec::new(),
            int_parts: Vec::new(),
        };
        self.steps_from(0, &mut run, emit)
    }

    fn steps_from(
        &self,
        k: usize,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let Some(step) = self.steps.get(k) else {
            if let Some(parts) = &self.int_split {
                run.int_parts.clear();
                for p in parts {
                    run.int_parts.push(p.eval(&run.regs)?);
                }
                return emit(Emitted::IntSplit(&run.int_parts)).map_err(Interrupt::Error);
            }
            if let Target::Split(parts) = &self.target {
                run.parts.clear();
                for p in parts {
                    run.parts.push(p.eval(&run.regs)?);
                }
                return emit(Emitted::Split(&run.parts)).map_err(Interrupt::Error);
            }
            let value = self.target.eval(&run.regs)?;
            return emit(Emitted::Value(value)).map_err(Interrupt::Error);
        };
        match step {
            Step::If(cond) => {
                if cond.eval(&run.regs)? {
                    self.steps_from(k + 1, run, emit)
                } else {
                    Ok(ControlFlow::Continue(()))
                }
            }
            Step::For {
                reg,
                lo,
                hi,
                inclusive,
            } => {
                let a = lo.eval(&run.regs)?;
                let mut b = hi.eval(&run.regs)?;
                if *inclusive {
                    b = b.checked_add(1).ok_or(Interrupt::Fallback)?;
                }
                let b = b.max(a);
                if (b as i128 - a as i128) as u64 > run.max_collection {
                    return Err(Interrupt::Fallback);
                }
                for v in a..b {
                    run.ticks = run.ticks.wrapping_add(1);
                    if run.ticks.is_multiple_of(4096) {
                        run.stop.check().map_err(Interrupt::Error)?;
                    }
                    run.regs[*reg as usize] = v;
                    if self.steps_from(k + 1, run, emit)?.is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                }
                Ok(ControlFlow::Continue(()))
            }
        }
    }
}
