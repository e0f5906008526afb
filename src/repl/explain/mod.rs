//! What `:explain` shows: a position's outcome, values and options with theirs, within a
//! budget of time; `partizan.rs` explains partizan positions. (`:table` and `:grid` are in
//! `repl/table.rs`.)

mod partizan;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::api::builtins::{self, Builtin};
use crate::api::Session;
use crate::api::{gallery, indent};
use crate::api::{Code, Diag, Span};
use crate::api::{Outcome, Value};
use partizan::explain_partizan;

/// Codes of the analyses' errors that mean "not defined here" rather than "went wrong".
const UNDEFINED: &[Code] = &[
    Code::AnalysisGrundyMisere,
    Code::AnalysisGrundyDraw,
    Code::AnalysisGrundyLoopy,
    Code::AnalysisRemotenessDraw,
];

/// Options listed by `:explain` at most (the sets below still use all of them).
const MAX_ROWS: usize = 200;

/// Options `:explain` draws at most, when their game has a `show` clause.
const MAX_PICTURES: usize = 40;

/// A value, or why it is not defined.
type Defined<T> = Result<T, String>;

/// How long `:explain` spends on the Grundy values and remoteness of a position and its
/// options, all together: what does not finish in time is shown as skipped, with how to ask
/// for it (a sum's remoteness needs the explicit product of its parts, which can be huge).
pub const EXPLAIN_BUDGET: std::time::Duration = std::time::Duration::from_secs(1);

/// A Grundy value or remoteness as `:explain` knows it.
#[derive(Clone, Debug)]
enum Fact {
    Known(u64),
    /// Not defined for this position, and why (a draw, misère play, ...).
    Undefined(String),
    /// Not computed: `:explain`'s time budget ran out first.
    Skipped,
}

impl Fact {
    fn known(&self) -> Option<u64> {
        match self {
            Fact::Known(v) => Some(*v),
            _ => None,
        }
    }
}

/// The facts about one position.
struct Facts {
    outcome: Outcome,
    grundy: Fact,
    remoteness: Fact,
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
) -> Result<Defined<u64>, Box<Diag>> {
    match session.analyse(builtin, position, span) {
        Ok(v) => Ok(Ok(int_of(&v))),
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
            Ok(Ok(v)) => Ok(Fact::Known(v)),
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

/// The remoteness of a position (`None` for a draw).
pub fn remoteness(
    session: &mut Session,
    position: &Value,
    span: Span,
) -> Result<Option<u64>, Box<Diag>> {
    Ok(defined(session, Builtin::Remoteness, position, span)?.ok())
}

/// In words, what an outcome means for the player to move.
fn meaning(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::N => "the player to move wins",
        Outcome::P => "the player to move loses (the previous player wins)",
        Outcome::D => "a draw with best play",
        Outcome::L => "Left wins whoever starts",
        Outcome::R => "Right wins whoever starts",
    }
}

fn show_fact(value: &Fact) -> String {
    match value {
        Fact::Known(v) => v.to_string(),
        Fact::Undefined(_) => "-".to_string(),
        Fact::Skipped => "?".to_string(),
    }
}

/// A set of values, runs of four or more consecutive values written `a, a+1, ..., b` (the
/// mex set of a heap of 2,000 holds about that many).
fn set_text(values: &BTreeSet<u64>) -> String {
    let sorted: Vec<u64> = values.iter().copied().collect();
    let mut items: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        if j - i >= 3 {
            items.push(format!(
                "{}, {}, ..., {}",
                sorted[i],
                sorted[i] + 1,
                sorted[j]
            ));
        } else {
            items.extend(sorted[i..=j].iter().map(u64::to_string));
        }
        i = j + 1;
    }
    format!("{{{}}}", items.join(", "))
}

