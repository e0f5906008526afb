//! What `:explain`, `:table` and `:grid` show: a position's options with their values, and
//! sequences and 2-D tables of values laid out as in the papers (zeros and P stand out).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::diag::{Code, Diag, Span};
use crate::eval::builtins::{self, Builtin};
use crate::eval::picture::{gallery, indent};
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
    own: crate::eval::Stop,
    optional: crate::eval::Stop,
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
            Err(d) if d.code == crate::eval::TIMEOUT && self.own.check().is_ok() => {
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
            .help("make a position by calling a game: `:explain Kayles(4)`"),
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

/// The mark of `true` in `:table` and `:grid` (what stands out, as P-positions are black in
/// the papers' pictures).
const TRUE_MARK: &str = "■";
/// The mark of `false`.
const FALSE_MARK: &str = "·";

/// The colours of the positive integers in `:table` and `:grid` (ANSI codes), in turn: one
/// value keeps one colour, so the pattern of a table shows at a glance. Green is zero's.
const PALETTE: &[&str] = &["36", "33", "35", "34", "31", "96", "93", "95", "94", "91"];

/// A value as a cell of `:table` or `:grid` shows it: booleans as marks, the rest printed.
fn cell_text(session: &Session, value: &Value) -> String {
    match value {
        Value::Bool(true) => TRUE_MARK.to_string(),
        Value::Bool(false) => FALSE_MARK.to_string(),
        other => session.show(other),
    }
}

/// The legend of the marks, when some cell is a boolean.
fn legend<'v>(mut values: impl Iterator<Item = &'v Value>) -> Option<String> {
    values
        .any(|v| matches!(v, Value::Bool(_)))
        .then(|| format!("{TRUE_MARK} true, {FALSE_MARK} false"))
}

