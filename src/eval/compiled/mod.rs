//! Move rules compiled once, at lowering, for the common case where every variable a rule
//! reads holds an integer or a list of integers: `move split(i, n - 1 - i) for i in 0..n`,
//! `move (a - k, b) for k in 1..=a`, guards such as `if 2 * i < n`, and (in `lists.rs`) boards
//! and rows: `move set(b, i, turn(b)) for i in 0..9 if b[i] == 0`, with user functions
//! inlined. Such a rule runs over unboxed `i64` registers and integer lists, with no
//! allocation per option, instead of walking the IR per option.
//!
//! The compiled form means exactly what the interpreter does with the same rule: the same
//! order of evaluation, the same checked arithmetic, the same range limits. Where the
//! interpreter would raise an error (overflow, division by zero, a range too long), the
//! compiled rule stops with [`Interrupt::Fallback`] and the caller re-runs the rule in the
//! interpreter, which raises the error with its diagnostic. Rules outside the fragment (sets,
//! strings, positions, nested lists, recursive functions) are not compiled and are
//! interpreted.

mod lists;
mod table;

use std::ops::ControlFlow;
use std::rc::Rc;

use lists::{Binding, Fold, Gen, GenClause, Kind, ListExpr};
pub use table::{CompiledGame, CompiledGames};

use super::arith::{self, IntOp};
use super::builtins::Builtin;
use super::stop::Stop;
use super::value::Value;
use crate::diag::{Diag, DiagResult};
use crate::lower::ir::{Clause, Expr, ExprKind, Program};
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
    /// `xs[i]`.
    Index(Box<ListExpr>, Box<IntExpr>),
    /// `len(xs)` (and `count(xs)` of integers).
    Len(Box<ListExpr>),
    /// `sum(xs)`.
    SumList(Box<ListExpr>),
    /// `count(...)`, `sum(...)`, `len(...)` of a comprehension.
    Fold(Box<Fold>),
    /// An inlined call.
    Let(Vec<Binding>, Box<IntExpr>),
    /// An inlined call whose arguments are variables or literals, remembered: called again
    /// with the same arguments in the same run, its body is not evaluated again.
    Memo(lists::MemoKey, Vec<Binding>, Box<IntExpr>),
}

/// A boolean expression over registers.
#[derive(Debug, Clone)]
enum BoolExpr {
    Lit(bool),
    /// A boolean register.
    Reg(u32),
    Cmp(BinaryOp, IntExpr, IntExpr),
    /// `a == b` of booleans (`!=` when the flag is set).
    Same(bool, Box<BoolExpr>, Box<BoolExpr>),
    Not(Box<BoolExpr>),
    And(Box<BoolExpr>, Box<BoolExpr>),
    Or(Box<BoolExpr>, Box<BoolExpr>),
    /// `x in xs` (`not in` when the flag is set).
    In(bool, IntExpr, Box<ListExpr>),
    /// `(a, b) == (c, d)` or `!=`.
    TupleCmp(BinaryOp, Vec<IntExpr>, Vec<IntExpr>),
    /// `exists` (true) or `forall` (false).
    Quant(bool, Box<Gen>, Box<BoolExpr>),
    /// The commonest quantifier over a board, `forall i in line: b[i] == p`, as one loop.
    IndexedQuant(Box<lists::IndexedQuant>),
    /// A quantifier over a constant's rows of an `IndexedQuant` over each row: a board game's
    /// `exists line in LINES: forall i in line: b[i] == p`.
    LinesQuant(Box<lists::LinesQuant>),
    /// An inlined call.
    Let(Vec<Binding>, Box<BoolExpr>),
    /// A remembered inlined call (see [`IntExpr::Memo`]).
    Memo(lists::MemoKey, Vec<Binding>, Box<BoolExpr>),
}

/// A move target: position data (an integer, a tuple of them or a list of them) or a
/// `split` of targets.
#[derive(Debug, Clone)]
enum Target {
    Int(IntExpr),
    Tuple(Vec<IntExpr>),
    List(ListExpr),
    Split(Vec<Target>),
}

