//! Compiling a rule: the fragment check and the translation of IR expressions into the
//! compiled trees (registers, kinds, nesting, snapshots to back out of a failed attempt).

use lists::{GenClause, Kind};

use super::*;
use crate::eval::arith::IntOp;
use crate::eval::builtins::Builtin;
use crate::eval::value::Value;
use crate::lower::ir::{Clause, Expr, ExprKind, Program};
use crate::syntax::ast::{BinaryOp, UnaryOp};

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
    ///
    /// A variable of the rule's frame first read as an integer and later as a boolean (or
    /// the other way round) fails the same way: `(F != F) == F` compares `F` as integers
    /// before the outer `==` needs it as a boolean. The last passes start such variables
    /// with the kind the clashing use wanted, until one compiles or no new clash appears.
    pub(super) fn two_passes<T>(
        program: Option<&Program>,
        frame_size: usize,
        f: impl Fn(&mut Compiler<'_>) -> Option<T>,
    ) -> Option<T> {
        let mut c = Compiler::new(program, frame_size);
        if let Some(done) = f(&mut c) {
            return Some(done);
        }
        let mut preset = std::mem::take(&mut c.scalar_clashes);
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
                break;
            }
        }
        for _ in 0..MAX_PRESET_PASSES {
            if preset.is_empty() {
                break;
            }
            let mut c = Compiler::new(program, frame_size);
            for &(reg, kind) in &preset {
                c.kinds[reg as usize] = Some(kind);
            }
            if let Some(done) = f(&mut c) {
                return Some(done);
            }
            let new: Vec<_> = c
                .scalar_clashes
                .into_iter()
                .filter(|(r, _)| !preset.iter().any(|(p, _)| p == r))
                .collect();
            if new.is_empty() {
                break;
            }
            preset.extend(new);
        }
        None
    }

    pub(super) fn rule(&mut self, clauses: &[Clause], target: &Expr) -> Option<CompiledRule> {
        if clauses.len() > MAX_NESTING {
            return None;
        }
        let mut steps = Vec::new();
        for clause in clauses {
            steps.push(self.gen_clause(clause)?);
            if matches!(clause, Clause::For(..)) {
                // What follows the first `for` runs once per binding.
                self.loops = 1;
            }
        }
        let target = self.target(target)?;
        let (int_shape, int_parts) = match &target {
            Target::Int(e) => (LaneShape::Int, Some(vec![e.clone()])),
            Target::Tuple(items) => (LaneShape::Tuple, Some(items.clone())),
            Target::List(_) | Target::SplitList(_) | Target::Let(..) => (LaneShape::Int, None),
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
        // The innermost loop, a range followed only by guards, runs as one loop; in blocks
        // when blocks can compute the guards and the target is integers that blocks can
        // compute.
        let int_parts = int_parts.filter(|parts| parts.iter().all(IntExpr::blockable));
        let last_for = steps
            .iter()
            .rposition(|s| !matches!(s, GenClause::If(_)))
            .filter(|k| matches!(steps[*k], GenClause::Range { .. }));
        let in_blocks = last_for.is_some_and(|k| {
            steps[k + 1..].iter().all(|s| match s {
                GenClause::If(cond) => cond.blockable(),
                _ => false,
            })
        });
        let int_parts = int_parts.filter(|_| in_blocks);
        // A list target computed by a comprehension runs for a block of the innermost
        // loop's values at once.
        let cross = match (&target, last_for) {
            (Target::List(list), Some(k)) => match &steps[k] {
                GenClause::Range { reg, .. } => {
                    super::cross::Cross::plan(list, *reg, k.checked_sub(1).map(|a| &steps[a]))
                }
                _ => None,
            },
            _ => None,
        };
        let set_cell = super::cells::set_register(&target, &self.inputs);
        Some(CompiledRule {
            set_cell,
            cross,
            last_for,
            int_parts,
            int_shape,
            steps,
            target,
            shape: self.run_shape(),
        })
    }

    /// What a run of the rule or condition compiled so far starts with.
    pub(super) fn run_shape(&self) -> RunShape {
        RunShape {
            set_rows: self.sets_as_rows(),
            inputs: self.inputs.clone(),
            registers: self.next as usize,
            call_depth: self.call_depth,
        }
    }
}

