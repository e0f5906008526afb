//! Keys for `cgl grade`: a teacher's `.game` file whose expectations are exercises with
//! points (`expect 3 points hide "hint": ...`), read on their own ([`Session::key_exercises`])
//! and loaded over a student's submission ([`Session::load_key`]), so that each exercise is
//! evaluated with the submission's definitions.

use std::ops::ControlFlow;

use super::{LoadedFile, Session};
use crate::diag::{Diag, Span};
use crate::eval::value::Value;
use crate::eval::ConstState;
use crate::lower::ir::{Body, Clause, ExprKind, Statement};
use crate::lower::lower_file;
use crate::syntax::ast::{BinaryOp, Grade, Item, Quantifier};
use crate::syntax::parse_file_checked;

/// One exercise of a key: an expectation and what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    /// The expectation's expression as written (for a hidden one, not to be shown to a
    /// student).
    pub text: String,
    /// Its line in the key.
    pub line: usize,
    /// Its points, hide marker and feedback; an `expect` written without points is worth 1.
    pub grade: Grade,
}

/// What an `expect` written without points is worth in a key.
const PLAIN_POINTS: u32 = 1;

impl Session {
    /// The exercises of the key `text` (named `name` in diagnostics), in order: every
    /// `expect` of it. A key that does not parse, or has no expectation, is refused.
    pub fn key_exercises(&mut self, name: &str, text: &str) -> Result<Vec<Exercise>, Vec<Diag>> {
        let file = self.add_source(name, text);
        let stop = self.stop.clone();
        let parsed = parse_file_checked(file, text, &mut || stop.check()).map_err(|d| vec![*d])?;
        let mut exercises = Vec::new();
        for item in &parsed.items {
            if let Item::Expect { expr, grade, span } = item {
                let line = text[..span.start as usize].matches('\n').count() + 1;
                exercises.push(Exercise {
                    text: self.sources.snippet(expr.span).to_string(),
                    line,
                    grade: grade.clone().unwrap_or(Grade {
                        points: PLAIN_POINTS,
                        ..Grade::default()
                    }),
                });
            }
        }
        if exercises.is_empty() {
            return Err(vec![Diag::error(
                crate::diag::Code::CheckEmptyFile,
                format!("the key {name} has no exercises"),
            )
            .help(
                "a key's exercises are its expectations: `expect 3 points: grundy(G(7)) == 2`",
            )]);
        }
        Ok(exercises)
    }

    /// Whether `text` is a key, with an `expect` (or does not parse, and so is a key whose
    /// diagnostics a teacher must see), not a solution or definitions a key imports.
    pub fn is_key(&mut self, name: &str, text: &str) -> bool {
        let file = self.add_source(name, text);
        let stop = self.stop.clone();
        parse_file_checked(file, text, &mut || stop.check()).map_or(true, |parsed| {
            parsed
                .items
                .iter()
                .any(|item| matches!(item, Item::Expect { .. }))
        })
    }

    /// Loads the key `text` (named `name`) over the loaded file `submission`: the key's own
    /// imports (the teacher's solution, which lets `cgl check` check the key) are not read,
    /// the submission's definitions take their place. Each expectation of the key is loaded
    /// as a file of its own, with the key's own definitions, so that one that names what the
    /// submission lacks fails alone: for each, the loaded file (one `expect` statement) or
    /// why it does not resolve. Each file's text is the key's with the other expectations
    /// (and the imports and prints) blanked out, lines kept: a diagnostic quotes the lines
    /// around its place, and must not quote another exercise's answer. The outer error: the
    /// key does not parse.
    pub fn load_key(
        &mut self,
        name: &str,
        text: &str,
        submission: usize,
    ) -> Result<Vec<Result<usize, Vec<Diag>>>, Vec<Diag>> {
        let whole = self.add_source(name, text);
        let stop = self.stop.clone();
        let parsed = parse_file_checked(whole, text, &mut || stop.check()).map_err(|d| vec![*d])?;
        let mut cuts = Vec::new();
        let mut expects = Vec::new();
        for item in &parsed.items {
            match item {
                Item::Import { span, .. } | Item::Print { span, .. } => cuts.push(*span),
                Item::Expect { span, .. } => expects.push(*span),
                _ => {}
            }
        }
        let mut exercises = Vec::new();
        for (k, _) in expects.iter().enumerate() {
            if let Err(d) = self.stop.check() {
                exercises.push(Err(vec![*d]));
                continue;
            }
            let blanked = expects
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, s)| *s)
                .chain(cuts.iter().copied());
            let own = blank_out(text, blanked);
            let file = self.add_source(name, own.as_str());
            let stop = self.stop.clone();
            let one = match parse_file_checked(file, &own, &mut || stop.check()) {
                Ok(one) => one,
                Err(d) => {
                    exercises.push(Err(vec![*d]));
                    continue;
                }
            };
            let here = Span {
                file,
                start: 0,
                end: 0,
            };
            let imports = [(&self.files[submission].lowered.exports, here)];
            let stop = self.stop.clone();
            let lowered = lower_file(&mut self.program, &one, &imports, &mut || stop.check());
            // What lowering added to the program, even when it then failed.
            self.compiled.extend(&self.program);
            self.consts
                .resize(self.program.consts.len(), ConstState::Pending);
            exercises.push(lowered.map(|lowered| {
                self.files.push(LoadedFile { file, lowered });
                self.files.len() - 1
            }));
        }
        Ok(exercises)
    }
}

