//! Lowering of expressions: names, operators, literals, comprehensions and calls, with the
//! static checks on each.

use std::collections::HashMap;

use super::{Global, Resolver, Target};
use crate::diag::{did_you_mean, Code, Diag, Span};
use crate::lower::builtins::{self, CONSTANT_NAMES};
use crate::lower::ir::{self, Clause, GameId};
use crate::syntax::ast::{self, BinaryOp, ExprKind, FieldName, UnaryOp};
use crate::value::Value;

/// The type an operator needs of a literal operand.
#[derive(Clone, Copy)]
enum LiteralType {
    Int,
    Bool,
}

impl<'a> Resolver<'a> {
    /// Lowers comprehension clauses, opening one scope per generator; the caller closes them
    /// with `pop_clause_scopes` after lowering the body.
    pub(super) fn clauses(&mut self, clauses: &[ast::CompClause]) -> Vec<Clause> {
        let mut out = Vec::new();
        // One name bound twice in the generators of one comprehension is a mistake, not
        // shadowing: the first binding could never be used.
        let mut seen = HashMap::new();
        for clause in clauses {
            match clause {
                ast::CompClause::For(gens) => {
                    for (pattern, source) in gens {
                        let source = self.expr(source);
                        self.push_scope();
                        let pattern = self.pattern(pattern, &mut seen);
                        out.push(Clause::For(pattern, source));
                    }
                }
                ast::CompClause::If(cond) => out.push(Clause::If(self.expr(cond))),
            }
        }
        out
    }

    pub(super) fn pop_clause_scopes(&mut self, clauses: &[ast::CompClause]) {
        for clause in clauses {
            if let ast::CompClause::For(gens) = clause {
                for _ in gens {
                    self.pop_scope();
                }
            }
        }
    }

    /// Lowers a comprehension (`span`, where its variables can be seen).
    fn comprehension(
        &mut self,
        body: &ast::Expr,
        clauses: &[ast::CompClause],
        span: Span,
    ) -> (ir::Expr, Vec<Clause>) {
        let (extent, binding) = (self.extent, self.binding);
        (self.extent, self.binding) = (span, super::BoundKind::Variable);
        let lowered_clauses = self.clauses(clauses);
        (self.extent, self.binding) = (extent, binding);
        let body = self.expr(body);
        self.pop_clause_scopes(clauses);
        (body, lowered_clauses)
    }

    fn unknown_name(&mut self, name: &str, span: Span) -> ir::Expr {
        let mut candidates: Vec<&str> = self.globals.keys().map(String::as_str).collect();
        candidates.extend(self.scopes.iter().flatten().map(|(n, ..)| n.as_str()));
        candidates.extend(builtins::BUILTINS.iter().map(|(n, ..)| *n));
        candidates.extend(CONSTANT_NAMES);
        candidates.sort_unstable();
        let mut diag = Diag::error(Code::ResolveUnknownName, format!("unknown name `{name}`"))
            .label(span, "not defined");
        diag = match did_you_mean(name, candidates) {
            Some(s) => diag.help(format!("did you mean `{s}`?")),
            None => {
                diag.help("define it with `game`, `fn` or `const`, or import the file that does")
            }
        };
        self.errors.push(diag);
        ir::Expr {
            kind: ir::ExprKind::Lit(Value::None),
            span,
        }
    }

    fn arity_error(&mut self, what: &str, expected: (usize, usize), got: usize, span: Span) {
        let expected_text = match expected {
            (lo, hi) if lo == hi => format!("{lo}"),
            (lo, usize::MAX) => format!("at least {lo}"),
            (lo, hi) => format!("{lo} to {hi}"),
        };
        let plural = if expected == (1, 1) { "" } else { "s" };
        self.errors.push(
            Diag::error(
                Code::ResolveArity,
                format!(
                    "{what} takes {expected_text} argument{plural}, but {got} {} given",
                    if got == 1 { "was" } else { "were" }
                ),
            )
            .label(
                span,
                format!("{got} argument{}", if got == 1 { "" } else { "s" }),
            )
            .help(format!("call it with {expected_text} argument{plural}")),
        );
    }

    fn exprs(&mut self, exprs: &[ast::Expr]) -> Vec<ir::Expr> {
        exprs.iter().map(|e| self.expr(e)).collect()
    }

