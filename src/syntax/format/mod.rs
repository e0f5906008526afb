//! The formatter: a `.game` file's text in its one canonical layout (`cgl fmt`, and an
//! editor's "format document" through the language server). Pure: text in, text or
//! diagnostics out. A text that does not parse is not formatted: the syntax diagnostic is
//! the answer, as `cgl check` would give it.
//!
//! The formatter changes only the blanks and line breaks between the tokens of the file;
//! every token, comments included, stays, in its order. The layout:
//!
//! - **Items and clauses.** Each top-level item starts a line, at the left margin; each
//!   clause of a game starts a line, indented 4 blanks; a game's `{` ends the line of its
//!   header (`game Name(params) {`, the name and parameters on the line of `game`), its `}`
//!   is alone on the last line (`game G {}` when the body is empty).
//! - **Blanks between tokens.** One blank around binary operators (`a + b`, `x in xs`,
//!   `k == 0`, `{a | b}`) and after `,`, `;` and `:`, none before them; none inside
//!   brackets (`[1, 2]`, `f(x)`, `{|}`); none between a call, index or parameter list and
//!   what it applies to (`f(x)`, `G[limit = 3](a)`); none after a prefix `-`, `+-` or `±`
//!   (`-x`, but `- -x`); none around `.`, `..` and `..=` (`p.0`, `0..n`, `1..=n - 1`, as
//!   Rust writes ranges), nor around the `/` of a fraction of two numbers (`1/2`,
//!   `{2 | -1/2}`, as CGSuite writes game values; but `a / 2`); one after a keyword
//!   (`not (x in s)`, `move (a, b)`).
//! - **Long lines: the line breaks inside an item or clause are the author's.** A break
//!   between two tokens of an item or clause is kept, except before a game's name, its
//!   parameters' `(` and its `{`; none is added, and nothing is wrapped: a long line stays
//!   long. (Keeping the breaks is reliable here because the formatter moves no token: only
//!   the blanks at the start of the line change.) So a long list, table or condition written
//!   over several lines keeps its lines, with the comments at their ends. A line that
//!   continues an item or clause is indented:
//!   - outside brackets, one level (4 blanks) deeper than the item or clause;
//!   - inside a bracket that ends its line, one level deeper than the bracket's line, and
//!     one more where the line continues an expression rather than starting an item (after
//!     the bracket or a `,`);
//!   - inside a bracket followed on its line by its first item, in the column of that item,
//!     so that a table written row by row stays one;
//!   - after a quantifier's `:` that ends a line, one level deeper (than that line, or than
//!     the bracket it is in), to the end of that bracket or of the item;
//!   - a line that starts with a closing bracket, as the line of the opening one.
//! - **Blank lines.** Where the author left one or more blank lines (between items, between
//!   clauses, inside an expression), one is kept; none at the start or end of the file, after
//!   an opening bracket or before a closing one. A game definition is set apart by a blank
//!   line before it (before the comments right above it, which belong to it) and one after.
//! - **Comments stay where they are.** A comment at the end of a line of code stays at the
//!   end of that line, after the same token; the `//` comments of consecutive lines that
//!   each end in one are aligned in a column, two blanks after the longest line's code. A
//!   comment on a line of its own stays on a line of its own, before the code it preceded,
//!   indented as that code. A block comment `/* */` between tokens of a line stays between
//!   them; the lines of a block comment after its first are kept as written.
//! - **Ends of lines.** No blanks at the end of a line (in block comments neither), one
//!   newline at the end of the file, `\n` line breaks, no byte-order mark.
//!
//! The layout is a fixed point: formatting formatted text changes nothing. Before it returns,
//! [`format_source`] parses its output and compares it with the input by their
//! [`shape`](crate::syntax::shape::shape) (the AST without spans) and their comments, so it
//! never returns a text that means something else or has lost a comment; if it would, that
//! is a bug in cgl, reported as an internal error, and the text is left as it is.
//!
//! How: `tokens.rs` cuts the text into the grammar's tokens, comments included; `marks.rs`
//! reads from the AST what the tokens alone do not say (where items and clauses start, a
//! game's braces, clause keywords, game values such as `*3` that are one token); `layout.rs`
//! decides the line breaks, indentation and blanks. A new kind of clause or expression in
//! the AST reaches the exhaustive matches of `marks.rs` and `shape.rs`, which say what to add.

mod layout;
mod marks;
mod tokens;

use crate::diag::{Diag, FileId};
use crate::syntax::lex::{Lexer, Tok};
use crate::syntax::parse_file;
use crate::syntax::shape::shape;

/// `text` in the canonical layout (see the module doc), or the syntax diagnostic of a text
/// that does not parse (spans in `file`, the id the caller gave the text). Runs on a stack of
/// its own size, so that the deepest nesting the parser accepts formats on any thread.
pub fn format_source(file: FileId, text: &str) -> Result<String, Vec<Diag>> {
    crate::stack::with_phase_stack(|| format_here(file, text)).map_err(|d| vec![*d])
}

fn format_here(file: FileId, text: &str) -> Result<String, Box<Diag>> {
    // Editors on Windows may start a file with a byte-order mark; the parser never sees it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let parsed = parse_file(file, text)?;
    let atoms = marks::atoms(text, &parsed);
    let mut tokens = tokens::tokens(text, &atoms);
    marks::structure(text, &parsed, &mut tokens)?;
    tokens::roles(text, &mut tokens);
    let formatted = layout::layout(text, &tokens);
    let same = parse_file(file, &formatted).is_ok_and(|again| shape(&again) == shape(&parsed));
    if !same || comments(&formatted) != comments(text) {
        return Err(Box::new(
            Diag::internal(if same {
                "formatting would lose or change a comment of this file"
            } else {
                "formatting would change what this file means"
            })
            .help("this is a bug in cgl; the file is left as it is"),
        ));
    }
    Ok(formatted)
}

/// The comments of a text, in order, each without the blanks at the ends of its lines: what
/// formatting keeps.
pub fn comments(text: &str) -> Vec<String> {
    Lexer::with_comments(text)
        .filter(|t| t.kind == Tok::Comment)
        .map(|t| {
            t.text(text)
                .split('\n')
                .map(str::trim_end)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}
