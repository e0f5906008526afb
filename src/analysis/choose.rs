//! Which solver answers an analysis built-in, decided in one place from the kind of game the
//! position is of ([`Kind`], read off its declaration), and the built-ins answered from it:
//!
//! | kind of game | `value` | every other analysis |
//! | --- | --- | --- |
//! | impartial | canonical forms (`partizan.rs`: its nimber) | impartial play (`impartial.rs`) |
//! | partizan | canonical forms (`partizan.rs`) | partizan play (`partizan.rs`) |
//! | payoff | refused | scores (`payoff.rs`) |
//!
//! `moves` and `reachable` ask the graph, whatever the kind: a position's moves (Left's or
//! Right's where they differ) are what its rules make, and no score or outcome is read.
//!
//! The second choice is made by the shape of play, inside each solver: where its depth-first
//! search meets a cycle that a `loopy` game declares (`Unsolved::Cycle`), impartial play
//! hands `outcome` and `remoteness` to retrograde analysis (`retro.rs`) and payoff games
//! their score to the retrograde analysis by magnitudes (`payoff.rs`); Grundy values and
//! partizan play have no loopy solver yet, and say so. That choice cannot be made up here:
//! a partizan position's impartial options and an impartial position's payoff options are
//! answered by their own kind, term by term, far below the built-in that was asked.
//! Strategic-form games have no positions: evaluation answers them (`src/strategic`), and
//! none reaches the analyzer.

use std::rc::Rc;

use super::kind::{not_payoff, Kind};
use super::reach::reachable;
use super::smith::Nimber;
use super::{impartial, partizan, payoff, Analyzer};
use crate::cgt::Side;
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::builtins::Builtin;
use crate::eval::value::{Outcome, Position, Value};
use crate::eval::World;
use crate::graph::TermId;
use crate::syntax::ast::Convention;

/// The solvers, one per kind of game and question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solver {
    /// Impartial play, won, lost or drawn (`impartial.rs`, and `retro.rs` where it cycles).
    Impartial,
    /// Partizan play: outcome classes and the race to the end (`partizan.rs`).
    Partizan,
    /// Canonical forms of normal play, of partizan and impartial positions alike
    /// (`partizan.rs`).
    Forms,
    /// Payoff games' scores (`payoff.rs`).
    Payoff,
}

/// Which solver answers `builtin` at a position of `kind`.
fn choose(kind: Kind, builtin: Builtin) -> Solver {
    match (kind, builtin) {
        (Kind::Payoff, _) => Solver::Payoff,
        (_, Builtin::Value) => Solver::Forms,
        (Kind::Partizan, _) => Solver::Partizan,
        (Kind::Impartial, _) => Solver::Impartial,
    }
}

/// Runs an analysis built-in on a position value.
pub(super) fn run(
    an: &mut Analyzer,
    w: &mut World<'_>,
    builtin: Builtin,
    position: &Position,
    side: Option<Side>,
) -> DiagResult<Value> {
    let t = an.graph.intern(w, &position.term)?;
    let at = At {
        t,
        conv: position.convention,
        side,
        name: builtin.name(),
    };
    match builtin {
        Builtin::Moves => return moves(an, w, at),
        Builtin::Reachable => return Ok(Value::Int(reachable(an, w, t, at.conv)? as i64)),
        _ => {}
    }
    match choose(Kind::of(an, w, t)?, builtin) {
        Solver::Impartial => impartial_answer(an, w, builtin, at),
        Solver::Partizan => partizan_answer(an, w, builtin, at),
        Solver::Forms => {
            let g = partizan::value(an, w, t, at.conv)?;
            Value::form(g).map_err(partizan::cgt_error)
        }
        Solver::Payoff => payoff_answer(an, w, builtin, at),
    }
}

/// Where a built-in was asked: the term, its convention, the side asked for (a partizan
/// position's), and the built-in's name.
#[derive(Clone, Copy)]
struct At {
    t: TermId,
    conv: Convention,
    side: Option<Side>,
    name: &'static str,
}

