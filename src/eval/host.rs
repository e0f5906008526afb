//! What evaluation may ask of the layers above it. An expression such as `grundy(p)` or
//! `Kayles(1) + Kayles(2)` needs the game graph and the analyses, which sit above `eval`; the
//! interpreter reaches them only through [`Host`], which the analysis layer implements for
//! the graph. Move rules and conditions run with no host, so an analysis inside a rule cannot
//! happen (`cgl::eval::analysis_in_rules`) and exploring the graph never re-enters it.
//!
//! This file and `interp/mod.rs` import each other: a host is lent the interpreter's
//! [`World`] (the program, instances and constants it may read and extend) for each call,
//! and the interpreter holds its host as a `&mut dyn Host`. The trait has a file of its own
//! because it is the boundary the analysis layer implements.

use super::builtins::Builtin;
use super::interp::World;
use super::value::{PosTerm, Position, Value};
use crate::diag::DiagResult;

/// The services of the graph and the analyses, as evaluation outside game rules sees them.
pub trait Host {
    /// The canonical form of a compound written by the user (the form the graph keeps: parts
    /// that are over dropped, parts sorted).
    fn canonical(&mut self, world: &mut World<'_>, term: &PosTerm) -> DiagResult<PosTerm>;

    /// The value of an analysis built-in (`grundy`, `outcome`, `line`, ...) at a position;
    /// `side` is its second argument, whose moves or who moves first (`moves(p, left)`).
    fn analyse(
        &mut self,
        world: &mut World<'_>,
        builtin: Builtin,
        position: &Position,
        side: Option<crate::cgt::Side>,
    ) -> DiagResult<Value>;
}
