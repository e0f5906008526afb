//! Partizan analyses, where Left's and Right's moves differ ([`GameGraph::side_options`]):
//! outcome classes (L, R, N, P) by searching who wins moving first, the race to the end
//! (remoteness with a side to move) and canonical forms built bottom-up in the thread's value
//! table ([`crate::value::with_forms`]). An impartial term met below a partizan one is
//! answered by the impartial analyses (`impartial.rs`): its class is N or P, its value its
//! nimber. A cycle that a `loopy` game declares has no solver in partizan play yet: it is
//! the diagnostic `cgl::analysis::partizan_loopy`.
//!
//! [`GameGraph::side_options`]: crate::graph::GameGraph::side_options
//!
//! Each recurrence has its memo in `Memos`. A sum's canonical form is the sum of its parts'
//! (unless `--explicit`), an impartial term's its nimber. The class of a sum is read off its
//! value when it has one (`HasValue`, a memoised pass over the terms the value would need: not
//! when a `&` or `|` compound of partizan positions is among them), else the sum's own moves
//! are searched. The value table's ids are valid for the thread's life, so memoised forms
//! survive a graph reset (the memo does not); in `cgl check` that thread checks one file only,
//! so no file's forms are reused by another.

use super::kind::Guard;
use super::solve::{solve, Analysis, OnCycle, Searched, Slot};
use super::{impartial, Analyzer};
use crate::cgt::{CgtError, GameId, Side, ValueTable};
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::value::{with_forms, CompoundKind, Outcome};
use crate::eval::{cgt_stop, Stop, World};
use crate::graph::TermId;
use crate::syntax::ast::Convention;

/// Whether Left and Right win moving first, and the length of play with each to move: the
/// winner hurries, the loser delays.
#[derive(Clone, Copy, Debug, Default)]
pub struct Race {
    left_wins: bool,
    right_wins: bool,
    left_rem: u32,
    right_rem: u32,
}

impl Race {
    /// Whether `side` wins moving first.
    fn wins(self, side: Side) -> bool {
        match side {
            Side::Left => self.left_wins,
            Side::Right => self.right_wins,
        }
    }

    /// The number of moves to the end with `side` to move.
    fn rem(self, side: Side) -> u32 {
        match side {
            Side::Left => self.left_rem,
            Side::Right => self.right_rem,
        }
    }
}

/// The other player.
pub fn other(side: Side) -> Side {
    match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}

/// The class from who wins moving first.
fn class(left_wins: bool, right_wins: bool) -> Outcome {
    match (left_wins, right_wins) {
        (true, true) => Outcome::N,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (false, false) => Outcome::P,
    }
}

/// Whether `side`, having just moved to a position of class `o`, wins (the other player
/// moves first there and loses).
pub fn good_for(side: Side, o: Outcome) -> bool {
    match side {
        Side::Left => matches!(o, Outcome::L | Outcome::P),
        Side::Right => matches!(o, Outcome::R | Outcome::P),
    }
}

/// A sum under normal play whose class is read off its value (the sum of its parts'), when
/// it has one. A sum with a part that has none (a conjunctive or selective compound of
/// partizan positions, or a position whose play reaches one) is searched on its own moves,
/// as under `--explicit`.
fn by_value(an: &mut Analyzer, w: &mut World<'_>, t: TermId, conv: Convention) -> Searched<bool> {
    let sum = conv == Convention::Normal
        && !an.graph.config.explicit
        && matches!(an.graph.compound_of(t), Some((CompoundKind::Disjunctive, p)) if !p.is_empty());
    if !sum {
        return Ok(false);
    }
    solve(an, w, HasValue, t)
}

/// Whether a term has a canonical form ([`ValueOf`] would find one): over the same terms
/// as `ValueOf`, false at a conjunctive or selective compound of partizan positions.
#[derive(Clone, Copy)]
struct HasValue;

