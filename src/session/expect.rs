//! Checking `expect` lines: whether one holds, what a failed one evaluated to, and the
//! diagnostic that explains a failure (the false part, both sides, a counterexample, pictures).

use std::ops::ControlFlow;

use super::failure::Sides;
use super::{ExpectResult, FailedValues, Session};
use crate::diag::{Code, Diag, Span};
use crate::eval::value::Value;
use crate::lower::ir::{Body, Clause, Expr, ExprKind};
use crate::syntax::ast::{BinaryOp, Quantifier};

impl Session {
    /// Both sides of a failed comparison as a diagnostic shows them, if both evaluate.
    fn both_sides(&mut self, l: &Expr, r: &Expr, frame: &mut [Value]) -> Option<Sides> {
        let left = self.interp().eval(l, frame).ok()?;
        let right = self.interp().eval(r, frame).ok()?;
        let difference = self.first_difference(&left, &right);
        Some(Sides {
            left: self.show_short(&left),
            right: self.show_short(&right),
            difference,
        })
    }

    /// Checks one `expect`: it must evaluate to `true`. A failure reports what the expression
    /// evaluated to, both sides of a comparison, and a `forall`'s first counterexample.
    pub fn check_expect(&mut self, body: &Body) -> ExpectResult {
        let value = match self.eval_body(body) {
            Ok(v) => v,
            Err(d) => return ExpectResult::Failed(d),
        };
        match value {
            Value::Bool(true) => ExpectResult::Passed,
            Value::Bool(false) => ExpectResult::Failed(Box::new(self.explain_failure(body))),
            other => ExpectResult::Failed(Box::new(
                Diag::error(
                    Code::CheckNotBoolean,
                    "an expectation must be true or false",
                )
                .label(
                    body.expr.span,
                    format!("this is {}", self.show_short(&other)),
                )
                .help("write a comparison, e.g. `expect grundy(Nim(3)) == 3`"),
            )),
        }
    }

    /// What a failed expectation evaluated to, as cgl prints values, for reports that a
    /// machine reads (`cgl check --format json`). Like the diagnostic, it looks through `and`
    /// to the part that is false. Fields are `None` where evaluation fails (a failed expect
    /// may have failed by an error) or the expression has another shape.
    #[cold]
    pub fn failed_values(&mut self, body: &Body) -> FailedValues {
        let mut frame = vec![Value::None; body.frame_size];
        let mut values = FailedValues {
            value: self
                .interp()
                .eval(&body.expr, &mut frame)
                .ok()
                .map(|v| self.show_short(&v)),
            ..FailedValues::default()
        };
        let mut expr = &body.expr;
        while let ExprKind::Binary(BinaryOp::And, l, r) = &expr.kind {
            expr = match self.interp().eval(l, &mut frame) {
                Ok(Value::Bool(false)) => l,
                _ => r,
            };
        }
        if let ExprKind::Binary(op, l, r) = &expr.kind {
            if op.is_comparison() {
                values.operator = Some(op.symbol());
                let left = self.interp().eval(l, &mut frame);
                values.actual = match (*op, left) {
                    (BinaryOp::Is, Ok(position)) => {
                        let mut interp = self.interp();
                        interp
                            .outcome_of(&position, l.span)
                            .ok()
                            .map(|o| interp.show(&o))
                    }
                    (_, left) => left.ok().map(|v| self.show_short(&v)),
                };
                values.expected = self
                    .interp()
                    .eval(r, &mut frame)
                    .ok()
                    .map(|v| self.show_short(&v));
            }
        }
        values
    }

