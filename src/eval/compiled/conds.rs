//! A game's `terminal if` and `draw if` conditions in compiled form: each on its own
//! ([`CompiledCond`]), and all of them together ([`CompiledEnds`]), compiled by one compiler
//! and run in one run, so that a call both make on the same position (`won(b, 1)` in
//! `terminal if over(b)` and in `draw if not won(b, 1) and not won(b, 2)`) is computed once
//! (see `hoist.rs`, [`FixedCall`](super::hoist::FixedCall)).
//!
//! The parallel solver's worker runs a game's conditions together (`CompiledEnds`), and one by
//! one where that run hands over; the interpreter runs them one by one (`CompiledCond`).

use super::*;
use crate::eval::stop::Stop;
use crate::lower::ir::{Expr, Program};

/// A `terminal if` or `draw if` condition in compiled form: the same fragment as rules.
#[derive(Debug, Clone)]
pub struct CompiledCond {
    pub(super) cond: BoolExpr,
    pub(super) shape: RunShape,
}

/// Compiles a game's condition, if it lies in the fragment.
pub fn compile_condition(
    cond: &Expr,
    frame_size: usize,
    program: Option<&Program>,
) -> Option<CompiledCond> {
    Compiler::two_passes(program, frame_size, |c| {
        let cond = c.boolean(cond)?;
        Some(CompiledCond {
            cond,
            shape: c.run_shape(),
        })
    })
}

impl CompiledCond {
    /// How deep the condition's inlined calls nest.
    pub fn call_depth(&self) -> usize {
        self.shape.call_depth
    }

    /// The condition's value in a position's frame; [`Interrupt::Fallback`] where the
    /// interpreter must evaluate it (and raise its error).
    pub fn eval(
        &self,
        frame: InputFrame<'_>,
        max_collection: u64,
        stop: &Stop,
    ) -> Result<bool, Interrupt> {
        mark(Reached::Condition);
        with_run(
            &self.shape,
            frame,
            max_collection,
            stop,
            Batching::One,
            |run| self.cond.eval(run),
        )
    }
}

/// All of a game's `terminal if` and `draw if` conditions, compiled together: one run
/// decides whether a position is an end of play and, if it is, whether it is a draw, the
/// conditions evaluated in the interpreter's order (the `terminal if` ones until one
/// holds, then the `draw if` ones until one holds) and sharing the values of the calls
/// they have in common.
#[derive(Debug, Clone)]
pub struct CompiledEnds {
    terminal: Vec<BoolExpr>,
    draw: Vec<BoolExpr>,
    shape: RunShape,
}

/// Compiles a game's conditions together, if there is a `terminal if` condition and all lie
/// in the fragment.
pub fn compile_ends(
    terminal: &[Expr],
    draw: &[Expr],
    frame_size: usize,
    program: Option<&Program>,
) -> Option<CompiledEnds> {
    if terminal.is_empty() {
        return None;
    }
    Compiler::two_passes(program, frame_size, |c| {
        let terminal = terminal
            .iter()
            .map(|e| c.boolean(e))
            .collect::<Option<Vec<_>>>()?;
        let draw = draw
            .iter()
            .map(|e| c.boolean(e))
            .collect::<Option<Vec<_>>>()?;
        Some(CompiledEnds {
            terminal,
            draw,
            shape: c.run_shape(),
        })
    })
}

impl CompiledEnds {
    /// How deep the conditions' inlined calls nest.
    pub fn call_depth(&self) -> usize {
        self.shape.call_depth
    }

    /// In a position's frame: `None` if no `terminal if` condition holds, else whether a
    /// `draw if` condition holds. [`Interrupt::Fallback`] where the interpreter (or the
    /// conditions compiled one by one) must evaluate them.
    #[inline(never)]
    pub fn end(
        &self,
        frame: InputFrame<'_>,
        max_collection: u64,
        stop: &Stop,
    ) -> Result<Option<bool>, Interrupt> {
        let any = |conds: &[BoolExpr], run: &mut Run<'_>| -> Eval<bool> {
            for c in conds {
                if c.eval(run)? {
                    return Ok(true);
                }
            }
            Ok(false)
        };
        mark(Reached::Ends);
        with_run(
            &self.shape,
            frame,
            max_collection,
            stop,
            Batching::One,
            |run| {
                if !any(&self.terminal, run)? {
                    return Ok(None);
                }
                Ok(Some(any(&self.draw, run)?))
            },
        )
    }
}