/// `:explain P`.
pub fn explain(
    session: &mut Session,
    position: &Value,
    span: Span,
    color: bool,
) -> Result<String, Box<Diag>> {
    if session.strategic_table(position, span).is_some() {
        return super::strategic::explain(session, position, span);
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
        return explain_partizan(session, position, span, color);
    }
    match session.analyse(Builtin::Score, position, span) {
        Ok(score) => return explain_scored(session, position, &score, span, color),
        Err(d) if d.code == Code::AnalysisNotPayoff => {}
        Err(d) => return Err(d),
    }
    let misere = pos.is_misere();
    let shown = session.show(position);
    let outcome_here = outcome_of(session, position, span)?;
    let options = options(session, position, span)?;
    // What is cheap first (the outcomes, then the Grundy values), then the remoteness, all
    // within one budget.
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
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{shown} is {}: {}",
        here.outcome,
        meaning(here.outcome)
    );
    let why = |d: &Fact| match d {
        Fact::Known(v) => v.to_string(),
        Fact::Undefined(reason) => format!("none ({reason})"),
        Fact::Skipped => "not computed (see below)".to_string(),
    };
    let _ = writeln!(
        out,
        "  grundy {}, remoteness {}",
        why(&here.grundy),
        why(&here.remoteness)
    );
    let drawn = session.picture(position, span)?;
    if let Some(picture) = &drawn {
        let _ = writeln!(out, "{}", indent(picture, "    "));
    }
    if options.is_empty() {
        let rule = match (here.outcome, misere) {
            (Outcome::D, _) => "it is a declared draw",
            (_, true) => "misère play: the player who cannot move wins",
            (_, false) => "normal play: the player who cannot move loses",
        };
        let _ = writeln!(out, "no options: {shown} is terminal ({rule})");
        if here.grundy.known().is_some() {
            let _ = writeln!(out, "mex {{}} = 0");
        }
        if here.remoteness.known().is_some() {
            let _ = writeln!(
                out,
                "a terminal position has remoteness {}",
                if misere { "1 under misère play" } else { "0" }
            );
        }
        return Ok(out);
    }
    let (number_width, width) = option_columns(rows.iter().map(|(s, _)| s.as_str()));
    let _ = writeln!(out, "{}:", count_options(rows.len()));
    let _ = writeln!(
        out,
        "  {:>number_width$}  {:<width$}  outcome  grundy  remoteness",
        "#", "option"
    );
    for (i, (text, f)) in rows.iter().enumerate().take(MAX_ROWS) {
        let mark = match (here.outcome, f.outcome) {
            (_, Outcome::P) => "  wins",
            (Outcome::D, Outcome::D) => "  draws",
            _ => "",
        };
        let line = format!(
            "  {:>number_width$}  {:<width$}  {:<7}  {:<6}  {:<10}{mark}",
            i + 1,
            text,
            f.outcome.to_string(),
            show_fact(&f.grundy),
            show_fact(&f.remoteness),
        );
        let line = line.trim_end();
        if color && f.outcome == Outcome::P {
            let _ = writeln!(out, "\x1b[1;32m{line}\x1b[0m");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    if rows.len() > MAX_ROWS {
        let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_ROWS);
    }
    if drawn.is_some() {
        let mut gallery_items = Vec::new();
        for (i, (option, (text, f))) in options.iter().zip(&rows).enumerate().take(MAX_PICTURES) {
            let picture = session
                .picture(option, span)?
                .unwrap_or_else(|| text.clone());
            gallery_items.push((format!("{} {}", i + 1, f.outcome), picture));
        }
        let _ = writeln!(out, "the options drawn (number and outcome):");
        let shown = gallery(&gallery_items, super::columns().saturating_sub(2));
        let _ = writeln!(out, "{}", indent(&shown, "  "));
        if rows.len() > MAX_PICTURES {
            let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_PICTURES);
        }
    }
    let skipped = |fact: fn(&Facts) -> &Fact| {
        rows.iter()
            .filter(|(_, f)| matches!(fact(f), Fact::Skipped))
            .count()
    };
    let grundy_skipped = skipped(|f| &f.grundy);
    let remoteness_skipped = skipped(|f| &f.remoteness);
    // The mex set: Grundy values of the options.
    match &here.grundy {
        _ if grundy_skipped > 0 => {
            let _ = writeln!(
                out,
                "no mex set: {grundy_skipped} option{} Grundy value{} not computed",
                if grundy_skipped == 1 { "'s" } else { "s'" },
                if grundy_skipped == 1 {
                    " was"
                } else {
                    "s were"
                }
            );
        }
        Fact::Skipped => {
            let _ = writeln!(out, "no mex set: the Grundy value was not computed");
        }
        Fact::Known(g) => {
            let set: BTreeSet<u64> = rows.iter().filter_map(|(_, f)| f.grundy.known()).collect();
            let mex = builtins::mex(&set.iter().copied().collect::<Vec<_>>());
            let check = if mex == *g {
                String::new()
            } else {
                format!(", but `grundy` says {g}")
            };
            let _ = writeln!(
                out,
                "mex {} = {mex}: the Grundy value{check}",
                set_text(&set)
            );
        }
        Fact::Undefined(reason) => {
            let _ = writeln!(out, "no mex set: {reason}");
        }
    }
    // The lego set: remoteness of the options.
    let set: BTreeSet<u64> = rows
        .iter()
        .filter_map(|(_, f)| f.remoteness.known())
        .collect();
    let draws = rows
        .iter()
        .filter(|(_, f)| matches!(f.remoteness, Fact::Undefined(_)))
        .count();
    match (&here.remoteness, builtins::lego(set.iter().copied())) {
        _ if remoteness_skipped > 0 || matches!(here.remoteness, Fact::Skipped) => {
            let first = rows
                .iter()
                .find(|(_, f)| matches!(f.remoteness, Fact::Skipped))
                .map_or_else(|| shown.clone(), |(text, _)| text.clone());
            let whose = match (matches!(here.remoteness, Fact::Skipped), remoteness_skipped) {
                (true, 0) => "the position's".to_string(),
                (true, n) => format!(
                    "the position's and {n} option{}",
                    if n == 1 { "'s" } else { "s'" }
                ),
                (false, n) => format!("{n} option{}", if n == 1 { "'s" } else { "s'" }),
            };
            let _ = writeln!(
                out,
                "no lego set: {whose} remoteness not computed within the {:?} :explain \
                 allows (a sum's remoteness needs the explicit product of its parts, which \
                 can be large); ask for one with `remoteness({first})` (Ctrl-C stops it)",
                EXPLAIN_BUDGET
            );
        }
        (Fact::Known(r), Some(lego)) => {
            let which = if lego % 2 == 0 {
                "the least even"
            } else {
                "no even value: the greatest"
            };
            let _ = writeln!(
                out,
                "lego {} = {lego} ({which}), so remoteness = 1 + {lego} = {}{}",
                set_text(&set),
                lego + 1,
                if lego + 1 == *r {
                    String::new()
                } else {
                    format!(", but `remoteness` says {r}")
                }
            );
        }
        (Fact::Undefined(reason), _) => {
            let _ = writeln!(
                out,
                "lego {}: no remoteness here ({reason})",
                set_text(&set)
            );
        }
        // Said by the first arm.
        (Fact::Skipped, _) => {}
        (_, None) => {
            let _ = writeln!(out, "lego {{}}: every option is a draw");
        }
    }
    if draws > 0 {
        let _ = writeln!(
            out,
            "({draws} option{} {}, with no remoteness)",
            if draws == 1 { "" } else { "s" },
            if draws == 1 { "is a draw" } else { "are draws" }
        );
    }
    let numbers = |wanted: Outcome| -> Vec<String> {
        rows.iter()
            .enumerate()
            .filter(|(_, (_, f))| f.outcome == wanted)
            .map(|(i, _)| (i + 1).to_string())
            .collect()
    };
    let winning = numbers(Outcome::P);
    if !winning.is_empty() {
        let _ = writeln!(
            out,
            "winning move{}: {} (to a P position, where the opponent loses)",
            if winning.len() == 1 { "" } else { "s" },
            winning.join(", ")
        );
    } else if here.outcome == Outcome::D {
        let _ = writeln!(
            out,
            "no winning move; drawing moves: {}",
            numbers(Outcome::D).join(", ")
        );
    } else {
        let _ = writeln!(
            out,
            "no winning move: every option is N, so the opponent can win after any move"
        );
    }
    Ok(out)
}

