//! Text to AST. Knows nothing about games; `Pair` never leaves `parser`. `lex` holds the
//! language's keywords and the light lexer that the parser's precheck and the REPL share.
//!
//! `parse_file`, `parse_expr` and `parse_expr_part` (a part of a line parsed in place, the rest
//! blanked, so that the REPL's diagnostics point into the line) turn text into `ast::File` or
//! `ast::Expr`; pure. The AST carries its own `Copy` `Span` (file id and byte range).
//! `lex::KEYWORDS` and `lex::STATEMENT_KEYWORDS` are checked against the grammar's rules by
//! tests. `shape` prints an AST without its spans (what two texts that mean the same share);
//! `format` lays a file out canonically (`cgl fmt`), keeping its comments, and checks by its
//! shape that the result means what the text did.

pub mod ast;
pub mod format;
pub mod lex;
pub mod nfg;
mod parser;
pub mod shape;

pub use lex::{is_identifier, is_keyword, KEYWORDS, STATEMENT_KEYWORDS};
pub use parser::{parse_expr, parse_expr_part, parse_file, parse_file_checked};
