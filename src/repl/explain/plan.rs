//! What `:explain` is asked: which explanation the value calls for, decided from the value
//! and the session (a strategic game, a partizan position, a payoff game's position, an
//! impartial one), or why it has none.

use crate::api::builtins::Builtin;
use crate::api::Session;
use crate::api::Value;
use crate::api::{Code, Diag, Span};

/// The explanation a value calls for.
pub(super) enum Plan {
    /// A strategic-form game: its table, equilibria and value (`repl/strategic.rs`).
    Strategic,
    /// A partizan position: its class, value, stops and each player's options.
    Partizan,
    /// A payoff game's position, with its score: each option's score, the optimal moves.
    Scored(Value),
    /// An impartial position: its outcome, Grundy value, remoteness, options, mex and lego
    /// sets; `misere` when it is played under misère play.
    Impartial {
        /// Played under misère play.
        misere: bool,
    },
}

/// The plan for `position`, asking the session what it is in the order the explanations
/// need (a payoff game's score is computed here, to learn that it has one); a value that is
/// not a position is `cgl::repl::not_position`.
pub(super) fn plan(session: &mut Session, position: &Value, span: Span) -> Result<Plan, Box<Diag>> {
    if session.strategic_table(position, span).is_some() {
        return Ok(Plan::Strategic);
    }
    let Value::Pos(pos) = position else {
        return Err(Box::new(
            Diag::error(
                Code::ReplNotPosition,
                format!(
                    "`:explain` needs a position, but this is {} ({})",
                    position.a_type_name(),
                    session.show(position)
                ),
            )
            .label(span, "not a position")
            .help(session.position_help(
                position,
                "make a position by calling a game: `:explain Kayles(4)`",
            )),
        ));
    };
    if session.is_partizan(position) {
        return Ok(Plan::Partizan);
    }
    match session.analyse(Builtin::Score, position, span) {
        Ok(score) => Ok(Plan::Scored(score)),
        Err(d) if d.code == Code::AnalysisNotPayoff => Ok(Plan::Impartial {
            misere: pos.is_misere(),
        }),
        Err(d) => Err(d),
    }
}