    #[cold]
    fn explain_failure(&mut self, body: &Body) -> Diag {
        let mut expr = &body.expr;
        let mut frame = vec![Value::None; body.frame_size];
        // In `a and b`, the part that is false is the one to explain.
        while let ExprKind::Binary(BinaryOp::And, l, r) = &expr.kind {
            expr = match self.interp().eval(l, &mut frame) {
                Ok(Value::Bool(false)) => l,
                _ => r,
            };
        }
        let mut diag = Diag::error(Code::CheckFailed, "expectation failed");
        match &expr.kind {
            ExprKind::Binary(BinaryOp::Is, l, r) => {
                let left = self.interp().eval(l, &mut frame);
                let outcome = left.as_ref().ok().map(|position| {
                    let mut interp = self.interp();
                    interp.outcome_of(position, l.span).map(|o| interp.show(&o))
                });
                let right = self
                    .interp()
                    .eval(r, &mut frame)
                    .map(|v| self.show_short(&v));
                match (left, outcome, right) {
                    (Ok(position), Some(Ok(outcome)), Ok(right)) => {
                        let shown = self.show_short(&position);
                        diag = diag
                            .label(l.span, format!("{shown} is {outcome}"))
                            .label(r.span, format!("not {right}"))
                            .note(format!("the outcome of {shown} is {outcome}, not {right}"));
                        diag = self.drawn_note(diag, &position, l.span, "the position");
                    }
                    _ => diag = diag.label(expr.span, "this is false"),
                }
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() => {
                if let Some(sides) = self.both_sides(l, r, &mut frame) {
                    let Sides {
                        left,
                        right,
                        difference,
                    } = sides;
                    diag = diag
                        .label(l.span, format!("this is {left}"))
                        .label(r.span, format!("this is {right}"))
                        .note(format!("`{}` is false for {left} and {right}", op.symbol()));
                    if let Some(difference) = difference {
                        diag = diag.note(difference);
                    }
                    for (side, what) in [(l, "the left side"), (r, "the right side")] {
                        if let Ok(value) = self.interp().eval(side, &mut frame) {
                            diag = self.drawn_note(diag, &value, side.span, what);
                        }
                    }
                } else {
                    diag = diag.label(expr.span, "this is false");
                }
            }
            ExprKind::Quantified(Quantifier::Forall, clauses, inner) => {
                let mut failed = false;
                let found = self
                    .interp()
                    .run_clauses(clauses, &mut frame, &mut |this, frame| {
                        let v = this.eval(inner, frame)?;
                        if v == Value::Bool(false) {
                            failed = true;
                            return Ok(ControlFlow::Break(()));
                        }
                        Ok(ControlFlow::Continue(()))
                    });
                let mut bindings = Vec::new();
                let mut bound = Vec::new();
                if found.is_ok() && failed {
                    for clause in clauses {
                        if let Clause::For(pattern, _) = clause {
                            pattern.binds(&mut |slot, span| {
                                let name = self.sources.snippet(span).to_string();
                                bindings.push(format!(
                                    "{name} = {}",
                                    self.show_short(&frame[slot as usize])
                                ));
                                bound.push((name, frame[slot as usize].clone(), span));
                            });
                        }
                    }
                }
                if bindings.is_empty() {
                    diag = diag.label(expr.span, "this is false");
                } else {
                    let counter = bindings.join(", ");
                    diag = diag
                        .label(inner.span, format!("false for {counter}"))
                        .note(format!("first counterexample: {counter}"));
                    for (name, value, span) in &bound {
                        diag = self.drawn_note(diag, value, *span, &format!("`{name}`"));
                    }
                    if let ExprKind::Binary(op, l, r) = &inner.kind {
                        if op.is_comparison() {
                            if let Some(sides) = self.both_sides(l, r, &mut frame) {
                                diag = diag.note(format!(
                                    "there `{}` is false for {} and {}",
                                    op.symbol(),
                                    sides.left,
                                    sides.right
                                ));
                                if let Some(difference) = sides.difference {
                                    diag = diag.note(difference);
                                }
                            }
                        }
                    }
                }
            }
            _ => diag = diag.label(expr.span, "this is false"),
        }
        diag.help("the expected fact does not hold: fix the expectation or the game")
    }

    /// A failed expectation's diagnostic with the picture of a position in it, when its game
    /// draws its positions (`what` names the value: "the left side", "`p`"). A `show` clause
    /// that fails here is said in the note, not raised: the expectation is what failed.
    #[cold]
    fn drawn_note(&mut self, diag: Diag, value: &Value, span: Span, what: &str) -> Diag {
        match self.picture(value, span) {
            Ok(Some(picture)) => diag.note(format!(
                "{what} drawn:\n{}",
                crate::eval::picture::indent(&picture, "  ")
            )),
            Ok(None) => diag,
            Err(d) => diag.note(format!(
                "{what} could not be drawn: {} ({})",
                d.message, d.code
            )),
        }
    }
}
