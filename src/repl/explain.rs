//! What `:explain`, `:table` and `:grid` show: a position's options with their values, and
//! sequences and 2-D tables of values laid out as in the papers (zeros and P stand out).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::diag::{Code, Diag, Span};
use crate::eval::builtins::{self, Builtin};
use crate::eval::value::{Outcome, Value};
use crate::session::Session;

/// Codes of the analyses' errors that mean "not defined here" rather than "went wrong".
const UNDEFINED: &[Code] = &[
    Code::AnalysisGrundyMisere,
    Code::AnalysisGrundyDraw,
    Code::AnalysisGrundyLoopy,
    Code::AnalysisRemotenessDraw,
];

/// Options listed by `:explain` at most (the sets below still use all of them).
const MAX_ROWS: usize = 200;

/// A value, or why it is not defined.
type Defined<T> = Result<T, String>;

/// The facts about one position.
struct Facts {
    outcome: Outcome,
    grundy: Defined<u64>,
    remoteness: Defined<u64>,
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

fn facts(session: &mut Session, position: &Value, span: Span) -> Result<Facts, Box<Diag>> {
    let outcome = match session.analyse(Builtin::Outcome, position, span)? {
        Value::Outcome(o) => o,
        _ => Outcome::D,
    };
    Ok(Facts {
        outcome,
        grundy: defined(session, Builtin::Grundy, position, span)?,
        remoteness: defined(session, Builtin::Remoteness, position, span)?,
    })
}

/// The options of a position, as values.
pub fn options(
    session: &mut Session,
    position: &Value,
    span: Span,
) -> Result<Vec<Value>, Box<Diag>> {
    match session.analyse(Builtin::Moves, position, span)? {
        Value::List(items) => Ok(items.to_vec()),
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

fn show_defined(value: &Defined<u64>) -> String {
    match value {
        Ok(v) => v.to_string(),
        Err(_) => "-".to_string(),
    }
}

fn set_text(values: &BTreeSet<u64>) -> String {
    let items: Vec<String> = values.iter().map(u64::to_string).collect();
    format!("{{{}}}", items.join(", "))
}

/// `:explain P`.
pub fn explain(
    session: &mut Session,
    position: &Value,
    span: Span,
    color: bool,
) -> Result<String, Box<Diag>> {
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
            .help("make a position by calling a game: `:explain Kayles(4)`"),
        ));
    };
    match session.analyse(Builtin::Score, position, span) {
        Ok(score) => return explain_scored(session, position, &score, span, color),
        Err(d) if d.code == Code::AnalysisNotPayoff => {}
        Err(d) => return Err(d),
    }
    let misere = pos.is_misere();
    let shown = session.show(position);
    let here = facts(session, position, span)?;
    let options = options(session, position, span)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{shown} is {}: {}",
        here.outcome,
        meaning(here.outcome)
    );
    let why = |d: &Defined<u64>| match d {
        Ok(v) => v.to_string(),
        Err(reason) => format!("none ({reason})"),
    };
    let _ = writeln!(
        out,
        "  grundy {}, remoteness {}",
        why(&here.grundy),
        why(&here.remoteness)
    );
    if options.is_empty() {
        let rule = match (here.outcome, misere) {
            (Outcome::D, _) => "it is a declared draw",
            (_, true) => "misère play: the player who cannot move wins",
            (_, false) => "normal play: the player who cannot move loses",
        };
        let _ = writeln!(out, "no options: {shown} is terminal ({rule})");
        if here.grundy.is_ok() {
            let _ = writeln!(out, "mex {{}} = 0");
        }
        if here.remoteness.is_ok() {
            let _ = writeln!(
                out,
                "a terminal position has remoteness {}",
                if misere { "1 under misère play" } else { "0" }
            );
        }
        return Ok(out);
    }
    let mut rows = Vec::with_capacity(options.len());
    for option in &options {
        let f = facts(session, option, span)?;
        rows.push((session.show(option), f));
    }
    let width = rows
        .iter()
        .take(MAX_ROWS)
        .map(|(s, _)| s.chars().count())
        .max()
        .unwrap_or(0)
        .max("option".len());
    let number_width = rows.len().min(MAX_ROWS).to_string().len().max(1);
    let _ = writeln!(
        out,
        "{} option{}:",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
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
            show_defined(&f.grundy),
            show_defined(&f.remoteness),
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
    // The mex set: Grundy values of the options.
    match &here.grundy {
        Ok(g) => {
            let set: BTreeSet<u64> = rows
                .iter()
                .filter_map(|(_, f)| f.grundy.as_ref().ok().copied())
                .collect();
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
        Err(reason) => {
            let _ = writeln!(out, "no mex set: {reason}");
        }
    }
    // The lego set: remoteness of the options.
    let set: BTreeSet<u64> = rows
        .iter()
        .filter_map(|(_, f)| f.remoteness.as_ref().ok().copied())
        .collect();
    let draws = rows.iter().filter(|(_, f)| f.remoteness.is_err()).count();
    match (&here.remoteness, builtins::lego(set.iter().copied())) {
        (Ok(r), Some(lego)) => {
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
        (Err(reason), _) => {
            let _ = writeln!(
                out,
                "lego {}: no remoteness here ({reason})",
                set_text(&set)
            );
        }
        (Ok(_), None) => {
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
        Value::List(items) => items.to_vec(),
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
    let width = rows
        .iter()
        .take(MAX_ROWS)
        .map(|(s, ..)| s.chars().count())
        .max()
        .unwrap_or(0)
        .max("option".len());
    let number_width = rows.len().min(MAX_ROWS).to_string().len().max(1);
    let _ = writeln!(
        out,
        "{} option{} (an option's score is its mover's, the opponent's):",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
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

/// Whether a value is one to highlight: zero, or the outcome P.
fn is_zero(value: &Value) -> bool {
    matches!(value, Value::Int(0) | Value::Outcome(Outcome::P))
}

fn paint(text: &str, value: &Value, color: bool) -> String {
    if color && is_zero(value) {
        format!("\x1b[1;32m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Values that are consecutive integers starting at `first`.
fn consecutive(ns: &[Value]) -> Option<i64> {
    let Some(Value::Int(first)) = ns.first() else {
        return None;
    };
    let ok = ns.iter().enumerate().all(|(i, n)| {
        // Checked, not saturated: `[9223372036854775807, 9223372036854775807]` is not a
        // run (and then every label below fits, so saturating there changes nothing).
        i64::try_from(i)
            .ok()
            .and_then(|i| first.checked_add(i))
            .is_some_and(|v| *n == Value::Int(v))
    });
    ok.then_some(*first)
}

/// `:table`: the values of a sequence, ten to a row (or a row per period, when one is
/// spotted), then the period.
pub fn table(session: &Session, title: &str, rows: &[(Value, Value)], color: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}:");
    if rows.is_empty() {
        let _ = writeln!(out, "(no values: the range is empty)");
        return out;
    }
    let ns: Vec<Value> = rows.iter().map(|(n, _)| n.clone()).collect();
    let values: Vec<Value> = rows.iter().map(|(_, v)| v.clone()).collect();
    let shown: Vec<String> = values.iter().map(|v| session.show(v)).collect();
    let period = builtins::period(&values);
    let width = shown.iter().map(|s| s.chars().count()).max().unwrap_or(1);
    match consecutive(&ns) {
        Some(first) if width <= 6 => {
            let columns = match period {
                Some((_, p)) if (2..=24).contains(&p) => p,
                _ => 10,
            };
            let last = first.saturating_add(ns.len() as i64 - 1);
            let label = first.to_string().len().max(last.to_string().len()).max(1);
            let cell = width.max((columns - 1).to_string().len() + 1);
            let mut header = format!("{:>label$} |", "n");
            for c in 0..columns {
                let _ = write!(header, " {:>cell$}", format!("+{c}"));
            }
            let _ = writeln!(out, "{header}");
            let _ = writeln!(
                out,
                "{}-+-{}",
                "-".repeat(label),
                "-".repeat(columns * (cell + 1) - 1)
            );
            for (row, chunk) in shown.chunks(columns).enumerate() {
                let start = first.saturating_add((row * columns) as i64);
                let mut line = format!("{start:>label$} |");
                for (c, text) in chunk.iter().enumerate() {
                    let padded = format!("{text:>cell$}");
                    let _ = write!(
                        line,
                        " {}",
                        paint(&padded, &values[row * columns + c], color)
                    );
                }
                let _ = writeln!(out, "{line}");
            }
        }
        _ => {
            let label = ns
                .iter()
                .map(|n| session.show(n).chars().count())
                .max()
                .unwrap_or(1);
            for ((n, text), value) in ns.iter().zip(&shown).zip(&values) {
                let _ = writeln!(
                    out,
                    "{:>label$}  {}",
                    session.show(n),
                    paint(text, value, color)
                );
            }
        }
    }
    match period {
        Some((pre, p)) => {
            let from = ns
                .get(pre)
                .map_or_else(|| pre.to_string(), |n| session.show(n));
            let _ = writeln!(
                out,
                "period {p}, from {} (preperiod {pre}), seen in {} values",
                if pre == 0 {
                    "the start".to_string()
                } else {
                    format!("n = {from}")
                },
                values.len()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "no period in these {} values (a period must repeat twice after its preperiod; try a longer range)",
                values.len()
            );
        }
    }
    out
}

/// `:grid`: rows for the first variable, columns for the second; a row's columns may differ
/// (`b in 0..=a`), so the columns are all those met, in order.
pub fn grid(
    session: &Session,
    title: &str,
    names: (&str, &str),
    rows: &[(Value, Vec<(Value, Value)>)],
    color: bool,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}:");
    let columns: Vec<Value> = rows
        .iter()
        .flat_map(|(_, cells)| cells.iter().map(|(b, _)| b.clone()))
        .collect::<BTreeSet<Value>>()
        .into_iter()
        .collect();
    if rows.is_empty() || columns.is_empty() {
        let _ = writeln!(out, "(no values: a range is empty)");
        return out;
    }
    let cell = rows
        .iter()
        .flat_map(|(_, cells)| cells.iter().map(|(_, v)| session.show(v).chars().count()))
        .chain(columns.iter().map(|c| session.show(c).chars().count()))
        .max()
        .unwrap_or(1);
    let corner = format!("{}\\{}", names.0, names.1);
    let label = rows
        .iter()
        .map(|(a, _)| session.show(a).chars().count())
        .chain([corner.chars().count()])
        .max()
        .unwrap_or(1);
    let mut header = format!("{corner:>label$} |");
    for c in &columns {
        let _ = write!(header, " {:>cell$}", session.show(c));
    }
    let _ = writeln!(out, "{header}");
    let _ = writeln!(
        out,
        "{}-+-{}",
        "-".repeat(label),
        "-".repeat(columns.len() * (cell + 1) - 1)
    );
    for (a, cells) in rows {
        let mut line = format!("{:>label$} |", session.show(a));
        for c in &columns {
            match cells.iter().find(|(b, _)| b == c) {
                Some((_, v)) => {
                    let padded = format!("{:>cell$}", session.show(v));
                    let _ = write!(line, " {}", paint(&padded, v, color));
                }
                None => {
                    let _ = write!(line, " {:>cell$}", "");
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
