//! What `:explain` computes: one struct of results per kind of explanation, every fact
//! asked of the session here (and only here), in the order the explanation has always asked
//! them, so that the renderer (`render.rs`) prints plain data. The optional facts (Grundy
//! values and remoteness of a position and its options) share one time budget,
//! [`EXPLAIN_BUDGET`]: what does not finish is [`Fact::Skipped`].

use crate::api::builtins::Builtin;
use crate::api::Session;
use crate::api::Side;
use crate::api::{Code, Diag, Span};
use crate::api::{Outcome, Value};

use super::{EXPLAIN_BUDGET, MAX_PICTURES};

/// Codes of the analyses' errors that mean "not defined here" rather than "went wrong".
const UNDEFINED: &[Code] = &[
    Code::AnalysisGrundyMisere,
    Code::AnalysisGrundyDraw,
    Code::AnalysisGrundyLoopy,
    Code::AnalysisRemotenessDraw,
];

/// Codes of `value`'s errors that mean "no value here" rather than "went wrong".
const NO_VALUE: &[Code] = &[
    Code::AnalysisValueMisere,
    Code::AnalysisValueCompound,
    Code::AnalysisValueLimit,
];

/// A value, or why it is not defined.
type Defined<T> = Result<T, String>;

/// A Grundy value or remoteness as `:explain` knows it.
#[derive(Clone, Debug)]
pub(super) enum Fact {
    Known(u64),
    /// A loopy Grundy value that is not a nimber, as cgl prints it (`inf(0)`).
    Infinite(String),
    /// Not defined for this position, and why (a draw, misère play, ...).
    Undefined(String),
    /// Not computed: `:explain`'s time budget ran out first.
    Skipped,
}

impl Fact {
    pub(super) fn known(&self) -> Option<u64> {
        match self {
            Fact::Known(v) => Some(*v),
            _ => None,
        }
    }
}

/// The facts about one position.
pub(super) struct Facts {
    pub(super) outcome: Outcome,
    pub(super) grundy: Fact,
    pub(super) remoteness: Fact,
}

/// An impartial position explained: it, its options, and their facts.
pub(super) struct Impartial {
    /// The position as shown.
    pub(super) shown: String,
    pub(super) misere: bool,
    pub(super) here: Facts,
    /// Each option as shown, with its facts.
    pub(super) rows: Vec<(String, Facts)>,
    /// The position's picture, if its game draws one.
    pub(super) picture: Option<String>,
    /// When the position is drawn: the first [`MAX_PICTURES`] options', each its picture or
    /// (without one) its text.
    pub(super) pictures: Vec<String>,
}

/// A payoff game's position explained.
pub(super) struct Scored {
    pub(super) shown: String,
    pub(super) here: Outcome,
    /// The position's score, as shown.
    pub(super) score: String,
    /// Each option as shown, its score as shown, and whether it is an optimal move.
    pub(super) rows: Vec<(String, String, bool)>,
}

/// A partizan position explained.
pub(super) struct Partizan {
    pub(super) shown: String,
    pub(super) here: Outcome,
    /// Its canonical form as shown and, in words, its stops and temperature; or why it has
    /// no value.
    pub(super) value: Defined<(String, Option<String>)>,
    /// Left's options, then Right's: each as shown, its value as shown (`-`: none), its
    /// outcome.
    pub(super) sides: [Vec<(String, String, Outcome)>; 2],
}