    pub(super) fn expr(&mut self, expr: &ast::Expr) -> ir::Expr {
        use ir::ExprKind as K;
        let span = expr.span;
        let kind = match &expr.kind {
            ExprKind::Int(n) => K::Lit(Value::Int(*n)),
            ExprKind::Str(s) => K::Lit(Value::Str(s.as_str().into())),
            ExprKind::Bool(b) => K::Lit(Value::Bool(*b)),
            ExprKind::None => K::Lit(Value::None),
            ExprKind::Name(name) => {
                if let Some((slot, bound)) = self.lookup_local(name) {
                    self.refer(span, Target::Local(bound));
                    K::Local(slot)
                } else if let Some(&global) = self.globals.get(name) {
                    self.refer(span, Target::Global(global));
                    if builtins::SOFT_CONSTANTS.contains(&name.as_str()) {
                        self.hidden_uses.push((name.clone(), span));
                    }
                    match &global {
                        Global::Game(id) => K::Game(*id),
                        Global::Const(id) => K::Const(*id),
                        Global::Fn(_) => {
                            self.errors.push(
                                Diag::error(
                                    Code::ResolveFnValue,
                                    format!("`{name}` is a function and must be called"),
                                )
                                .label(span, "used as a value")
                                .help(format!("call it: `{name}(...)`")),
                            );
                            K::Lit(Value::None)
                        }
                    }
                } else if let Some(v) = builtins::constant(name) {
                    if let Some(known) = builtins::known_name(name) {
                        self.refer(span, Target::Builtin(known));
                    }
                    K::Lit(v)
                } else if builtins::lookup(name).is_some() {
                    self.errors.push(
                        Diag::error(
                            Code::ResolveFnValue,
                            format!("`{name}` is a built-in function and must be called"),
                        )
                        .label(span, "used as a value")
                        .help(format!("call it: `{name}(...)`")),
                    );
                    K::Lit(Value::None)
                } else {
                    return self.unknown_name(name, span);
                }
            }
            ExprKind::Unary(op, e) => {
                match op {
                    UnaryOp::Neg => self.check_literal(e, LiteralType::Int, "`-`"),
                    UnaryOp::Not => self.check_literal(e, LiteralType::Bool, "`not`"),
                    UnaryOp::Switch => self.check_literal(e, LiteralType::Int, "`+-`"),
                }
                K::Unary(*op, Box::new(self.expr(e)))
            }
            ExprKind::Binary(op, l, r) => {
                let wants = match op {
                    BinaryOp::And | BinaryOp::Or => Some(LiteralType::Bool),
                    BinaryOp::Sub
                    | BinaryOp::Mul
                    | BinaryOp::Div
                    | BinaryOp::FloorDiv
                    | BinaryOp::Rem
                    | BinaryOp::Pow
                    | BinaryOp::Xor
                    | BinaryOp::Range
                    | BinaryOp::RangeIncl => Some(LiteralType::Int),
                    _ => None,
                };
                if let Some(wants) = wants {
                    let what = format!("`{}`", op.symbol());
                    self.check_literal(l, wants, &what);
                    self.check_literal(r, wants, &what);
                }
                K::Binary(*op, Box::new(self.expr(l)), Box::new(self.expr(r)))
            }
            ExprKind::If(c, t, e) => K::If(
                Box::new(self.expr(c)),
                Box::new(self.expr(t)),
                Box::new(self.expr(e)),
            ),
            // A tuple or list of literals is a literal: built once, not at every evaluation.
            ExprKind::Tuple(items) => match literals(self.exprs(items)) {
                Ok(values) => K::Lit(Value::tuple(values)),
                Err(items) => K::Tuple(items),
            },
            ExprKind::List(items) => match literals(self.exprs(items)) {
                Ok(values) => K::Lit(Value::list(values)),
                Err(items) => K::List(items),
            },
            ExprKind::Set(items) => K::Set(self.exprs(items)),
            ExprKind::GameLit(left, right) => K::GameLit(self.exprs(left), self.exprs(right)),
            ExprKind::Star(None) => K::Nimber(Box::new(ir::Expr {
                kind: K::Lit(Value::Int(1)),
                span,
            })),
            ExprKind::Star(Some(n)) => K::Nimber(Box::new(self.expr(n))),
            ExprKind::Ups(text) => K::Notation(text.clone()),
            ExprKind::Repeat(v, n) => K::Repeat(Box::new(self.expr(v)), Box::new(self.expr(n))),
            ExprKind::ListComp(body, clauses) => {
                let (body, clauses) = self.comprehension(body, clauses, span);
                K::ListComp(Box::new(body), clauses)
            }
            ExprKind::SetComp(body, clauses) => {
                let (body, clauses) = self.comprehension(body, clauses, span);
                K::SetComp(Box::new(body), clauses)
            }
            ExprKind::Quantified(q, clauses, body) => {
                let (body, clauses) = self.comprehension(body, clauses, span);
                K::Quantified(*q, clauses, Box::new(body))
            }
            ExprKind::Call(callee, args) => {
                let args = self.exprs(args);
                self.call(callee, args, span)
            }
            ExprKind::CallGen(callee, body, clauses) => {
                let (body, clauses) = self.comprehension(body, clauses, span);
                let list = ir::Expr {
                    kind: K::ListComp(Box::new(body), clauses),
                    span,
                };
                self.call(callee, vec![list], span)
            }
            ExprKind::Bracket(base, args) => {
                let base_ir = self.expr(base);
                self.not_a_constant_use(base);
                if let ir::ExprKind::Game(id) = base_ir.kind {
                    self.check_variant(id, args);
                }
                let args = args
                    .iter()
                    .map(|a| (a.name.as_ref().map(|n| n.name.clone()), self.expr(&a.value)))
                    .collect();
                K::Bracket(Box::new(base_ir), args)
            }
            ExprKind::Field(base, field, _) => {
                let base_ir = Box::new(self.expr(base));
                self.not_a_constant_use(base);
                let base = base_ir;
                match field {
                    FieldName::Index(i) => K::TupleField(base, *i),
                    FieldName::Name(n) => K::NamedField(base, n.clone()),
                }
            }
        };
        ir::Expr { kind, span }
    }