/// A move rule in compiled form.
#[derive(Debug, Clone)]
pub struct CompiledRule {
    /// The rule's clauses: for the `for` clauses, `GenClause::Range` and `Items`/`Rows`.
    steps: Vec<GenClause>,
    target: Target,
    /// Frame slots the rule reads without binding them, with what each must hold.
    inputs: Vec<(u32, Kind)>,
    /// The rows inputs that may hold integer sets (see `Compiler::sets_as_rows`).
    set_rows: Vec<u32>,
    /// How deep the inlined calls nest: the interpreter's call-depth limit must allow it.
    call_depth: usize,
    /// Registers needed (the frame's size).
    registers: usize,
    /// The index of the last `for` step, a range followed only by guards that can run in
    /// blocks: the loop that runs in blocks.
    last_for: Option<usize>,
    /// The target's integers, when it is built of integers only: its value, its tuple's items
    /// or its split's parts.
    int_parts: Option<Vec<IntExpr>>,
    /// What the integers make.
    int_shape: LaneShape,
}

/// The shape of a target built from integers only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaneShape {
    /// One integer (position data).
    Int,
    /// A tuple of integers (position data).
    Tuple,
    /// A `split` of integers.
    Split,
}

/// A block of options of one rule, as its innermost loop computes them: for each lane the
/// guards let through, the target's integers (one column each).
pub struct Block<'b> {
    shape: LaneShape,
    columns: &'b [Vec<i64>],
    width: usize,
    keep: &'b [bool],
}

impl Block<'_> {
    /// What each lane's integers make.
    pub fn shape(&self) -> LaneShape {
        self.shape
    }

    /// How many integers a lane has.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The columns of the lanes' integers.
    pub fn columns(&self) -> &[Vec<i64>] {
        &self.columns[..self.width]
    }

    /// Which lanes the guards let through.
    pub fn keep(&self) -> &[bool] {
        self.keep
    }

    /// The lanes the guards let through, in order.
    pub fn lanes(&self) -> impl Iterator<Item = usize> + '_ {
        self.keep
            .iter()
            .enumerate()
            .filter(|(_, k)| **k)
            .map(|(i, _)| i)
    }

    /// The target of one lane, given its integers.
    pub fn lane<'p>(&self, parts: &'p [i64]) -> Emitted<'p> {
        match self.shape {
            LaneShape::Int => Emitted::Value(Value::Int(parts[0])),
            LaneShape::Tuple => Emitted::IntTuple(parts),
            LaneShape::Split => Emitted::IntSplit(parts),
        }
    }
}

/// Why a compiled rule stopped before its end.
pub enum Interrupt {
    /// The interpreter must run the rule: an input is not an integer, or evaluation would
    /// raise an error that the interpreter reports.
    Fallback,
    /// An error from the caller's visitor, or the stop condition.
    Error(Box<Diag>),
}

/// Compiles a move rule, if it lies in the fragment. `program` gives the functions and
/// constants the rule may use (inlined); without it, calls are not compiled.
pub fn compile_rule(
    clauses: &[Clause],
    target: &Expr,
    frame_size: usize,
    program: Option<&Program>,
) -> Option<CompiledRule> {
    Compiler::two_passes(program, frame_size, |c| c.rule(clauses, target))
}

