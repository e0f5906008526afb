//! The evaluations of the API, each in a session of its own built from the request's text,
//! the whole request (loading included) under one budget ([`Limits`]): `check` (diagnostics, then each
//! `print` and `expect` in order), `eval` (a query as the REPL reads it: an expression,
//! `:table`, `:grid`, `:play`) and `play` (a position after the moves taken, its options for
//! the mover, the computer's reply). Each returns the JSON document the page reads.

use std::path::PathBuf;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{json, Value as Json};

use super::limits::Limits;
use crate::api::command::{parse_command, Command, Generator};
use crate::api::{
    Cancel, Diag, Gave, Locator, ParsedExpr, RunOptions, Session, Side, Span, StatementKind,
    TableVar, Value,
};

/// Cells a `:table` or `:grid` may have.
const MOST_CELLS: usize = 10_000;

/// Positions a `:dot` drawing may have: a larger graph is unreadable on a page (`cgl dot`
/// writes one for Graphviz).
const MOST_NODES: usize = 200;

/// Pictures drawn at most for one value.
const MOST_PICTURES: usize = 40;

/// The text of a file being edited, and where it is (for its imports and its name).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The text.
    pub source: String,
    /// Its path below the root (`untitled.game` if none).
    #[serde(default)]
    pub path: Option<String>,
}

/// `POST /api/eval`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalRequest {
    /// The file the query is asked in.
    #[serde(flatten)]
    pub file: Source,
    /// The query: an expression or a REPL command.
    pub query: String,
}

/// `POST /api/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The file the game is in.
    #[serde(flatten)]
    pub file: Source,
    /// The start position, an expression.
    pub start: String,
    /// The moves taken so far, each an option's index.
    #[serde(default)]
    pub moves: Vec<usize>,
    /// Whether the computer answers the last move.
    #[serde(default)]
    pub reply: bool,
    /// In a partizan game, the side that moves first (`"left"` or `"right"`).
    #[serde(default)]
    pub side: Option<String>,
}

/// The path of a file being edited, checked as [`super::files::below_root`] checks it.
fn file_path(file: &Source) -> Result<PathBuf, String> {
    match &file.path {
        None => Ok(PathBuf::from("untitled.game")),
        Some(p) => super::files::below_root(p),
    }
}

/// Loads the request's file in a new session and runs `then` on it, all under the budget;
/// the document says whether it loaded, its diagnostics, and the time taken.
fn in_session(
    limits: &Limits,
    cancel: &Cancel,
    file: &Source,
    then: impl FnOnce(&mut Session, usize) -> Json,
) -> Json {
    let path = match file_path(file) {
        Ok(p) => p,
        Err(why) => return json!({ "error": why }),
    };
    let started = Instant::now();
    let mut session = Session::new(limits.config);
    session.set_load_policy(limits.policy.clone());
    let mut doc = session.within(&limits.budget(cancel), |s| {
        match s.load_buffer(&path, &file.source) {
            Err(errors) => json!({ "loaded": false, "diagnostics": s.diagnostics(&errors) }),
            Ok(index) => {
                let warnings = s.diagnostics(&s.file(index).lowered.warnings);
                let mut doc = then(s, index);
                doc["loaded"] = json!(true);
                doc["diagnostics"] = json!(warnings);
                doc
            }
        }
    });
    doc["ms"] = json!(started.elapsed().as_millis() as u64);
    doc
}

