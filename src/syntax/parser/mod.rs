//! The pest parser: `parse_file` and `parse_expr`. Text goes through the precheck
//! (`precheck.rs`: brackets, strings and comments, before pest runs; operator depth, before
//! the tree is built), then pest, whose errors `errors.rs` turns into diagnostics, and its
//! pairs become the AST in `build.rs`. `Pair` never leaves this module.
//!
//! Operator precedence is not in `grammar/cgl.pest`: the Pratt parser of `build.rs` assigns it.
//! The grammar parses each bracket's first expression once, and brackets, strings and comments
//! are checked before pest runs, so no input makes parsing exponential. A file over 256 KiB is
//! parsed in pieces that end where a line starts an item, with a callback between them (the
//! session checks its deadline there).

mod build;
mod errors;
mod precheck;
#[cfg(test)]
mod tests;

use std::ops::Range;

use pest::Parser as _;

use super::ast::{Expr, File};
use crate::diag::{DiagResult, FileId};
use crate::syntax::lex::{Lexer, Tok};
use build::{next, Ctx};
use errors::syntax_error;
use precheck::{check_operator_depth, check_text};

#[derive(pest_derive::Parser)]
#[grammar = "grammar/cgl.pest"]
struct CglParser;

/// Parses a whole `.game` file.
pub fn parse_file(file: FileId, text: &str) -> DiagResult<File> {
    parse_file_checked(file, text, &mut || Ok(()))
}

/// A file longer than this is parsed in pieces of about this many bytes (see
/// [`parse_file_checked`]).
const PIECE: usize = 1 << 18;

/// Parses a file as [`parse_file`] does, calling `between` before each piece of about
/// [`PIECE`] bytes and stopping at its error: the caller's deadline bounds the parsing of a
/// large file. A piece ends where a line starts an item (`fn`, `game`, `const`, `expect`,
/// `print`, `import` at the start of a line, outside brackets, strings and comments), where
/// no item can continue, so the pieces parse to the items the whole file does. A syntax
/// error in a piece is reported as the whole file's parse would report it: the rest of the
/// file from that piece on is parsed again for it.
pub fn parse_file_checked(
    file: FileId,
    text: &str,
    between: &mut dyn FnMut() -> DiagResult<()>,
) -> DiagResult<File> {
    check_text(file, text)?;
    let mut items = Vec::new();
    let mut start = 0;
    for end in piece_ends(text) {
        between()?;
        let piece = &text[start..end];
        let mut pairs = match CglParser::parse(Rule::file, piece) {
            Ok(pairs) => pairs,
            Err(e) => {
                let rest = &text[start..];
                let e = if end == text.len() {
                    e
                } else {
                    CglParser::parse(Rule::file, rest).err().unwrap_or(e)
                };
                let mut d = syntax_error(file, rest, e);
                for label in &mut d.labels {
                    label.span.start += start as u32;
                    label.span.end += start as u32;
                }
                return Err(d);
            }
        };
        let ctx = Ctx {
            file,
            offset: start,
        };
        let file_pair = next(&mut pairs)?;
        for pair in file_pair.into_inner() {
            if pair.as_rule() == Rule::EOI {
                break;
            }
            check_operator_depth(file, start, &pair)?;
            items.push(ctx.item(pair)?);
        }
        start = end;
    }
    Ok(File { items })
}

/// Where the pieces of a file end (the last at its end): at the first item start after
/// every [`PIECE`] bytes, a statement keyword at the start of a line outside brackets (the
/// light lexer skips strings and comments, as `check_text`, which has accepted the text,
/// does).
fn piece_ends(text: &str) -> Vec<usize> {
    const STARTS: &[&str] = &["fn", "game", "const", "expect", "print", "import"];
    let bytes = text.as_bytes();
    let mut ends = Vec::new();
    let mut last = 0;
    if text.len() > PIECE {
        for token in Lexer::new(text) {
            let i = token.start;
            if token.kind == Tok::Word
                && token.depth == 0
                && i - last >= PIECE
                && i > 0
                && bytes[i - 1] == b'\n'
                && STARTS.contains(&token.text(text))
            {
                ends.push(i);
                last = i;
            }
        }
    }
    ends.push(text.len());
    ends
}

/// Parses one expression (the argument of `cgl eval`, a REPL line).
pub fn parse_expr(file: FileId, text: &str) -> DiagResult<Expr> {
    check_text(file, text)?;
    let mut pairs =
        CglParser::parse(Rule::expr_input, text).map_err(|e| syntax_error(file, text, e))?;
    let ctx = Ctx { file, offset: 0 };
    let input = next(&mut pairs)?;
    check_operator_depth(file, 0, &input)?;
    let mut inner = input.into_inner();
    ctx.expr(next(&mut inner)?)
}

/// Parses the part `range` of `text` as one expression, in place: the rest is blanked out
/// (newlines kept), so the expression's spans, and so its diagnostics, are those of `text`.
/// The REPL parses the parts of a typed line this way.
pub fn parse_expr_part(file: FileId, text: &str, range: &Range<usize>) -> DiagResult<Expr> {
    parse_expr(file, &mask(text, range))
}

/// `text` with everything outside `keep` replaced by blanks (newlines stay), byte for byte.
fn mask(text: &str, keep: &Range<usize>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if keep.contains(&i) || c == '\n' {
            out.push(c);
        } else {
            for _ in 0..c.len_utf8() {
                out.push(' ');
            }
        }
    }
    out
}