impl Compiler<'_> {
    /// Compiles with `f` in a fresh compiler. A variable's kind is fixed by its first use,
    /// and `for r in sets` where `r` is not used as a list reads `sets` as a list of
    /// integers; if a later use reads it as rows, compiling fails, and is tried again with
    /// the variables read as rows the first time read as rows from the start. That first
    /// pass also notes variables whose rows reading was tried only because something inside
    /// failed (the position `b` in `forall x in b: ...S...` when `S` clashed): read as rows
    /// where either reading would do (`count(... for _ in b)`), such a variable clashes with
    /// a later use as a list or integer. Each further pass then drops the preferred variables
    /// that clashed so, until one compiles or none is left to drop.
    fn two_passes<T>(
        program: Option<&Program>,
        frame_size: usize,
        f: impl Fn(&mut Compiler<'_>) -> Option<T>,
    ) -> Option<T> {
        let mut c = Compiler::new(program, frame_size);
        if let Some(done) = f(&mut c) {
            return Some(done);
        }
        let mut prefer_rows = std::mem::take(&mut c.wanted_rows);
        prefer_rows.sort_unstable();
        prefer_rows.dedup();
        while !prefer_rows.is_empty() {
            let mut c = Compiler::new(program, frame_size);
            c.prefer_rows = prefer_rows.clone();
            if let Some(done) = f(&mut c) {
                return Some(done);
            }
            let before = prefer_rows.len();
            prefer_rows.retain(|r| !c.rows_clashed.contains(r));
            if prefer_rows.len() == before {
                return None;
            }
        }
        None
    }

    fn rule(&mut self, clauses: &[Clause], target: &Expr) -> Option<CompiledRule> {
        if clauses.len() > MAX_NESTING {
            return None;
        }
        let mut steps = Vec::new();
        for clause in clauses {
            steps.push(self.gen_clause(clause)?);
        }
        let target = self.target(target)?;
        let (int_shape, int_parts) = match &target {
            Target::Int(e) => (LaneShape::Int, Some(vec![e.clone()])),
            Target::Tuple(items) => (LaneShape::Tuple, Some(items.clone())),
            Target::List(_) => (LaneShape::Int, None),
            Target::Split(parts) => (
                LaneShape::Split,
                parts
                    .iter()
                    .map(|p| match p {
                        Target::Int(e) => Some(e.clone()),
                        _ => None,
                    })
                    .collect(),
            ),
        };
        // The innermost loop runs in blocks when it is a range followed by guards that blocks
        // can compute, and the target is integers that blocks can compute.
        let int_parts = int_parts.filter(|parts| parts.iter().all(IntExpr::blockable));
        let last_for = steps
            .iter()
            .rposition(|s| !matches!(s, GenClause::If(_)))
            .filter(|k| {
                matches!(steps[*k], GenClause::Range { .. })
                    && steps[k + 1..].iter().all(|s| match s {
                        GenClause::If(cond) => cond.blockable(),
                        _ => false,
                    })
            });
        Some(CompiledRule {
            last_for,
            int_parts,
            int_shape,
            steps,
            target,
            set_rows: self.sets_as_rows(),
            inputs: self.inputs.clone(),
            call_depth: self.call_depth,
            registers: self.next as usize,
        })
    }
}

/// The state of compiling one rule.
struct Compiler<'p> {
    /// Functions (inlined) and constants (literal ones folded in).
    program: Option<&'p Program>,
    /// Per register, what it holds, once known.
    kinds: Vec<Option<Kind>>,
    /// Per register, whether something in the rule binds it (a generator, a parameter of an
    /// inlined function); the others are read from the position's frame.
    bound: Vec<bool>,
    /// Frame slots read without being bound, with what they must hold.
    inputs: Vec<(u32, Kind)>,
    /// Per register, the caller's register it stands for, for a parameter of an inlined
    /// call whose argument is a variable (see `Compiler::inline`).
    alias: Vec<Option<u32>>,
    /// The size of the rule's own frame: registers below are its variables (inputs, if
    /// read without being bound); inlined calls' frames come after.
    rule_frame: u32,
    /// The first register of the current function's frame (0: the rule's own frame).
    base: u32,
    /// Registers in use.
    next: u32,
    /// How deep inlined calls nest here, and at most.
    depth: usize,
    call_depth: usize,
    /// How deep the expression being compiled nests, inlined bodies included (at most
    /// [`MAX_NESTING`]).
    nesting: usize,
    /// Remembered calls so far (their ids).
    memos: u32,
    /// Per register, whether a list in it is read as only a list allows (see
    /// `Compiler::as_list_only`).
    list_only: Vec<bool>,
    /// The rows read by `for row in rows` clauses over a register: (rows, row) registers.
    rows_read: Vec<(u32, u32)>,
    /// Registers to read as rows where a `for` clause could read them either way (see
    /// `Compiler::two_passes`).
    prefer_rows: Vec<u32>,
    /// Registers that a `for` clause tried to read as rows, compiled or not.
    wanted_rows: Vec<u32>,
    /// Registers read as rows that a later use read as something else (see
    /// `Compiler::two_passes`), compiled or not.
    rows_clashed: Vec<u32>,
}

