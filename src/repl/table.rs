//! What `:table` and `:grid` show: sequences and 2-D tables of values laid out as in the
//! papers (zeros, P and `true` stand out; each positive integer keeps one colour).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::api::builtins;
use crate::api::{HeapTable, Session};
use crate::api::{Outcome, Value};

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
    table_of(session, title, rows, color, None)
}

/// `:table octal("0.77")`: the values of a take-and-break game's heaps, a row per period
/// when one is proved, then the proof (instead of a period seen).
pub fn heap_table(session: &Session, heaps: &HeapTable, color: bool) -> String {
    let rows: Vec<(Value, Value)> = heaps
        .rows()
        .into_iter()
        .map(|(n, mut cells)| (n, cells.pop().map_or(Value::None, |(_, v)| v)))
        .collect();
    let columns = heaps.proved.map(|(_, p, _)| p);
    table_of(
        session,
        &heaps.title,
        &rows,
        color,
        Some((columns, heaps.proof())),
    )
}

/// A table; with `proved`, its columns (a period) and last line are given, not spotted.
fn table_of(
    session: &Session,
    title: &str,
    rows: &[(Value, Value)],
    color: bool,
    proved: Option<(Option<usize>, String)>,
) -> String {
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
    let row_period = match &proved {
        Some((columns, _)) => *columns,
        None => period.map(|(_, p)| p).or(saltus.map(|(_, p, _)| p)),
    };
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
    // Where a period starts: the start, or the `n` after the preperiod.
    let start = |pre: usize| {
        if pre == 0 {
            return "the start".to_string();
        }
        let from = ns
            .get(pre)
            .map_or_else(|| pre.to_string(), |n| session.show(n));
        format!("n = {from}")
    };
    if let Some((_, line)) = proved {
        let _ = writeln!(out, "{line}");
        return out;
    }
    match period {
        Some((pre, p)) => {
            let _ = writeln!(
                out,
                "period {p}, from {} (preperiod {pre}), seen in {} values",
                start(pre),
                values.len()
            );
        }
        None if saltus.is_some() => {
            let (pre, p, step) = saltus.unwrap_or_default();
            let _ = writeln!(
                out,
                "arithmetic period {p} with saltus {step} (each value is the one {p} before plus {step}), from {} (preperiod {pre}), seen in {} values",
                start(pre),
                values.len()
            );
        }
        None => {
            let _ = writeln!(
                out,
                "no period in these {} values (a period must repeat twice after its preperiod, an arithmetic one three times and over ten values; try a longer range)",
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