fn int_of(value: &Value) -> u64 {
    match value {
        Value::Int(n) => u64::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}

/// Runs an analysis; an error that only means "not defined for this position" becomes the
/// reason, every other error (interrupted, too many positions, a cycle) is passed on.
fn defined(
    session: &mut Session,
    builtin: Builtin,
    position: &Value,
    span: Span,
) -> Result<Defined<Fact>, Box<Diag>> {
    match session.analyse(builtin, position, span) {
        Ok(v @ Value::Infinite(_)) => Ok(Ok(Fact::Infinite(session.show(&v)))),
        Ok(v) => Ok(Ok(Fact::Known(int_of(&v)))),
        Err(d) if UNDEFINED.contains(&d.code) => Ok(Err(d.message)),
        Err(d) => Err(d),
    }
}

/// The stop condition of the session, and the one of `:explain`'s optional facts (the same
/// flag, so Ctrl-C still stops them, and a deadline [`EXPLAIN_BUDGET`] away).
struct Budget {
    own: crate::api::Stop,
    optional: crate::api::Stop,
}

impl Budget {
    fn start(session: &Session) -> Budget {
        let own = session.stop().clone();
        Budget {
            optional: own.sooner(EXPLAIN_BUDGET),
            own,
        }
    }

    /// A Grundy value or remoteness within the budget: skipped when the budget's deadline
    /// stops it (and not the session's own stop: Ctrl-C or `--timeout` are passed on).
    fn fact(
        &self,
        session: &mut Session,
        builtin: Builtin,
        position: &Value,
        span: Span,
    ) -> Result<Fact, Box<Diag>> {
        if self.optional.check().is_err() && self.own.check().is_ok() {
            return Ok(Fact::Skipped);
        }
        session.set_stop(self.optional.clone());
        let result = defined(session, builtin, position, span);
        session.set_stop(self.own.clone());
        match result {
            Ok(Ok(fact)) => Ok(fact),
            Ok(Err(reason)) => Ok(Fact::Undefined(reason)),
            Err(d) if d.code == crate::api::TIMEOUT && self.own.check().is_ok() => {
                Ok(Fact::Skipped)
            }
            Err(d) => Err(d),
        }
    }
}

fn outcome_of(session: &mut Session, position: &Value, span: Span) -> Result<Outcome, Box<Diag>> {
    Ok(match session.analyse(Builtin::Outcome, position, span)? {
        Value::Outcome(o) => o,
        _ => Outcome::D,
    })
}

/// The options of a position, as values.
pub fn options(
    session: &mut Session,
    position: &Value,
    span: Span,
) -> Result<Vec<Value>, Box<Diag>> {
    match session.analyse(Builtin::Moves, position, span)? {
        Value::List(ref items) => Ok(items.to_vec()),
        _ => Ok(Vec::new()),
    }
}

/// The outcome of a position.
pub fn outcome(session: &mut Session, position: &Value, span: Span) -> Result<Outcome, Box<Diag>> {
    match session.analyse(Builtin::Outcome, position, span)? {
        Value::Outcome(o) => Ok(o),
        _ => Err(Box::new(Diag::internal("`outcome` gave no outcome"))),
    }
}

/// The facts of an impartial position and its options: what is cheap first (the outcomes,
/// then the Grundy values), then the remoteness, all within one budget; then the pictures.
pub(super) fn impartial(
    session: &mut Session,
    position: &Value,
    misere: bool,
    span: Span,
) -> Result<Impartial, Box<Diag>> {
    let shown = session.show(position);
    let outcome_here = outcome_of(session, position, span)?;
    let options = options(session, position, span)?;
    let budget = Budget::start(session);
    let mut option_outcomes = Vec::with_capacity(options.len());
    for option in &options {
        option_outcomes.push(outcome_of(session, option, span)?);
    }
    let grundy_here = budget.fact(session, Builtin::Grundy, position, span)?;
    let mut option_grundy = Vec::with_capacity(options.len());
    for option in &options {
        option_grundy.push(budget.fact(session, Builtin::Grundy, option, span)?);
    }
    let remoteness_here = budget.fact(session, Builtin::Remoteness, position, span)?;
    let here = Facts {
        outcome: outcome_here,
        grundy: grundy_here,
        remoteness: remoteness_here,
    };
    let mut rows = Vec::with_capacity(options.len());
    for ((option, outcome), grundy) in options.iter().zip(option_outcomes).zip(option_grundy) {
        let remoteness = budget.fact(session, Builtin::Remoteness, option, span)?;
        rows.push((
            session.show(option),
            Facts {
                outcome,
                grundy,
                remoteness,
            },
        ));
    }
    let picture = session.picture(position, span)?;
    let mut pictures = Vec::new();
    if picture.is_some() {
        for (option, (text, _)) in options.iter().zip(&rows).take(MAX_PICTURES) {
            let drawn = session.picture(option, span)?;
            pictures.push(drawn.unwrap_or_else(|| text.clone()));
        }
    }
    Ok(Impartial {
        shown,
        misere,
        here,
        rows,
        picture,
        pictures,
    })
}

/// The score of a payoff game's position (`score`, already computed) and its options'.
pub(super) fn scored(
    session: &mut Session,
    position: &Value,
    score: &Value,
    span: Span,
) -> Result<Scored, Box<Diag>> {
    let shown = session.show(position);
    let here = outcome(session, position, span)?;
    let score = session.show(score);
    let options = options(session, position, span)?;
    let mut rows = Vec::with_capacity(options.len());
    if !options.is_empty() {
        let optimal = match session.analyse(Builtin::OptimalMoves, position, span)? {
            Value::List(ref items) => items.to_vec(),
            _ => Vec::new(),
        };
        for option in &options {
            let s = session.analyse(Builtin::Score, option, span)?;
            rows.push((
                session.show(option),
                session.show(&s),
                optimal.contains(option),
            ));
        }
    }
    Ok(Scored {
        shown,
        here,
        score,
        rows,
    })
}

/// The class of a partizan position, its value with its stops and temperature, and each
/// player's options with their values and classes.
pub(super) fn partizan(
    session: &mut Session,
    position: &Value,
    span: Span,
) -> Result<Partizan, Box<Diag>> {
    let shown = session.show(position);
    let here = outcome(session, position, span)?;
    let value = match session.analyse(Builtin::Value, position, span) {
        Ok(v) => Ok((session.show(&v), stops_text(&v, session.stop()))),
        Err(d) if NO_VALUE.contains(&d.code) => Err(d.message),
        Err(d) => return Err(d),
    };
    let mut sides: [Vec<(String, String, Outcome)>; 2] = Default::default();
    for (side, rows) in [Side::Left, Side::Right].into_iter().zip(&mut sides) {
        let options = match session.analyse_side(Builtin::Moves, position, side, span)? {
            Value::List(ref items) => items.to_vec(),
            _ => Vec::new(),
        };
        for option in &options {
            let o = outcome(session, option, span)?;
            let value = match session.analyse(Builtin::Value, option, span) {
                Ok(v) => session.show(&v),
                Err(d) if NO_VALUE.contains(&d.code) => "-".to_string(),
                Err(d) => return Err(d),
            };
            rows.push((session.show(option), value, o));
        }
    }
    Ok(Partizan {
        shown,
        here,
        value,
        sides,
    })
}

/// The stops and temperature of a game value, in words.
fn stops_text(value: &Value, stop: &crate::api::Stop) -> Option<String> {
    use crate::api::Dyadic;
    let id = crate::api::with_forms(|t| match value {
        Value::Form(id) => Some(*id),
        Value::Int(n) => t.integer(*n).ok(),
        Value::Rational(r) => Dyadic::from_fraction(r.numer(), r.denom())
            .and_then(|d| t.number(d))
            .ok(),
        _ => None,
    })?;
    crate::api::with_forms(|t| {
        t.with_budget(stop.sooner(EXPLAIN_BUDGET).budget(), |t| {
            Some((t.stops(id).ok()?, t.temperature(id).ok()?))
        })?;
        let (left, right) = t.stops(id).ok()?;
        let temperature = t.temperature(id).ok()?;
        let kind = if t.is_number(id) {
            "a number: neither player wants to move"
        } else if temperature.numerator() > 0 {
            "hot: each player wants to move first"
        } else {
            "tepid: within an infinitesimal of a number"
        };
        Some(format!(
            "left stop {left}, right stop {right}, temperature {temperature} ({kind})"
        ))
    })
}