/// The state of compiling one rule.
pub(super) struct Compiler<'p> {
    /// Functions (inlined) and constants (literal ones folded in).
    pub(super) program: Option<&'p Program>,
    /// Per register, what it holds, once known.
    pub(super) kinds: Vec<Option<Kind>>,
    /// Per register, whether something in the rule binds it (a generator, a parameter of an
    /// inlined function); the others are read from the position's frame.
    pub(super) bound: Vec<bool>,
    /// Frame slots read without being bound, with what they must hold.
    pub(super) inputs: Vec<(u32, Kind)>,
    /// Per register, the caller's register it stands for, for a parameter of an inlined
    /// call whose argument is a variable (see `Compiler::inline`).
    pub(super) alias: Vec<Option<u32>>,
    /// The size of the rule's own frame: registers below are its variables (inputs, if
    /// read without being bound); inlined calls' frames come after.
    pub(super) rule_frame: u32,
    /// The first register of the current function's frame (0: the rule's own frame).
    pub(super) base: u32,
    /// Registers in use.
    pub(super) next: u32,
    /// How deep inlined calls nest here, and at most.
    pub(super) depth: usize,
    pub(super) call_depth: usize,
    /// How deep the expression being compiled nests, inlined bodies included (at most
    /// [`MAX_NESTING`]).
    pub(super) nesting: usize,
    /// Remembered calls so far (their ids).
    pub(super) memos: u32,
    /// Per register, whether a list in it is read as only a list allows (see
    /// `Compiler::as_list_only`).
    pub(super) list_only: Vec<bool>,
    /// The rows read by `for row in rows` clauses over a register: (rows, row) registers.
    pub(super) rows_read: Vec<(u32, u32)>,
    /// Registers to read as rows where a `for` clause could read them either way (see
    /// `Compiler::two_passes`).
    pub(super) prefer_rows: Vec<u32>,
    /// Registers that a `for` clause tried to read as rows, compiled or not.
    pub(super) wanted_rows: Vec<u32>,
    /// Registers read as rows that a later use read as something else (see
    /// `Compiler::two_passes`), compiled or not.
    pub(super) rows_clashed: Vec<u32>,
    /// Registers of the rule's frame read as an integer and later as a boolean or the other
    /// way round, with the kind the later use wanted (see `Compiler::two_passes`).
    pub(super) scalar_clashes: Vec<(u32, Kind)>,
    /// Every register read, and every register bound, in compiling order: what a
    /// subexpression reads and binds, to tell whether it is the same all through a run (see
    /// `hoist.rs`).
    pub(super) reads: Vec<u32>,
    pub(super) binds: Vec<u32>,
    /// How many loops enclose what is being compiled (a rule's `for` clauses, generators).
    pub(super) loops: u32,
    /// The calls compiled so far whose arguments are the same all through a run, with their
    /// memo ids: the same call again shares the id, and so the value (see `hoist.rs`).
    pub(super) fixed_calls: Vec<(hoist::FixedCall, u32)>,
}

/// How many passes [`Compiler::two_passes`] makes with variables' kinds set in advance.
const MAX_PRESET_PASSES: usize = 4;

/// The deepest a compiled tree nests (its expressions, the clauses of its generators and the
/// bodies of inlined calls, one level each). Real rules nest a few dozen levels; a deeper
/// one runs in the interpreter. The bound keeps a compiled run's recursion within
/// [`RUN_STACK`], so that it needs no check of its own.
pub(super) const MAX_NESTING: usize = 256;

