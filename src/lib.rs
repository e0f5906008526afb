//! cgl: a language and interpreter for combinatorial games.
//!
//! The data flows through the modules in this order:
//!
//! ```text
//! .game text ──syntax──▶ AST ──lower──▶ IR (Program) ──eval──▶ values, positions
//!                                                         │
//!                         analysis ◀── graph (terms, moves, petgraph DAG)
//! ```
//!
//! [`session::Session`] ties them together for the CLI (and later the REPL). See
//! ARCHITECTURE.md for the invariants of each stage.

pub mod analysis;
pub mod cli;
pub mod diag;
pub mod eval;
pub mod graph;
pub mod lower;
pub mod session;
pub mod syntax;
