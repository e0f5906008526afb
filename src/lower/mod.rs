//! AST to IR: resolves every name to an id or a frame slot, checks arities and duplicates,
//! and reports every static error of a file at once.

pub mod builtins;
pub mod ir;
mod resolve;

pub use resolve::{lower_expr, lower_file, Exports, Global, LoweredFile, Reference, Scope, Target};
