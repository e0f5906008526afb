//! Game values in expressions: numbers (`Int`, `Rational`) and partizan forms (`Form`) as
//! canonical forms of `crate::cgt`, their algebra (`+`, `-`, `n * g`, the order) and the
//! built-ins on them. Every failure is a diagnostic: a value of the wrong kind, a rational
//! that is not dyadic, or the canonical-form engine's own errors ([`CgtError`]).

use crate::cgt::{CgtError, Dyadic, GameId, Relation, Side, ValueTable};
use crate::diag::{Code, Diag, DiagResult, Span};
use crate::num::Rational;
use crate::value::{with_forms, Outcome, Value};

use super::{cgt_stop, Stop};

/// Runs `f` on this thread's table of forms, stopping when `stop` says so.
fn forms<R>(stop: &Stop, f: impl FnOnce(&mut ValueTable) -> R) -> R {
    with_forms(|t| t.with_budget(stop.budget(), f))
}

/// Whether `v` is a game value: a number or a form.
pub fn is_game_value(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Rational(_) | Value::Form(_))
}

/// Whether `v` is a number (an integer or a fraction, of any size).
pub fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Rational(_) | Value::Wide(_))
}

/// A number in 64 bits (an `Int` or a `Rational`) as a rational; `None` for a wide fraction
/// or anything else.
pub fn small(v: &Value) -> Option<Rational> {
    match v {
        Value::Int(n) => Some(Rational::int(*n)),
        Value::Rational(r) => Some(*r),
        _ => None,
    }
}

/// Any number as a big rational (zero for anything else: callers check [`is_number`] first).
pub fn big(v: &Value) -> num_rational::BigRational {
    v.as_big()
}

/// The diagnostic of a failure of the canonical-form engine at `span`.
#[cold]
pub fn cgt_error(e: CgtError, span: Span) -> Box<Diag> {
    if let Some(d) = cgt_stop(e) {
        return d;
    }
    Box::new(match e {
        CgtError::Overflow => Diag::error(Code::EvalOverflow, "a game value's number is too large")
            .label(
                span,
                "a numerator beyond 64 bits or a denominator beyond 2^62",
            )
            .help("game values hold dyadic numbers of at most 64 bits; keep them smaller"),
        CgtError::NotDyadic => not_dyadic_diag(span, "this"),
        CgtError::Limit => Diag::error(Code::EvalTooLarge, "too many distinct game values")
            .label(
                span,
                "computing this needs more canonical forms than the table holds",
            )
            .help(format!(
                "the table of game values holds {} canonical forms (nimbers up to *{}); \
                 work with smaller games",
                crate::cgt::DEFAULT_MAX_VALUES,
                crate::cgt::MAX_NIMBER
            )),
        CgtError::NotAllSmall => Diag::error(
            Code::EvalNotAllSmall,
            "atomic weight of a game that is not all-small",
        )
        .label(span, "this game is not all-small")
        .help("the atomic weight is defined for all-small games (such as `*`, `^`, `{0 | ^*}`)"),
        CgtError::EmptyInterval
        | CgtError::Internal(_)
        | CgtError::Timeout(_)
        | CgtError::Interrupted
        | CgtError::Memory(_) => {
            return Box::new(Diag::internal(format!("game values: {e}")));
        }
    })
}

fn not_dyadic_diag(span: Span, what: &str) -> Diag {
    Diag::error(
        Code::EvalNotDyadic,
        format!("{what} is a rational whose denominator is not a power of two"),
    )
    .label(span, "not a dyadic number, so no short game")
    .help("the numbers among game values are dyadic (`1/2`, `3/8`); use one of those")
}

fn not_a_game(v: &Value, span: Span, what: &str) -> Box<Diag> {
    Box::new(
        Diag::error(
            Code::EvalType,
            format!("{what} needs a game value, but this is {}", v.a_type_name()),
        )
        .label(span, "here")
        .help("game values are numbers, `*`, `^`, `v` and literals such as `{1 | -1}`"),
    )
}

/// A dyadic rational as `cgt`'s number, if it is one.
fn dyadic(r: Rational) -> Option<Dyadic> {
    let den = r.denom();
    if den.count_ones() != 1 {
        return None;
    }
    Dyadic::from_fraction(r.numer(), den).ok()
}

