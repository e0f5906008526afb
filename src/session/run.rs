//! The statement driver: a loaded file's `print`s and `expect`s run in order, each outcome
//! handed to the caller. `cgl check`, `cgl run` and the REPL all run statements through it,
//! and only present what it hands them.

use super::{ExpectResult, FailedValues, Session};
use crate::diag::{Code, Diag, Span};
use crate::eval::value::Value;
use crate::eval::{INTERRUPTED, TIMEOUT};
use crate::lower::ir::Statement;

/// Which statements [`Session::run_statements`] runs, and what it works out.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// Evaluate `print`s too (`cgl check` checks expectations only).
    pub prints: bool,
    /// Work out what a failed expectation evaluated to ([`Session::failed_values`]).
    pub failed_values: bool,
    /// Once a statement has run out of time, skip the rest (they would time out at once)
    /// instead of evaluating them.
    pub skip_after_timeout: bool,
}

/// Whether a statement was a `print` or an `expect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `print` (or `show`).
    Print,
    /// `expect`.
    Expect,
}

/// What running one statement gave.
#[derive(Debug)]
pub enum Gave {
    /// A `print`'s text: a string as it is, any other value as cgl prints it.
    Printed(String),
    /// An `expect` held.
    Passed,
    /// A `print` failed, or an `expect` did not hold or failed: the diagnostic explains it.
    Failed(Box<Diag>),
    /// Not evaluated: an earlier statement ran out of time.
    Skipped,
}

/// One statement run: what it was, where its expression is, and what it gave.
#[derive(Debug)]
pub struct Ran {
    /// `print` or `expect`.
    pub kind: StatementKind,
    /// The statement's expression.
    pub span: Span,
    /// What it gave.
    pub outcome: Gave,
    /// For a failed expectation that evaluated to something, what it evaluated to (when
    /// [`RunOptions::failed_values`] asks for it); empty otherwise.
    pub values: FailedValues,
}

impl Session {
    /// Runs the statements of the loaded file `index` in order and hands each one's outcome
    /// to `sink`, with the session for showing it (its sources, its values).
    pub fn run_statements(
        &mut self,
        index: usize,
        options: RunOptions,
        sink: &mut dyn FnMut(&Session, Ran),
    ) {
        let mut out_of_time = false;
        for statement in self.statements(index) {
            let (kind, body) = match &statement {
                Statement::Print(body) => (StatementKind::Print, body),
                Statement::Expect(body, _) => (StatementKind::Expect, body),
            };
            if kind == StatementKind::Print && !options.prints {
                continue;
            }
            let span = body.expr.span;
            let mut values = FailedValues::default();
            let outcome = if out_of_time {
                Gave::Skipped
            } else {
                match kind {
                    StatementKind::Print => match self.eval_body(body) {
                        Ok(Value::Str(ref s)) => Gave::Printed(s.to_string()),
                        Ok(v) => Gave::Printed(self.show(&v)),
                        Err(d) => Gave::Failed(d),
                    },
                    StatementKind::Expect => match self.check_expect(body) {
                        ExpectResult::Passed => Gave::Passed,
                        ExpectResult::Failed(d) => {
                            if options.failed_values
                                && matches!(d.code, Code::CheckFailed | Code::CheckNotBoolean)
                            {
                                values = self.failed_values(body);
                            }
                            Gave::Failed(d)
                        }
                    },
                }
            };
            if let Gave::Failed(d) = &outcome {
                // Out of time, or stopped (Ctrl-C, or `check`'s watchdog giving up on the file).
                out_of_time =
                    options.skip_after_timeout && (d.code == TIMEOUT || d.code == INTERRUPTED);
            }
            sink(
                self,
                Ran {
                    kind,
                    span,
                    outcome,
                    values,
                },
            );
        }
    }