/// The deepest a compiled tree nests (its expressions, the clauses of its generators and the
/// bodies of inlined calls, one level each). Real rules nest a few dozen levels; a deeper
/// one runs in the interpreter. The bound keeps a compiled run's recursion within
/// [`RUN_STACK`], so that it needs no check of its own.
const MAX_NESTING: usize = 256;

/// Stack a compiled run may take: [`MAX_NESTING`] levels of its evaluation, a few hundred
/// bytes each, with a wide margin.
const RUN_STACK: usize = 1 << 20;

/// What [`Compiler::attempt`] restores.
struct Snapshot {
    kinds: Vec<Option<Kind>>,
    bound: Vec<bool>,
    inputs: Vec<(u32, Kind)>,
    alias: Vec<Option<u32>>,
    next: u32,
    call_depth: usize,
}

impl<'p> Compiler<'p> {
    fn new(program: Option<&'p Program>, frame_size: usize) -> Compiler<'p> {
        let mut c = Compiler {
            program,
            kinds: Vec::new(),
            bound: Vec::new(),
            inputs: Vec::new(),
            alias: Vec::new(),
            rule_frame: frame_size as u32,
            base: 0,
            next: frame_size as u32,
            depth: 0,
            call_depth: 0,
            nesting: 0,
            memos: 0,
            list_only: Vec::new(),
            rows_read: Vec::new(),
            prefer_rows: Vec::new(),
            wanted_rows: Vec::new(),
            rows_clashed: Vec::new(),
        };
        c.grow();
        c
    }

    /// Sizes the per-register tables to the registers in use.
    fn grow(&mut self) {
        self.kinds.resize(self.next as usize, None);
        self.bound.resize(self.next as usize, false);
        self.alias.resize(self.next as usize, None);
        self.list_only.resize(self.next as usize, false);
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            kinds: self.kinds.clone(),
            bound: self.bound.clone(),
            inputs: self.inputs.clone(),
            alias: self.alias.clone(),
            next: self.next,
            call_depth: self.call_depth,
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.kinds = s.kinds;
        self.bound = s.bound;
        self.inputs = s.inputs;
        self.alias = s.alias;
        self.next = s.next;
        self.call_depth = s.call_depth;
    }

    /// The register that `reg` reads: the caller's, for a parameter that is an alias.
    fn resolved(&self, reg: u32) -> u32 {
        self.alias
            .get(reg as usize)
            .copied()
            .flatten()
            .unwrap_or(reg)
    }

    /// The register of a variable read as `kind`; `None` if it holds something else.
    fn local(&mut self, slot: u32, kind: Kind) -> Option<u32> {
        let reg = self.base + slot;
        let i = reg as usize;
        if i >= self.kinds.len() {
            return None;
        }
        if let Some(target) = self.alias[i] {
            // A parameter standing for the caller's variable: its kind is noted (the call
            // binds nothing for it), and the caller's register is read.
            match self.kinds[i] {
                Some(k) if k != kind => return self.clash(target, k),
                Some(_) => {}
                None => self.kinds[i] = Some(kind),
            }
            return self.register(target, kind);
        }
        self.register(reg, kind)
    }

    /// [`Compiler::local`] for register `reg` itself.
    fn register(&mut self, reg: u32, kind: Kind) -> Option<u32> {
        let i = reg as usize;
        if i >= self.kinds.len() {
            return None;
        }
        match self.kinds[i] {
            Some(k) if k != kind => return self.clash(reg, k),
            Some(_) => {}
            None => self.kinds[i] = Some(kind),
        }
        if !self.bound[i] && !self.inputs.iter().any(|(r, _)| *r == reg) {
            // Only the rule's own frame has inputs: a function sees its parameters.
            if reg >= self.rule_frame {
                return None;
            }
            self.inputs.push((reg, kind));
        }
        Some(reg)
    }

    /// A read of `reg`, which holds `held`, as another kind: not compiled. A rows register
    /// read so is noted for [`Compiler::two_passes`].
    fn clash(&mut self, reg: u32, held: Kind) -> Option<u32> {
        if held == Kind::Rows && !self.rows_clashed.contains(&reg) {
            self.rows_clashed.push(reg);
        }
        None
    }

    /// Binds a variable of the current frame to a fresh value of `kind`. Lowering reuses a
    /// slot once its variable's scope has ended, so a slot may be bound again with another
    /// kind; reads see the latest binding, as they are compiled in scope order.
    fn bind(&mut self, slot: u32, kind: Kind) -> Option<u32> {
        let reg = self.base + slot;
        let i = reg as usize;
        if i >= self.kinds.len() || self.inputs.iter().any(|(r, _)| *r == reg) {
            return None;
        }
        self.kinds[i] = Some(kind);
        self.bound[i] = true;
        Some(reg)
    }

    /// Compiles one level deeper with `f`, if the compiled tree stays within [`MAX_NESTING`]
    /// levels and the stack has room; else the expression is left to the interpreter.
    pub(super) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        if self.nesting >= MAX_NESTING || !crate::stack::enough() {
            return None;
        }
        self.nesting += 1;
        let result = f(self);
        self.nesting -= 1;
        result
    }

