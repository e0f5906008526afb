//! The kinds of game a position may be of, read off its declaration, and the checks that
//! play does not mix them where an analysis has no meaning: a payoff game's end met by play
//! of a game without payoffs (its payoff is neither a win nor a loss), a compound with a
//! payoff game's part (a compound's end has no payoff), partizan play that reaches a payoff
//! game (payoff games are impartial). [`Kind`] is what the chooser (`choose.rs`) decides by;
//! [`Guard`] is what a recurrence declares it refuses, checked by the search (`solve.rs`)
//! for every recurrence alike, and by the retrograde solvers at the terms they decide.

use super::Analyzer;
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::World;
use crate::graph::TermId;

/// The kind of game a position is of, as its declaration says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Both players have the same moves, and play is won, lost or drawn.
    Impartial,
    /// Left's and Right's moves differ.
    Partizan,
    /// Ends of play carry payoffs (`payoff` clauses): a position has a score. Payoff games
    /// are impartial (the resolver refuses `left move` and `right move` in one).
    Payoff,
}

impl Kind {
    /// The kind of `t`. A compound with a part of a payoff game is an error: its end has no
    /// payoff (`cgl::analysis::payoff_compound`).
    pub(super) fn of(an: &Analyzer, w: &World<'_>, t: TermId) -> DiagResult<Kind> {
        Ok(if is_scored(an, w, t)? {
            Kind::Payoff
        } else if an.graph.info(t).partizan {
            Kind::Partizan
        } else {
            Kind::Impartial
        })
    }
}

/// What a recurrence refuses at the terms it solves. The search checks it for every
/// recurrence in one place; a recurrence only says which it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guard {
    /// Nothing: the recurrence reads no end of play (the draws below a term, whether a term
    /// has a canonical form).
    None,
    /// Play that is won or lost: an end of play of a payoff game is refused
    /// ([`refuse_scored_end`]).
    WinLoss,
    /// Partizan play: a payoff game's position is refused wherever it is met
    /// ([`refuse_scored_in_partizan`]).
    Partizan,
    /// Negamax: every move stays among positions of payoff games ([`require_scored`]).
    Payoff,
}

impl Guard {
    /// The check of the term `t` whose moves (or parts) `deps` are now known.
    #[inline]
    pub(super) fn at_moves(
        self,
        an: &Analyzer,
        w: &World<'_>,
        t: TermId,
        deps: &[TermId],
    ) -> DiagResult<()> {
        if self == Guard::Payoff {
            for q in deps {
                require_scored(an, w, t, *q)?;
            }
        }
        Ok(())
    }

    /// The check of the term `t`, whose dependencies are `deps`, before its value is made
    /// from theirs.
    #[inline]
    pub(super) fn at_value(
        self,
        an: &Analyzer,
        w: &World<'_>,
        t: TermId,
        deps: &[TermId],
    ) -> DiagResult<()> {
        match self {
            Guard::WinLoss if deps.is_empty() => refuse_scored_end(an, w, t),
            Guard::Partizan => refuse_scored_in_partizan(an, w, t),
            Guard::None | Guard::WinLoss | Guard::Payoff => Ok(()),
        }
    }
}

/// Whether the position `t` is of a game with `payoff` clauses (`None` for a compound).
fn atom_scored(an: &Analyzer, w: &World<'_>, t: TermId) -> Option<bool> {
    let inst = an.graph.atom_instance(t)?;
    let game = w.games.info(inst).game;
    Some(
        w.program
            .games
            .get(game.0 as usize)
            .is_some_and(|g| !g.payoffs.is_empty()),
    )
}

/// Whether any game of the program has payoffs (else no check below is needed).
pub(super) fn any_scored(w: &World<'_>) -> bool {
    w.program.kinds().payoffs
}

