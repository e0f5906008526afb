//! The REPL's views of a strategic-form game: `:explain G` (the payoff table with best
//! responses marked, the equilibria, the value) and `:table G [for PLAYER]` (one player's
//! payoffs).

use std::fmt::Write as _;

use crate::api::builtins::Builtin;
use crate::api::Session;
use crate::api::StrategicGame;
use crate::api::StrategicTable;
use crate::api::Value;
use crate::api::{Code, Diag, Span};

/// Tables larger than this many cells are summarised, not printed.
const MAX_CELLS: usize = 2_500;

fn cell_text(value: &Value, session: &Session) -> String {
    match value {
        Value::Str(s) => s.to_string(),
        other => session.show(other),
    }
}

/// Lays out rows of cells in columns, each as wide as its widest cell.
fn columns(rows: &[Vec<String>]) -> String {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..width)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| format!("{s:<w$}", w = widths[c]))
            .collect();
        let _ = writeln!(out, "  {}", line.join("   ").trim_end());
    }
    out
}

/// A payoff, starred when the player's strategy is a best response to the others'.
fn marked(g: &StrategicGame, profile: &[usize], player: usize) -> String {
    let best = g.best_responses(profile)[player].contains(&profile[player]);
    format!(
        "{}{}",
        g.payoff(profile, player),
        if best { "*" } else { "" }
    )
}

/// The payoff table: for two players, rows and columns of payoff pairs; otherwise one line
/// per profile.
fn payoff_table(session: &Session, t: &StrategicTable) -> String {
    let g = &t.game;
    let name = |i: usize, s: usize| cell_text(&t.strategies[i][s], session);
    if g.n() == 2 {
        let mut rows = vec![
            std::iter::once(format!("{} \\ {}", g.players[0], g.players[1]))
                .chain((0..g.counts[1]).map(|j| name(1, j)))
                .collect::<Vec<_>>(),
        ];
        for i in 0..g.counts[0] {
            let mut row = vec![name(0, i)];
            for j in 0..g.counts[1] {
                row.push(format!(
                    "{}, {}",
                    marked(g, &[i, j], 0),
                    marked(g, &[i, j], 1)
                ));
            }
            rows.push(row);
        }
        return columns(&rows);
    }
    let mut rows = vec![g
        .players
        .iter()
        .cloned()
        .chain(std::iter::once("payoffs".to_string()))
        .collect::<Vec<_>>()];
    for p in g.profiles() {
        let mut row: Vec<String> = p.iter().enumerate().map(|(i, &s)| name(i, s)).collect();
        let pays: Vec<String> = (0..g.n()).map(|i| marked(g, &p, i)).collect();
        row.push(format!("({})", pays.join(", ")));
        rows.push(row);
    }
    columns(&rows)
}

/// The answer of a built-in, or the first line of the diagnostic that refused it.
fn answer(session: &mut Session, b: Builtin, game: &Value, span: Span) -> Result<Value, String> {
    session
        .analyse(b, game, span)
        .map_err(|d| d.message.clone())
}

