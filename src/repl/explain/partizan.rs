//! `:explain` of a partizan position: its class, canonical form, stops and temperature, and
//! each player's options.

use std::fmt::Write as _;

use super::{meaning, outcome, MAX_ROWS};
use crate::api::builtins::Builtin;
use crate::api::Session;
use crate::api::{Code, Diag, Span};
use crate::api::{Outcome, Value};

/// Codes of `value`'s errors that mean "no value here" rather than "went wrong".
const NO_VALUE: &[Code] = &[
    Code::AnalysisValueMisere,
    Code::AnalysisValueCompound,
    Code::AnalysisValueLimit,
];

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
        t.with_budget(stop.sooner(super::EXPLAIN_BUDGET).budget(), |t| {
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
pub(super) fn explain_partizan(
    session: &mut Session,
    position: &Value,
    span: Span,
    color: bool,
) -> Result<String, Box<Diag>> {
    use crate::api::Side;
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