/// `:explain` of a payoff game's position: its score, each option's score, and the options
/// that keep the score (the negamax step).
fn explain_scored(
    session: &mut Session,
    position: &Value,
    score: &Value,
    span: Span,
    color: bool,
) -> Result<String, Box<Diag>> {
    let shown = session.show(position);
    let here = outcome(session, position, span)?;
    let score_text = session.show(score);
    let mut out = String::new();
    let standing = match here {
        Outcome::N => format!("the player to move can come out ahead by {score_text}"),
        Outcome::P => format!(
            "the player to move comes out behind: score {score_text}, the most they can secure"
        ),
        _ => "the player to move can secure 0 (an even end)".to_string(),
    };
    let _ = writeln!(out, "{shown} is {here}: {standing}");
    let options = options(session, position, span)?;
    if options.is_empty() {
        let _ = writeln!(
            out,
            "no options: {shown} is terminal; its payoff {score_text} goes to the player to move, from the player who moved there"
        );
        return Ok(out);
    }
    let optimal = match session.analyse(Builtin::OptimalMoves, position, span)? {
        Value::List(ref items) => items.to_vec(),
        _ => Vec::new(),
    };
    let mut rows = Vec::with_capacity(options.len());
    for option in &options {
        let s = session.analyse(Builtin::Score, option, span)?;
        rows.push((
            session.show(option),
            session.show(&s),
            optimal.contains(option),
        ));
    }
    let (number_width, width) = option_columns(rows.iter().map(|(s, ..)| s.as_str()));
    let _ = writeln!(
        out,
        "{} (an option's score is its mover's, the opponent's):",
        count_options(rows.len())
    );
    let _ = writeln!(out, "  {:>number_width$}  {:<width$}  score", "#", "option");
    for (i, (text, s, best)) in rows.iter().enumerate().take(MAX_ROWS) {
        let mark = if *best { "  optimal" } else { "" };
        let line = format!("  {:>number_width$}  {:<width$}  {s:<5}{mark}", i + 1, text);
        let line = line.trim_end();
        if color && *best {
            let _ = writeln!(out, "\x1b[1;32m{line}\x1b[0m");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    if rows.len() > MAX_ROWS {
        let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_ROWS);
    }
    let numbers: Vec<String> = rows
        .iter()
        .enumerate()
        .filter(|(_, (.., best))| *best)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    let _ = writeln!(
        out,
        "score = max {{ -score(option) }} = {score_text}; optimal move{}: {} (each leaves the opponent {})",
        if numbers.len() == 1 { "" } else { "s" },
        numbers.join(", "),
        rows.iter()
            .find(|(.., best)| *best)
            .map_or("?", |(_, s, _)| s.as_str())
    );
    Ok(out)
}

/// The widths of an options table's two first columns: the row numbers and the options as
/// shown, over the rows that are printed (at most `MAX_ROWS`).
fn option_columns<'a>(shown: impl ExactSizeIterator<Item = &'a str>) -> (usize, usize) {
    let number_width = shown.len().min(MAX_ROWS).to_string().len();
    let width = shown
        .take(MAX_ROWS)
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0)
        .max("option".len());
    (number_width, width)
}

/// "1 option", "3 options".
fn count_options(n: usize) -> String {
    format!("{n} option{}", if n == 1 { "" } else { "s" })
}
