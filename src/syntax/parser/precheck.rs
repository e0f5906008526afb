//! What is checked before the parse tree is built: brackets, strings and comments before pest
//! runs (with the light lexer), and how deeply operators nest before the AST is built, so that
//! no input makes a later stage recurse too deeply or parse exponentially.

use pest::iterators::Pair;

use super::build::binary_op;
use super::Rule;
use crate::diag::{Code, Diag, DiagResult, FileId, Span};
use crate::syntax::lex::{Lexer, Tok};

/// Brackets nested deeper than this are refused before pest sees the text, so that deeply
/// nested input is a diagnostic and never a stack overflow.
const MAX_NESTING: usize = 200;

/// Operators chained without brackets (`not not ... x`, `1 + 1 + ...`) nest the expression
/// tree as deeply as brackets do, and every later stage recurses over that tree.
const MAX_OPERATOR_DEPTH: usize = 10_000;

/// Refuses a statement whose expressions nest deeper than [`MAX_OPERATOR_DEPTH`], counting
/// each chained operator as one level; recursion here follows the pairs, which the bracket
/// limit bounds.
pub(super) fn check_operator_depth(
    file: FileId,
    offset: usize,
    item: &Pair<'_, Rule>,
) -> DiagResult<()> {
    fn depth(pair: &Pair<'_, Rule>) -> usize {
        let mut operators = 0;
        let mut deepest = 0;
        for child in pair.clone().into_inner() {
            if binary_op(child.as_rule()).is_some()
                || matches!(
                    child.as_rule(),
                    Rule::neg | Rule::not_op | Rule::if_expr | Rule::quantifier
                )
            {
                operators += 1;
            }
            deepest = deepest.max(depth(&child));
        }
        operators + deepest
    }
    let found = depth(item);
    if found > MAX_OPERATOR_DEPTH {
        let span = item.as_span();
        let start = span.start();
        let end = (start + 1).min(span.end()) + offset;
        let start = start + offset;
        return Err(Box::new(
            Diag::error(
                Code::SyntaxTooDeep,
                format!("an expression is nested {found} operators deep"),
            )
            .label(Span::new(file, start, end), "in this statement")
            .help(format!(
                "cgl accepts at most {MAX_OPERATOR_DEPTH} chained operators in one statement; \
                 build long expressions with comprehensions (`sum(...)`, `all(...)`) or functions"
            )),
        ));
    }
    Ok(())
}

