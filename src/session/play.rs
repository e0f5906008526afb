//! Playing a game move by move, as data: the view of one position ([`PlayView`]) with each
//! option and what it means for the player who takes it (a win, a loss or a draw, and in how
//! many moves; in a payoff game its score and whether it is optimal), the move perfect play
//! takes ([`choose_move`]), and how the game ended. The REPL's `:play` and the web page of
//! `cgl serve` both play through it.

use serde::Serialize;

use super::Session;
use crate::cgt::Side;
use crate::diag::{Code, Diag, Span};
use crate::eval::builtins::Builtin;
use crate::value::{Outcome, PosTerm, Value};

/// What the computer knows of one option: its outcome (for the player who moves next, the
/// opponent) and its remoteness (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionFacts {
    /// Outcome of the option.
    pub outcome: Outcome,
    /// Remoteness of the option, `None` for a draw.
    pub remoteness: Option<u64>,
}

/// The computer's move, as in `line`: a move to a P position (the opponent loses) of least
/// remoteness, to win as fast as it can; with none, a move to a draw; with none either, the
/// move of greatest remoteness, to lose as late as it can. Ties go to the first option.
/// `None` when there is no option.
pub fn choose_move(options: &[OptionFacts]) -> Option<usize> {
    let best_by = |wanted: Outcome, hurry: bool| {
        let mut best: Option<(usize, u64)> = None;
        for (i, o) in options.iter().enumerate() {
            if o.outcome != wanted {
                continue;
            }
            let r = o.remoteness.unwrap_or(0);
            let better = match best {
                None => true,
                Some((_, b)) if hurry => r < b,
                Some((_, b)) => r > b,
            };
            if better {
                best = Some((i, r));
            }
        }
        best.map(|(i, _)| i)
    };
    best_by(Outcome::P, true)
        .or_else(|| best_by(Outcome::D, true))
        .or_else(|| best_by(Outcome::N, false))
}

/// What taking an option means for the player who takes it, against perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ForMover {
    /// The mover wins (the option is lost for the opponent, who moves there).
    Win,
    /// The mover loses.
    Lose,
    /// Neither can force a win.
    Draw,
    /// A payoff game: the option keeps the best score the mover can secure.
    Optimal,
    /// A payoff game: the option gives away some of it.
    Suboptimal,
}

/// One option of a position being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayOption {
    /// The option as cgl prints it.
    pub position: String,
    /// Its picture (its game's `show`), if it has one.
    pub picture: Option<String>,
    /// What it means for the player who takes it.
    pub result: ForMover,
    /// Moves from the option to the end of the game with perfect play (`None`: a draw, or
    /// a payoff game).
    pub remoteness: Option<u64>,
    /// A payoff game: the option's score, as cgl prints it.
    pub score: Option<String>,
}

/// How a game ended, from the point of view of the player who would move next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// The player to move (who cannot) wins: misère play, or a payoff game in their favour.
    Mover,
    /// The other player, who made the last move, wins.
    Other,
    /// Nobody: a draw, or an even score.
    Nobody,
}

/// The end of a game: who won, and why in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayEnd {
    /// Who won.
    pub winner: Winner,
    /// Why, in words ("normal play: who cannot move loses").
    pub reason: String,
}

/// A position being played: it, its picture, its options with what each means for the
/// mover, the move perfect play takes, and how the game ended if it has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayView {
    /// The position as cgl prints it.
    pub position: String,
    /// Its picture, if its game has a `show` clause.
    pub picture: Option<String>,
    /// Its outcome class.
    pub outcome: String,
    /// In a partizan game, the side to move (`"left"` or `"right"`).
    pub side: Option<String>,
    /// Whether it is a payoff game (played for its score).
    pub scored: bool,
    /// Its options, in cgl's order (at most [`MOST_OPTIONS`]).
    pub options: Vec<PlayOption>,
    /// How many options there are in all.
    pub option_count: usize,
    /// The index of the option perfect play takes.
    pub best: Option<usize>,
    /// How the game ended, when there is no option.
    pub end: Option<PlayEnd>,
}

/// Options listed at most in a [`PlayView`] (every one is still looked at for the best move).
pub const MOST_OPTIONS: usize = 500;

/// Options drawn at most in a [`PlayView`]; later ones have their printed form only.
const MOST_PICTURES: usize = 100;

impl Session {
    /// The options of `position` for the player to move: its moves, or in a partizan game
    /// the moves of `side`.
    pub fn play_options(
        &mut self,
        position: &Value,
        side: Option<Side>,
        span: Span,
    ) -> Result<Vec<Value>, Box<Diag>> {
        let moves = match side {
            Some(side) => self.analyse_side(Builtin::Moves, position, side, span)?,
            None => self.analyse(Builtin::Moves, position, span)?,
        };
        Ok(match moves {
            Value::List(ref items) => items.to_vec(),
            _ => Vec::new(),
        })
    }

