//! Impartial play: outcome, Grundy value, remoteness and the optimal line, each a recurrence
//! solved bottom-up by the depth-first search (`solve.rs`), with the streaming search
//! (`stream/`) and the parallel solver (`parallel/`) in front where they apply.
//!
//! Which of them answers is decided here by the shape of play: where the depth-first
//! search meets a cycle that a `loopy` game declares ([`Unsolved::Cycle`]), `outcome` and
//! `remoteness` are answered by retrograde analysis (`retro.rs`), and `grundy` by Smith's
//! loopy values (`smith.rs`).
//! These are the entries the rest of the analyses use for an impartial term (a partizan
//! position's impartial options, say); a payoff game's position is answered by its score
//! (`payoff.rs`), since play may move into one from a game without payoffs.
//!
//! Compounds are analysed by the theorems where they hold and the graph is not forced
//! explicit: Grundy values XOR over a disjunctive sum (Sprague–Grundy), remoteness is the
//! minimum over a conjunctive compound and the selective rule over a selective one (Smith; 003
//! Thm 16 and 19). Everywhere else (misère play, draws, `--explicit`) the compound's explicit
//! product moves are used. Each recurrence decides which, once per term, with its
//! dependencies ([`Way`]). Property tests check that both ways agree.

use super::kind::{is_scored, Guard};
use super::rem::{lego_rule, parity, selective_rule, Rem, RemCode, RemMemo};
use super::smith::{self, Nimber};
use super::solve::{solve, Analysis, MemoTable, OnCycle, Searched, Slot, Unsolved};
use super::{parallel, payoff, retro, stream, take_break, Analyzer};
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::builtins;
use crate::eval::value::{CompoundKind, Outcome};
use crate::eval::World;
use crate::graph::{TermId, TermInfo};
use crate::syntax::ast::Convention;

