//! Sealed keys for `cgl grade`: a key whose answers are kept as salted hashes
//! (`cgl seal KEY -o KEY.sealed`), so that students can grade themselves, seeing pass or
//! fail and the points, not the answers. Each exercise must compare a question (the left
//! side, kept in clear) with an answer (the right side, evaluated with the key and its
//! imports when sealing, then hashed with a salt of its own). A submission passes an
//! exercise when its value of the question prints as the answer did.
//!
//! The key's definitions are kept in clear (the questions use them); its imports (the
//! teacher's solution) are not. A hash hides an answer from reading, not from guessing: an
//! answer among few values (an outcome) can be found by trying them, as a student can by
//! handing in each.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::grade::{Exercise, Marked};
use super::{Bindings, ParsedExpr, Session};
use crate::diag::{Code, Diag, Span};
use crate::syntax::ast::{BinaryOp, ExprKind, Grade, Item};
use crate::syntax::parse_file_checked;

/// What a sealed key's `format` says.
pub const SEALED_FORMAT: &str = "cgl-sealed-key";

/// A sealed key, as the JSON document `cgl seal` writes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedKey {
    /// [`SEALED_FORMAT`].
    pub format: String,
    /// 1.
    pub version: u32,
    /// The key's file name.
    pub name: String,
    /// The key's text without its imports, expectations and prints: what the questions use.
    pub definitions: String,
    /// The exercises, in the key's order.
    pub exercises: Vec<SealedExercise>,
}

/// One exercise of a sealed key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedExercise {
    /// Its line in the key.
    pub line: usize,
    /// Its points.
    pub points: u32,
    /// The teacher's feedback for a submission that fails it.
    pub feedback: Option<String>,
    /// The expression whose value a submission gives (`outcome(P)` for `P is O`).
    pub question: String,
    /// The salt, in hex.
    pub salt: String,
    /// SHA-256 of the salt, a zero byte and the answer as cgl prints it, in hex.
    pub hash: String,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of `answer` with `salt`.
fn seal_of(salt: &str, answer: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update([0u8]);
    h.update(answer.as_bytes());
    hex(&h.finalize())
}

/// A fresh salt: 128 bits from the process's random hasher keys.
fn fresh_salt() -> String {
    let mut bytes = Vec::with_capacity(16);
    for i in 0..2u64 {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(i);
        bytes.extend_from_slice(&h.finish().to_le_bytes());
    }
    hex(&bytes)
}

impl Session {
    /// Seals the key `text` read from `path` (its imports, the teacher's solution, are read
    /// beside it): each exercise's answer evaluated and hashed.
    pub fn seal(&mut self, path: &Path, text: &str) -> Result<SealedKey, Vec<Diag>> {
        let name = path.file_name().map_or_else(
            || "key.game".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let index = self.load_buffer(path, text)?;
        let file = self.files[index].file;
        let stop = self.stop.clone();
        let parsed = parse_file_checked(file, text, &mut || stop.check()).map_err(|d| vec![*d])?;
        let mut scope = Bindings::new();
        for b in self.file_names(index) {
            scope.bind(b);
        }
        let mut cut: Vec<(usize, usize)> = Vec::new();
        let mut exercises = Vec::new();
        let mut errors = Vec::new();
        for item in &parsed.items {
            let span = match item {
                Item::Import { span, .. } | Item::Print { span, .. } => *span,
                Item::Expect { span, .. } => *span,
                _ => continue,
            };
            cut.push((span.start as usize, span.end as usize));
            let Item::Expect { expr, grade, span } = item else {
                continue;
            };
            let grade = grade.clone().unwrap_or(Grade {
                points: 1,
                ..Grade::default()
            });
            let (question, answer) = match &expr.kind {
                ExprKind::Binary(BinaryOp::Eq, l, r) => {
                    (self.sources.snippet(l.span).to_string(), r)
                }
                ExprKind::Binary(BinaryOp::Is, l, r) => {
                    (format!("outcome({})", self.sources.snippet(l.span)), r)
                }
                _ => {
                    errors.push(
                        Diag::error(
                            Code::GradeUnsealable,
                            "this exercise cannot be sealed: it is not `QUESTION == ANSWER` \
                             or `POSITION is OUTCOME`",
                        )
                        .label(expr.span, "no one answer to hash")
                        .help(
                            "write it as one comparison, e.g. `[grundy(G(n)) for n in 0..10] == \
                             [...]` for a forall; split an `and` into exercises",
                        ),
                    );
                    continue;
                }
            };
            let range = answer.span.start as usize..answer.span.end as usize;
            let value = match ParsedExpr::parse(file, text, &range)
                .and_then(|p| self.eval_parsed(&p, &scope))
            {
                Ok(v) => v,
                Err(d) => {
                    errors.extend(d);
                    continue;
                }
            };
            let salt = fresh_salt();
            let hash = seal_of(&salt, &self.show(&value));
            exercises.push(SealedExercise {
                line: text[..span.start as usize].matches('\n').count() + 1,
                points: grade.points,
                feedback: grade.feedback,
                question,
                salt,
                hash,
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut definitions = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in cut {
            definitions.push_str(&text[at..start]);
            at = end;
        }
        definitions.push_str(&text[at..]);
        Ok(SealedKey {
            format: SEALED_FORMAT.to_string(),
            version: 1,
            name,
            definitions,
            exercises,
        })
    }

    /// Grades the loaded file `submission` against a sealed key, as [`Session::grade`] does
    /// an open one; every exercise is hidden.
    pub fn grade_sealed(
        &mut self,
        key: &SealedKey,
        submission: usize,
    ) -> Result<Vec<(Exercise, Marked)>, Vec<Diag>> {
        // The definitions, and an expectation an exercise to give it a file of its own.
        let mut text = key.definitions.clone();
        for e in &key.exercises {
            text.push_str(&format!("\nexpect {} points: true\n", e.points));
        }
        let loaded = self.load_key(&key.name, &text, submission)?;
        let mut out = Vec::with_capacity(key.exercises.len());
        for (e, file) in key.exercises.iter().zip(loaded) {
            let exercise = Exercise {
                text: e.question.clone(),
                line: e.line,
                grade: Grade {
                    points: e.points,
                    hide: true,
                    feedback: e.feedback.clone(),
                },
            };
            let marked = match file {
                Err(diags) => Marked::Unanswered(diags),
                Ok(index) => self.mark_sealed(e, index),
            };
            out.push((exercise, marked));
        }
        Ok(out)
    }

    fn mark_sealed(&mut self, e: &SealedExercise, index: usize) -> Marked {
        let mut scope = Bindings::new();
        for b in self.file_names(index) {
            scope.bind(b);
        }
        let file = self.add_source(format!("<exercise line {}>", e.line), e.question.clone());
        let value = ParsedExpr::parse(file, &e.question, &(0..e.question.len()))
            .and_then(|p| self.eval_parsed(&p, &scope));
        match value {
            Err(mut d) => {
                let diag = Box::new(d.remove(0));
                let shown = vec![diag.message.clone()];
                Marked::Failed { diag, shown }
            }
            Ok(v) => {
                let shown = self.show(&v);
                if seal_of(&e.salt, &shown) == e.hash {
                    return Marked::Passed;
                }
                let yours = format!("there your `{}` is {}", e.question, self.show_short(&v));
                let diag = Diag::error(Code::GradeWrong, "the answer differs from the key's")
                    .label(Span::new(file, 0, e.question.len()), yours.clone())
                    .help("work the question out again, at the REPL (`:explain`)");
                Marked::Failed {
                    diag: Box::new(diag),
                    shown: vec![yours],
                }
            }
        }
    }
}