    /// The view of `position` with the player to move (in a partizan game, `side`, Left if
    /// not given) about to choose. Errors point at `span`: a value that is no position, or
    /// an analysis that failed (out of time, too many positions).
    pub fn play_view(
        &mut self,
        position: &Value,
        side: Option<Side>,
        span: Span,
    ) -> Result<PlayView, Box<Diag>> {
        let Value::Pos(pos) = position else {
            return Err(Box::new(
                Diag::error(
                    Code::ReplNotPosition,
                    format!(
                        "play needs a position, but this is {} ({})",
                        position.a_type_name(),
                        self.show_short(position)
                    ),
                )
                .label(span, "not a position")
                .help(
                    self.position_help(position, "make a position by calling a game: `Kayles(6)`"),
                ),
            ));
        };
        let misere = pos.is_misere();
        let side = if self.is_partizan(position) {
            Some(side.unwrap_or(Side::Left))
        } else {
            None
        };
        let scored = match self.analyse(Builtin::Score, position, span) {
            Ok(_) => true,
            Err(d) if d.code == Code::AnalysisNotPayoff => false,
            Err(d) => return Err(d),
        };
        let outcome = self.analyse(Builtin::Outcome, position, span)?;
        let outcome_class = match outcome {
            Value::Outcome(o) => o,
            _ => Outcome::D,
        };
        let moves = self.play_options(position, side, span)?;
        let optimal = if scored && !moves.is_empty() {
            match self.analyse(Builtin::OptimalMoves, position, span)? {
                Value::List(ref items) => items.to_vec(),
                _ => Vec::new(),
            }
        } else {
            Vec::new()
        };
        let mut options = Vec::with_capacity(moves.len().min(MOST_OPTIONS));
        let mut facts = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            let (result, remoteness, score, fact) = if scored {
                let score = self.analyse(Builtin::Score, m, span)?;
                let best = optimal.contains(m);
                let fact = OptionFacts {
                    outcome: if best { Outcome::P } else { Outcome::N },
                    remoteness: Some(0),
                };
                let result = if best {
                    ForMover::Optimal
                } else {
                    ForMover::Suboptimal
                };
                (result, None, Some(self.show(&score)), fact)
            } else {
                let fact = self.option_facts(m, side, span)?;
                let result = match fact.outcome {
                    Outcome::P => ForMover::Win,
                    Outcome::D => ForMover::Draw,
                    _ => ForMover::Lose,
                };
                (result, fact.remoteness, None, fact)
            };
            facts.push(fact);
            if i < MOST_OPTIONS {
                let picture = if i < MOST_PICTURES {
                    self.picture(m, span)?
                } else {
                    None
                };
                options.push(PlayOption {
                    position: self.show(m),
                    picture,
                    result,
                    remoteness,
                    score,
                });
            }
        }
        let end = if moves.is_empty() {
            Some(self.play_end(position, outcome_class, side, scored, misere, span)?)
        } else {
            None
        };
        Ok(PlayView {
            position: self.show(position),
            picture: self.picture(position, span)?,
            outcome: outcome_class.to_string(),
            side: side.map(|s| match s {
                Side::Left => "left".to_string(),
                Side::Right => "right".to_string(),
            }),
            scored,
            option_count: moves.len(),
            options,
            best: choose_move(&facts),
            end,
        })
    }

    /// What the computer knows of an option taken by `side` (impartial: `None`), as an
    /// impartial option: a win for the mover is a P option (what [`choose_move`] reads).
    pub fn option_facts(
        &mut self,
        option: &Value,
        side: Option<Side>,
        span: Span,
    ) -> Result<OptionFacts, Box<Diag>> {
        let outcome = match self.analyse(Builtin::Outcome, option, span)? {
            Value::Outcome(o) => o,
            _ => Outcome::D,
        };
        let Some(side) = side else {
            let remoteness = match self.analyse(Builtin::Remoteness, option, span) {
                Ok(Value::Int(n)) => u64::try_from(n).ok(),
                Ok(_) => None,
                Err(d) if d.code == Code::AnalysisRemotenessDraw => None,
                Err(d) => return Err(d),
            };
            return Ok(OptionFacts {
                outcome,
                remoteness,
            });
        };
        let wins = match side {
            Side::Left => matches!(outcome, Outcome::L | Outcome::P),
            Side::Right => matches!(outcome, Outcome::R | Outcome::P),
        };
        let remoteness = match self.analyse_side(Builtin::Remoteness, option, other(side), span) {
            Ok(Value::Int(n)) => u64::try_from(n).ok(),
            Ok(_) => None,
            Err(d) if d.code == Code::AnalysisRemotenessDraw => None,
            Err(d) => return Err(d),
        };
        Ok(OptionFacts {
            outcome: match (wins, outcome) {
                (true, _) => Outcome::P,
                (false, Outcome::D) => Outcome::D,
                (false, _) => Outcome::N,
            },
            remoteness,
        })
    }

    /// How a game ended at `position`, where the player to move has no option.
    fn play_end(
        &mut self,
        position: &Value,
        outcome: Outcome,
        side: Option<Side>,
        scored: bool,
        misere: bool,
        span: Span,
    ) -> Result<PlayEnd, Box<Diag>> {
        if scored {
            let pays = self.analyse(Builtin::Score, position, span)?;
            let winner = match outcome {
                Outcome::N => Winner::Mover,
                Outcome::P => Winner::Other,
                _ => Winner::Nobody,
            };
            return Ok(PlayEnd {
                winner,
                reason: format!(
                    "the payoff to the player who cannot move is {}",
                    self.show(&pays)
                ),
            });
        }
        if side.is_some() {
            return Ok(if misere {
                PlayEnd {
                    winner: Winner::Mover,
                    reason: "misère play: who cannot move wins".into(),
                }
            } else {
                PlayEnd {
                    winner: Winner::Other,
                    reason: "normal play: who cannot move loses".into(),
                }
            });
        }
        let empty = matches!(position, Value::Pos(p) if p.term == PosTerm::empty());
        Ok(match outcome {
            Outcome::D => PlayEnd {
                winner: Winner::Nobody,
                reason: format!("{} is a draw", self.show(position)),
            },
            Outcome::N => PlayEnd {
                winner: Winner::Mover,
                reason: "misère play: who cannot move wins".into(),
            },
            _ => PlayEnd {
                winner: Winner::Other,
                reason: if empty {
                    "nothing is left, and who cannot move loses".into()
                } else {
                    "who cannot move loses".into()
                },
            },
        })
    }
}