impl Analysis for HasValue {
    type V = bool;
    type Memo = Vec<Slot<bool>>;
    type Way = ();
    const GUARD: Guard = Guard::None;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<bool>> {
        &mut an.memos.has_value
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<()> {
        value_deps(an, w, t, out, false)?;
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
        Ok(!has_no_form(an, t) && values.iter().all(|v| *v))
    }
}

/// A conjunctive or selective compound of partizan positions: no canonical form.
fn has_no_form(an: &Analyzer, t: TermId) -> bool {
    an.graph.info(t).partizan
        && matches!(
            an.graph.compound_of(t),
            Some((CompoundKind::Conjunctive | CompoundKind::Selective, _))
        )
}

/// How a canonical form is made.
#[derive(Clone, Copy, Debug, Default)]
enum Form {
    /// An impartial term's: its nimber.
    #[default]
    Nimber,
    /// None: a conjunctive or selective compound of partizan positions.
    Without,
    /// A sum's: the sum of its parts' forms.
    Sum,
    /// `{ Left's options | Right's }`, the first this many of the dependencies Left's.
    Options(usize),
}

/// The terms whose canonical forms a term's is made of, and how: none for an impartial term
/// (its nimber), a sum's parts (its explicit options under `--explicit`), a position's
/// options; none for a compound without a form, which is an error when `strict`.
fn value_deps(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    out: &mut Vec<TermId>,
    strict: bool,
) -> DiagResult<Form> {
    if !an.graph.info(t).partizan {
        return Ok(Form::Nimber);
    }
    if has_no_form(an, t) {
        return if strict {
            Err(compound_error())
        } else {
            Ok(Form::Without)
        };
    }
    match an.graph.compound_of(t) {
        Some((CompoundKind::Disjunctive, parts)) if !an.graph.config.explicit => {
            out.extend_from_slice(parts);
            Ok(Form::Sum)
        }
        _ => Ok(Form::Options(sides_into(an, w, t, out)?)),
    }
}

/// Left's options of `t` and then Right's, into `out`; how many are Left's.
fn sides_into(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    out: &mut Vec<TermId>,
) -> DiagResult<usize> {
    let (left, right) = an.graph.side_options(w, t)?;
    let lefts = left.len();
    out.extend(left);
    out.extend(right);
    Ok(lefts)
}

/// How an outcome class is made.
#[derive(Clone, Copy, Debug, Default)]
enum Class {
    /// An impartial term's: by impartial play.
    #[default]
    Impartial,
    /// A sum's, read off its value.
    ByValue,
    /// From the options' classes, the first this many of them Left's.
    Options(usize),
}

/// Outcome classes of partizan play: Left wins moving first iff some Left option is L or P
/// (Right, moving first there, loses); the same for Right. With no move, the player to move
/// loses under normal play and wins under misère play.
#[derive(Clone, Copy)]
struct ClassOf(Convention);

impl Analysis for ClassOf {
    type V = Outcome;
    type Memo = Vec<Slot<Outcome>>;
    type Way = Class;
    const GUARD: Guard = Guard::Partizan;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<Outcome>> {
        an.memos.partizan_outcome_mut(self.0)
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<Class> {
        if !an.graph.info(t).partizan {
            return Ok(Class::Impartial);
        }
        if by_value(an, w, t, self.0)? {
            return Ok(Class::ByValue);
        }
        Ok(Class::Options(sides_into(an, w, t, out)?))
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        way: Class,
        values: &[Outcome],
    ) -> Searched<Outcome> {
        match way {
            Class::Impartial => match impartial::outcome(an, w, t, self.0)? {
                Outcome::D => Err(draw_error().into()),
                o => Ok(o),
            },
            _ if an.graph.info(t).draw => Err(draw_error().into()),
            Class::ByValue => {
                let g = solve(an, w, ValueOf, t)?;
                Ok(class_of_form(w.stop, g)?)
            }
            Class::Options(lefts) => {
                let (lv, rv) = values.split_at(lefts);
                let misere = self.0 == Convention::Misere;
                let left_wins =
                    (misere && lv.is_empty()) || lv.iter().any(|o| good_for(Side::Left, *o));
                let right_wins =
                    (misere && rv.is_empty()) || rv.iter().any(|o| good_for(Side::Right, *o));
                Ok(class(left_wins, right_wins))
            }
        }
    }
}

/// The outcome class of a form.
fn class_of_form(stop: &Stop, g: GameId) -> DiagResult<Outcome> {
    Ok(match forms(stop, |t| t.outcome(g))? {
        crate::cgt::Outcome::L => Outcome::L,
        crate::cgt::Outcome::R => Outcome::R,
        crate::cgt::Outcome::N => Outcome::N,
        crate::cgt::Outcome::P => Outcome::P,
    })
}

/// Runs `f` on this thread's table of forms, stopping when `stop` says so; its errors as
/// diagnostics.
fn forms<R>(stop: &Stop, f: impl FnOnce(&mut ValueTable) -> Result<R, CgtError>) -> DiagResult<R> {
    with_forms(|t| t.with_budget(stop.budget(), f)).map_err(cgt_error)
}

/// The race to the end with each player to move: the winner picks, of the moves that win,
/// one with the shortest play after it, the loser one with the longest. Found on the moves
/// themselves (a sum's explicit product): no theorem adds lengths of play.
#[derive(Clone, Copy)]
struct RaceOf(Convention);

impl Analysis for RaceOf {
    type V = Race;
    type Memo = Vec<Slot<Race>>;
    /// How many of the dependencies are Left's options (the rest are Right's).
    type Way = usize;
    const GUARD: Guard = Guard::Partizan;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<Race>> {
        an.memos.partizan_rem_mut(self.0)
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<usize> {
        Ok(sides_into(an, w, t, out)?)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        _: &mut World<'_>,
        t: TermId,
        lefts: usize,
        values: &[Race],
    ) -> Searched<Race> {
        if an.graph.info(t).draw {
            return Err(draw_error().into());
        }
        let (lv, rv) = values.split_at(lefts);
        let misere = self.0 == Convention::Misere;
        let one = |side: Side, options: &[Race]| -> DiagResult<(bool, u32)> {
            if options.is_empty() {
                return Ok((misere, 0));
            }
            let next = other(side);
            let winning = options
                .iter()
                .filter(|r| !r.wins(next))
                .map(|r| r.rem(next));
            let (wins, rem) = match winning.clone().min() {
                Some(least) => (true, least),
                None => (
                    false,
                    options.iter().map(|r| r.rem(next)).max().unwrap_or(0),
                ),
            };
            let rem = rem.checked_add(1).ok_or_else(|| {
                Box::new(Diag::internal("a length of play past what the memo holds"))
            })?;
            Ok((wins, rem))
        };
        let (left_wins, left_rem) = one(Side::Left, lv)?;
        let (right_wins, right_rem) = one(Side::Right, rv)?;
        Ok(Race {
            left_wins,
            right_wins,
            left_rem,
            right_rem,
        })
    }
}

/// Canonical forms: a position's is `{ values of Left's options | values of Right's }`,
/// canonicalised by the value table; a sum's the sum of its parts' (or, under `--explicit`,
/// that of its explicit product's options); an impartial term's its nimber.
#[derive(Clone, Copy)]
struct ValueOf;

impl Analysis for ValueOf {
    type V = GameId;
    type Memo = Vec<Slot<GameId>>;
    type Way = Form;
    const GUARD: Guard = Guard::None;
    fn memo(self, an: &mut Analyzer) -> &mut Vec<Slot<GameId>> {
        &mut an.memos.values
    }
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<Form> {
        Ok(value_deps(an, w, t, out, true)?)
    }
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        form: Form,
        values: &[GameId],
    ) -> Searched<GameId> {
        let made = match form {
            Form::Nimber => {
                let g = impartial::grundy(an, w, t)?;
                let g = u32::try_from(g).map_err(|_| cgt_error(CgtError::Limit))?;
                forms(w.stop, |table| table.nimber(g))
            }
            _ if an.graph.info(t).draw => Err(draw_error()),
            Form::Without => Err(compound_error()),
            Form::Sum => forms(w.stop, |table| {
                let mut sum = table.zero();
                for v in values {
                    sum = table.add(sum, *v)?;
                }
                Ok(sum)
            }),
            Form::Options(lefts) => {
                let (lv, rv) = values.split_at(lefts);
                forms(w.stop, |table| table.game(lv, rv))
            }
        };
        Ok(made?)
    }
}

/// The outcome class of `t` under `conv`: L, R, N or P (N or P for an impartial term).
pub fn outcome(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Outcome> {
    solve(an, w, ClassOf(conv), t).or_loopy(|| Err(loopy_error()))
}

/// The canonical form of `t` (normal play only).
pub fn value(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<GameId> {
    if conv == Convention::Misere {
        return Err(Box::new(
            Diag::error(
                Code::AnalysisValueMisere,
                "a misère position has no canonical value: game values describe normal play",
            )
            .help("use `outcome(p)` (searched under misère play), or `value(normal(p))`"),
        ));
    }
    solve(an, w, ValueOf, t).or_loopy(|| Err(loopy_error()))
}

/// Whether `side` wins moving first from `t`, and the number of moves to the end.
pub fn race(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
    side: Side,
) -> DiagResult<(bool, u64)> {
    let r = solve(an, w, RaceOf(conv), t).or_loopy(|| Err(loopy_error()))?;
    Ok((r.wins(side), u64::from(r.rem(side))))
}

/// The optimal line from `t` with `side` to move first, the players taking turns: the
/// winner takes, of the moves that win, one with the shortest play after it, the loser one
/// with the longest (ties to the first in rule order); it ends when the player to move has
/// no move.
pub fn line(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
    side: Side,
) -> DiagResult<Vec<TermId>> {
    let mut out = vec![t];
    let (mut current, mut mover) = (t, side);
    loop {
        let (left, right) = an.graph.side_options(w, current)?;
        let options = if mover == Side::Left { left } else { right };
        if options.is_empty() {
            return Ok(out);
        }
        let (wins, _) = race(an, w, current, conv, mover)?;
        let next = other(mover);
        let mut best: Option<(TermId, u64)> = None;
        for o in options {
            let (they_win, rem) = race(an, w, o, conv, next)?;
            if wins && they_win {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, b)) if wins => rem < b,
                Some((_, b)) => rem > b,
            };
            if better {
                best = Some((o, rem));
            }
        }
        let Some((o, _)) = best else {
            return Err(Box::new(Diag::internal(
                "no move continues the optimal line",
            )));
        };
        out.push(o);
        current = o;
        mover = next;
    }
}

/// The diagnostic of a cgt error.
pub fn cgt_error(e: CgtError) -> Box<Diag> {
    if let Some(d) = cgt_stop(e) {
        return d;
    }
    match e {
        CgtError::Internal(what) => Box::new(Diag::internal(format!("value table: {what}"))),
        e => Box::new(
            Diag::error(Code::AnalysisValueLimit, format!("the value cannot be computed: {e}"))
                .help("game values are exact: numbers with i64 numerators and denominators up to 2^62, nimbers up to *1024, at most 50,000,000 forms; analyse a smaller position"),
        ),
    }
}

fn draw_error() -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::AnalysisPartizanDraw,
            "a draw is reachable, and partizan play has no drawn outcome class or value",
        )
        .help("partizan outcomes are L, R, N or P; remove the `draw if` clause from the partizan game"),
    )
}

fn compound_error() -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::AnalysisValueCompound,
            "a conjunctive or selective compound of partizan positions has no canonical value",
        )
        .help("values add over disjunctive sums (`+`); use `outcome(p)`, which searches the compound's moves"),
    )
}

/// The diagnostic for a cycle that a `loopy` game declares, met by a partizan search.
fn loopy_error() -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::AnalysisPartizanLoopy,
            "play can cycle from this partizan position, so it has no value or searched outcome",
        )
        .help("cgl solves loopy impartial games only; make the partizan game end (a counter, a shrinking board)"),
    )
}

/// The diagnostic for an analysis of a partizan position that needs a side.
pub fn needs_side(name: &str) -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::AnalysisNeedsSide,
            format!(
                "`{name}` of a partizan position needs a side: Left's and Right's moves differ"
            ),
        )
        .help(format!(
            "say whose moves, or who moves first: `{name}(p, left)` or `{name}(p, right)`"
        )),
    )
}
