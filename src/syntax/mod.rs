//! Text to AST. Knows nothing about games; `Pair` never leaves this module.

pub mod ast;
mod parser;

pub use parser::{parse_expr, parse_file, parse_file_checked};