/// `cgt`'s number as a value.
fn from_dyadic(x: Dyadic) -> Result<Value, CgtError> {
    let den = 1i64
        .checked_shl(x.exponent())
        .filter(|d| *d > 0)
        .ok_or(CgtError::Overflow)?;
    Rational::new(x.numerator(), den)
        .map(Value::number)
        .ok_or(CgtError::Overflow)
}

/// A form id as a value, inside [`with_forms`] (so not through `Value::form`).
fn value_of(t: &ValueTable, id: GameId) -> Result<Value, CgtError> {
    match t.as_number(id) {
        Some(x) => from_dyadic(x),
        None => Ok(Value::Form(id)),
    }
}

/// The canonical form of a game value, inside [`with_forms`].
fn id_in(t: &mut ValueTable, v: &Value, span: Span, what: &str) -> DiagResult<GameId> {
    match v {
        Value::Form(g) => Ok(*g),
        Value::Int(n) => t.integer(*n).map_err(|e| cgt_error(e, span)),
        Value::Rational(r) => match dyadic(*r) {
            Some(x) => t.number(x).map_err(|e| cgt_error(e, span)),
            None => Err(Box::new(not_dyadic_diag(span, what))),
        },
        other => Err(not_a_game(other, span, what)),
    }
}

/// Runs `f` on the canonical forms of `args` (each with its span) and turns its result into
/// a value.
fn on_forms<const N: usize>(
    stop: &Stop,
    args: [(&Value, Span); N],
    what: &str,
    span: Span,
    f: impl FnOnce(&mut ValueTable, [GameId; N]) -> Result<GameId, CgtError>,
) -> DiagResult<Value> {
    forms(stop, |t| {
        let mut ids = [t.zero(); N];
        for (slot, (v, s)) in ids.iter_mut().zip(args) {
            *slot = id_in(t, v, s, what)?;
        }
        let id = f(t, ids).map_err(|e| cgt_error(e, span))?;
        value_of(t, id).map_err(|e| cgt_error(e, span))
    })
}

/// The game `{left | right}`; each option with its span.
pub fn game(
    stop: &Stop,
    left: &[(Value, Span)],
    right: &[(Value, Span)],
    span: Span,
) -> DiagResult<Value> {
    forms(stop, |t| {
        let mut ids = |side: &[(Value, Span)]| -> DiagResult<Vec<GameId>> {
            side.iter()
                .map(|(v, s)| id_in(t, v, *s, "an option of a game"))
                .collect()
        };
        let (l, r) = (ids(left)?, ids(right)?);
        let id = t.game(&l, &r).map_err(|e| cgt_error(e, span))?;
        value_of(t, id).map_err(|e| cgt_error(e, span))
    })
}

/// The nimber `*n`.
pub fn nimber(stop: &Stop, n: &Value, span: Span) -> DiagResult<Value> {
    let Value::Int(k) = n else {
        return Err(Box::new(
            Diag::error(
                Code::EvalType,
                format!(
                    "a nimber `*n` needs an integer, but this is {}",
                    n.a_type_name()
                ),
            )
            .label(span, "here")
            .help(if matches!(n, Value::Rational(_)) {
                "`/` is exact division; write `a div b` for floor division"
            } else {
                "write `*3` or `*(n)` for an integer n >= 0"
            }),
        ));
    };
    let k = u32::try_from(*k).map_err(|_| {
        Box::new(
            Diag::error(Code::EvalDomain, format!("`*{k}` is no nimber"))
                .label(span, "negative or too large")
                .help(format!("nimbers are *0 to *{}", crate::cgt::MAX_NIMBER)),
        )
    })?;
    forms(stop, |t| {
        let id = t.nimber(k).map_err(|e| cgt_error(e, span))?;
        value_of(t, id).map_err(|e| cgt_error(e, span))
    })
}

/// A token of CGSuite's notation (`^`, `^^*`, `↓3*2`), read by `cgt`'s parser.
pub fn notation(stop: &Stop, text: &str, span: Span) -> DiagResult<Value> {
    forms(stop, |t| {
        let id = t.parse(text).map_err(|e| {
            Box::new(
                Diag::error(
                    Code::EvalDomain,
                    format!("`{text}` is no game value: {}", e.message),
                )
                .label(span, "here")
                .help("write ups as `^`, `^^`, `^3`, `^*`, `^3*2` (and `↑`, `↓`, `⇑`, `⇓`)"),
            )
        })?;
        value_of(t, id).map_err(|e| cgt_error(e, span))
    })
}

