//! Payoff games (000 exercise 1.8): games whose ends of play carry a number instead of a win
//! or a loss. At a terminal position the player who moved there pays the player to move
//! there its `payoff`; a position's score is what the player to move can secure, the negamax
//! of the payoffs: `score(end) = payoff(end)`, `score(p) = max { -score(q) : p -> q }`.
//!
//! Acyclic play is solved by the depth-first search of `solve.rs`. Where it meets a cycle
//! that a `loopy` game declares, infinite play scores 0 for both players and [`solve_loopy`]
//! answers by retrograde analysis in order of the scores' magnitudes (see there). That play
//! stays among payoff games is checked by `kind.rs`.
//!
//! A stamp per decided position (`Memos::score_order`) lets `line` make progress where play
//! cycles. Every query on a payoff game's position comes here (`outcome` is the score's sign);
//! payoff games are impartial: the resolver rejects `left move` and `right move` in one.

use std::cmp::Ordering;

use super::kind::{compound_diag, require_scored, Guard};
use super::retro;
use super::solve::{solve, Analysis, MemoTable, OnCycle, Searched, Slot};
use super::Analyzer;
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::value::{Outcome, Value};
use crate::eval::{Interp, PositionData, World};
use crate::graph::{Term, TermId};
use crate::num::Rational;

