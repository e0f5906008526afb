//! How `:explain` prints what `compute.rs` found: plain data to text, with no session (the
//! options table, the pictures laid out in `COLUMNS`, the mex and lego sets, the winning
//! moves; the winning rows bold green when colour is on).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::api::builtins;
use crate::api::Outcome;
use crate::api::{gallery, indent};

use super::compute::{Fact, Facts, Impartial, Partizan, Scored};
use super::{EXPLAIN_BUDGET, MAX_PICTURES, MAX_ROWS};

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
        Fact::Infinite(v) => v.clone(),
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

/// A row of an options table, bold green when `marked` and colour is on.
fn row_line(out: &mut String, line: &str, marked: bool, color: bool) {
    let line = line.trim_end();
    if color && marked {
        let _ = writeln!(out, "\x1b[1;32m{line}\x1b[0m");
    } else {
        let _ = writeln!(out, "{line}");
    }
}

/// An impartial position: its outcome and facts, its options with theirs, the pictures,
/// the mex and lego sets and the winning moves.
pub(super) fn impartial(e: &Impartial, color: bool) -> String {
    let Impartial {
        shown,
        misere,
        here,
        rows,
        picture,
        pictures,
    } = e;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{shown} is {}: {}",
        here.outcome,
        meaning(here.outcome)
    );
    let why = |d: &Fact| match d {
        Fact::Known(v) => v.to_string(),
        Fact::Infinite(v) => v.clone(),
        Fact::Undefined(reason) => format!("none ({reason})"),
        Fact::Skipped => "not computed (see below)".to_string(),
    };
    let _ = writeln!(
        out,
        "  grundy {}, remoteness {}",
        why(&here.grundy),
        why(&here.remoteness)
    );
    if let Some(picture) = picture {
        let _ = writeln!(out, "{}", indent(picture, "    "));
    }
    if rows.is_empty() {
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
                if *misere { "1 under misère play" } else { "0" }
            );
        }
        return out;
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
        row_line(&mut out, &line, f.outcome == Outcome::P, color);
    }
    if rows.len() > MAX_ROWS {
        let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_ROWS);
    }
    if picture.is_some() {
        let gallery_items: Vec<(String, String)> = pictures
            .iter()
            .zip(rows)
            .enumerate()
            .map(|(i, (picture, (_, f)))| (format!("{} {}", i + 1, f.outcome), picture.clone()))
            .collect();
        let _ = writeln!(out, "the options drawn (number and outcome):");
        let shown = gallery(&gallery_items, super::super::columns().saturating_sub(2));
        let _ = writeln!(out, "{}", indent(&shown, "  "));
        if rows.len() > MAX_PICTURES {
            let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_PICTURES);
        }
    }
    mex_line(&mut out, here, rows);
    lego_lines(&mut out, shown, here, rows);
    winning_line(&mut out, here, rows);
    out
}

/// The mex set: the Grundy values of the options.
fn mex_line(out: &mut String, here: &Facts, rows: &[(String, Facts)]) {
    let grundy_skipped = rows
        .iter()
        .filter(|(_, f)| matches!(f.grundy, Fact::Skipped))
        .count();
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
        Fact::Infinite(v) => {
            let set: BTreeSet<u64> = rows.iter().filter_map(|(_, f)| f.grundy.known()).collect();
            let _ = writeln!(
                out,
                "no mex: play can cycle, and the loopy Grundy value is {v}, ∞ with the options' finite values {} (Smith)",
                set_text(&set)
            );
        }
        Fact::Undefined(reason) => {
            let _ = writeln!(out, "no mex set: {reason}");
        }
    }
}

/// The lego set: the remoteness of the options, and the options that are draws.
fn lego_lines(out: &mut String, shown: &str, here: &Facts, rows: &[(String, Facts)]) {
    let remoteness_skipped = rows
        .iter()
        .filter(|(_, f)| matches!(f.remoteness, Fact::Skipped))
        .count();
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
                .map_or(shown, |(text, _)| text.as_str());
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
        // Said by the first arm; a remoteness is a number.
        (Fact::Skipped | Fact::Infinite(_), _) => {}
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
}

/// The winning moves, or the drawing ones, or why there is none.
fn winning_line(out: &mut String, here: &Facts, rows: &[(String, Facts)]) {
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
}

/// A payoff game's position: its score, each option's score, and the options that keep
/// the score (the negamax step).
pub(super) fn scored(e: &Scored, color: bool) -> String {
    let Scored {
        shown,
        here,
        score,
        rows,
    } = e;
    let mut out = String::new();
    let standing = match here {
        Outcome::N => format!("the player to move can come out ahead by {score}"),
        Outcome::P => {
            format!("the player to move comes out behind: score {score}, the most they can secure")
        }
        _ => "the player to move can secure 0 (an even end)".to_string(),
    };
    let _ = writeln!(out, "{shown} is {here}: {standing}");
    if rows.is_empty() {
        let _ = writeln!(
            out,
            "no options: {shown} is terminal; its payoff {score} goes to the player to move, from the player who moved there"
        );
        return out;
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
        row_line(&mut out, &line, *best, color);
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
        "score = max {{ -score(option) }} = {score}; optimal move{}: {} (each leaves the opponent {})",
        if numbers.len() == 1 { "" } else { "s" },
        numbers.join(", "),
        rows.iter()
            .find(|(.., best)| *best)
            .map_or("?", |(_, s, _)| s.as_str())
    );
    out
}

/// A partizan position: its class and why (whether each player, moving first, has a
/// winning move), its canonical form with its stops and temperature, and each player's
/// options with their values and classes.
pub(super) fn partizan(e: &Partizan, color: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} is {}: {}", e.shown, e.here, meaning(e.here));
    match &e.value {
        Ok((value, stops)) => {
            let _ = writeln!(out, "  value {value} (canonical form)");
            if let Some(stops) = stops {
                let _ = writeln!(out, "  {stops}");
            }
        }
        Err(reason) => {
            let _ = writeln!(out, "  no value: {reason}");
        }
    }
    let names = [
        ("Left", [Outcome::L, Outcome::P]),
        ("Right", [Outcome::R, Outcome::P]),
    ];
    for ((name, won), rows) in names.into_iter().zip(&e.sides) {
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
        let (number_width, width) = option_columns(rows.iter().map(|(s, ..)| s.as_str()));
        let value_width = rows
            .iter()
            .take(MAX_ROWS)
            .map(|(_, v, _)| v.chars().count())
            .max()
            .unwrap_or(0)
            .max("value".len());
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
            row_line(&mut out, &line, wins, color);
        }
        if rows.len() > MAX_ROWS {
            let _ = writeln!(out, "  ... and {} more", rows.len() - MAX_ROWS);
        }
    }
    out
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
