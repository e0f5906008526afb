//! The analyses over the game graph: outcome, Grundy value, remoteness, winning moves and the
//! optimal line, each a recurrence solved bottom-up by one iterative depth-first search.
//!
//! Compounds are analysed by the theorems where they hold and the graph is not forced
//! explicit: Grundy values XOR over a disjunctive sum (Sprague–Grundy), remoteness is the
//! minimum over a conjunctive compound and the selective rule over a selective one (Smith; 003
//! Thm 16 and 19). Everywhere else (misère play, draws, `--explicit`) the compound's explicit
//! product moves are used. Property tests check that both ways agree.

mod memo;
mod parallel;
mod partizan;
mod payoff;
mod reach;
mod retro;
mod solve;
mod stream;

use std::rc::Rc;

pub use memo::Memos;
use memo::{RemCode, RemMemo};
use reach::reachable;
pub use solve::Slot;
use solve::{solve, Analysis, MemoTable};

use crate::cgt::Side;
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::builtins::{self, Builtin};
use crate::eval::value::{CompoundKind, Outcome, PosTerm, Position, Value};
use crate::eval::{Host, World};
use crate::graph::{GameGraph, GraphConfig, TermId};
use crate::syntax::ast::Convention;

/// Remoteness: `Some(r)` (even iff P), or `None` for a draw.
pub type Rem = Option<u64>;

fn conv_index(c: Convention) -> usize {
    match c {
        Convention::Normal => 0,
        Convention::Misere => 1,
    }
}

/// The game graph and, beside it, the memo tables of the analyses run on it: what a session
/// keeps between queries.
#[derive(Debug, Default)]
pub struct Analyzer {
    /// The positions and their moves.
    pub graph: GameGraph,
    /// What the analyses learnt of them, by term id.
    memos: Memos,
}

impl Analyzer {
    /// An empty graph with these settings, and empty memos.
    pub fn new(config: GraphConfig) -> Analyzer {
        Analyzer {
            graph: GameGraph::new(config),
            memos: Memos::default(),
        }
    }

    /// The memory held now, in bytes: the graph's tables and the memos (what `--stats`
    /// reports).
    pub fn measured_bytes(&self) -> usize {
        self.graph.measured_bytes() + self.memos.bytes()
    }

    /// After a query went over a limit, starts afresh (graph and memos together, since the
    /// memos are indexed by the graph's term ids) so that later, smaller queries can still
    /// run.
    fn recover(&mut self, error: &Diag) {
        if self.graph.recover(error) {
            self.memos = Memos::default();
        }
    }
}

/// The analyzer as evaluation's host: compounds are canonicalised by interning them, analyses
/// run here. After a limit error the graph starts afresh, so the next query is not refused
/// for what this one filled.
impl Host for Analyzer {
    fn canonical(&mut self, world: &mut World<'_>, term: &PosTerm) -> DiagResult<PosTerm> {
        match self.graph.intern(world, term) {
            Ok(id) => Ok(self.graph.pos_term(world.games, id)),
            Err(d) => {
                self.recover(&d);
                Err(d)
            }
        }
    }

    fn analyse(
        &mut self,
        world: &mut World<'_>,
        builtin: Builtin,
        position: &Position,
        side: Option<crate::cgt::Side>,
    ) -> DiagResult<Value> {
        run(self, world, builtin, position, side)
            .map_err(|d| {
                if d.code == retro::LOOPY_CYCLE {
                    Box::new(Diag::internal(
                        "a declared cycle reached an analysis that does not solve loopy games",
                    ))
                } else {
                    d
                }
            })
            .inspect_err(|d| self.recover(d))
    }
}