/// Checks the brackets and the characters before pest runs: too deep a nesting, a closing
/// bracket that does not match, a bracket never closed, and a character outside ASCII each
/// get a diagnostic that points at it, which reads better than pest's list of what else
/// could have come (pest fails where the statement started: `fn café(x)` is no `fn`
/// statement, so it would point at the `f`). Strings and comments are skipped.
pub(super) fn check_text(file: FileId, text: &str) -> DiagResult<()> {
    let bytes = text.as_bytes();
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut lexer = Lexer::new(text);
    for token in lexer.by_ref() {
        let i = token.start;
        match token.kind {
            Tok::UnclosedStr => {
                return Err(Box::new(
                    Diag::error(Code::SyntaxUnterminated, "unterminated string")
                        .label(Span::new(file, i, i + 1), "this string never ends")
                        .help("close it with `\"` on the same line"),
                ));
            }
            Tok::Open => {
                open.push((bytes[i], i));
                if open.len() > MAX_NESTING {
                    return Err(Box::new(
                        Diag::error(Code::SyntaxTooDeep, "brackets are nested too deeply")
                            .label(Span::new(file, i, i + 1), "nesting limit reached here")
                            .help(format!(
                                "cgl accepts at most {MAX_NESTING} nested brackets; \
                                 name the inner parts with `const` or `fn`"
                            )),
                    ));
                }
            }
            Tok::Close => {
                let c = bytes[i];
                let want = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match open.pop() {
                    Some((o, _)) if o == want => {}
                    Some((o, at)) => {
                        return Err(Box::new(
                            Diag::error(
                                Code::SyntaxUnbalanced,
                                format!("`{}` does not close `{}`", c as char, o as char),
                            )
                            .label(Span::new(file, i, i + 1), "this bracket")
                            .label(Span::new(file, at, at + 1), "closes this one")
                            .help(format!(
                                "close `{}` with `{}` first",
                                o as char,
                                closing(o)
                            )),
                        ))
                    }
                    None => {
                        return Err(Box::new(
                            Diag::error(
                                Code::SyntaxUnbalanced,
                                format!("`{}` closes nothing", c as char),
                            )
                            .label(Span::new(file, i, i + 1), "no bracket is open here")
                            .help("remove it, or add the opening bracket it belongs to"),
                        ))
                    }
                }
            }
            // CGSuite's up, down and switch signs are the only characters beyond ASCII.
            Tok::Other if !bytes[i].is_ascii() && !is_game_sign(text, i) => {
                return Err(non_ascii(file, text, i))
            }
            _ => {}
        }
    }
    if let Some(opened) = lexer.open_comment() {
        return Err(Box::new(
            Diag::error(Code::SyntaxUnterminated, "unterminated comment")
                .label(
                    Span::new(file, opened, opened + 2),
                    "this comment never ends",
                )
                .help("close it with `*/`"),
        ));
    }
    if let Some((o, at)) = open.pop() {
        return Err(Box::new(
            Diag::error(
                Code::SyntaxUnbalanced,
                format!("`{}` is never closed", o as char),
            )
            .label(Span::new(file, at, at + 1), "opened here")
            .help(format!("add `{}` where it should end", closing(o))),
        ));
    }
    Ok(())
}

/// Whether the character at byte `at` is `↑`, `↓`, `⇑`, `⇓` or `±` (game values).
fn is_game_sign(text: &str, at: usize) -> bool {
    text.get(at..)
        .and_then(|t| t.chars().next())
        .is_some_and(|c| "↑↓⇑⇓±".contains(c))
}

/// A character outside ASCII at byte `at` (the first byte of it), outside strings and
/// comments: never part of cgl.
#[cold]
fn non_ascii(file: FileId, text: &str, at: usize) -> Box<Diag> {
    let c = text.get(at..).and_then(|t| t.chars().next()).unwrap_or('?');
    let help = match ascii_lookalike(c) {
        Some(ascii) => format!("write `{ascii}` instead: cgl is written in ASCII"),
        None if c.is_alphabetic() => "names use ASCII letters, digits and `_` only".to_string(),
        None if c.is_whitespace() => {
            "this is a space that is not ASCII (from a word processor?); type it again".to_string()
        }
        None => "remove it; outside strings and comments cgl is written in ASCII".to_string(),
    };
    Box::new(
        Diag::error(
            Code::SyntaxUnexpected,
            format!("unexpected character `{c}`"),
        )
        .label(
            Span::new(file, at, at + c.len_utf8()),
            "not an ASCII character",
        )
        .help(help),
    )
}

/// The ASCII a typographic character stands for, for the help of [`non_ascii`].
fn ascii_lookalike(c: char) -> Option<&'static str> {
    Some(match c {
        '≤' => "<=",
        '≥' => ">=",
        '≠' => "!=",
        '−' | '–' | '—' => "-",
        '×' | '·' => "*",
        '÷' => "/",
        '“' | '”' | '„' => "\"",
        '‘' | '’' => "'",
        '→' => "->",
        '∈' => "in",
        '∉' => "not in",
        '¬' => "not",
        '∧' => "and",
        '∨' => "or",
        '⊕' => "^",
        _ => return None,
    })
}

fn closing(open: u8) -> char {
    match open {
        b'(' => ')',
        b'[' => ']',
        _ => '}',
    }
}