    fn int(&mut self, e: &Expr) -> Option<IntExpr> {
        self.nested(|c| c.int_here(e))
    }

    fn int_here(&mut self, e: &Expr) -> Option<IntExpr> {
        Some(match &e.kind {
            ExprKind::Lit(Value::Int(n)) => IntExpr::Lit(*n),
            ExprKind::Local(slot) => IntExpr::Reg(self.local(*slot, Kind::Int)?),
            ExprKind::Unary(UnaryOp::Neg, x) => IntExpr::Neg(Box::new(self.int(x)?)),
            ExprKind::Binary(op, l, r) => {
                let op = IntOp::of(*op)?;
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
            _ => return self.list_int(e),
        })
    }

    fn boolean(&mut self, e: &Expr) -> Option<BoolExpr> {
        self.nested(|c| c.boolean_here(e))
    }

    fn boolean_here(&mut self, e: &Expr) -> Option<BoolExpr> {
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
            ) if self.attempt(|c| Some((c.int(l)?, c.int(r)?))).is_some() => {
                // Compiled twice: the first time only to learn that both sides are integers.
                BoolExpr::Cmp(*op, self.int(l)?, self.int(r)?)
            }
            ExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), l, r)
                if self
                    .attempt(|c| Some((c.boolean(l)?, c.boolean(r)?)))
                    .is_some() =>
            {
                BoolExpr::Same(
                    *op == BinaryOp::Ne,
                    Box::new(self.boolean(l)?),
                    Box::new(self.boolean(r)?),
                )
            }
            ExprKind::Local(slot) => BoolExpr::Reg(self.local(*slot, Kind::Bool)?),
            _ => return self.list_bool(e),
        })
    }

    fn target(&mut self, e: &Expr) -> Option<Target> {
        self.nested(|c| c.target_here(e))
    }

    fn target_here(&mut self, e: &Expr) -> Option<Target> {
        Some(match &e.kind {
            ExprKind::Lit(Value::Tuple(items)) => Target::Tuple(
                items
                    .iter()
                    .map(|v| match v {
                        Value::Int(n) => Some(IntExpr::Lit(*n)),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
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
                        ExprKind::CallBuiltin(Builtin::Split, _)
                        | ExprKind::Tuple(_)
                        | ExprKind::Lit(Value::Tuple(_)) => self.target(a),
                        _ => self.int(a).map(Target::Int),
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
            _ => match self.attempt(|c| c.int(e)) {
                Some(n) => Target::Int(n),
                None => {
                    let list = self.list(e)?;
                    self.as_list_only(&list);
                    Target::List(list)
                }
            },
        })
    }
}

type Eval<T> = Result<T, Interrupt>;

impl IntExpr {
    /// The value of a leaf (a literal or a register) without a call: most operands are one.
    #[inline]
    fn leaf(&self, run: &Run<'_>) -> Option<i64> {
        match self {
            IntExpr::Lit(n) => Some(*n),
            IntExpr::Reg(r) => Some(run.b.regs[*r as usize]),
            _ => None,
        }
    }

    /// The value of an operand: a leaf read in place, anything else evaluated.
    #[inline]
    fn operand(&self, run: &mut Run<'_>) -> Eval<i64> {
        match self.leaf(run) {
            Some(v) => Ok(v),
            None => self.eval(run),
        }
    }

    fn eval(&self, run: &mut Run<'_>) -> Eval<i64> {
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
            IntExpr::Index(list, i) => lists::index(list, i, run),
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
            IntExpr::Memo(id, bindings, body) => {
                lists::memoized(id, bindings, run, |run| body.eval(run))
            }
        }
    }

    /// Whether blocks can compute it: integer registers and arithmetic only.
    fn blockable(&self) -> bool {
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
            | IntExpr::Memo(..) => false,
        }
    }
}