/// Runs an analysis built-in on a position value.
fn run(
    an: &mut Analyzer,
    w: &mut World<'_>,
    builtin: Builtin,
    position: &Position,
    side: Option<Side>,
) -> DiagResult<Value> {
    let t = an.graph.intern(w, &position.term)?;
    let conv = position.convention;
    let to_value = |an: &Analyzer, w: &World<'_>, id: TermId| {
        Value::Pos(Rc::new(Position {
            term: an.graph.pos_term(w.games, id),
            convention: conv,
        }))
    };
    if !matches!(builtin, Builtin::Moves | Builtin::Reachable) && payoff::is_scored(an, w, t)? {
        return run_scored(an, w, builtin, t, conv);
    }
    if builtin == Builtin::Value {
        let g = partizan::value(an, w, t, conv)?;
        return Value::form(g).map_err(partizan::cgt_error);
    }
    if an.graph.info(t).partizan {
        let name = builtin.name();
        let side_or_error = || side.ok_or_else(|| partizan::needs_side(name));
        return Ok(match builtin {
            Builtin::Outcome => Value::Outcome(partizan::outcome(an, w, t, conv)?),
            Builtin::Grundy => {
                return Err(Box::new(
                    Diag::error(Code::AnalysisGrundyPartizan, "a partizan position has no Grundy value: Left's and Right's moves differ")
                        .help("use `value(p)`, its canonical form (an impartial position's value is its nimber), or `outcome(p)`"),
                ))
            }
            Builtin::Moves => {
                let options = side_options(an, w, t, side_or_error()?)?;
                Value::list(options.into_iter().map(|s| to_value(an, w, s)).collect())
            }
            Builtin::WinningMoves => {
                let side = side_or_error()?;
                let mut out = Vec::new();
                for s in side_options(an, w, t, side)? {
                    if partizan::good_for(side, partizan::outcome(an, w, s, conv)?) {
                        out.push(to_value(an, w, s));
                    }
                }
                Value::list(out)
            }
            Builtin::Remoteness => {
                let (_, rem) = partizan::race(an, w, t, conv, side_or_error()?)?;
                Value::Int(i64::try_from(rem).unwrap_or(i64::MAX))
            }
            Builtin::OptimalMoves => {
                // No draws in partizan play: the winning options when there are any, else
                // every option (each loses), as for an impartial position.
                let side = side_or_error()?;
                let options = side_options(an, w, t, side)?;
                let mut winning = Vec::new();
                for &s in &options {
                    if partizan::good_for(side, partizan::outcome(an, w, s, conv)?) {
                        winning.push(s);
                    }
                }
                let keep = if winning.is_empty() { options } else { winning };
                Value::list(keep.into_iter().map(|s| to_value(an, w, s)).collect())
            }
            Builtin::Score => return Err(not_payoff(an, w, t)),
            Builtin::Line => {
                let line = partizan::line(an, w, t, conv, side_or_error()?)?;
                Value::list(line.into_iter().map(|s| to_value(an, w, s)).collect())
            }
            Builtin::Reachable => Value::Int(reachable(an, w, t, conv)? as i64),
            other => return Err(Box::new(Diag::internal(format!("`{}` is not an analysis", other.name())))),
        });
    }
    // An impartial position: both players' moves are the same, so a side changes nothing.
    Ok(match builtin {
        Builtin::Outcome => Value::Outcome(outcome(an, w, t, conv)?),
        Builtin::Grundy => {
            if conv == Convention::Misere {
                return Err(Box::new(
                    Diag::error(Code::AnalysisGrundyMisere, "Grundy values describe normal play, not misère play")
                        .help("use `outcome(p)` or `remoteness(p)` for a misère position"),
                ));
            }
            Value::Int(grundy(an, w, t)? as i64)
        }
        Builtin::Remoteness => match remoteness(an, w, t, conv)? {
            Some(r) => Value::Int(r as i64),
            None => {
                return Err(Box::new(
                    Diag::error(Code::AnalysisRemotenessDraw, "the position is a draw, so it has no remoteness")
                        .help("remoteness counts the moves to the end of a won or lost game; check `outcome(p) != D` first"),
                ))
            }
        },
        Builtin::Moves => {
            let succ = an.graph.successors(w, t)?;
            Value::list(succ.into_iter().map(|s| to_value(an, w, s)).collect())
        }
        Builtin::WinningMoves => {
            let succ = an.graph.successors(w, t)?;
            let mut out = Vec::new();
            for s in succ {
                if outcome(an, w, s, conv)? == Outcome::P {
                    out.push(to_value(an, w, s));
                }
            }
            Value::list(out)
        }
        Builtin::Reachable => Value::Int(reachable(an, w, t, conv)? as i64),
        Builtin::Score => return Err(not_payoff(an, w, t)),
        Builtin::OptimalMoves => {
            let here = outcome(an, w, t, conv)?;
            let mut out = Vec::new();
            for s in an.graph.successors(w, t)? {
                let o = outcome(an, w, s, conv)?;
                let keeps = match here {
                    Outcome::N => o == Outcome::P,
                    Outcome::D => o == Outcome::D,
                    _ => true,
                };
                if keeps {
                    out.push(to_value(an, w, s));
                }
            }
            Value::list(out)
        }
        Builtin::Line => Value::list(line(an, w, t, conv)?.into_iter().map(|s| to_value(an, w, s)).collect()),
        other => return Err(Box::new(Diag::internal(format!("`{}` is not an analysis", other.name())))),
    })
}

