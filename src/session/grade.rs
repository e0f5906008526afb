//! Keys for `cgl grade`: a teacher's `.game` file whose expectations are exercises with
//! points (`expect 3 points hide "hint": ...`), read on their own ([`Session::key_exercises`])
//! and loaded over a student's submission ([`Session::load_key`]), so that each exercise is
//! evaluated with the submission's definitions.

use super::{LoadedFile, Session};
use crate::diag::{Diag, Span};
use crate::eval::ConstState;
use crate::lower::lower_file;
use crate::syntax::ast::{File, Grade, Item};
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
        let file = self.sources.add(name, text);
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

    /// Loads the key `text` (named `name`) over the loaded file `submission`: the key's own
    /// imports (the teacher's solution, which lets `cgl check` check the key) are not read,
    /// the submission's definitions take their place. Each expectation of the key is loaded
    /// as a file of its own, with the key's own definitions, so that one that names what the
    /// submission lacks fails alone: for each, the loaded file (one `expect` statement) or
    /// why it does not resolve. The outer error: the key does not parse.
    pub fn load_key(
        &mut self,
        name: &str,
        text: &str,
        submission: usize,
    ) -> Result<Vec<Result<usize, Vec<Diag>>>, Vec<Diag>> {
        let file = self.sources.add(name, text);
        let stop = self.stop.clone();
        let parsed = parse_file_checked(file, text, &mut || stop.check()).map_err(|d| vec![*d])?;
        let definitions: Vec<&Item> = parsed
            .items
            .iter()
            .filter(|i| matches!(i, Item::Const { .. } | Item::Fn { .. } | Item::Game(_)))
            .collect();
        let here = Span {
            file,
            start: 0,
            end: 0,
        };
        let mut exercises = Vec::new();
        for item in &parsed.items {
            if !matches!(item, Item::Expect { .. }) {
                continue;
            }
            if let Err(d) = self.stop.check() {
                exercises.push(Err(vec![*d]));
                continue;
            }
            let one = File {
                items: definitions
                    .iter()
                    .map(|d| (*d).clone())
                    .chain([item.clone()])
                    .collect(),
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