/// `a + b` of game values (at least one a form: numbers add as numbers).
pub fn add(stop: &Stop, a: &Value, b: &Value, ls: Span, rs: Span, span: Span) -> DiagResult<Value> {
    on_forms(stop, [(a, ls), (b, rs)], "`+`", span, |t, [x, y]| {
        t.add(x, y)
    })
}

/// `a - b` of game values.
pub fn sub(stop: &Stop, a: &Value, b: &Value, ls: Span, rs: Span, span: Span) -> DiagResult<Value> {
    on_forms(stop, [(a, ls), (b, rs)], "`-`", span, |t, [x, y]| {
        t.sub(x, y)
    })
}

/// `-g`.
pub fn neg(stop: &Stop, g: &Value, span: Span) -> DiagResult<Value> {
    on_forms(stop, [(g, span)], "`-`", span, |t, [x]| t.neg(x))
}

/// `+-g`: the switch `{g | -g}`; of a set of values `{a, b}`, `{a, b | -a, -b}`.
pub fn switch(stop: &Stop, g: &Value, span: Span) -> DiagResult<Value> {
    let items: Vec<Value> = match g {
        Value::Set(items) => items.iter().cloned().collect(),
        other => vec![other.clone()],
    };
    forms(stop, |t| {
        let mut left = Vec::new();
        let mut right = Vec::new();
        for v in &items {
            let id = id_in(t, v, span, "`+-`")?;
            left.push(id);
            right.push(t.neg(id).map_err(|e| cgt_error(e, span))?);
        }
        let id = t.game(&left, &right).map_err(|e| cgt_error(e, span))?;
        value_of(t, id).map_err(|e| cgt_error(e, span))
    })
}

/// `n * g`: the sum of `n` copies of `g` (of `-g` for negative `n`), by doubling.
pub fn times(stop: &Stop, n: i64, g: &Value, gs: Span, span: Span) -> DiagResult<Value> {
    on_forms(stop, [(g, gs)], "`*`", span, |t, [x]| {
        let mut base = if n < 0 { t.neg(x)? } else { x };
        let mut k = n.unsigned_abs();
        let mut acc = t.zero();
        while k > 0 {
            if k & 1 == 1 {
                acc = t.add(acc, base)?;
            }
            k >>= 1;
            if k > 0 {
                base = t.add(base, base)?;
            }
        }
        Ok(acc)
    })
}

/// How two game values compare in the game order (partial: confused games are neither).
pub fn relation(
    stop: &Stop,
    a: &Value,
    b: &Value,
    ls: Span,
    rs: Span,
    what: &str,
) -> DiagResult<Relation> {
    forms(stop, |t| {
        let x = id_in(t, a, ls, what)?;
        let y = id_in(t, b, rs, what)?;
        t.compare(x, y).map_err(|e| cgt_error(e, ls.to(rs)))
    })
}

/// The outcome class of a game value: `L`, `R`, `N` or `P`.
pub fn outcome(stop: &Stop, g: &Value, span: Span) -> DiagResult<Value> {
    forms(stop, |t| {
        let x = id_in(t, g, span, "`outcome`")?;
        Ok(Value::Outcome(
            match t.outcome(x).map_err(|e| cgt_error(e, span))? {
                crate::cgt::Outcome::L => Outcome::L,
                crate::cgt::Outcome::R => Outcome::R,
                crate::cgt::Outcome::N => Outcome::N,
                crate::cgt::Outcome::P => Outcome::P,
            },
        ))
    })
}