/// Stack a compiled run may take: [`MAX_NESTING`] levels of its evaluation, a few hundred
/// bytes each, with a wide margin.
pub(super) const RUN_STACK: usize = 1 << 20;

/// What [`Compiler::attempt`] restores.
pub(super) struct Snapshot {
    pub(super) kinds: Vec<Option<Kind>>,
    pub(super) bound: Vec<bool>,
    pub(super) inputs: Vec<(u32, Kind)>,
    pub(super) alias: Vec<Option<u32>>,
    pub(super) next: u32,
    pub(super) call_depth: usize,
    pub(super) reads: usize,
    pub(super) binds: usize,
}

impl<'p> Compiler<'p> {
    pub(super) fn new(program: Option<&'p Program>, frame_size: usize) -> Compiler<'p> {
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
            scalar_clashes: Vec::new(),
            reads: Vec::new(),
            binds: Vec::new(),
            loops: 0,
            fixed_calls: Vec::new(),
        };
        c.grow();
        c
    }

    /// Sizes the per-register tables to the registers in use.
    pub(super) fn grow(&mut self) {
        self.kinds.resize(self.next as usize, None);
        self.bound.resize(self.next as usize, false);
        self.alias.resize(self.next as usize, None);
        self.list_only.resize(self.next as usize, false);
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            kinds: self.kinds.clone(),
            bound: self.bound.clone(),
            inputs: self.inputs.clone(),
            alias: self.alias.clone(),
            next: self.next,
            call_depth: self.call_depth,
            reads: self.reads.len(),
            binds: self.binds.len(),
        }
    }

    pub(super) fn restore(&mut self, s: Snapshot) {
        self.kinds = s.kinds;
        self.bound = s.bound;
        self.inputs = s.inputs;
        self.alias = s.alias;
        self.next = s.next;
        self.call_depth = s.call_depth;
        self.reads.truncate(s.reads);
        self.binds.truncate(s.binds);
    }

    /// The register that `reg` reads: the caller's, for a parameter that is an alias.
    pub(super) fn resolved(&self, reg: u32) -> u32 {
        self.alias
            .get(reg as usize)
            .copied()
            .flatten()
            .unwrap_or(reg)
    }

    /// The register of a variable read as `kind`; `None` if it holds something else.
    pub(super) fn local(&mut self, slot: u32, kind: Kind) -> Option<u32> {
        let reg = self.base + slot;
        let i = reg as usize;
        if i >= self.kinds.len() {
            return None;
        }
        if let Some(target) = self.alias[i] {
            // A parameter standing for the caller's variable: its kind is noted (the call
            // binds nothing for it), and the caller's register is read.
            match self.kinds[i] {
                Some(k) if k != kind => return self.clash(target, k, kind),
                Some(_) => {}
                None => self.kinds[i] = Some(kind),
            }
            return self.register(target, kind);
        }
        self.register(reg, kind)
    }

    /// [`Compiler::local`] for register `reg` itself.
    pub(super) fn register(&mut self, reg: u32, kind: Kind) -> Option<u32> {
        let i = reg as usize;
        if i >= self.kinds.len() {
            return None;
        }
        match self.kinds[i] {
            Some(k) if k != kind => return self.clash(reg, k, kind),
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
        self.reads.push(reg);
        Some(reg)
    }

    /// A read of `reg`, which holds `held`, as `wanted`: not compiled. A rows register read
    /// so, and a rule variable read as both an integer and a boolean, are noted for
    /// [`Compiler::two_passes`].
    pub(super) fn clash(&mut self, reg: u32, held: Kind, wanted: Kind) -> Option<u32> {
        if held == Kind::Rows && !self.rows_clashed.contains(&reg) {
            self.rows_clashed.push(reg);
        }
        let scalar = |k| matches!(k, Kind::Int | Kind::Bool);
        if scalar(held)
            && scalar(wanted)
            && reg < self.rule_frame
            && !self.bound[reg as usize]
            && !self.scalar_clashes.iter().any(|(r, _)| *r == reg)
        {
            self.scalar_clashes.push((reg, wanted));
        }
        None
    }

    /// Binds a variable of the current frame to a fresh value of `kind`. Lowering reuses a
    /// slot once its variable's scope has ended, so a slot may be bound again with another
    /// kind; reads see the latest binding, as they are compiled in scope order.
    pub(super) fn bind(&mut self, slot: u32, kind: Kind) -> Option<u32> {
        let reg = self.base + slot;
        let i = reg as usize;
        if i >= self.kinds.len() || self.inputs.iter().any(|(r, _)| *r == reg) {
            return None;
        }
        self.kinds[i] = Some(kind);
        self.bound[i] = true;
        self.binds.push(reg);
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

    pub(super) fn int(&mut self, e: &Expr) -> Option<IntExpr> {
        let mark = self.mark();
        let compiled = self.nested(|c| c.int_here(e))?;
        Some(self.hoisted_int(mark, compiled))
    }

    pub(super) fn int_here(&mut self, e: &Expr) -> Option<IntExpr> {
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
            ExprKind::CallBuiltin(b @ (Builtin::Popcount | Builtin::Bits), args)
                if args.len() == 1 =>
            {
                let f = if *b == Builtin::Popcount {
                    IntFn::Popcount
                } else {
                    IntFn::Bits
                };
                IntExpr::Call(f, vec![self.int(&args[0])?])
            }
            ExprKind::CallBuiltin(Builtin::Normalize, args) if (2..=3).contains(&args.len()) => {
                let mut xs = args
                    .iter()
                    .map(|a| self.int(a))
                    .collect::<Option<Vec<_>>>()?;
                if xs.len() == 2 {
                    xs.push(IntExpr::Lit(0));
                }
                IntExpr::Call(IntFn::Normalize, xs)
            }
            // `min(xs)` / `max(xs)` of one list of integers (a comprehension, a variable).
            ExprKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args)
                if args.len() == 1
                    && !matches!(&args[0].kind, ExprKind::ListComp(body, _) if matches!(body.kind, ExprKind::List(_))) =>
            {
                match self.attempt(|c| c.list(&args[0])) {
                    Some(list) => IntExpr::ExtremeList(*b == Builtin::Min, Box::new(list)),
                    None => return self.list_int(e),
                }
            }
            _ => return self.list_int(e),
        })
    }

    pub(super) fn boolean(&mut self, e: &Expr) -> Option<BoolExpr> {
        let mark = self.mark();
        let compiled = self.nested(|c| c.boolean_here(e))?;
        Some(self.hoisted_bool(mark, compiled))
    }

    pub(super) fn boolean_here(&mut self, e: &Expr) -> Option<BoolExpr> {
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

    pub(super) fn target(&mut self, e: &Expr) -> Option<Target> {
        self.nested(|c| c.target_here(e))
    }

    pub(super) fn target_here(&mut self, e: &Expr) -> Option<Target> {
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
            // `split(xs)` of one list argument: the list's items are the parts.
            ExprKind::CallBuiltin(Builtin::Split, args)
                if args.len() == 1 && self.attempt(|c| c.int(&args[0])).is_none() =>
            {
                let list = self.list(&args[0])?;
                self.as_list_only(&list);
                Target::SplitList(list)
            }
            // A call whose body is a `split` or a tuple (other bodies compile as integers or
            // lists, below).
            ExprKind::CallFn(id, args)
                if self
                    .program
                    .and_then(|p| p.fns.get(id.0 as usize))
                    .is_some_and(|f| {
                        matches!(
                            f.body.expr.kind,
                            ExprKind::CallBuiltin(Builtin::Split, _) | ExprKind::Tuple(_)
                        )
                    }) =>
            {
                let (bindings, body) =
                    self.inline(id.0 as usize, args, |c, body| c.target(body))?;
                Target::Let(bindings, Box::new(body))
            }
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