/// `POST /api/check`: the file's diagnostics, what it defines, and each `print` and
/// `expect` with what it gave.
pub fn check(limits: &Limits, cancel: &Cancel, file: &Source) -> Json {
    in_session(limits, cancel, file, |s, index| {
        let mut statements = Vec::new();
        let options = RunOptions {
            prints: true,
            skip_after_timeout: true,
            ..RunOptions::default()
        };
        let mut locator = Locator::default();
        s.run_statements(index, options, &mut |s, ran| {
            let place = locator.place(ran.span, &s.sources);
            let kind = match ran.kind {
                StatementKind::Print => "print",
                StatementKind::Expect => "expect",
            };
            let text = s.sources.snippet(ran.span).to_string();
            let mut entry = json!({ "kind": kind, "place": place, "text": text });
            match ran.outcome {
                Gave::Printed(out) => {
                    entry["status"] = json!("printed");
                    entry["output"] = json!(out);
                }
                Gave::Passed => entry["status"] = json!("passed"),
                Gave::Skipped => entry["status"] = json!("skipped"),
                Gave::Failed(d) => {
                    entry["status"] = json!("failed");
                    entry["diagnostic"] = json!(s.diagnostics(&[*d]).pop());
                }
            }
            statements.push(entry);
        });
        let count = |status: &str| statements.iter().filter(|e| e["status"] == status).count();
        let (passed, failed, skipped) = (count("passed"), count("failed"), count("skipped"));
        let games: Vec<String> = s
            .definitions(index)
            .into_iter()
            .filter(|d| matches!(d.kind, crate::api::DefinitionKind::Game))
            .map(|d| d.name)
            .collect();
        json!({
            "statements": statements,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "games": games,
        })
    })
}

/// The names a loaded file sees, as `cgl eval -f` sees them.
fn scope_of(session: &Session, index: usize) -> crate::api::Bindings {
    let mut scope = crate::api::Bindings::new();
    for b in session.file_names(index) {
        scope.bind(b);
    }
    scope
}

/// An answer that is diagnostics.
fn failed(session: &Session, diags: &[Diag]) -> Json {
    json!({ "kind": "error", "errors": session.diagnostics(diags) })
}

/// `POST /api/eval`: a query's answer, as data the page lays out.
pub fn eval(limits: &Limits, cancel: &Cancel, request: &EvalRequest) -> Json {
    let query = request.query.trim().to_string();
    in_session(limits, cancel, &request.file, |s, index| {
        let answer = if query.starts_with(':') {
            command(s, index, &query)
        } else {
            expression(s, index, &query)
        };
        answer.unwrap_or_else(|diags| failed(s, &diags))
    })
}

/// A plain expression: its value as text and data, its positions' pictures, and a strategic
/// game's payoff table.
fn expression(s: &mut Session, index: usize, query: &str) -> Result<Json, Vec<Diag>> {
    let file = s.add_source("<query>", query.to_string());
    let scope = scope_of(s, index);
    let parsed = ParsedExpr::parse(file, query, &(0..query.len()))?;
    let span = parsed.span();
    let value = s.eval_parsed(&parsed, &scope)?;
    value_json(s, &value, span)
}

fn value_json(s: &mut Session, value: &Value, span: Span) -> Result<Json, Vec<Diag>> {
    let (text, cut) = s.show_cut(value);
    let pictures: Vec<Json> = s
        .pictures(value, span, MOST_PICTURES)
        .map_err(|d| vec![*d])?
        .into_iter()
        .map(|(label, picture)| json!({ "label": label, "picture": picture }))
        .collect();
    let mut doc = json!({
        "kind": "value",
        "text": text,
        "cut": cut,
        "type": value.a_type_name(),
        "pictures": pictures,
    });
    if let Some(table) = super::views::strategic(s, value, span).map_err(|d| vec![*d])? {
        doc["strategic"] = table;
    }
    if let Some(walls) = s.thermograph_walls(value, span).map_err(|d| vec![*d])? {
        doc["thermograph"] = json!(crate::api::plot::thermograph::write(&text, &walls));
    }
    Ok(doc)
}