impl BoolExpr {
    fn eval(&self, run: &mut Run<'_>) -> Eval<bool> {
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
            BoolExpr::In(negated, x, list) => Ok(lists::contains(x, list, run)? != *negated),
            BoolExpr::TupleCmp(op, l, r) => {
                Ok(lists::tuples_equal(l, r, run)? == (*op == BinaryOp::Eq))
            }
            BoolExpr::Quant(exists, gen, body) => lists::quantified(*exists, gen, body, run),
            BoolExpr::IndexedQuant(q) => q.eval(run),
            BoolExpr::LinesQuant(q) => q.eval(run),
            BoolExpr::Let(bindings, body) => {
                lists::bind_all(bindings, run)?;
                body.eval(run)
            }
            BoolExpr::Memo(id, bindings, body) => {
                Ok(lists::memoized(id, bindings, run, |run| Ok(i64::from(body.eval(run)?)))? != 0)
            }
        }
    }

    /// Whether blocks can compute it.
    fn blockable(&self) -> bool {
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

impl Target {
    fn eval(&self, run: &mut Run<'_>) -> Eval<Value> {
        Ok(match self {
            Target::Int(e) => Value::Int(e.eval(run)?),
            Target::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(Value::Int(i.eval(run)?));
                }
                Value::tuple(out)
            }
            Target::List(list) => {
                let mut out = run.take_list();
                let result = list.eval_into(run, &mut out);
                let value = Value::list(out.iter().map(|n| Value::Int(*n)).collect());
                run.put_list(out);
                result?;
                value
            }
            Target::Split(parts) => {
                let mut out = Vec::with_capacity(parts.len());
                for p in parts {
                    out.push(p.eval(run)?);
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
    /// A tuple of integers (position data).
    IntTuple(&'t [i64]),
    /// A list of integers (position data).
    IntList(&'t [i64]),
    /// A block of options (only to visitors that asked for blocks).
    Block(&'t Block<'t>),
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
            Emitted::IntTuple(items) => {
                Value::Tuple(items.iter().map(|n| Value::Int(*n)).collect())
            }
            Emitted::IntList(items) => Value::List(items.iter().map(|n| Value::Int(*n)).collect()),
            // Blocks reach only visitors that take them apart themselves.
            Emitted::Block(_) => Value::None,
        }
    }

    /// How many options this is.
    pub fn count(&self) -> u64 {
        match self {
            Emitted::Block(block) => block.keep.iter().filter(|k| **k).count() as u64,
            _ => 1,
        }
    }
}

/// Lanes in a block: the innermost loop of a compiled rule runs this many values at a time.
const LANES: usize = 256;

/// Blocks of lanes for vectorized evaluation, reused from block to block.
#[derive(Default)]
struct Pool {
    ints: Vec<Vec<i64>>,
    bools: Vec<Vec<bool>>,
}

impl Pool {
    #[inline]
    fn ints(&mut self) -> Vec<i64> {
        self.ints.pop().unwrap_or_else(|| vec![0; LANES])
    }
    #[inline]
    fn bools(&mut self) -> Vec<bool> {
        self.bools.pop().unwrap_or_else(|| vec![false; LANES])
    }
}

/// Where a block is evaluated: the registers, the register of the innermost loop, and that
/// register's values in the block's lanes; for a loop over a list's items, the register of
/// the items' index (`enumerate`) and its values too (`NO_REG` when there is none).
struct Lanes<'l> {
    regs: &'l [i64],
    reg: u32,
    values: &'l [i64],
    index_reg: u32,
    index_values: &'l [i64],
}

/// No register (see [`Lanes`]).
const NO_REG: u32 = u32::MAX;

impl<'l> Lanes<'l> {
    /// The lanes of `r`, if it varies from lane to lane.
    #[inline]
    fn varying(&self, r: u32) -> Option<&'l [i64]> {
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
fn affine(e: &IntExpr, x: u32, regs: &[i64], lo: i64, hi: i64) -> Option<(i128, i128)> {
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
fn narrow(x: u32, mut a: i64, mut b: i64, guards: &[GenClause], regs: &[i64]) -> (i64, i64, usize) {
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
fn narrow_and(
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
        other => narrow_by(other, x, range.0, range.1, regs).ok_or(range),
    }
}

/// The values of the non-empty range `a..b` that the comparison `cond` lets through, an
/// interval, when it is an affine comparison (see [`narrow`]); `None` when it is not.
fn narrow_by(cond: &BoolExpr, x: u32, a: i64, b: i64, regs: &[i64]) -> Option<(i64, i64)> {
    let BoolExpr::Cmp(op, l, r) = cond else {
        return None;
    };
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

/// The first value in `lo..=hi` at which `holds` is `want`, by bisection: it is not at
/// `lo`, it is at `hi`, and it changes once in between.
fn first_where(mut lo: i64, mut hi: i64, want: bool, holds: impl Fn(i64) -> bool) -> i64 {
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
fn tick_n(ticks: &mut u32, stop: &Stop, n: usize) -> Eval<()> {
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
    fn eval_block(&self, at: &Lanes<'_>, out: &mut [i64], pool: &mut Pool) -> Eval<()> {
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
            | IntExpr::Memo(..) => return Err(Interrupt::Fallback),
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
    fn scalar(&self, at: &Lanes<'_>) -> Option<i64> {
        match self {
            IntExpr::Lit(n) => Some(*n),
            IntExpr::Reg(r) if at.varying(*r).is_none() => Some(at.regs[*r as usize]),
            _ => None,
        }
    }
}

/// A comparison of two integers (the operator is one of `==`, `!=`, `<`, `<=`, `>`, `>=`).
fn compare(op: BinaryOp, x: i64, y: i64) -> bool {
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
fn compare_lanes(op: BinaryOp, out: &mut [bool], xs: &[i64], ys: impl Iterator<Item = i64>) {
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
    fn eval_block(&self, at: &Lanes<'_>, out: &mut [bool], pool: &mut Pool) -> Eval<()> {
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

/// The buffers of a run, kept from run to run (a position's rules run once per scan: these
/// would otherwise be allocated as often).
#[derive(Default)]
struct Buffers {
    regs: Vec<i64>,
    /// List registers (empty for integer registers).
    lists: Vec<Vec<i64>>,
    /// Rows registers (`None` for the others).
    rows: Vec<Option<lists::RowsSlot>>,
    /// Free list buffers for intermediate lists.
    spare: Vec<Vec<i64>>,
    /// A list target, reused from option to option.
    list_out: Vec<i64>,
    /// The remembered calls of the current run, by id.
    memo: Vec<lists::Memo>,
    /// The parts of a top-level `split` target, reused from option to option.
    parts: Vec<Value>,
    /// The same when every part is an integer.
    int_parts: Vec<i64>,
    /// Scratch blocks of expressions.
    pool: Pool,
    /// The innermost loop's values in a block, which lanes the guards keep, a guard's value,
    /// the target's integer parts.
    values: Vec<i64>,
    keep: Vec<bool>,
    guard: Vec<bool>,
    columns: Vec<Vec<i64>>,
}

thread_local! {
    /// Buffers free for the next run (runs nest: an option's first move is generated while
    /// the option is interned).
    static FREE_BUFFERS: std::cell::RefCell<Vec<Buffers>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The state of one run of a compiled rule.
struct Run<'r> {
    /// Emit the innermost loop's options a block at a time.
    blocks: bool,
    max_collection: u64,
    stop: &'r Stop,
    ticks: u32,
    b: Buffers,
}

/// Evaluates `items` in order into a buffer of the run's (no allocation per option), hands
/// the values to `emit`, and gives the buffer back.
fn emit_each<X, T>(
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
    fn tick(&mut self) -> Eval<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(4096) {
            self.stop.check().map_err(Interrupt::Error)?;
        }
        Ok(())
    }

    /// An empty list buffer.
    fn take_list(&mut self) -> Vec<i64> {
        let mut buf = self.b.spare.pop().unwrap_or_default();
        buf.clear();
        buf
    }

    /// Gives a buffer from [`Run::take_list`] back.
    fn put_list(&mut self, buf: Vec<i64>) {
        self.b.spare.push(buf);
    }
}

/// A `terminal if` or `draw if` condition in compiled form: the same fragment as rules.
#[derive(Debug, Clone)]
pub struct CompiledCond {
    cond: BoolExpr,
    inputs: Vec<(u32, Kind)>,
    /// The rows inputs that may hold integer sets (see `Compiler::sets_as_rows`).
    set_rows: Vec<u32>,
    registers: usize,
    call_depth: usize,
}

/// Compiles a game's condition, if it lies in the fragment.
pub fn compile_condition(
    cond: &Expr,
    frame_size: usize,
    program: Option<&Program>,
) -> Option<CompiledCond> {
    Compiler::two_passes(program, frame_size, |c| {
        let cond = c.boolean(cond)?;
        Some(CompiledCond {
            cond,
            set_rows: c.sets_as_rows(),
            inputs: c.inputs.clone(),
            registers: c.next as usize,
            call_depth: c.call_depth,
        })
    })
}

impl CompiledCond {
    /// How deep the condition's inlined calls nest.
    pub fn call_depth(&self) -> usize {
        self.call_depth
    }

    /// The condition's value in a position's frame; [`Interrupt::Fallback`] where the
    /// interpreter must evaluate it (and raise its error).
    pub fn eval(
        &self,
        frame: InputFrame<'_>,
        max_collection: u64,
        stop: &Stop,
    ) -> Result<bool, Interrupt> {
        with_run(
            (&self.inputs, &self.set_rows),
            self.registers,
            frame,
            max_collection,
            stop,
            false,
            |run| self.cond.eval(run),
        )
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

/// Sets up a run (buffers from the free list, the inputs loaded from `frame`), runs `f` in
/// it, and gives the buffers back.
fn with_run<T>(
    (inputs, set_rows): (&[(u32, Kind)], &[u32]),
    registers: usize,
    frame: InputFrame<'_>,
    max_collection: u64,
    stop: &Stop,
    blocks: bool,
    f: impl FnOnce(&mut Run<'_>) -> Eval<T>,
) -> Eval<T> {
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
                lists::load_rows(&mut b.rows[*slot as usize], value, sets)
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
    let mut run = Run {
        blocks,
        max_collection,
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
        self.call_depth
    }

    /// Runs the rule for a position whose frame (parameters and position fields bound) is
    /// `frame`, calling `emit` with each target value in the interpreter's order.
    pub fn run(
        &self,
        frame: InputFrame<'_>,
        max_collection: u64,
        stop: &Stop,
        blocks: bool,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        with_run(
            (&self.inputs, &self.set_rows),
            self.registers,
            frame,
            max_collection,
            stop,
            blocks,
            |run| self.steps_from(0, run, emit),
        )
    }

    fn steps_from(
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
                match &self.int_parts {
                    Some(parts) => self.blocks(*reg, a, b, &self.steps[k + 1..], parts, run, emit),
                    None => self.one_step(k, run, emit),
                }
            }
            _ => self.one_step(k, run, emit),
        }
    }

    /// Runs clause `k` alone, the rest of the rule for each binding it makes.
    fn one_step(
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
    fn emit_target(
        &self,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
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
        if let Target::List(list) = &self.target {
            let mut out = std::mem::take(&mut run.b.list_out);
            out.clear();
            let flow = list
                .eval_into(run, &mut out)
                .and_then(|()| emit(Emitted::IntList(&out)).map_err(Interrupt::Error));
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
    fn blocks(
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
            int_parts,
            pool,
            values,
            keep,
            guard,
            columns,
            ..
        } = &mut run.b;
        // Guards that are affine in the loop's variable cut the range down first.
        let (a, b, narrowed) = narrow(reg, a, b, guards, regs);
        let guards = &guards[narrowed..];
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
            if run.blocks {
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