fn other(side: Side) -> Side {
    match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionConfig;

    fn f(outcome: Outcome, remoteness: Option<u64>) -> OptionFacts {
        OptionFacts {
            outcome,
            remoteness,
        }
    }

    #[test]
    fn wins_as_fast_as_it_can() {
        let options = [
            f(Outcome::N, Some(5)),
            f(Outcome::P, Some(4)),
            f(Outcome::P, Some(2)),
            f(Outcome::P, Some(2)),
        ];
        assert_eq!(choose_move(&options), Some(2));
    }

    #[test]
    fn loses_as_late_as_it_can() {
        let options = [
            f(Outcome::N, Some(1)),
            f(Outcome::N, Some(7)),
            f(Outcome::N, Some(3)),
            f(Outcome::N, Some(7)),
        ];
        assert_eq!(choose_move(&options), Some(1));
    }

    #[test]
    fn prefers_a_draw_to_a_loss() {
        let options = [f(Outcome::N, Some(9)), f(Outcome::D, None)];
        assert_eq!(choose_move(&options), Some(1));
        // But a win to a draw.
        let options = [f(Outcome::D, None), f(Outcome::P, Some(6))];
        assert_eq!(choose_move(&options), Some(1));
    }

    #[test]
    fn no_options_no_move() {
        assert_eq!(choose_move(&[]), None);
    }

    #[test]
    fn a_view_lists_each_option_for_the_mover() {
        let mut s = Session::new(SessionConfig::default());
        let file = s
            .load_source("nim.game", "game Nim { position n  move k for k in 0..n }")
            .unwrap();
        let start = s.eval_text("Nim(2) + Nim(3)", &[file]).unwrap();
        let span = Span::new(crate::diag::FileId(0), 0, 0);
        let view = s.play_view(&start, None, span).unwrap();
        assert_eq!(view.outcome, "N");
        let wins: Vec<&str> = view
            .options
            .iter()
            .filter(|o| o.result == ForMover::Win)
            .map(|o| o.position.as_str())
            .collect();
        assert_eq!(wins, ["Nim(2) + Nim(2)"]);
        let best = view.best.unwrap();
        assert_eq!(view.options[best].position, "Nim(2) + Nim(2)");
        let end = s.eval_text("Nim(0)", &[file]).unwrap();
        let view = s.play_view(&end, None, span).unwrap();
        assert_eq!(view.end.unwrap().winner, Winner::Other);
        assert!(s.play_view(&Value::Int(3), None, span).is_err());
    }
}