/// Whether `t` is a position of a payoff game. A compound with such a part is an error: its
/// end has no payoff (`cgl::analysis::payoff_compound`).
pub(super) fn is_scored(an: &Analyzer, w: &World<'_>, t: TermId) -> DiagResult<bool> {
    if let Some(scored) = atom_scored(an, w, t) {
        return Ok(scored);
    }
    if !any_scored(w) {
        return Ok(false);
    }
    let mut stack = vec![t];
    while let Some(c) = stack.pop() {
        match an.graph.compound_of(c) {
            Some((_, parts)) => stack.extend_from_slice(parts),
            None if atom_scored(an, w, c) == Some(true) => return Err(compound_diag(an, w, t)),
            None => {}
        }
    }
    Ok(false)
}

#[cold]
pub(super) fn compound_diag(an: &Analyzer, w: &World<'_>, t: TermId) -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::AnalysisPayoffCompound,
            format!(
                "{} is a compound with a part of a payoff game, and a compound's end has no payoff",
                an.graph.show(&*w.games, t)
            ),
        )
        .help("compounds of payoff games (sums, `&`, `|`, `split`) are not defined: write the combined game as one game whose `payoff` says what its end pays"),
    )
}

/// An error unless the move `from -> to` stays among positions of payoff games.
pub(super) fn require_scored(
    an: &Analyzer,
    w: &World<'_>,
    from: TermId,
    to: TermId,
) -> DiagResult<()> {
    match atom_scored(an, w, to) {
        Some(true) => Ok(()),
        None => Err(compound_diag(an, w, to)),
        Some(false) => Err(mixed_diag(an, w, from, to)),
    }
}

#[cold]
fn mixed_diag(an: &Analyzer, w: &World<'_>, from: TermId, to: TermId) -> Box<Diag> {
    let (a, b) = (an.graph.show(&*w.games, from), an.graph.show(&*w.games, to));
    Box::new(
        Diag::error(
            Code::AnalysisPayoffMixed,
            format!("{a} moves to {b}, but only one of their games has `payoff` clauses"),
        )
        .help("give both games `payoff` clauses (normal play is `payoff -1`), or neither"),
    )
}

/// An error if the end of play `t`, met by an analysis of winning and losing, is a payoff
/// game's: its payoff is not a win or a loss (`cgl::analysis::payoff_mixed`).
pub(super) fn refuse_scored_end(an: &Analyzer, w: &World<'_>, t: TermId) -> DiagResult<()> {
    if atom_scored(an, w, t) != Some(true) {
        return Ok(());
    }
    Err(Box::new(
        Diag::error(
            Code::AnalysisPayoffMixed,
            format!(
                "play reaches {}, an end with a payoff, from a game without payoffs",
                an.graph.show(&*w.games, t)
            ),
        )
        .help("give both games `payoff` clauses (normal play is `payoff -1`), or neither"),
    ))
}

/// An error if partizan play reaches `t`, a position of a payoff game: payoff games are
/// impartial, and a score is not an outcome class (`cgl::analysis::payoff_mixed`).
pub(super) fn refuse_scored_in_partizan(an: &Analyzer, w: &World<'_>, t: TermId) -> DiagResult<()> {
    if atom_scored(an, w, t) != Some(true) {
        return Ok(());
    }
    Err(Box::new(
        Diag::error(
            Code::AnalysisPayoffMixed,
            format!(
                "partizan play reaches {}, a position of a payoff game",
                an.graph.show(&*w.games, t)
            ),
        )
        .help("payoff games are impartial and scored; a partizan game's positions are won or lost: keep the two apart"),
    ))
}

/// `score` asked of a position of a game without payoffs.
pub(super) fn not_payoff(an: &Analyzer, w: &World<'_>, t: TermId) -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::AnalysisNotPayoff,
            format!(
                "{} is a position of a game without `payoff` clauses, so it has no score",
                an.graph.show(&*w.games, t)
            ),
        )
        .help("a game without payoffs is won or lost: use `outcome(p)`; to score normal play, declare `payoff -1`"),
    )
}