impl At {
    /// The position of the term `id`, under this convention.
    fn position(self, an: &Analyzer, w: &World<'_>, id: TermId) -> Value {
        Value::Pos(Rc::new(Position {
            term: an.graph.pos_term(w.games, id),
            convention: self.conv,
        }))
    }

    /// The list of the positions of `ids`.
    fn list(self, an: &Analyzer, w: &World<'_>, ids: Vec<TermId>) -> Value {
        Value::list(ids.into_iter().map(|s| self.position(an, w, s)).collect())
    }

    /// The side asked for, which a partizan position's analyses need.
    fn side(self) -> DiagResult<Side> {
        self.side.ok_or_else(|| partizan::needs_side(self.name))
    }
}

/// `moves(p)`: the options of the position, Left's or Right's where they differ.
fn moves(an: &mut Analyzer, w: &mut World<'_>, at: At) -> DiagResult<Value> {
    let options = if an.graph.info(at.t).partizan {
        side_options(an, w, at.t, at.side()?)?
    } else {
        an.graph.successors(w, at.t)?
    };
    Ok(at.list(an, w, options))
}

/// `side`'s options of `t`.
fn side_options(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    side: Side,
) -> DiagResult<Vec<TermId>> {
    let (left, right) = an.graph.side_options(w, t)?;
    Ok(match side {
        Side::Left => left,
        Side::Right => right,
    })
}

fn not_an_analysis(builtin: Builtin) -> Box<Diag> {
    Box::new(Diag::internal(format!(
        "`{}` is not an analysis",
        builtin.name()
    )))
}

/// An analysis of an impartial position: both players' moves are the same, so a side
/// changes nothing.
fn impartial_answer(
    an: &mut Analyzer,
    w: &mut World<'_>,
    builtin: Builtin,
    at: At,
) -> DiagResult<Value> {
    let (t, conv) = (at.t, at.conv);
    Ok(match builtin {
        Builtin::Outcome => Value::Outcome(impartial::outcome(an, w, t, conv)?),
        Builtin::Grundy => {
            if conv == Convention::Misere {
                return Err(Box::new(
                    Diag::error(Code::AnalysisGrundyMisere, "Grundy values describe normal play, not misère play")
                        .help("use `outcome(p)` or `remoteness(p)` for a misère position"),
                ));
            }
            match impartial::nimber(an, w, t)? {
                Nimber::Finite(g) => Value::Int(g as i64),
                Nimber::Infinite(k) => Value::Infinite(Rc::new(k)),
            }
        }
        Builtin::Remoteness => match impartial::remoteness(an, w, t, conv)? {
            Some(r) => Value::Int(r as i64),
            None => {
                return Err(Box::new(
                    Diag::error(Code::AnalysisRemotenessDraw, "the position is a draw, so it has no remoteness")
                        .help("remoteness counts the moves to the end of a won or lost game; check `outcome(p) != D` first"),
                ))
            }
        },
        Builtin::WinningMoves => {
            let mut out = Vec::new();
            for s in an.graph.successors(w, t)? {
                if impartial::outcome(an, w, s, conv)? == Outcome::P {
                    out.push(s);
                }
            }
            at.list(an, w, out)
        }
        Builtin::Score => return Err(not_payoff(an, w, t)),
        Builtin::OptimalMoves => {
            let here = impartial::outcome(an, w, t, conv)?;
            let mut out = Vec::new();
            for s in an.graph.successors(w, t)? {
                let o = impartial::outcome(an, w, s, conv)?;
                let keeps = match here {
                    Outcome::N => o == Outcome::P,
                    Outcome::D => o == Outcome::D,
                    _ => true,
                };
                if keeps {
                    out.push(s);
                }
            }
            at.list(an, w, out)
        }
        Builtin::Line => {
            let line = impartial::line(an, w, t, conv)?;
            at.list(an, w, line)
        }
        other => return Err(not_an_analysis(other)),
    })
}