/// A REPL command typed into the query box.
fn command(s: &mut Session, index: usize, query: &str) -> Result<Json, Vec<Diag>> {
    let file = s.add_source("<query>", query.to_string());
    let command = parse_command(query).map_err(|e| {
        vec![Diag::error(e.code, e.message)
            .label(Span::new(file, e.at.start, e.at.end), "here")
            .help(e.help)]
    })?;
    let scope = scope_of(s, index);
    let span = |r: &std::ops::Range<usize>| Span::new(file, r.start, r.end);
    let var = |g: &Generator| -> Result<TableVar, Vec<Diag>> {
        Ok(TableVar {
            name: query[g.name.clone()].to_string(),
            span: span(&g.name),
            source: ParsedExpr::parse(file, query, &g.source)?,
        })
    };
    match command {
        Command::Table { expr, var: rows } => {
            let body = ParsedExpr::parse(file, query, &expr)?;
            let title = format!(
                "{} for {}",
                &query[expr.clone()],
                &query[rows.name.start..rows.source.end]
            );
            let rows_var = var(&rows)?;
            let table = s.tabulate(body, rows_var, None, &scope)?;
            too_many(&table, span(&expr))?;
            let name = &query[rows.name];
            let mut doc = super::views::table(s, &title, name, &table);
            doc["svg"] = plot_svg(s, &query[expr.clone()], (name, None), &table, span(&expr));
            Ok(doc)
        }
        Command::Grid { expr, rows, cols } => {
            let body = ParsedExpr::parse(file, query, &expr)?;
            let title = format!(
                "{} for {}",
                &query[expr.clone()],
                &query[rows.name.start..cols.source.end]
            );
            let (rv, cv) = (var(&rows)?, var(&cols)?);
            let grid = s.tabulate(body, rv, Some(cv), &scope)?;
            too_many(&grid, span(&expr))?;
            let names = (&query[rows.name], &query[cols.name]);
            let mut doc = super::views::grid(s, &title, names, &grid);
            let (x, y) = names;
            doc["svg"] = plot_svg(s, &query[expr.clone()], (x, Some(y)), &grid, span(&expr));
            Ok(doc)
        }
        // `:table` of a take-and-break game by code: its heaps and the period proved; of any
        // other value (a strategic game's payoffs), the value.
        Command::PayoffTable { expr, .. } => {
            let parsed = ParsedExpr::parse(file, query, &expr)?;
            let value = s.eval_parsed(&parsed, &scope)?;
            let Some(heaps) = s.heap_table(&value) else {
                return value_json(s, &value, span(&expr));
            };
            let heaps = heaps.map_err(|d| vec![*d])?;
            let rows = heaps.rows();
            let mut doc = super::views::table(s, &heaps.title, "n", &rows);
            doc["note"] = Json::String(heaps.proof());
            // A proved period lays the heaps out a period to a row, as the REPL does.
            if let Some((_, period, _)) = heaps.proved.filter(|(_, p, _)| (2..=24).contains(p)) {
                doc["columns"] = json!(period);
            }
            doc["svg"] = plot_svg(s, &heaps.title, ("n", None), &rows, span(&expr));
            Ok(doc)
        }
        Command::Explain(expr) | Command::Type(expr) | Command::Time(expr) => {
            let parsed = ParsedExpr::parse(file, query, &expr)?;
            let value = s.eval_parsed(&parsed, &scope)?;
            value_json(s, &value, span(&expr))
        }
        Command::Dot(expr) => {
            let parsed = ParsedExpr::parse(file, query, &expr)?;
            let value = s.eval_parsed(&parsed, &scope)?;
            let title = &query[expr.clone()];
            let graph = s.moves_graph(&value, span(&expr), MOST_NODES, ":dot", "`cgl dot`")?;
            Ok(json!({
                "kind": "graph",
                "title": title,
                "nodes": graph.nodes.len(),
                "svg": crate::api::plot::graph::write(title, &graph.nodes, &graph.edges),
            }))
        }
        Command::Play {
            expr,
            computer_first,
        } => Ok(json!({
            "kind": "play",
            "start": query[expr].to_string(),
            "computer_first": computer_first,
        })),
        _ => Ok(json!({
            "kind": "note",
            "text": "the page answers expressions, :table, :grid, :explain and :play; \
                     the REPL (cgl repl) has the rest",
        })),
    }
}