/// The Grundy value of a term (normal play; an error where a draw is reachable, or where
/// play can cycle and the value is not a nimber).
pub fn grundy(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<u64> {
    match nimber(an, w, t)? {
        Nimber::Finite(g) => Ok(g),
        Nimber::Infinite(_) => Err(Box::new(
            Diag::error(
                Code::AnalysisGrundyLoopy,
                "play can cycle from here and its loopy Grundy value is infinite, not a nimber",
            )
            .help("`grundy(p)` of the position alone gives its value `inf(...)`; its outcome and remoteness are defined: use `outcome(p)` or `remoteness(p)`"),
        )),
    }
}

/// The Grundy value of a term, by the depth-first search, or where play can cycle Smith's
/// loopy value (`smith.rs`).
pub fn nimber(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Nimber> {
    grundy_acyclic(an, w, t)
        .map(Nimber::Finite)
        .or_loopy(|| smith::nimber(an, w, t))
}

fn grundy_acyclic(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> Searched<u64> {
    if let Some(g) = take_break::grundy(an, w, t)? {
        return Ok(g);
    }
    if stream::applies(an, w, Convention::Normal) {
        if let Some(v) = stream::grundy(an, w, t)? {
            return Ok(v);
        }
    }
    if solve(an, w, Draws, t)? {
        return Err(Unsolved::Error(Box::new(
            Diag::error(
                Code::AnalysisGrundyDraw,
                "a draw is reachable, so there is no Grundy value",
            )
            .help("Grundy values exist for games without draws; use `outcome(p)` instead"),
        )));
    }
    solve(an, w, Grundy, t)
}

/// The outcome of a term under a convention. Where the search meets a cycle that a `loopy`
/// game declares, retrograde analysis answers instead; a payoff game's position has its
/// score's sign.
pub fn outcome(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Outcome> {
    if is_scored(an, w, t)? {
        return payoff::outcome(an, w, t);
    }
    if conv == Convention::Normal {
        if let Some(g) = take_break::grundy(an, w, t)? {
            return Ok(stream::zero_is_p(g));
        }
    }
    // Where the streaming search applies, it stops at the first winning move: the solver of
    // `parallel` is asked only for what one of its runs solved already.
    if stream::applies(an, w, conv) {
        parallel::recall(an, t, conv);
    } else {
        parallel::prepare(an, w, t, conv);
    }
    outcome_acyclic(an, w, t, conv).or_loopy(|| retro::outcome(an, w, t, conv))
}

fn outcome_acyclic(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> Searched<Outcome> {
    // A remoteness already known (a `reachable` search solves it on its way) has the
    // outcome as its parity (even iff P; none for a draw): asked first, so that an
    // `outcome` after a `reachable` runs no second search over the rules.
    if an.graph.compound_of(t).is_none() {
        if let Slot::Done(code) = an.memos.remoteness(conv).slot(t.0 as usize) {
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
    // both `outcome` and a later `remoteness`. The search declines the first compound,
    // where outcomes are found by the theorems instead (and kept: a position whose outcome
    // is known is not searched again).
    if let Some(Slot::Done(o)) = an.memos.outcome(conv).get(t.0 as usize) {
        return Ok(*o);
    }
    if an.graph.compound_of(t).is_none() {
        match solve(an, w, Remoteness(conv, true), t) {
            Ok(r) => return Ok(parity(r.get())),
            Err(Unsolved::Declined) => {}
            Err(e) => return Err(e),
        }
    }
    solve(an, w, OutcomeOf(conv), t)
}

/// The remoteness of a term under a convention (`None` for a draw). Where the search meets
/// a cycle that a `loopy` game declares, retrograde analysis answers instead.
pub fn remoteness(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Rem> {
    parallel::prepare(an, w, t, conv);
    solve(an, w, Remoteness(conv, false), t)
        .map(RemCode::get)
        .or_loopy(|| retro::remoteness(an, w, t, conv))
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
    if is_scored(an, w, t)? {
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

/// How a term's outcome or remoteness is made: from its moves' values, or from its parts'
/// by the theorem for its kind of compound.
#[derive(Clone, Copy, Debug, Default)]
enum Way {
    #[default]
    Moves,
    Theorem(CompoundKind),
}

/// The kind of the compound `t`, if it is one with parts.
fn compound_kind(an: &Analyzer, t: TermId) -> Option<CompoundKind> {
    match an.graph.compound_of(t) {
        Some((kind, parts)) if !parts.is_empty() => Some(kind),
        _ => None,
    }
}

/// The parts of the compound `t`, into `out`.
fn parts_into(an: &Analyzer, t: TermId, out: &mut Vec<TermId>) {
    if let Some((_, parts)) = an.graph.compound_of(t) {
        out.extend_from_slice(parts);
    }
}

/// Whether the theorem for a compound may be used: normal play, no draw in any part, not
/// forced explicit.
fn theorem_applies(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> Searched<bool> {
    // The theorems combine the parts' values, so every part must be free of draws, even one
    // that the compound as a whole never reaches: hence `DrawsBelow`, not `Draws`.
    Ok(!an.graph.config.explicit && conv == Convention::Normal && !solve(an, w, DrawsBelow, t)?)
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
    type Way = ();
    const GUARD: Guard = Guard::None;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<bool>> {
        &mut an.memos.draws_below
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<()> {
        // Nothing below a heap of a take-and-break game draws: it is not searched.
        if take_break::is_heap(an, w, t) {
            return Ok(());
        }
        match an.graph.compound_of(t) {
            None => an.graph.successors_into(w, t, out)?,
            Some((_, parts)) => out.extend_from_slice(parts),
        }
        Ok(())
    }
    fn combine(
        self,
        an: &mut Analyzer,
        _: &mut World<'_>,
        t: TermId,
        (): (),
        values: &[bool],
    ) -> Searched<bool> {
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
    type Way = ();
    const GUARD: Guard = Guard::None;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<bool>> {
        &mut an.memos.draws
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<()> {
        if !solve(an, w, DrawsBelow, t)? {
            return Ok(());
        }
        match an.graph.compound_of(t) {
            Some((CompoundKind::Disjunctive | CompoundKind::Selective, parts)) => {
                out.extend_from_slice(parts);
            }
            _ => an.graph.successors_into(w, t, out)?,
        }
        Ok(())
    }
    fn combine(
        self,
        an: &mut Analyzer,
        _: &mut World<'_>,
        t: TermId,
        (): (),
        values: &[bool],
    ) -> Searched<bool> {
        Ok(draw_here_or_below(an, t, values))
    }
}

/// Grundy values: `g(p) = mex { g(q) : p -> q }`; `g(x + y) = g(x) XOR g(y)` (000 Thm 1.21).
#[derive(Clone, Copy)]
struct Grundy;

/// How a Grundy value is made: the mex of the options', the XOR of a sum's parts', or read
/// off a take-and-break sequence (`take_break.rs`).
#[derive(Clone, Copy, Debug, Default)]
enum Nim {
    #[default]
    Mex,
    Sum,
    Known(u64),
}

impl Analysis for Grundy {
    type V = u64;
    type Memo = Vec<Slot<u64>>;
    type Way = Nim;
    const GUARD: Guard = Guard::WinLoss;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<u64>> {
        &mut an.memos.grundy
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<Nim> {
        if let Some(g) = take_break::grundy(an, w, t)? {
            return Ok(Nim::Known(g));
        }
        match an.graph.compound_of(t) {
            Some((CompoundKind::Disjunctive, parts)) if !an.graph.config.explicit => {
                out.extend_from_slice(parts);
                Ok(Nim::Sum)
            }
            _ => {
                an.graph.successors_into(w, t, out)?;
                Ok(Nim::Mex)
            }
        }
    }
    fn combine(
        self,
        _: &mut Analyzer,
        _: &mut World<'_>,
        _: TermId,
        way: Nim,
        values: &[u64],
    ) -> Searched<u64> {
        Ok(match way {
            Nim::Sum => values.iter().fold(0, |a, b| a ^ b),
            Nim::Mex => builtins::mex(values),
            Nim::Known(g) => g,
        })
    }
}

/// Outcome classes by backward induction (000 Thm 1.4): a terminal position is P (normal
/// play), N (misère) or D (a declared draw); otherwise N if some move reaches P, else D if
/// some move reaches D, else P.
#[derive(Clone, Copy)]
struct OutcomeOf(Convention);

impl Analysis for OutcomeOf {
    type V = Outcome;
    type Memo = Vec<Slot<Outcome>>;
    type Way = Way;
    const GUARD: Guard = Guard::WinLoss;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<Outcome>> {
        an.memos.outcome_mut(self.0)
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<Way> {
        // A heap of a take-and-break game is valued as a sum is, by its Grundy value.
        if self.0 == Convention::Normal && take_break::is_heap(an, w, t) {
            return Ok(Way::Theorem(CompoundKind::Disjunctive));
        }
        if let Some(kind) = compound_kind(an, t) {
            if theorem_applies(an, w, t, self.0)? {
                if kind == CompoundKind::Selective {
                    parts_into(an, t, out);
                }
                return Ok(Way::Theorem(kind));
            }
        }
        an.graph.successors_into(w, t, out)?;
        Ok(Way::Moves)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        way: Way,
        values: &[Outcome],
    ) -> Searched<Outcome> {
        Ok(match way {
            Way::Theorem(CompoundKind::Disjunctive) => {
                if solve(an, w, Grundy, t)? == 0 {
                    Outcome::P
                } else {
                    Outcome::N
                }
            }
            Way::Theorem(CompoundKind::Conjunctive) => {
                match solve(an, w, Remoteness(self.0, false), t)?.get() {
                    Some(r) if r % 2 == 0 => Outcome::P,
                    Some(_) => Outcome::N,
                    None => Outcome::D,
                }
            }
            Way::Theorem(CompoundKind::Selective) => {
                if values.iter().all(|o| *o == Outcome::P) {
                    Outcome::P
                } else {
                    Outcome::N
                }
            }
            Way::Moves => induction(an.graph.info(t), self.0, values),
        })
    }
}

fn induction(info: TermInfo, conv: Convention, values: &[Outcome]) -> Outcome {
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

/// The Kalmár–Steinhaus function (remoteness), 003: `κ(terminal) = 0`,
/// `κ(p) = 1 + lego { κ(q) : p -> q }`. Draws have none. Under misère play a terminal position
/// counts 1 (the player to move has won, as if by one last move), so κ stays even iff P.
///
/// With its flag set, the search declines the first compound it meets
/// ([`Unsolved::Declined`]): see [`outcome`].
#[derive(Clone, Copy)]
struct Remoteness(Convention, bool);

impl Analysis for Remoteness {
    type V = RemCode;
    type Memo = RemMemo;
    type Way = Way;
    const GUARD: Guard = Guard::WinLoss;
    fn memo(self, an: &mut Analyzer) -> &mut RemMemo {
        an.memos.remoteness_mut(self.0)
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<Way> {
        if let Some(kind) = compound_kind(an, t) {
            if self.1 {
                return Err(Unsolved::Declined);
            }
            if kind != CompoundKind::Disjunctive && theorem_applies(an, w, t, self.0)? {
                parts_into(an, t, out);
                return Ok(Way::Theorem(kind));
            }
        }
        an.graph.successors_into(w, t, out)?;
        Ok(Way::Moves)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        _: &mut World<'_>,
        t: TermId,
        way: Way,
        values: &[RemCode],
    ) -> Searched<RemCode> {
        let rem = match way {
            Way::Theorem(kind) => {
                let parts = values.iter().map(|v| v.get().unwrap_or(0));
                Some(match kind {
                    // 003 Thm 16: the conjunctive compound ends with its quickest part.
                    CompoundKind::Conjunctive => parts.min().unwrap_or(0),
                    // 003 Def 17, Thm 19: add, minus one for each pair of odd values.
                    _ => parts.fold(0, selective_rule),
                })
            }
            Way::Moves => lego_rule(an.graph.info(t), self.0, values),
        };
        Ok(RemCode::of(rem)?)
    }
}