/// The payoff of the terminal position `t`, to the player to move there.
fn payoff_at(an: &Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Rational> {
    let Term::Atom(inst, data) = an.graph.term(t) else {
        return Err(compound_diag(an, w, t));
    };
    let value = Interp::new(w.reborrow(), None)
        .payoff(inst, PositionData::Value(&data))
        .map_err(|mut d| {
            d.notes.push(format!(
                "at the end of play {}",
                an.graph.show(&*w.games, t)
            ));
            d
        })?;
    match value {
        Value::Int(n) => Ok(Rational::int(n)),
        Value::Rational(r) => Ok(r),
        _ => Err(Box::new(Diag::internal("a payoff that is not a number"))),
    }
}

/// `-v`, or the overflow diagnostic.
fn negate(v: Rational) -> DiagResult<Rational> {
    v.checked_neg().ok_or_else(|| {
        Box::new(
            Diag::error(
                Code::EvalOverflow,
                format!("the score {v} cannot be negated in 64 bits"),
            )
            .help("the negamax negates each option's score: keep payoffs within ±(2^63 - 1)"),
        )
    })
}

/// The negamax recurrence, for the depth-first search.
#[derive(Clone, Copy)]
struct Negamax;

impl Analysis for Negamax {
    type V = Rational;
    type Memo = Vec<Slot<Rational>>;
    type Way = ();
    const GUARD: Guard = Guard::Payoff;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<Rational>> {
        &mut an.memos.score
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<()> {
        Ok(an.graph.successors_into(w, t, out)?)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        (): (),
        values: &[Rational],
    ) -> Searched<Rational> {
        // The best option leaves the least score to the opponent: negate that one only, so
        // that an option whose score cannot be negated (`-9223372036854775808/3`) is refused
        // only when it is the best (`-(-9223372036854775807)` is larger and fits).
        match values.iter().min() {
            Some(least) => Ok(negate(*least)?),
            None => Ok(payoff_at(an, w, t)?),
        }
    }
}

/// The score of the position `t` of a payoff game, for the player to move.
pub(super) fn score(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Rational> {
    solve(an, w, Negamax, t).or_loopy(|| {
        solve_loopy(an, w, t)?;
        match an.memos.score.slot(t.0 as usize) {
            Slot::Done(v) => Ok(v),
            _ => Err(Box::new(Diag::internal(
                "retrograde analysis left its root unscored",
            ))),
        }
    })
}

/// The outcome of a payoff game's position: the sign of its score (`N` if the player to move
/// comes out ahead, `P` if behind, `D` if even).
pub(super) fn outcome(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Outcome> {
    Ok(match score(an, w, t)?.cmp(&Rational::ZERO) {
        Ordering::Greater => Outcome::N,
        Ordering::Less => Outcome::P,
        Ordering::Equal => Outcome::D,
    })
}

/// `|a|` against `|b|`, exactly.
fn magnitude_cmp(a: Rational, b: Rational) -> Ordering {
    let wide = |x: Rational, y: Rational| {
        u128::from(x.numer().unsigned_abs()) * u128::from(y.denom().unsigned_abs())
    };
    wide(a, b).cmp(&wide(b, a))
}

/// Scores `root` and every position reachable from it that is not scored yet, where play may
/// cycle and infinite play scores 0.
///
/// Decided positions are taken in order of decreasing magnitude of their score (ends of play
/// and positions scored before are decided at the start). Taking `q` with score `v` decides
/// its undecided predecessors `p`:
///
/// - if `v < 0`, the player to move at `p` can move to `q` and secure `-v`, as much as
///   anyone can still secure (every larger magnitude is taken), so `score(p) = -v`;
/// - if `v > 0`, `q` is the best option of `p` taken so far (they come in decreasing
///   magnitude), and once every option of `p` is taken `score(p) = -v`. An option of `p`
///   never taken (undecided, or of score 0) is at least as good for `p`'s mover as `-v`
///   would be, so until then `p` stays open.
///
/// What is never decided scores 0: no end of a larger magnitude can be forced by either
/// player, and 0 is what play that never ends (or ends at a payoff of 0) gives. In the
/// two-player form of the game (Max and Min, the player to move part of the position), each
/// step adds a position to the attractor of the most extreme value left, for the player it
/// favours; removing the decided positions leaves a game with the same values on the rest.
/// `tests/payoff.rs` checks it against a brute force over strategies' fixed points.
/// Linear in positions + moves after sorting the ends by their payoffs.
fn solve_loopy(an: &mut Analyzer, w: &mut World<'_>, root: TermId) -> DiagResult<()> {
    let known = |an: &Analyzer, t: TermId| match an.memos.score.slot(t.0 as usize) {
        Slot::Done(v) => Some(v),
        _ => None,
    };
    if known(an, root).is_some() {
        return Ok(());
    }
    let local = retro::explore(an, w, root, known)?;
    let n = local.nodes.len();
    for p in 0..n {
        if local.seed[p].is_none() {
            for &q in local.options(p) {
                require_scored(an, w, local.nodes[p], local.nodes[q as usize])?;
            }
        }
    }
    let mut value: Vec<Option<Rational>> = local.seed.clone();
    let mut undecided: Vec<u32> = (0..n).map(|p| local.options(p).len() as u32).collect();
    let mut seeds: Vec<usize> = Vec::new();
    for p in 0..n {
        if value[p].is_none() && undecided[p] == 0 {
            value[p] = Some(payoff_at(an, w, local.nodes[p])?);
        }
        if value[p].is_some_and(|v| v != Rational::ZERO) {
            seeds.push(p);
        }
    }
    let magnitude = |value: &[Option<Rational>], p: usize| value[p].unwrap_or(Rational::ZERO);
    seeds.sort_by(|a, b| magnitude_cmp(magnitude(&value, *b), magnitude(&value, *a)));

    let mut order = vec![0u32; n];
    let mut clock = an.memos.score_clock;
    // Two queues, each in order of decreasing magnitude (the seeds, and what they decide,
    // which has the magnitude of what decided it): always take the larger front.
    let mut queue: Vec<usize> = Vec::new();
    let (mut qi, mut si) = (0, 0);
    let mut steps: u32 = 0;
    while let Some(q) = retro::next_in_order(&seeds, &mut si, &queue, &mut qi, |s, d| {
        magnitude_cmp(magnitude(&value, s), magnitude(&value, d)) != Ordering::Less
    }) {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) {
            an.graph.check_stop(w.stop)?;
        }
        let v = magnitude(&value, q);
        // Negated only when it decides a predecessor: a score that cannot be negated is an
        // error only where it would be the answer.
        let mut theirs = None;
        for &p in local.preds(q) {
            let p = p as usize;
            if value[p].is_some() {
                continue;
            }
            let decided = if v < Rational::ZERO {
                true
            } else {
                undecided[p] -= 1;
                undecided[p] == 0
            };
            if decided {
                let score = match theirs {
                    Some(score) => score,
                    None => *theirs.insert(negate(v)?),
                };
                value[p] = Some(score);
                clock = clock.checked_add(1).ok_or_else(|| {
                    Box::new(Diag::internal(
                        "more score decisions than a stamp can count",
                    ))
                })?;
                order[p] = clock;
                queue.push(p);
            }
        }
    }
    an.memos.score_clock = clock;

    for p in 0..n {
        if local.seed[p].is_some() {
            continue;
        }
        let t = local.nodes[p].0 as usize;
        an.memos
            .score
            .put(t, Slot::Done(value[p].unwrap_or(Rational::ZERO)));
        if order[p] != 0 {
            let stamps = &mut an.memos.score_order;
            if stamps.len() <= t {
                stamps.resize((t + 1).max(2 * stamps.len()), 0);
            }
            stamps[t] = order[p];
        }
    }
    Ok(())
}

/// When retrograde analysis decided `t` (0: an end, or not decided by it).
fn stamp(an: &Analyzer, t: TermId) -> u32 {
    an.memos.score_order.get(t.0 as usize).copied().unwrap_or(0)
}

/// The options of `t` that keep its score: `-score(q) == score(t)`, in rule order.
pub(super) fn optimal_moves(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
) -> DiagResult<Vec<TermId>> {
    let here = score(an, w, t)?;
    let mut out = Vec::new();
    for q in an.graph.successors(w, t)? {
        if score(an, w, q)?.checked_neg() == Some(here) {
            out.push(q);
        }
    }
    Ok(out)
}

/// The optimal line from `t`: each move keeps the score; among such moves, the one decided
/// first by retrograde analysis (so a loopy game's line makes progress to the end that its
/// score promises), ties to the first option in rule order. A line of score 0 in a loopy game
/// is cut off after the first position it repeats.
pub(super) fn line(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Vec<TermId>> {
    let mut out = vec![t];
    let mut seen = std::collections::HashSet::from([t]);
    let mut current = t;
    loop {
        let succ = an.graph.successors(w, current)?;
        if succ.is_empty() {
            return Ok(out);
        }
        let here = score(an, w, current)?;
        let mut best: Option<(TermId, u32)> = None;
        for q in succ {
            if score(an, w, q)?.checked_neg() != Some(here) {
                continue;
            }
            let s = stamp(an, q);
            if best.is_none_or(|(_, b)| s < b) {
                best = Some((q, s));
            }
        }
        let Some((next, _)) = best else {
            return Err(Box::new(Diag::internal(
                "no move keeps the score on the optimal line",
            )));
        };
        out.push(next);
        if !seen.insert(next) {
            return Ok(out);
        }
        current = next;
    }
}
