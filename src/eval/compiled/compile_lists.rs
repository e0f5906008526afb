//! Compiling the list part of the fragment: lists, generators, folds, list-valued
//! expressions, and calls of user functions inlined.

use std::sync::Arc;

use super::*;
use crate::eval::builtins::Builtin;
use crate::eval::value::Value;
use crate::lower::ir::{Clause, Expr, ExprKind, Pattern};
use crate::syntax::ast::{BinaryOp, Quantifier};

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
    pub(super) fn literal_const(&self, e: &Expr) -> Option<Value> {
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
    pub(super) fn const_rows(&self, e: &Expr) -> Option<Arc<RowSet>> {
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

    pub(super) fn list_here(&mut self, e: &Expr) -> Option<ListExpr> {
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
                let gen = gen.with_body(LaneBody::Int(&body));
                Some(ListExpr::Comp(Box::new(gen), Box::new(body)))
            })?,
            ExprKind::CallBuiltin(Builtin::Regions, args) if args.len() == 2 => {
                ListExpr::Regions(Box::new(self.int(&args[0])?), Box::new(self.int(&args[1])?))
            }
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
                fused::fuse_call(bindings, body)
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
        // The clauses after the first, and the body, run once per binding.
        let plain = |c: &mut Self| {
            c.attempt(|c| {
                c.in_loop(|c| {
                    let gen = c.gen(clauses)?;
                    then(c, gen)
                })
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
                c.in_loop(|c| {
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
                        progs: None,
                    };
                    then(c, gen)
                })
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
            progs: None,
        })
    }

    pub(super) fn gen_clause(&mut self, clause: &Clause) -> Option<GenClause> {
        self.nested(|c| c.gen_clause_here(clause))
    }

    pub(super) fn gen_clause_here(&mut self, clause: &Clause) -> Option<GenClause> {
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
    pub(super) fn bind_pattern(&mut self, p: &Pattern) -> Option<Option<u32>> {
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
                                Fold::Sum(
                                    Box::new(gen.with_body(LaneBody::Int(&body))),
                                    Box::new(body),
                                )
                            }
                            Builtin::Count => match c.attempt(|c| c.boolean(body)) {
                                Some(cond) => Fold::CountTrue(
                                    Box::new(gen.with_body(LaneBody::Bool(&cond))),
                                    Box::new(cond),
                                ),
                                None => {
                                    let body = c.int(body)?;
                                    Fold::CountItems(
                                        Box::new(gen.with_body(LaneBody::Int(&body))),
                                        Box::new(body),
                                    )
                                }
                            },
                            _ => {
                                let body = c.int(body)?;
                                Fold::CountItems(
                                    Box::new(gen.with_body(LaneBody::Int(&body))),
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
                match self.memo_key((id.0 as usize, Kind::Int), &bindings) {
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
                tuple_cmp(*op, left, right)
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
                match self.memo_key((id.0 as usize, Kind::Bool), &bindings) {
                    Some(key) => BoolExpr::Memo(key, bindings, Box::new(body)),
                    None => BoolExpr::Let(bindings, Box::new(body)),
                }
            }
            _ => return None,
        })
    }

    /// A tuple of integers, written out or literal.
    pub(super) fn int_tuple(&mut self, e: &Expr) -> Option<Vec<IntExpr>> {
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
    /// such arguments only (`turn(b)`) is then computed once a run and never compared, and
    /// shares its id with every other call of the same function (`call`: its id and the kind
    /// of its value) on the same such arguments (see `Compiler::fixed_call`).
    pub(super) fn memo_key(
        &mut self,
        call: (usize, Kind),
        bindings: &[Binding],
    ) -> Option<MemoKey> {
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
        let keyed: Vec<bool> = bindings.iter().map(|b| !fixed(b)).collect();
        if !keyed.contains(&true) {
            return Some(self.fixed_call(call, bindings));
        }
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
    pub(super) fn inline<T>(
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
            self.binds.push(base + j as u32);
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

/// `(a, b) == (c, d)` (or `!=`). Between tuples of the same length whose items are variables
/// or literals (`(i, j) != (0, 0)`), whose evaluation cannot fail, it is the `and` of the
/// items' `==` (the `or` of their `!=`): a chain of comparisons that blocks can compute
/// and affine guards can narrow.
fn tuple_cmp(op: BinaryOp, left: Vec<IntExpr>, right: Vec<IntExpr>) -> BoolExpr {
    let leaf = |e: &IntExpr| matches!(e, IntExpr::Lit(_) | IntExpr::Reg(_));
    if left.len() != right.len() || left.is_empty() || !left.iter().chain(&right).all(leaf) {
        return BoolExpr::TupleCmp(op, left, right);
    }
    let mut pairs = left
        .into_iter()
        .zip(right)
        .rev()
        .map(|(l, r)| BoolExpr::Cmp(op, l, r));
    let last = pairs.next().unwrap_or(BoolExpr::Lit(op == BinaryOp::Eq));
    pairs.fold(last, |rest, first| {
        if op == BinaryOp::Eq {
            BoolExpr::And(Box::new(first), Box::new(rest))
        } else {
            BoolExpr::Or(Box::new(first), Box::new(rest))
        }
    })
}
