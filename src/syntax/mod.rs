//! Text to AST. Knows nothing about games; `Pair` never leaves `parser`. `lex` holds the
//! language's keywords and the light lexer that the parser's precheck and the REPL share.

pub mod ast;
pub mod lex;
mod parser;

pub use lex::{is_identifier, is_keyword, KEYWORDS, STATEMENT_KEYWORDS};
pub use parser::{parse_expr, parse_expr_part, parse_file, parse_file_checked};