/// An analysis of a position of a payoff game: its score, its sign as the outcome, the
/// options that keep the score and the line that follows them; win-and-loss analyses are
/// refused.
fn run_scored(
    an: &mut Analyzer,
    w: &mut World<'_>,
    builtin: Builtin,
    t: TermId,
    conv: Convention,
) -> DiagResult<Value> {
    let refuse = |what: &str| -> DiagResult<Value> {
        Err(Box::new(
            Diag::error(
                Code::AnalysisPayoffGame,
                format!("{} is a position of a payoff game, which has no {what}", an.graph.show(&*w.games, t)),
            )
            .help("a payoff game's positions have a score: use `score(p)`, `outcome(p)` (its sign), `optimal_moves(p)` and `line(p)`"),
        ))
    };
    if conv == Convention::Misere {
        return refuse("misère play (its payoffs say who gains at the end)");
    }
    let to_value = |an: &Analyzer, w: &World<'_>, id: TermId| {
        Value::Pos(Rc::new(Position {
            term: an.graph.pos_term(w.games, id),
            convention: conv,
        }))
    };
    let list = |an: &Analyzer, w: &World<'_>, ids: Vec<TermId>| {
        Value::list(ids.into_iter().map(|s| to_value(an, w, s)).collect())
    };
    Ok(match builtin {
        Builtin::Score => Value::number(payoff::score(an, w, t)?),
        Builtin::Outcome => Value::Outcome(outcome(an, w, t, conv)?),
        Builtin::WinningMoves => {
            let mut out = Vec::new();
            for s in an.graph.successors(w, t)? {
                if outcome(an, w, s, conv)? == Outcome::P {
                    out.push(s);
                }
            }
            list(an, w, out)
        }
        Builtin::OptimalMoves => {
            let ids = payoff::optimal_moves(an, w, t)?;
            list(an, w, ids)
        }
        Builtin::Line => {
            let ids = payoff::line(an, w, t)?;
            list(an, w, ids)
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

/// The outcome of a payoff game's position: the sign of its score (`N` if the player to move
/// comes out ahead, `P` if behind, `D` if even).
fn scored_outcome(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Outcome> {
    Ok(
        match payoff::score(an, w, t)?.cmp(&crate::num::Rational::ZERO) {
            std::cmp::Ordering::Greater => Outcome::N,
            std::cmp::Ordering::Less => Outcome::P,
            std::cmp::Ordering::Equal => Outcome::D,
        },
    )
}

/// `score` asked of a position of a game without payoffs.
fn not_payoff(an: &Analyzer, w: &World<'_>, t: TermId) -> Box<Diag> {
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

/// A draw at `t` itself, or below it (the values of its dependencies).
fn draw_here_or_below(an: &Analyzer, t: TermId, below: &[bool]) -> bool {
    an.graph.info(t).draw || below.iter().any(|v| *v)
}

/// Whether a draw lies anywhere below `t`: in its moves, or in a compound's parts. Cheap (no
/// product is built) and an over-approximation of [`Draws`]: a conjunctive compound ends when
/// its first part does, so a draw that one part could reach may be unreachable in the whole.
#[derive(Clone, Copy)]
struct DrawsBelow;

impl Analysis for DrawsBelow {
    type V = bool;
    type Memo = Vec<Slot<bool>>;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<bool>> {
        &mut an.memos.draws_below
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> DiagResult<()> {
        match an.graph.compound_of(t) {
            None => an.graph.successors_into(w, t, out),
            Some((_, parts)) => {
                out.extend_from_slice(parts);
                Ok(())
            }
        }
    }
    fn combine(
        self,
        an: &mut Analyzer,
        _: &mut World<'_>,
        t: TermId,
        _: &[TermId],
        values: &[bool],
    ) -> DiagResult<bool> {
        Ok(draw_here_or_below(an, t, values))
    }
}

/// Whether a drawn end of play is reachable from `t`. Exact: where [`DrawsBelow`] finds no
/// draw there is none; otherwise a disjunctive or selective compound reaches a draw iff a part
/// does (the other parts can always be played out), and a conjunctive compound is followed
/// through its own moves.
#[derive(Clone, Copy)]
struct Draws;

impl Analysis for Draws {
    type V = bool;
    type Memo = Vec<Slot<bool>>;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<bool>> {
        &mut an.memos.draws
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> DiagResult<()> {
        if !solve(an, w, DrawsBelow, t)? {
            return Ok(());
        }
        match an.graph.compound_of(t) {
            Some((CompoundKind::Disjunctive | CompoundKind::Selective, parts)) => {
                out.extend_from_slice(parts);
                Ok(())
            }
            _ => an.graph.successors_into(w, t, out),
        }
    }
    fn combine(
        self,
        an: &mut Analyzer,
        _: &mut World<'_>,
        t: TermId,
        _: &[TermId],
        values: &[bool],
    ) -> DiagResult<bool> {
        Ok(draw_here_or_below(an, t, values))
    }
}

/// Whether the theorem for a compound may be used: normal play, no draw in any part, not
/// forced explicit.
fn theorem_applies(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<bool> {
    // The theorems combine the parts' values, so every part must be free of draws, even one
    // that the compound as a whole never reaches: hence `DrawsBelow`, not `Draws`.
    Ok(!an.graph.config.explicit && conv == Convention::Normal && !solve(an, w, DrawsBelow, t)?)
}

fn compound_kind(an: &Analyzer, t: TermId) -> Option<(CompoundKind, Vec<TermId>)> {
    match an.graph.compound_of(t) {
        Some((kind, parts)) if !parts.is_empty() => Some((kind, parts.to_vec())),
        _ => None,
    }
}

/// Grundy values: `g(p) = mex { g(q) : p -> q }`; `g(x + y) = g(x) XOR g(y)` (000 Thm 1.21).
#[derive(Clone, Copy)]
struct Grundy;

impl Analysis for Grundy {
    type V = u64;
    type Memo = Vec<Slot<u64>>;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<u64>> {
        &mut an.memos.grundy
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> DiagResult<()> {
        match an.graph.compound_of(t) {
            Some((CompoundKind::Disjunctive, parts)) if !an.graph.config.explicit => {
                out.extend_from_slice(parts);
                Ok(())
            }
            _ => an.graph.successors_into(w, t, out),
        }
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        _: &[TermId],
        values: &[u64],
    ) -> DiagResult<u64> {
        if values.is_empty() {
            payoff::refuse_scored_end(an, w, t)?;
        }
        Ok(match compound_kind(an, t) {
            Some((CompoundKind::Disjunctive, _)) if !an.graph.config.explicit => {
                values.iter().fold(0, |a, b| a ^ b)
            }
            _ => builtins::mex(values),
        })
    }
}

/// The Grundy value of a term (normal play; an error where a draw is reachable).
pub fn grundy(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<u64> {
    grundy_acyclic(an, w, t).map_err(|e| {
        if e.code == retro::LOOPY_CYCLE {
            Box::new(
                Diag::error(
                    Code::AnalysisGrundyLoopy,
                    "play can cycle from here, so there is no (finite) Grundy value",
                )
                .help("a loopy position's outcome and remoteness are defined: use `outcome(p)` or `remoteness(p)`"),
            )
        } else {
            e
        }
    })
}

fn grundy_acyclic(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<u64> {
    if stream::applies(an, w, Convention::Normal) {
        if let Some(v) = stream::grundy(an, w, t)? {
            return Ok(v);
        }
    }
    if solve(an, w, Draws, t)? {
        return Err(Box::new(
            Diag::error(
                Code::AnalysisGrundyDraw,
                "a draw is reachable, so there is no Grundy value",
            )
            .help("Grundy values exist for games without draws; use `outcome(p)` instead"),
        ));
    }
    solve(an, w, Grundy, t)
}

/// Outcome classes by backward induction (000 Thm 1.4): a terminal position is P (normal
/// play), N (misère) or D (a declared draw); otherwise N if some move reaches P, else D if
/// some move reaches D, else P.
#[derive(Clone, Copy)]
struct OutcomeOf(Convention);

impl Analysis for OutcomeOf {
    type V = Outcome;
    type Memo = Vec<Slot<Outcome>>;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<Outcome>> {
        &mut an.memos.outcome[conv_index(self.0)]
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> DiagResult<()> {
        if let Some((kind, parts)) = compound_kind(an, t) {
            if theorem_applies(an, w, t, self.0)? {
                if kind == CompoundKind::Selective {
                    out.extend(parts);
                }
                return Ok(());
            }
        }
        an.graph.successors_into(w, t, out)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        _: &[TermId],
        values: &[Outcome],
    ) -> DiagResult<Outcome> {
        if let Some((kind, _)) = compound_kind(an, t) {
            if theorem_applies(an, w, t, self.0)? {
                return Ok(match kind {
                    CompoundKind::Disjunctive => {
                        if solve(an, w, Grundy, t)? == 0 {
                            Outcome::P
                        } else {
                            Outcome::N
                        }
                    }
                    CompoundKind::Conjunctive => {
                        match solve(an, w, Remoteness(self.0, false), t)?.get() {
                            Some(r) if r % 2 == 0 => Outcome::P,
                            Some(_) => Outcome::N,
                            None => Outcome::D,
                        }
                    }
                    CompoundKind::Selective => {
                        if values.iter().all(|o| *o == Outcome::P) {
                            Outcome::P
                        } else {
                            Outcome::N
                        }
                    }
                });
            }
        }
        if values.is_empty() {
            payoff::refuse_scored_end(an, w, t)?;
        }
        Ok(induction(an.graph.info(t), self.0, values))
    }
}

fn induction(info: crate::graph::TermInfo, conv: Convention, values: &[Outcome]) -> Outcome {
    if values.is_empty() {
        return if info.draw {
            Outcome::D
        } else if conv == Convention::Normal {
            Outcome::P
        } else {
            Outcome::N
        };
    }
    if values.contains(&Outcome::P) {
        Outcome::N
    } else if values.contains(&Outcome::D) {
        Outcome::D
    } else {
        Outcome::P
    }
}

/// The outcome of a term under a convention. Where the search meets a cycle that a `loopy`
/// game declares, retrograde analysis answers instead.
pub fn outcome(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Outcome> {
    if payoff::is_scored(an, w, t)? {
        return scored_outcome(an, w, t);
    }
    // Where the streaming search applies, it stops at the first winning move: the solver of
    // `parallel` is asked only for what one of its runs solved already.
    if stream::applies(an, w, conv) {
        parallel::recall(an, t, conv);
    } else {
        parallel::prepare(an, w, t, conv);
    }
    match outcome_acyclic(an, w, t, conv) {
        Err(e) if e.code == retro::LOOPY_CYCLE => Ok(match loopy_remoteness(an, w, t, conv)? {
            None => Outcome::D,
            Some(r) if r % 2 == 0 => Outcome::P,
            Some(_) => Outcome::N,
        }),
        other => other,
    }
}

/// Retrograde analysis from `t`, and the remoteness it found there.
fn loopy_remoteness(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Rem> {
    retro::solve(an, w, t, conv)?;
    match an.memos.remoteness[conv_index(conv)].slot(t.0 as usize) {
        Slot::Done(code) => Ok(code.get()),
        _ => Err(Box::new(Diag::internal(
            "retrograde analysis left its root unsolved",
        ))),
    }
}

fn outcome_acyclic(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Outcome> {
    // A remoteness already known (a `reachable` search solves it on its way) has the
    // outcome as its parity (even iff P; none for a draw): asked first, so that an
    // `outcome` after a `reachable` runs no second search over the rules.
    if an.graph.compound_of(t).is_none() {
        if let Slot::Done(code) = an.memos.remoteness[conv_index(conv)].slot(t.0 as usize) {
            return Ok(parity(code.get()));
        }
    }
    if stream::applies(an, w, conv) {
        if let Some(o) = stream::outcome(an, w, t)? {
            return Ok(o);
        }
    }
    // Below a position whose moves reach positions only (no compound), the outcome is the
    // parity of the remoteness, which the same search computes: one search then answers
    // both `outcome` and a later `remoteness`. The search gives up at the first compound,
    // where outcomes are found by the theorems instead (and kept: a position whose outcome
    // is known is not searched again).
    let known = an.memos.outcome[conv_index(conv)].get(t.0 as usize);
    if let Some(Slot::Done(o)) = known {
        return Ok(*o);
    }
    if an.graph.compound_of(t).is_none() {
        match solve(an, w, Remoteness(conv, true), t) {
            Ok(r) => return Ok(parity(r.get())),
            Err(e) if e.code == ONLY_ATOMS => {}
            Err(e) => return Err(e),
        }
    }
    solve(an, w, OutcomeOf(conv), t)
}

/// The outcome that a remoteness gives: even is P, odd N, none a draw.
fn parity(r: Rem) -> Outcome {
    match r {
        None => Outcome::D,
        Some(r) if r % 2 == 0 => Outcome::P,
        Some(_) => Outcome::N,
    }
}

/// The Kalmár–Steinhaus function (remoteness), 003: `κ(terminal) = 0`,
/// `κ(p) = 1 + lego { κ(q) : p -> q }`. Draws have none. Under misère play a terminal position
/// counts 1 (the player to move has won, as if by one last move), so κ stays even iff P.
///
/// With its flag set, the search gives up (with [`ONLY_ATOMS`]) at the first compound it
/// meets: see [`outcome`].
#[derive(Clone, Copy)]
struct Remoteness(Convention, bool);

/// The code with which a remoteness search limited to positions gives up at a compound.
const ONLY_ATOMS: Code = Code::InternalOnlyAtoms;

impl Analysis for Remoteness {
    type V = RemCode;
    type Memo = RemMemo;
    fn memo(self, an: &mut Analyzer) -> &mut RemMemo {
        &mut an.memos.remoteness[conv_index(self.0)]
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> DiagResult<()> {
        if let Some((kind, parts)) = compound_kind(an, t) {
            if self.1 {
                // Caught by `outcome`, never shown.
                return Err(Box::new(Diag::error(ONLY_ATOMS, "a compound below")));
            }
            if kind != CompoundKind::Disjunctive && theorem_applies(an, w, t, self.0)? {
                out.extend(parts);
                return Ok(());
            }
        }
        an.graph.successors_into(w, t, out)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        _: &[TermId],
        values: &[RemCode],
    ) -> DiagResult<RemCode> {
        if let Some((kind, _)) = compound_kind(an, t) {
            if kind != CompoundKind::Disjunctive && theorem_applies(an, w, t, self.0)? {
                let parts = values.iter().map(|v| v.get().unwrap_or(0));
                return RemCode::of(Some(match kind {
                    // 003 Thm 16: the conjunctive compound ends with its quickest part.
                    CompoundKind::Conjunctive => parts.min().unwrap_or(0),
                    // 003 Def 17, Thm 19: add, minus one for each pair of odd values.
                    _ => parts.fold(0, selective_rule),
                }));
            }
        }
        if values.is_empty() {
            payoff::refuse_scored_end(an, w, t)?;
        }
        RemCode::of(lego_rule(an.graph.info(t), self.0, values))
    }
}

/// The selective rule for two remoteness values: `a + b`, minus 1 when both are odd.
pub fn selective_rule(a: u64, b: u64) -> u64 {
    if a % 2 == 1 && b % 2 == 1 {
        a + b - 1
    } else {
        a + b
    }
}

fn lego_rule(info: crate::graph::TermInfo, conv: Convention, values: &[RemCode]) -> Rem {
    if values.is_empty() {
        return if info.draw {
            None
        } else if conv == Convention::Normal {
            Some(0)
        } else {
            Some(1)
        };
    }
    let known = values.iter().filter_map(|v| v.get());
    let least_even = known.clone().filter(|v| *v % 2 == 0).min();
    if let Some(e) = least_even {
        return Some(e + 1);
    }
    if values.contains(&RemCode::DRAW) {
        return None;
    }
    known.max().map(|m| m + 1)
}

/// The remoteness of a term under a convention (`None` for a draw).
pub fn remoteness(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Rem> {
    parallel::prepare(an, w, t, conv);
    match solve(an, w, Remoteness(conv, false), t) {
        Err(e) if e.code == retro::LOOPY_CYCLE => loopy_remoteness(an, w, t, conv),
        other => Ok(other?.get()),
    }
}

/// The optimal line from `t`: the winner hurries (the P option of least remoteness), the loser
/// delays (the option of greatest remoteness), a drawn position keeps the draw; ties go to the
/// first option in rule order. In a loopy game a drawn line is cut off after the first
/// position it repeats.
pub fn line(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Vec<TermId>> {
    if payoff::is_scored(an, w, t)? {
        return payoff::line(an, w, t);
    }
    let mut out = vec![t];
    let mut seen = std::collections::HashSet::from([t]);
    let mut current = t;
    loop {
        let succ = an.graph.successors(w, current)?;
        if succ.is_empty() {
            return Ok(out);
        }
        let here = outcome(an, w, current, conv)?;
        let mut best: Option<(TermId, u64)> = None;
        for s in succ {
            let o = outcome(an, w, s, conv)?;
            let wanted = match here {
                Outcome::N => o == Outcome::P,
                Outcome::P => true,
                Outcome::D => o == Outcome::D,
                // Impartial play has no Left or Right classes.
                Outcome::L | Outcome::R => false,
            };
            if !wanted {
                continue;
            }
            if here == Outcome::D {
                best = Some((s, 0));
                break;
            }
            let r = remoteness(an, w, s, conv)?.unwrap_or(0);
            let better = match (best, here) {
                (None, _) => true,
                (Some((_, br)), Outcome::N) => r < br,
                (Some((_, br)), _) => r > br,
            };
            if better {
                best = Some((s, r));
            }
        }
        let Some((next, _)) = best else {
            return Err(Box::new(Diag::internal(
                "no move continues the optimal line",
            )));
        };
        out.push(next);
        if !seen.insert(next) {
            return Ok(out);
        }
        current = next;
    }
}
