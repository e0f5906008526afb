//! What `:explain` shows: a position's outcome, values and options with theirs, within a
//! budget of time. Split by job: `plan.rs` decides what is asked (a strategic game, a
//! partizan, payoff or impartial position, or not a position), `compute.rs` asks the session
//! for every fact into one struct of results, and `render.rs` prints that struct. A
//! strategic game's explanation is `repl/strategic.rs`'s. (`:table` and `:grid` are in
//! `repl/table.rs`.)

mod compute;
mod plan;
mod render;

use crate::api::Session;
use crate::api::Value;
use crate::api::{Diag, Span};
pub use compute::outcome;
use plan::Plan;

/// Options listed by `:explain` at most (the sets below still use all of them).
const MAX_ROWS: usize = 200;

/// Options `:explain` draws at most, when their game has a `show` clause.
const MAX_PICTURES: usize = 40;

/// How long `:explain` spends on the Grundy values and remoteness of a position and its
/// options, all together: what does not finish in time is shown as skipped, with how to ask
/// for it (a sum's remoteness needs the explicit product of its parts, which can be huge).
pub const EXPLAIN_BUDGET: std::time::Duration = std::time::Duration::from_secs(1);

/// `:explain P`.
pub fn explain(
    session: &mut Session,
    position: &Value,
    span: Span,
    color: bool,
) -> Result<String, Box<Diag>> {
    Ok(match plan::plan(session, position, span)? {
        Plan::Strategic => return super::strategic::explain(session, position, span),
        Plan::Partizan => render::partizan(&compute::partizan(session, position, span)?, color),
        Plan::Scored(score) => {
            render::scored(&compute::scored(session, position, &score, span)?, color)
        }
        Plan::Impartial { misere } => {
            render::impartial(&compute::impartial(session, position, misere, span)?, color)
        }
    })
}