/// `:explain` of a strategic game.
pub fn explain(session: &mut Session, game: &Value, span: Span) -> Result<String, Box<Diag>> {
    let table = match session.strategic_table(game, span) {
        Some(t) => t?,
        None => {
            return Err(Box::new(Diag::internal(
                "`:explain` of a strategic game that is not one",
            )))
        }
    };
    let g = &table.game;
    let mut out = String::new();
    let players: Vec<String> = g
        .players
        .iter()
        .zip(&g.counts)
        .map(|(p, c)| format!("{p} ({c} strategies)"))
        .collect();
    let _ = writeln!(
        out,
        "{} is a strategic game of {} players: {}",
        session.show(game),
        g.n(),
        players.join(", ")
    );
    if g.profile_count() * g.n() > MAX_CELLS {
        let _ = writeln!(
            out,
            "  (the table has {} profiles; `:table` prints one player's payoffs)",
            g.profile_count()
        );
    } else {
        out.push_str(&payoff_table(session, &table));
        let _ = writeln!(out, "  * marks a best response to the others' strategies");
    }
    let show = |s: &Session, r: Result<Value, String>| match r {
        Ok(v) => s.show(&v),
        Err(why) => format!("none ({why})"),
    };
    let pure = answer(session, Builtin::PureNash, game, span);
    let _ = writeln!(out, "pure equilibria: {}", show(session, pure));
    if g.n() == 2 {
        match answer(session, Builtin::Nash, game, span) {
            Ok(Value::Tuple(ref parts)) if parts.len() == 3 => {
                let method = cell_text(&parts[0], session);
                let complete = parts[1] == Value::Bool(true);
                let list = match &parts[2] {
                    Value::List(items) => items.to_vec(),
                    _ => Vec::new(),
                };
                let degenerate = method == "vertex enumeration";
                let _ = writeln!(
                    out,
                    "{} ({method}, {}): {}",
                    if degenerate {
                        "extreme equilibria"
                    } else {
                        "equilibria"
                    },
                    if complete {
                        "all of them"
                    } else {
                        "some, not necessarily all"
                    },
                    list.len()
                );
                for e in list {
                    let _ = writeln!(out, "  {}", session.show(&e));
                }
                if degenerate {
                    // A degenerate game's equilibria may form continua: say which extreme
                    // equilibria belong together.
                    if let Ok(Value::List(ref components)) =
                        answer(session, Builtin::EquilibriumComponents, game, span)
                    {
                        let sizes: Vec<String> = components
                            .iter()
                            .map(|c| match c {
                                Value::List(items) if items.len() == 1 => {
                                    "an isolated equilibrium".to_string()
                                }
                                Value::List(items) => {
                                    format!("a continuum of {} extreme equilibria", items.len())
                                }
                                _ => String::new(),
                            })
                            .collect();
                        let _ = writeln!(
                            out,
                            "  the game is degenerate; components of the equilibria: {} ({})",
                            components.len(),
                            sizes.join(", ")
                        );
                    }
                }
            }
            Ok(other) => {
                let _ = writeln!(out, "equilibria: {}", session.show(&other));
            }
            Err(why) => {
                let _ = writeln!(out, "equilibria: none listed ({why})");
            }
        }
        if g.zero_sum().is_ok() {
            let value = answer(session, Builtin::MinimaxValue, game, span);
            let strategies = answer(session, Builtin::MinimaxStrategies, game, span);
            let _ = writeln!(
                out,
                "zero-sum: value {} for {}, optimal strategies {}",
                show(session, value),
                g.players[0],
                show(session, strategies)
            );
        } else {
            let _ = writeln!(out, "not zero-sum: no value");
        }
    }
    Ok(out)
}

/// `:table G [for PLAYER]`: one player's payoffs (the first player's if none is named), as
/// a table over the first two players' strategies (for two players) or by profile.
pub fn table(
    session: &mut Session,
    game: &Value,
    player: Option<&str>,
    span: Span,
) -> Result<String, Box<Diag>> {
    let Some(table) = session.strategic_table(game, span) else {
        return Err(Box::new(
            Diag::error(Code::ReplUsage, format!("`:table` without `for` needs a strategic game, but this is {}", session.show(game)))
                .label(span, "not a strategic game")
                .help("tabulate an expression with `:table EXPR for n in A..B`, or give a strategic game: `:table G for PLAYER`"),
        ));
    };
    let table = table?;
    let g = &table.game;
    let i = match player {
        None => 0,
        Some(name) => g.players.iter().position(|p| p == name).ok_or_else(|| {
            Box::new(
                Diag::error(
                    Code::ReplUsage,
                    format!("`{}` has no player `{name}`", session.show(game)),
                )
                .label(span, "this game")
                .help(format!("its players are {}", g.players.join(", "))),
            )
        })?,
    };
    let name = |p: usize, s: usize| cell_text(&table.strategies[p][s], session);
    let mut out = String::new();
    let _ = writeln!(out, "{}'s payoffs in {}", g.players[i], session.show(game));
    if g.profile_count() > MAX_CELLS {
        let _ = writeln!(
            out,
            "  (the table has {} profiles, too many to print)",
            g.profile_count()
        );
        return Ok(out);
    }
    if g.n() == 2 {
        let mut rows = vec![
            std::iter::once(format!("{} \\ {}", g.players[0], g.players[1]))
                .chain((0..g.counts[1]).map(|j| name(1, j)))
                .collect::<Vec<_>>(),
        ];
        for r in 0..g.counts[0] {
            let mut row = vec![name(0, r)];
            row.extend((0..g.counts[1]).map(|c| marked(g, &[r, c], i)));
            rows.push(row);
        }
        out.push_str(&columns(&rows));
    } else {
        let mut rows = vec![g.players.clone()];
        rows[0].push(format!("payoff of {}", g.players[i]));
        for p in g.profiles() {
            let mut row: Vec<String> = p.iter().enumerate().map(|(k, &s)| name(k, s)).collect();
            row.push(marked(g, &p, i));
            rows.push(row);
        }
        out.push_str(&columns(&rows));
    }
    let _ = writeln!(out, "  * marks a best response of {}", g.players[i]);
    Ok(out)
}