    /// `base(...)`, `base[...]` and `base.field` of a name cannot mean a built-in constant
    /// (none is called, has variants or fields), so such a use of a name that hides one is
    /// no cause to warn.
    fn not_a_constant_use(&mut self, base: &ast::Expr) {
        if matches!(base.kind, ExprKind::Name(_))
            && self
                .hidden_uses
                .last()
                .is_some_and(|(_, s)| *s == base.span)
        {
            self.hidden_uses.pop();
        }
    }

    /// Reports an operand that is a literal of the wrong type: an obvious type error, caught
    /// before anything runs.
    fn check_literal(&mut self, operand: &ast::Expr, wants: LiteralType, what: &str) {
        let found = match &operand.kind {
            ExprKind::Int(_) => "an integer",
            ExprKind::Str(_) => "a string",
            ExprKind::Bool(_) => "a boolean",
            ExprKind::None => "`none`",
            _ => return,
        };
        let ok = match wants {
            LiteralType::Int => matches!(operand.kind, ExprKind::Int(_)),
            LiteralType::Bool => matches!(operand.kind, ExprKind::Bool(_)),
        };
        if !ok {
            let (needs, help) = match wants {
                LiteralType::Int => ("integers", "use an integer here"),
                LiteralType::Bool => ("booleans", "use a comparison or `true`/`false` here"),
            };
            self.errors.push(
                Diag::error(
                    Code::ResolveType,
                    format!("{what} needs {needs}, but this is {found}"),
                )
                .label(operand.span, found)
                .help(help),
            );
        }
    }

    fn check_variant(&mut self, id: GameId, args: &[ast::BracketArg]) {
        let Some(sig) = self.sigs.get(&id) else {
            return;
        };
        let mut positional = 0;
        for arg in args {
            match &arg.name {
                Some(name) => {
                    if !sig.params.contains(&name.name) {
                        let mut d = Diag::error(
                            Code::ResolveUnknownParam,
                            format!("game `{}` has no parameter `{}`", sig.name, name.name),
                        )
                        .label(name.span, "unknown parameter");
                        d = match did_you_mean(&name.name, sig.params.iter().map(String::as_str)) {
                            Some(s) => d.help(format!("did you mean `{s}`?")),
                            None if sig.params.is_empty() => {
                                d.help(format!("`{}` has no parameters", sig.name))
                            }
                            None => {
                                d.help(format!("its parameters are: {}", sig.params.join(", ")))
                            }
                        };
                        self.errors.push(d);
                    }
                }
                None => positional += 1,
            }
        }
        if positional > sig.params.len() {
            self.arity_error(
                &format!("the variant `{}[...]`", sig.name),
                (0, sig.params.len()),
                positional,
                args.last()
                    .map_or(Span::new(crate::diag::FileId(0), 0, 0), |a| a.value.span),
            );
        }
    }

