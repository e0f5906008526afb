//! Targets that change one cell of the position: `set(b, i, v)` of the position's list `b`
//! (through inlined calls too: `play(b, i)` whose body is such a `set`). A visitor that
//! names positions by something it can update from one cell — the analyses' rank table,
//! where the rank moves by `(code(v) - code(b[i]))·m^i` — asks for them as
//! [`Emitted::SetCell`] ([`CompiledRule::run_cells`]): the index and the value, computed as
//! `set` computes them (index then value, an index off the list handed to the interpreter as
//! `set` hands it), and no list built.
//!
//! The shape is read off the compiled target, never off the game: the list must be a
//! register the rule reads from its frame and never binds (an input; the compiler refuses to
//! bind an input), so that all through a run it holds the position as given.
//!
//! The parallel solver's rank table takes such a target as `Emitted::SetCell(i, v)` and moves
//! the position's rank by that cell (`Ranks::with_cell`), with no list built.

use std::ops::ControlFlow;

use super::*;
use crate::diag::DiagResult;
use crate::eval::stop::Stop;

/// The input list register whose one cell `target` sets, if it is `set(b, i, v)` of an
/// input list `b` (inside inlined calls or not).
pub(super) fn set_register(target: &Target, inputs: &[(u32, Kind)]) -> Option<u32> {
    let Target::List(list) = target else {
        return None;
    };
    let mut list = list;
    loop {
        match list {
            ListExpr::Let(_, body) => list = body,
            ListExpr::SetAt(of, _, _) => {
                let ListExpr::Reg(reg) = **of else {
                    return None;
                };
                return inputs.contains(&(reg, Kind::List)).then_some(reg);
            }
            _ => return None,
        }
    }
}

impl CompiledRule {
    /// [`CompiledRule::run`] (in blocks: a crossed list target runs a block of its loop's
    /// values at once, `cross.rs`) for a visitor that takes a target setting one
    /// cell of the packed position as [`Emitted::SetCell`]: when the rule's target is such a
    /// `set` of the list `frame.packed` gives, every option comes so; else as from `run`,
    /// but for a crossed block's filtered lists, which come as [`Emitted::Kept`].
    pub fn run_cells(
        &self,
        frame: InputFrame<'_>,
        max_collection: u64,
        stop: &Stop,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let cells = self.set_cell.is_some() && frame.packed.map(|(slot, _)| slot) == self.set_cell;
        mark(Reached::Rule);
        if cells {
            mark(Reached::Cells);
        }
        with_run(
            &self.shape,
            frame,
            max_collection,
            stop,
            Batching::Blocks,
            |run| {
                run.cells = cells;
                run.kept = true;
                self.steps_from(0, run, emit)
            },
        )
    }

    /// The target as the cell it sets: `set`'s index and value, as `set` computes them.
    pub(super) fn emit_cell(
        &self,
        run: &mut Run<'_>,
        emit: &mut dyn FnMut(Emitted<'_>) -> DiagResult<ControlFlow<()>>,
    ) -> Result<ControlFlow<()>, Interrupt> {
        let (Target::List(list), Some(reg)) = (&self.target, self.set_cell) else {
            return Err(Interrupt::Fallback);
        };
        let (i, v) = cell_of(list, reg, run)?;
        emit(Emitted::SetCell(i, v)).map_err(Interrupt::Error)
    }
}

/// The cell that `list` (of the shape [`set_register`] accepts) sets, and its value: the
/// inlined calls' arguments bound, then the index and the value evaluated, in the order
/// `ListExpr::eval_into` evaluates them; an index off the list is the interpreter's error.
fn cell_of(list: &ListExpr, reg: u32, run: &mut Run<'_>) -> Eval<(usize, i64)> {
    match list {
        ListExpr::Let(bindings, body) => {
            lists::bind_all(bindings, run)?;
            cell_of(body, reg, run)
        }
        ListExpr::SetAt(_, index, value) => {
            let i = index.eval(run)?;
            let v = value.eval(run)?;
            let len = run.b.lists[reg as usize].len();
            let i = usize::try_from(i)
                .ok()
                .filter(|i| *i < len)
                .ok_or(Interrupt::Fallback)?;
            Ok((i, v))
        }
        _ => Err(Interrupt::Fallback),
    }
}