/// `text` with each span's characters but its line breaks turned to spaces, so that every
/// other place keeps its line, column and offset.
fn blank_out(text: &str, spans: impl Iterator<Item = Span>) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for span in spans {
        for b in &mut bytes[span.start as usize..span.end as usize] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only whole items are blanked, so no character is cut in two; and a space is ASCII.
    String::from_utf8(bytes).unwrap_or_default()
}

/// What one exercise gave for a submission.
#[derive(Debug)]
pub enum Marked {
    /// It held: the points are earned.
    Passed,
    /// It did not hold, or failed by an error: the diagnostic (which shows the key's
    /// expected value: not for a student when the exercise hides it), and what may be shown
    /// of it when it does (the first counterexample, the submission's side).
    Failed {
        /// Why, in full.
        diag: Box<Diag>,
        /// What a hidden exercise may say: nothing of the key's side.
        shown: Vec<String>,
    },
    /// The key's exercise names what the submission does not define (or it does not
    /// resolve against it).
    Unanswered(Vec<Diag>),
    /// Not evaluated: the submission ran out of time before it.
    Skipped,
}

impl Session {
    /// Grades the loaded file `submission` against the key `text` (named `name`): each of
    /// the key's exercises with what it gave, in order. The error: the key does not parse.
    pub fn grade(
        &mut self,
        name: &str,
        text: &str,
        submission: usize,
    ) -> Result<Vec<(Exercise, Marked)>, Vec<Diag>> {
        let exercises = self.key_exercises(name, text)?;
        let loaded = self.load_key(name, text, submission)?;
        let mut out = Vec::with_capacity(exercises.len());
        let mut out_of_time = false;
        for (exercise, file) in exercises.into_iter().zip(loaded) {
            let marked = match file {
                _ if out_of_time => Marked::Skipped,
                Err(diags) => Marked::Unanswered(diags),
                Ok(index) => self.mark(index),
            };
            if let Marked::Failed { diag, .. } = &marked {
                out_of_time =
                    diag.code == crate::eval::TIMEOUT || diag.code == crate::eval::INTERRUPTED;
            }
            out.push((exercise, marked));
        }
        Ok(out)
    }

    /// Runs the one expectation of a loaded exercise.
    fn mark(&mut self, index: usize) -> Marked {
        let Some(Statement::Expect(body, _)) = self.statements(index).into_iter().next() else {
            return Marked::Failed {
                diag: Box::new(Diag::internal("an exercise without its expectation")),
                shown: Vec::new(),
            };
        };
        match self.check_expect(&body) {
            super::ExpectResult::Passed => Marked::Passed,
            super::ExpectResult::Failed(diag) => {
                let shown = if diag.code == crate::diag::Code::CheckFailed {
                    self.hidden_feedback(&body)
                } else {
                    // An error (a limit, a wrong type): its message names no expected value.
                    vec![diag.message.clone()]
                };
                Marked::Failed { diag, shown }
            }
        }
    }

    /// What a failed exercise may tell a student when it hides the key's side: through
    /// `and` to the false part; for a `forall`, its first counterexample; for a comparison
    /// `a == b` (or `p is O`), the value of `a` (the outcome of `p`), written as the
    /// submission's, never `b`. A key puts the question on the left and the answer on the
    /// right.
    fn hidden_feedback(&mut self, body: &Body) -> Vec<String> {
        let mut frame = vec![Value::None; body.frame_size];
        let mut expr = &body.expr;
        while let ExprKind::Binary(BinaryOp::And, l, r) = &expr.kind {
            expr = match self.interp().eval(l, &mut frame) {
                Ok(Value::Bool(false)) => l,
                _ => r,
            };
        }
        let mut out = Vec::new();
        if let ExprKind::Quantified(Quantifier::Forall, clauses, inner) = &expr.kind {
            let mut failed = false;
            let found = self
                .interp()
                .run_clauses(clauses, &mut frame, &mut |this, frame| {
                    if this.eval(inner, frame)? == Value::Bool(false) {
                        failed = true;
                        return Ok(ControlFlow::Break(()));
                    }
                    Ok(ControlFlow::Continue(()))
                });
            if found.is_err() || !failed {
                return out;
            }
            let mut bound = Vec::new();
            for clause in clauses {
                if let Clause::For(pattern, _) = clause {
                    pattern.binds(&mut |slot, span| {
                        let name = self.sources.snippet(span).to_string();
                        bound.push(format!(
                            "{name} = {}",
                            self.show_short(&frame[slot as usize])
                        ));
                    });
                }
            }
            out.push(format!("it is false for {}", bound.join(", ")));
            expr = inner;
        }
        if let ExprKind::Binary(op, l, _) = &expr.kind {
            let question = self.sources.snippet(l.span).to_string();
            let left = self.interp().eval(l, &mut frame);
            match (*op, left) {
                (BinaryOp::Is, Ok(position)) => {
                    let mut interp = self.interp();
                    if let Ok(o) = interp.outcome_of(&position, l.span) {
                        let o = interp.show(&o);
                        out.push(format!("there your {} is {o}", self.show_short(&position)));
                    }
                }
                (op, Ok(value)) if op.is_comparison() => {
                    out.push(format!(
                        "there your `{question}` is {}",
                        self.show_short(&value)
                    ));
                }
                _ => {}
            }
        }
        out
    }
}