/// An analysis of a partizan position: most need the side that moves first.
fn partizan_answer(
    an: &mut Analyzer,
    w: &mut World<'_>,
    builtin: Builtin,
    at: At,
) -> DiagResult<Value> {
    let (t, conv) = (at.t, at.conv);
    Ok(match builtin {
        Builtin::Outcome => Value::Outcome(partizan::outcome(an, w, t, conv)?),
        Builtin::Grundy => {
            return Err(Box::new(
                Diag::error(Code::AnalysisGrundyPartizan, "a partizan position has no Grundy value: Left's and Right's moves differ")
                    .help("use `value(p)`, its canonical form (an impartial position's value is its nimber), or `outcome(p)`"),
            ))
        }
        Builtin::WinningMoves => {
            let side = at.side()?;
            let mut out = Vec::new();
            for s in side_options(an, w, t, side)? {
                if partizan::good_for(side, partizan::outcome(an, w, s, conv)?) {
                    out.push(s);
                }
            }
            at.list(an, w, out)
        }
        Builtin::Remoteness => {
            let (_, rem) = partizan::race(an, w, t, conv, at.side()?)?;
            Value::Int(i64::try_from(rem).unwrap_or(i64::MAX))
        }
        Builtin::OptimalMoves => {
            // No draws in partizan play: the winning options when there are any, else
            // every option (each loses), as for an impartial position.
            let side = at.side()?;
            let options = side_options(an, w, t, side)?;
            let mut winning = Vec::new();
            for &s in &options {
                if partizan::good_for(side, partizan::outcome(an, w, s, conv)?) {
                    winning.push(s);
                }
            }
            let keep = if winning.is_empty() { options } else { winning };
            at.list(an, w, keep)
        }
        Builtin::Score => return Err(not_payoff(an, w, t)),
        Builtin::Line => {
            let line = partizan::line(an, w, t, conv, at.side()?)?;
            at.list(an, w, line)
        }
        other => return Err(not_an_analysis(other)),
    })
}

/// An analysis of a position of a payoff game: its score, its sign as the outcome, the
/// options that keep the score and the line that follows them; win-and-loss analyses are
/// refused.
fn payoff_answer(
    an: &mut Analyzer,
    w: &mut World<'_>,
    builtin: Builtin,
    at: At,
) -> DiagResult<Value> {
    let t = at.t;
    let refuse = |what: &str| -> DiagResult<Value> {
        Err(Box::new(
            Diag::error(
                Code::AnalysisPayoffGame,
                format!("{} is a position of a payoff game, which has no {what}", an.graph.show(&*w.games, t)),
            )
            .help("a payoff game's positions have a score: use `score(p)`, `outcome(p)` (its sign), `optimal_moves(p)` and `line(p)`"),
        ))
    };
    if at.conv == Convention::Misere {
        return refuse("misère play (its payoffs say who gains at the end)");
    }
    Ok(match builtin {
        Builtin::Score => Value::number(payoff::score(an, w, t)?),
        Builtin::Outcome => Value::Outcome(payoff::outcome(an, w, t)?),
        Builtin::WinningMoves => {
            // Each option's outcome by its own kind, as `outcome` of it would be.
            let mut out = Vec::new();
            for s in an.graph.successors(w, t)? {
                if impartial::outcome(an, w, s, at.conv)? == Outcome::P {
                    out.push(s);
                }
            }
            at.list(an, w, out)
        }
        Builtin::OptimalMoves => {
            let ids = payoff::optimal_moves(an, w, t)?;
            at.list(an, w, ids)
        }
        Builtin::Line => {
            let ids = payoff::line(an, w, t)?;
            at.list(an, w, ids)
        }
        Builtin::Grundy => return refuse("Grundy value"),
        Builtin::Remoteness => return refuse("remoteness"),
        Builtin::Value => return refuse("canonical-form value (a value is of normal play)"),
        other => {
            return Err(Box::new(Diag::internal(format!(
                "`{}` is not an analysis of payoff games",
                other.name()
            ))))
        }
    })
}