/// A cell in colour (when `color`): zero, `P` and `true` in bold green, as what stands out;
/// `D` in yellow; each positive integer in its colour of [`PALETTE`]; the rest plain.
fn paint(text: &str, value: &Value, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let code = match value {
        Value::Int(0) | Value::Outcome(Outcome::P) | Value::Bool(true) => "1;32",
        Value::Outcome(Outcome::D) => "33",
        Value::Int(n) if *n > 0 => PALETTE[((*n - 1) % PALETTE.len() as i64) as usize],
        _ => return text.to_string(),
    };
    format!("\x1b[{code}m{text}\x1b[0m")
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
    let shown: Vec<String> = values.iter().map(|v| cell_text(session, v)).collect();
    let period = builtins::period(&values);
    // Without a plain period, integers may still be arithmetic-periodic (Lasker's Nim).
    let saltus = match period {
        Some(_) => None,
        None => values
            .iter()
            .map(|v| match v {
                Value::Int(i) => Some(*i),
                _ => None,
            })
            .collect::<Option<Vec<i64>>>()
            .and_then(|ints| builtins::saltus_period(&ints)),
    };
    let row_period = period.map(|(_, p)| p).or(saltus.map(|(_, p, _)| p));
    let width = shown.iter().map(|s| s.chars().count()).max().unwrap_or(1);
    match consecutive(&ns) {
        Some(first) if width <= 6 => {
            let columns = match row_period {
                Some(p) if (2..=24).contains(&p) => p,
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
    if let Some(legend) = legend(values.iter()) {
        let _ = writeln!(out, "{legend}");
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
        None if saltus.is_some() => {
            let (pre, p, step) = saltus.unwrap_or_default();
            let from = ns
                .get(pre)
                .map_or_else(|| pre.to_string(), |n| session.show(n));
            let _ = writeln!(
                out,
                "arithmetic period {p} with saltus {step} (each value is the one {p} before plus {step}), from {} (preperiod {pre}), seen in {} values",
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
        .flat_map(|(_, cells)| {
            cells
                .iter()
                .map(|(_, v)| cell_text(session, v).chars().count())
        })
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
                    let padded = format!("{:>cell$}", cell_text(session, v));
                    let _ = write!(line, " {}", paint(&padded, v, color));
                }
                None => {
                    let _ = write!(line, " {:>cell$}", "");
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if let Some(legend) = legend(
        rows.iter()
            .flat_map(|(_, cells)| cells.iter().map(|(_, v)| v)),
    ) {
        let _ = writeln!(out, "{legend}");
    }
    out
}

/// Codes of `value`'s errors that mean "no value here" rather than "went wrong".
const NO_VALUE: &[Code] = &[
    Code::AnalysisValueMisere,
    Code::AnalysisValueCompound,
    Code::AnalysisValueLimit,
];

/// The stops and temperature of a game value, in words.
fn stops_text(value: &Value, stop: &crate::eval::Stop) -> Option<String> {
    use crate::cgt::Dyadic;
    let id = crate::value::with_forms(|t| match value {
        Value::Form(id) => Some(*id),
        Value::Int(n) => t.integer(*n).ok(),
        Value::Rational(r) => Dyadic::from_fraction(r.numer(), r.denom())
            .and_then(|d| t.number(d))
            .ok(),
        _ => None,
    })?;
    crate::value::with_forms(|t| {
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

/// `:explain` of a partizan position: its class and why (whether each player, moving first,
/// has a winning move), its canonical form with its stops and temperature, and each
/// player's options with their values and classes.
fn explain_partizan(
    session: &mut Session,
    position: &Value,
    span: Span,
    color: bool,
) -> Result<String, Box<Diag>> {
    use crate::cgt::Side;
    let shown = session.show(position);
    let here = outcome(session, position, span)?;
    let mut out = String::new();
    let _ = writeln!(out, "{shown} is {here}: {}", meaning(here));
    match session.analyse(Builtin::Value, position, span) {
        Ok(v) => {
            let _ = writeln!(out, "  value {} (canonical form)", session.show(&v));
            if let Some(stops) = stops_text(&v, session.stop()) {
                let _ = writeln!(out, "  {stops}");
            }
        }
        Err(d) if NO_VALUE.contains(&d.code) => {
            let _ = writeln!(out, "  no value: {}", d.message);
        }
        Err(d) => return Err(d),
    }
    for side in [Side::Left, Side::Right] {
        let (name, won) = match side {
            Side::Left => ("Left", [Outcome::L, Outcome::P]),
            Side::Right => ("Right", [Outcome::R, Outcome::P]),
        };
        let options = match session.analyse_side(Builtin::Moves, position, side, span)? {
            Value::List(ref items) => items.to_vec(),
            _ => Vec::new(),
        };
        let mut rows = Vec::with_capacity(options.len());
        for option in &options {
            let o = outcome(session, option, span)?;
            let value = match session.analyse(Builtin::Value, option, span) {
                Ok(v) => session.show(&v),
                Err(d) if NO_VALUE.contains(&d.code) => "-".to_string(),
                Err(d) => return Err(d),
            };
            rows.push((session.show(option), value, o));
        }
        let winning = rows.iter().position(|(_, _, o)| won.contains(o));
        let why = match (rows.is_empty(), winning) {
            (true, _) => "has no move".to_string(),
            (false, Some(i)) => format!(
                "wins moving first (option {} leaves the opponent lost)",
                i + 1
            ),
            (false, None) => {
                "loses moving first (every option leaves the opponent a win)".to_string()
            }
        };
        let _ = writeln!(
            out,
            "{name}: {} option{}; {name} {why}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        );
        if rows.is_empty() {
            continue;
        }
        let width = rows
            .iter()
            .take(MAX_ROWS)
            .map(|(s, _, _)| s.chars().count())
            .max()
            .unwrap_or(0)
            .max("option".len());
        let value_width = rows
            .iter()
            .take(MAX_ROWS)
            .map(|(_, v, _)| v.chars().count())
            .max()
            .unwrap_or(0)
            .max("value".len());
        let number_width = rows.len().min(MAX_ROWS).to_string().len();
        let _ = writeln!(
            out,
            "  {:>number_width$}  {:<width$}  {:<value_width$}  outcome",
            "#", "option", "value"
        );
        for (i, (text, value, o)) in rows.iter().enumerate().take(MAX_ROWS) {
            let wins = won.contains(o);
            let line = format!(
                "  {:>number_width$}  {:<width$}  {:<value_width$}  {:<7}{}",
                i + 1,
                text,
                value,
                o.to_string(),
                if wins { "  wins" } else { "" }
            );
            let line = line.trim_end();
            if color && wins {
                let _ = writeln!(out, "\x1b[1;32m{line}\x1b[0m");
            } else {
                let _ = writeln!(out, "{line}");
            }
        }
        if rows.len() > MAX_ROWS {
            let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_ROWS);
        }
    }
    Ok(out)
}