    /// Runs a file's statements in order: `print` values go to `out`, failures to the
    /// returned list.
    pub fn run_file(&mut self, index: usize, out: &mut dyn FnMut(String)) -> Vec<Diag> {
        let mut failures = Vec::new();
        let options = RunOptions {
            prints: true,
            ..RunOptions::default()
        };
        self.run_statements(index, options, &mut |_, ran| match ran.outcome {
            Gave::Printed(text) => out(text),
            Gave::Failed(d) => failures.push(*d),
            Gave::Passed | Gave::Skipped => {}
        });
        failures
    }

    /// How many `print` and `expect` statements the loaded file `index` has.
    pub fn statement_count(&self, index: usize) -> usize {
        self.files[index].lowered.statements.len()
    }

    /// Whether the loaded file `index` defines nothing and runs nothing (`cgl check` warns).
    pub fn defines_nothing(&self, index: usize) -> bool {
        let lowered = &self.files[index].lowered;
        lowered.statements.is_empty() && lowered.scope.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Stop;
    use crate::session::SessionConfig;

    const FILE: &str = "game Nim { position n  move k for k in 0..n }\nprint \"a\"\n\
                        expect 1 + 1 == 3\nprint [1, 2]\nexpect true\n\
                        expect grundy(Nim(20)) == 2\nexpect 2 == 2\n";

    /// Each statement's kind and outcome, in words.
    fn run(options: RunOptions, stop: Option<Stop>) -> Vec<String> {
        let mut session = Session::new(SessionConfig::default());
        // Loading watches the deadline too: set it once the file is in.
        let index = session.load_source("t.game", FILE).unwrap();
        if let Some(stop) = stop {
            session.set_stop(stop);
        }
        let mut seen = Vec::new();
        session.run_statements(index, options, &mut |session, ran| {
            let what = match ran.outcome {
                Gave::Printed(text) => format!("printed {text}"),
                Gave::Passed => "passed".to_string(),
                Gave::Failed(d) => format!("failed {}", d.code),
                Gave::Skipped => "skipped".to_string(),
            };
            let values = ran
                .values
                .actual
                .map_or(String::new(), |a| format!(" ({a})"));
            let kind = ran.kind;
            let at = session.sources.snippet(ran.span).to_string();
            seen.push(format!("{kind:?} {at}: {what}{values}"));
        });
        seen
    }

    #[test]
    fn every_statement_in_order() {
        let all = RunOptions {
            prints: true,
            ..RunOptions::default()
        };
        assert_eq!(
            run(all, None),
            [
                "Print \"a\": printed a",
                "Expect 1 + 1 == 3: failed cgl::check::failed",
                "Print [1, 2]: printed [1, 2]",
                "Expect true: passed",
                "Expect grundy(Nim(20)) == 2: failed cgl::check::failed",
                "Expect 2 == 2: passed",
            ]
        );
    }

    #[test]
    fn expectations_only_with_their_values() {
        let options = RunOptions {
            failed_values: true,
            ..RunOptions::default()
        };
        let seen = run(options, None);
        assert_eq!(seen.len(), 4);
        assert_eq!(seen[0], "Expect 1 + 1 == 3: failed cgl::check::failed (2)");
        assert_eq!(
            seen[2],
            "Expect grundy(Nim(20)) == 2: failed cgl::check::failed (20)"
        );
    }

    #[test]
    fn after_a_timeout_the_rest_is_skipped_only_when_asked() {
        let expired = || Some(Stop::after(std::time::Duration::ZERO));
        let skip = RunOptions {
            skip_after_timeout: true,
            ..RunOptions::default()
        };
        let seen = run(skip, expired());
        assert_eq!(
            &seen[2..],
            [
                "Expect grundy(Nim(20)) == 2: failed cgl::limit::timeout",
                "Expect 2 == 2: skipped",
            ]
        );
        let seen = run(RunOptions::default(), expired());
        assert_eq!(seen[3], "Expect 2 == 2: passed");
    }
}
