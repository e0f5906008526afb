//! Expressions: operators, comprehensions, constants, compounds, indexing and slices.

// The interpreter's types, helpers and imports (`mod.rs`): these files are parts of one
// `impl Interp`, split by job.
use super::*;

impl<'a> Interp<'a> {
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
            ExprKind::Game(id) => {
                let inst = self.default_instance(*id)?;
                Value::Game(self.world.games.instance(inst))
            }
            ExprKind::Unary(op, e) => {
                let v = self.eval(e, frame)?;
                match (op, &v) {
                    (UnaryOp::Neg, Value::Rational(_) | Value::Wide(_)) => {
                        fraction_op(&v, &v, |x, _| x.checked_neg(), |x, _| -x, span)?
                    }
                    (UnaryOp::Neg, Value::Form(_)) => values::neg(self.world.stop, &v, span)?,
                    (UnaryOp::Neg, _) => Value::Int(
                        arith::neg(int(&v, e.span, "`-`")?)
                            .map_err(|e| arith_error(e, span, span))?,
                    ),
                    (UnaryOp::Not, _) => Value::Bool(!boolean(&v, e.span, "`not`")?),
                    (UnaryOp::Switch, _) => values::switch(self.world.stop, &v, e.span)?,
                }
            }
            ExprKind::GameLit(left, right) => {
                let mut sides = [Vec::new(), Vec::new()];
                for (side, exprs) in sides.iter_mut().zip([left, right]) {
                    for x in exprs {
                        side.push((self.eval(x, frame)?, x.span));
                    }
                }
                values::game(self.world.stop, &sides[0], &sides[1], span)?
            }
            ExprKind::Nimber(n) => {
                let k = self.eval(n, frame)?;
                values::nimber(self.world.stop, &k, n.span)?
            }
            ExprKind::Notation(text) => values::notation(self.world.stop, text, span)?,
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
                // Building a long list is work the deadline sees, a block at a time.
                let count = count as usize;
                if count >= super::LARGE_VALUE {
                    self.fits_in_memory(count.saturating_mul(super::ITEM_BYTES), n.span, "list")?;
                }
                let mut items = Vec::with_capacity(count.min(super::LARGE_VALUE));
                while items.len() < count {
                    let block = (count - items.len()).min(super::LARGE_VALUE);
                    items.extend(std::iter::repeat_n(&value, block).cloned());
                    self.world.stop.check()?;
                }
                Value::list(items)
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
                    Value::Game(ref inst) => self.make_position(inst.id(), args, span)?,
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
                    (Value::Game(inst), "start") => self.start_position(inst.id(), span)?,
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

    pub(super) fn eval_all(
        &mut self,
        exprs: &[Expr],
        frame: &mut [Value],
    ) -> DiagResult<Vec<Value>> {
        exprs.iter().map(|e| self.eval(e, frame)).collect()
    }

