//! Answers laid out as data for the page: a `:table` (a row per value of its variable), a
//! `:grid` (rows and columns), and a strategic game's payoff table with best responses
//! marked and its equilibria. Each cell carries its text and a class for its colour.

use serde_json::{json, Value as Json};

use crate::api::{Diag, Outcome, Rows, Session, Span, Value};

/// Profiles of a strategic game shown at most as a table.
const MOST_PROFILES: usize = 2_500;

/// A cell: its text (booleans as marks, strings as they are) and its class.
fn cell(s: &Session, value: &Value) -> Json {
    let text = match value {
        Value::Bool(true) => "■".to_string(),
        Value::Bool(false) => "·".to_string(),
        Value::Str(t) => t.to_string(),
        other => s.show_short(other),
    };
    json!({ "text": text, "class": cell_class(value) })
}

/// `:table EXPR for n in A`.
pub fn table(s: &Session, title: &str, var: &str, rows: &Rows) -> Json {
    let rows: Vec<Json> = rows
        .iter()
        .map(|(n, cells)| {
            let value = cells.first().map_or(Value::None, |(_, v)| v.clone());
            json!({ "label": s.show_short(n), "cell": cell(s, &value) })
        })
        .collect();
    json!({ "kind": "table", "title": title, "var": var, "rows": rows })
}

/// `:grid EXPR for a in A, b in B`.
pub fn grid(s: &Session, title: &str, (row_var, col_var): (&str, &str), rows: &Rows) -> Json {
    let columns: Vec<String> = rows
        .first()
        .map(|(_, c)| c.iter().map(|(b, _)| s.show_short(b)).collect())
        .unwrap_or_default();
    let rows: Vec<Json> = rows
        .iter()
        .map(|(a, cells)| {
            let cells: Vec<Json> = cells.iter().map(|(_, v)| cell(s, v)).collect();
            json!({ "label": s.show_short(a), "cells": cells })
        })
        .collect();
    json!({
        "kind": "grid",
        "title": title,
        "row_var": row_var,
        "col_var": col_var,
        "columns": columns,
        "rows": rows,
    })
}

/// A strategic game's payoff table (two players: rows and columns of payoff pairs, each
/// payoff marked when it is a best response; more players: a row per profile) and its
/// equilibria; `None` when the value is not a strategic game.
pub fn strategic(s: &mut Session, value: &Value, span: Span) -> Result<Option<Json>, Box<Diag>> {
    let Some(table) = s.strategic_table(value, span) else {
        return Ok(None);
    };
    let table = table?;
    let g = &table.game;
    let name = |p: usize, k: usize| match &table.strategies[p][k] {
        Value::Str(t) => t.to_string(),
        other => s.show_short(other),
    };
    let labels: Vec<Vec<String>> = (0..g.n())
        .map(|p| (0..g.counts[p]).map(|k| name(p, k)).collect())
        .collect();
    let mut doc = json!({
        "players": g.players,
        "labels": labels,
        "profiles": g.profile_count(),
    });
    if g.profile_count() <= MOST_PROFILES {
        let profile = |p: &[usize]| {
            let best = g.best_responses(p);
            let pays: Vec<Json> = (0..g.n())
                .map(|i| {
                    json!({
                        "text": g.payoff(p, i).to_string(),
                        "best": best[i].contains(&p[i]),
                    })
                })
                .collect();
            json!({ "strategies": p, "payoffs": pays })
        };
        let cells: Vec<Json> = g.profiles().map(|p| profile(&p)).collect();
        doc["cells"] = json!(cells);
    }
    if g.n() == 2 {
        doc["equilibria"] = match s.equilibria(value, span) {
            Some(Ok(e)) => json!(e),
            Some(Err(d)) => json!({ "error": d.message }),
            None => Json::Null,
        };
    }
    Ok(Some(doc))
}

/// The class of a cell, for the page's colours: what stands out (0, P, true), a draw, each
/// positive integer's colour of ten, or nothing.
fn cell_class(value: &Value) -> String {
    match value {
        Value::Int(0) | Value::Outcome(Outcome::P) | Value::Bool(true) => "hi".into(),
        Value::Bool(false) => "lo".into(),
        Value::Outcome(Outcome::D) => "draw".into(),
        Value::Int(n) if *n > 0 => format!("c{}", (n - 1) % 10),
        _ => String::new(),
    }
}
