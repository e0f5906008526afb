//! The pest parser: `parse_file` and `parse_expr`. Text goes through the precheck
//! (`precheck.rs`: brackets, strings and comments, before pest runs; operator depth, before
//! the tree is built), then pest, whose errors `errors.rs` turns into diagnostics, and its
//! pairs become the AST in `build.rs`. `Pair` never leaves this module.

mod build;
mod errors;
mod precheck;
#[cfg(test)]
mod tests;

use std::ops::Range;

use pest::Parser as _;

use super::ast::{Expr, File};
use crate::diag::{DiagResult, FileId};
use build::{next, Ctx};
use errors::syntax_error;
use precheck::{check_nesting, check_operator_depth};

#[derive(pest_derive::Parser)]
#[grammar = "grammar/cgl.pest"]
struct CglParser;

/// Parses a whole `.game` file.
pub fn parse_file(file: FileId, text: &str) -> DiagResult<File> {
    check_nesting(file, text)?;
    let mut pairs = CglParser::parse(Rule::file, text).map_err(|e| syntax_error(file, text, e))?;
    let ctx = Ctx { file };
    let file_pair = next(&mut pairs)?;
    let mut items = Vec::new();
    for pair in file_pair.into_inner() {
        if pair.as_rule() == Rule::EOI {
            break;
        }
        check_operator_depth(file, &pair)?;
        items.push(ctx.item(pair)?);
    }
    Ok(File { items })
}

/// Parses one expression (the argument of `cgl eval`, a REPL line).
pub fn parse_expr(file: FileId, text: &str) -> DiagResult<Expr> {
    check_nesting(file, text)?;
    let mut pairs =
        CglParser::parse(Rule::expr_input, text).map_err(|e| syntax_error(file, text, e))?;
    let ctx = Ctx { file };
    let input = next(&mut pairs)?;
    check_operator_depth(file, &input)?;
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
