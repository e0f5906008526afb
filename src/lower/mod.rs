//! AST to IR: resolves every name to an id or a frame slot, checks arities and duplicates,
//! and reports every static error of a file at once.
//!
//! Every name becomes a `GameId`, `FnId`, `ConstId`, a built-in or a frame `Slot`; arities of
//! functions, built-ins and position constructors are checked; duplicates and unknown names are
//! reported with a did-you-mean. Nothing after lowering looks a name up by string. `resolve/`
//! is one `Resolver` split by job: `mod.rs` files, scopes and patterns; `games.rs` game
//! definitions, strategic-form ones too (a `payoff EXPR` clause is the strategic payoff
//! function in a game with `player` or `table` clauses, a terminal payment, `ir::Payoff`,
//! otherwise); `exprs.rs` expressions and calls with their static checks.

pub mod builtins;
pub mod ir;
mod resolve;

pub use resolve::{
    lower_expr, lower_file, Bound, BoundKind, Exports, Global, LoweredFile, Reference, Scope,
    Target,
};