    pub(super) fn comprehension(
        &mut self,
        body: &Expr,
        clauses: &[Clause],
        frame: &mut [Value],
    ) -> DiagResult<Vec<Value>> {
        let mut out = Vec::new();
        let limit = self.world.limits.max_collection as usize;
        let _complete = self.for_each(clauses, frame, &mut |this, frame| {
            let item = this.eval(body, frame)?;
            // Before the buffer doubles, the doubled list must fit the memory budget.
            if out.len() == out.capacity() && out.len() >= super::LARGE_VALUE {
                let bytes = out.len().saturating_mul(2 * super::ITEM_BYTES);
                this.fits_in_memory(bytes, body.span, "comprehension")?;
            }
            out.push(item);
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

    pub(super) fn constant(&mut self, id: ConstId, span: Span) -> DiagResult<Value> {
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

    pub(super) fn binary(
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
                .help(
                    if matches!(op, BinaryOp::FloorDiv | BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr)
                        && [&a, &b].iter().any(|v| matches!(v, Value::Rational(_) | Value::Wide(_)))
                    {
                        format!(
                            "`{}` needs integers; `/` is exact division; write `a div b` for floor division",
                            op.symbol()
                        )
                    } else {
                        format!(
                            "`{}` needs two values of fitting types (see spec/language.md §6)",
                            op.symbol()
                        )
                    },
                ),
            )
        };
        Ok(match op {
            BinaryOp::Eq => Value::Bool(a == b),
            BinaryOp::Ne => Value::Bool(a != b),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
                if values::is_game_value(&a)
                    && values::is_game_value(&b)
                    && (matches!(a, Value::Form(_)) || matches!(b, Value::Form(_))) =>
            {
                // The game order, partial: a confused pair is neither `<=` nor `>=`.
                use crate::cgt::Relation;
                let rel = values::relation(
                    self.world.stop,
                    &a,
                    &b,
                    ls,
                    rs,
                    &format!("`{}`", op.symbol()),
                )?;
                Value::Bool(match op {
                    BinaryOp::Lt => rel == Relation::Less,
                    BinaryOp::Le => matches!(rel, Relation::Less | Relation::Equal),
                    BinaryOp::Gt => rel == Relation::Greater,
                    _ => matches!(rel, Relation::Greater | Relation::Equal),
                })
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                let comparable = values::is_number(&a) && values::is_number(&b)
                    || matches!(
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
                _ if values::is_number(&a) && values::is_number(&b) => {
                    fraction_op(&a, &b, Rational::checked_add, |x, y| x + y, span)?
                }
                _ if values::is_game_value(&a) && values::is_game_value(&b) => {
                    values::add(self.world.stop, &a, &b, ls, rs, span)?
                }
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
                _ if values::is_number(&a) && values::is_number(&b) => {
                    fraction_op(&a, &b, Rational::checked_sub, |x, y| x - y, span)?
                }
                _ if values::is_game_value(&a) && values::is_game_value(&b) => {
                    values::sub(self.world.stop, &a, &b, ls, rs, span)?
                }
                (Value::Set(x), Value::Set(y)) => {
                    Value::Set(Rc::new(x.difference(y).cloned().collect()))
                }
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::Mul => match (&a, &b) {
                (Int(x), Int(y)) => Int(arith::mul(*x, *y).map_err(|e| arith_error(e, span, rs))?),
                _ if values::is_number(&a) && values::is_number(&b) => {
                    fraction_op(&a, &b, Rational::checked_mul, |x, y| x * y, span)?
                }
                // `n * g`: n copies of a game value.
                (Int(n), Value::Form(_)) => values::times(self.world.stop, *n, &b, rs, span)?,
                (Value::Form(_), Int(n)) => values::times(self.world.stop, *n, &a, ls, span)?,
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::Div => match (&a, &b) {
                _ if values::is_number(&a) && values::is_number(&b) => {
                    if b == Int(0) {
                        return Err(arith_error(ArithError::DivisionByZero, span, rs));
                    }
                    fraction_op(&a, &b, Rational::checked_div, |x, y| x / y, span)?
                }
                _ => return Err(mismatch(self, &a, &b)),
            },
            BinaryOp::FloorDiv | BinaryOp::Rem => {
                let (Int(x), Int(y)) = (&a, &b) else {
                    return Err(mismatch(self, &a, &b));
                };
                let result = if op == BinaryOp::FloorDiv {
                    arith::div(*x, *y)
                } else {
                    arith::rem(*x, *y)
                };
                Int(result.map_err(|e| arith_error(e, span, rs))?)
            }
            BinaryOp::Xor => Int(int(&a, ls, "`^`")? ^ int(&b, rs, "`^`")?),
            BinaryOp::Pow if matches!(a, Value::Rational(_) | Value::Wide(_)) => {
                let exp = int(&b, rs, "`**`")?;
                rational_pow(&a, exp, span, rs)?
            }
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

    pub(super) fn compound(
        &mut self,
        kind: CompoundKind,
        a: &Value,
        b: &Value,
        span: Span,
    ) -> DiagResult<Value> {
        let (Value::Pos(x), Value::Pos(y)) = (a, b) else {
            return Err(Box::new(Diag::internal("compound of non-positions")));
        };
        let Some(convention) = joint_convention(&[x, y]) else {
            return Err(Box::new(
                Diag::error(
                    Code::EvalMixedConvention,
                    "cannot combine a misère position with a normal-play one",
                )
                .label(span, format!("{} and {}", self.show(a), self.show(b)))
                .help("misère play applies to a whole game: write `misere(x + y)`"),
            ));
        };
        // Parts of the same kind are flattened into the new compound: `p + p` doubles.
        let parts = |t: &PosTerm| match t {
            PosTerm::Compound(k, parts) if *k == kind => parts.len(),
            _ => 1,
        };
        self.sized(parts(&x.term) + parts(&y.term), span, "compound")?;
        let term = self.compound_term(kind, vec![x.term.clone(), y.term.clone()], span)?;
        Ok(Value::pos(term, convention))
    }

    /// The canonical form of the compound of `parts`. With a graph, the parts go to it as
    /// they are, so that it drops those that are over before a compound of one part becomes
    /// that part: `Nim(0) + split()` is `split()`, as `Nim(0) + Nim(0)` is, and
    /// `Nim(0) + Nim(0) + Nim(0)` equals `split(Nim(0), Nim(0), Nim(0))` (reduced here
    /// first, `Nim(0) + split()` was `Nim(0)`).
    pub(super) fn compound_term(
        &mut self,
        kind: CompoundKind,
        parts: Vec<PosTerm>,
        span: Span,
    ) -> DiagResult<PosTerm> {
        if self.host.is_none() {
            return Ok(PosTerm::compound(kind, parts));
        }
        self.canonical(PosTerm::Compound(kind, Rc::from(parts)), span)
    }

    /// The canonical form of a compound written by the user: the form the graph keeps, in
    /// which parts that are over are dropped, so `Kayles(0) + Kayles(3) == Kayles(3)`. Inside
    /// game rules (no graph) the term is left as built; the graph canonicalises it anyway.
    pub(super) fn canonical(&mut self, term: PosTerm, span: Span) -> DiagResult<PosTerm> {
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

    pub(super) fn bracket(
        &mut self,
        base: Value,
        args: Vec<(Option<String>, Value, Span)>,
        span: Span,
    ) -> DiagResult<Value> {
        if let Value::Game(inst) = &base {
            let inst = inst.id();
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
            // A string's items are its characters (Unicode scalar values), as for `len`.
            Value::Str(text) => {
                return usize::try_from(i)
                    .ok()
                    .and_then(|i| text.chars().nth(i))
                    .map(|c| Value::Str(c.to_string().into()))
                    .ok_or_else(|| {
                        Box::new(
                            Diag::error(Code::EvalIndex, format!("index {i} is out of range"))
                                .label(
                                    *ispan,
                                    format!("the string has {} characters", text.chars().count()),
                                )
                                .help("indices run from 0 to len - 1"),
                        )
                    })
            }
            other => {
                return Err(type_error(
                    span,
                    format!("{} cannot be indexed", other.a_type_name()),
                    "index lists, tuples and strings",
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
    pub(super) fn slice(&self, base: &Value, lo: i64, hi: i64, span: Span) -> DiagResult<Value> {
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
}