    fn call(&mut self, callee: &ast::Expr, args: Vec<ir::Expr>, span: Span) -> ir::ExprKind {
        use ir::ExprKind as K;
        if let ExprKind::Name(name) = &callee.kind {
            if self.lookup_local(name).is_none() {
                match self.globals.get(name) {
                    Some(&Global::Fn(id)) => {
                        self.refer(callee.span, Target::Global(Global::Fn(id)));
                        let arity = self.fn_arities.get(&id).copied().unwrap_or(0);
                        if arity != args.len() {
                            self.arity_error(
                                &format!("function `{name}`"),
                                (arity, arity),
                                args.len(),
                                span,
                            );
                        }
                        return K::CallFn(id, args);
                    }
                    Some(Global::Game(id)) => {
                        if let Some(sig) = self.sigs.get(id) {
                            let (lo, hi) = sig.arity;
                            if sig.strategic {
                                self.errors.push(
                                    Diag::error(Code::ResolveStrategic, format!("`{name}` is a strategic game: it has no positions"))
                                        .label(span, "called like a game of moves")
                                        .help(format!("analyse the game itself, e.g. `pure_nash({name})` or `nash({name})`")),
                                );
                            } else if args.len() < lo || args.len() > hi {
                                self.arity_error(
                                    &format!("a position of `{name}`"),
                                    (lo, hi),
                                    args.len(),
                                    span,
                                );
                            }
                        }
                        let callee_ir = self.expr(callee);
                        // A call cannot mean a constant: none is callable.
                        self.not_a_constant_use(callee);
                        return K::CallValue(Box::new(callee_ir), args);
                    }
                    Some(Global::Const(_)) => {}
                    None => {
                        if let Some((builtin, lo, hi)) = builtins::lookup(name) {
                            if let Some(known) = builtins::known_name(name) {
                                self.refer(callee.span, Target::Builtin(known));
                            }
                            if args.len() < lo || args.len() > hi {
                                self.arity_error(&format!("`{name}`"), (lo, hi), args.len(), span);
                            }
                            return K::CallBuiltin(builtin, args);
                        }
                        if builtins::constant(name).is_none() {
                            let mut candidates: Vec<&str> =
                                self.globals.keys().map(String::as_str).collect();
                            candidates.extend(builtins::BUILTINS.iter().map(|(n, ..)| *n));
                            candidates.sort_unstable();
                            let mut d = Diag::error(
                                Code::ResolveUnknownName,
                                format!("unknown function or game `{name}`"),
                            )
                            .label(callee.span, "not defined");
                            d = match (
                                builtins::written_elsewhere(name),
                                did_you_mean(name, candidates),
                            ) {
                                (Some(help), _) => d.help(help),
                                (None, Some(s)) => d.help(format!("did you mean `{s}`?")),
                                (None, None) => d.help(
                                    "define it with `game` or `fn`, or import the file that does",
                                ),
                            };
                            self.errors.push(d);
                            return K::Lit(Value::None);
                        }
                    }
                }
            }
        }
        let callee_ir = self.expr(callee);
        // A call cannot mean a constant: none is callable.
        self.not_a_constant_use(callee);
        K::CallValue(Box::new(callee_ir), args)
    }
}

/// The values of expressions that are all literals, or the expressions as they were.
fn literals(items: Vec<ir::Expr>) -> Result<Vec<Value>, Vec<ir::Expr>> {
    if !items.iter().all(|e| matches!(e.kind, ir::ExprKind::Lit(_))) {
        return Err(items);
    }
    Ok(items
        .into_iter()
        .filter_map(|e| match e.kind {
            ir::ExprKind::Lit(v) => Some(v),
            _ => None,
        })
        .collect())
}
