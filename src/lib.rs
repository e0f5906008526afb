//! cgl: a language and interpreter for combinatorial games.
//!
//! The data flows through the modules in this order:
//!
//! ```text
//! .game text ──syntax──▶ AST ──lower──▶ IR (Program) ──eval──▶ values, positions
//!                                                         │
//!                         analysis ◀── graph (terms, moves; petgraph view)
//! ```
//!
//! [`session::Session`] ties them together for the CLI (and later the REPL). See
//! ARCHITECTURE.md for the invariants of each stage.
//!
//! ```
//! use cgl::session::{Session, SessionConfig};
//!
//! let mut session = Session::new(SessionConfig::default());
//! let nim = "game Nim { position n  move k for k in 0..n }";
//! let file = session.load_source("nim.game", nim).unwrap();
//! let value = session.eval_text("grundy(Nim(3) + Nim(5))", &[file]).unwrap();
//! assert_eq!(session.show(&value), "6");
//! let value = session.eval_text("winning_moves(Nim(3) + Nim(5))", &[file]).unwrap();
//! assert_eq!(session.show(&value), "[Nim(3) + Nim(3)]");
//! ```

pub mod analysis;
pub mod api;
pub mod cgt;
pub mod cli;
pub mod diag;
pub mod eval;
pub mod graph;
pub mod lower;
pub mod lsp;
pub mod memory;
pub mod num;
pub mod plot;
pub mod progress;
pub mod repl;
pub mod serve;
pub mod session;
pub mod stack;
pub mod stats;
pub mod strategic;
pub mod syntax;
pub mod value;