/// The picture of a table as `cgl plot` draws it (SVG), when its values can be drawn
/// (integers, booleans, outcomes); `null` otherwise.
fn plot_svg(
    s: &Session,
    title: &str,
    (x, y): (&str, Option<&str>),
    rows: &crate::api::Rows,
    span: Span,
) -> Json {
    let names = (x.to_string(), y.map(str::to_string));
    s.plot_rows(title, names, rows, span)
        .and_then(|plot| s.plot_image(&plot, false))
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map_or(Json::Null, Json::String)
}

/// Refuses a table of more than [`MOST_CELLS`] cells.
fn too_many(rows: &crate::api::Rows, span: Span) -> Result<(), Vec<Diag>> {
    let cells: usize = rows.iter().map(|(_, c)| c.len()).sum();
    if cells > MOST_CELLS {
        return Err(vec![Diag::error(
            crate::api::Code::ReplUsage,
            format!("the table has {cells} cells, more than the {MOST_CELLS} the page shows"),
        )
        .label(span, "tabulated")
        .help("use smaller ranges")]);
    }
    Ok(())
}

/// `POST /api/play`: the position after the moves taken (and the computer's reply, when
/// asked), its options for the mover, and the line so far.
pub fn play(limits: &Limits, cancel: &Cancel, request: &PlayRequest) -> Json {
    let first = match request.side.as_deref() {
        None | Some("left") => Side::Left,
        Some("right") => Side::Right,
        Some(other) => return json!({ "error": format!("no side `{other}`: left or right") }),
    };
    in_session(limits, cancel, &request.file, |s, index| {
        match play_in(s, index, request, first) {
            Ok(doc) => doc,
            Err(diags) => failed(s, &diags),
        }
    })
}

fn play_in(
    s: &mut Session,
    index: usize,
    request: &PlayRequest,
    first: Side,
) -> Result<Json, Vec<Diag>> {
    let file = s.add_source("<start>", request.start.clone());
    let scope = scope_of(s, index);
    let parsed = ParsedExpr::parse(file, &request.start, &(0..request.start.len()))?;
    let span = parsed.span();
    let mut here = s.eval_parsed(&parsed, &scope)?;
    let partizan = s.is_partizan(&here);
    let side_at = |k: usize| {
        partizan.then_some(if k.is_multiple_of(2) {
            first
        } else {
            other(first)
        })
    };
    let one = |d: Box<Diag>| vec![*d];
    let mut moves = request.moves.clone();
    let mut line = vec![s.show(&here)];
    for (k, &choice) in request.moves.iter().enumerate() {
        let options = s.play_options(&here, side_at(k), span).map_err(one)?;
        let Some(next) = options.get(choice) else {
            return Ok(json!({
                "kind": "error",
                "error": format!("move {} is option {choice}, but {} has {} options", k + 1, s.show(&here), options.len()),
            }));
        };
        here = next.clone();
        line.push(s.show(&here));
    }
    let mut view = s
        .play_view(&here, side_at(moves.len()), span)
        .map_err(one)?;
    let mut computer = None;
    if request.reply && view.end.is_none() {
        if let Some(best) = view.best {
            let options = s
                .play_options(&here, side_at(moves.len()), span)
                .map_err(one)?;
            if let Some(next) = options.get(best) {
                here = next.clone();
                line.push(s.show(&here));
                moves.push(best);
                computer = Some(best);
                view = s
                    .play_view(&here, side_at(moves.len()), span)
                    .map_err(one)?;
            }
        }
    }
    Ok(json!({
        "kind": "play",
        "moves": moves,
        "line": line,
        "computer": computer,
        "view": view,
    }))
}

fn other(side: Side) -> Side {
    match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}