/// A built-in on game values: `name(args)`, each argument with its span.
pub fn call(stop: &Stop, name: &str, args: &[(Value, Span)], span: Span) -> DiagResult<Value> {
    let what = format!("`{name}`");
    let one = || args[0].clone();
    let number = |r: Result<Dyadic, CgtError>| -> DiagResult<Value> {
        r.and_then(from_dyadic).map_err(|e| cgt_error(e, span))
    };
    match name {
        "confused" => {
            let rel = relation(stop, &args[0].0, &args[1].0, args[0].1, args[1].1, &what)?;
            Ok(Value::Bool(rel == Relation::Confused))
        }
        "is_number" => {
            let (v, s) = one();
            if !is_game_value(&v) {
                return Err(not_a_game(&v, s, &what));
            }
            Ok(Value::Bool(is_number(&v)))
        }
        "Tiny" | "Miny" => {
            let tiny = name == "Tiny";
            on_forms(stop, [(&args[0].0, args[0].1)], &what, span, |t, [g]| {
                let z = t.zero();
                if tiny {
                    let ng = t.neg(g)?;
                    let inner = t.game(&[z], &[ng])?;
                    t.game(&[z], &[inner])
                } else {
                    let inner = t.game(&[g], &[z])?;
                    t.game(&[inner], &[z])
                }
            })
        }
        "heat" => on_forms(
            stop,
            [(&args[0].0, args[0].1), (&args[1].0, args[1].1)],
            &what,
            span,
            |t, [g, h]| t.heat(g, h),
        ),
        "cool" => {
            let (tv, ts) = &args[1];
            let temp = match tv {
                Value::Int(_) | Value::Rational(_) => small(tv)
                    .and_then(dyadic)
                    .ok_or_else(|| Box::new(not_dyadic_diag(*ts, "the temperature")))?,
                other => {
                    return Err(Box::new(
                        Diag::error(
                            Code::EvalType,
                            format!(
                                "`cool` needs a number to cool by, but this is {}",
                                other.a_type_name()
                            ),
                        )
                        .label(*ts, "here")
                        .help("cool by a dyadic number: `cool(g, 1)`, `cool(g, 1/2)`"),
                    ))
                }
            };
            on_forms(stop, [(&args[0].0, args[0].1)], &what, span, |t, [g]| {
                t.cool(g, temp)
            })
        }
        "atomic_weight" => on_forms(stop, [(&args[0].0, args[0].1)], &what, span, |t, [g]| {
            t.atomic_weight(g)
        }),
        "reduced" => on_forms(stop, [(&args[0].0, args[0].1)], &what, span, |t, [g]| {
            t.reduced(g)
        }),
        _ => {
            let (v, s) = one();
            forms(stop, |t| {
                let g = id_in(t, &v, s, &what)?;
                match name {
                    "is_infinitesimal" => t
                        .is_infinitesimal(g)
                        .map(Value::Bool)
                        .map_err(|e| cgt_error(e, span)),
                    "left_stop" => number(t.left_stop(g)),
                    "right_stop" => number(t.right_stop(g)),
                    "mean" => number(t.mean(g)),
                    "temperature" => number(t.temperature(g)),
                    "birthday" => {
                        let b = t.birthday(g).map_err(|e| cgt_error(e, span))?;
                        i64::try_from(b)
                            .map(Value::Int)
                            .map_err(|_| cgt_error(CgtError::Overflow, span))
                    }
                    "left_options" | "right_options" => {
                        let side = if name == "left_options" {
                            Side::Left
                        } else {
                            Side::Right
                        };
                        // In the order values sort in, found here: comparing two
                        // `Value::Form`s reads this table, which this closure holds.
                        let mut ids = t.options(g, side).map_err(|e| cgt_error(e, span))?;
                        ids.sort_by(|&a, &b| t.form_order(a, b));
                        let out = ids
                            .into_iter()
                            .map(|id| value_of(t, id))
                            .collect::<Result<Vec<_>, _>>()
                            .map_err(|e| cgt_error(e, span))?;
                        Ok(Value::list(out))
                    }
                    "thermograph" => {
                        let th = t.thermograph(g).map_err(|e| cgt_error(e, span))?;
                        let wall = |w: &crate::cgt::Trajectory| -> Result<Value, CgtError> {
                            let points = w
                                .pieces()
                                .iter()
                                .map(|p| {
                                    Ok(Value::tuple(vec![
                                        from_dyadic(p.start)?,
                                        from_dyadic(p.value)?,
                                    ]))
                                })
                                .collect::<Result<Vec<_>, CgtError>>()?;
                            Ok(Value::list(points))
                        };
                        let l = wall(&th.left).map_err(|e| cgt_error(e, span))?;
                        let r = wall(&th.right).map_err(|e| cgt_error(e, span))?;
                        Ok(Value::tuple(vec![l, r]))
                    }
                    _ => Err(Box::new(Diag::internal(format!(
                        "no game-value built-in `{name}`"
                    )))),
                }
            })
        }
    }
}
