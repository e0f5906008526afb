//! The REPL's state and what each entry does: the session, the names bound at the prompt, and
//! the record of definitions that `:reload` replays.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::command::{
    classify, mask, parse_command, parse_let, Command, CommandError, EntryKind, Generator,
};
use super::editor::Lines;
use super::{explain, help, play};
use crate::diag::{render, Code, Diag, FileId, Label, RenderStyle, Span};
use crate::eval::builtins;
use crate::eval::value::{PosTerm, Value};
use crate::eval::Stop;
use crate::lower::ir::{PositionShape, Statement};
use crate::lower::{Exports, Global, Scope};
use crate::session::{ExpectResult, Session, SessionConfig};
use crate::stats::{self, GraphSize};
use crate::syntax::ast::{self, CompClause, ExprKind, Ident, Item};
use crate::syntax::{parse_expr, parse_file};

/// Most values a `:table` or `:grid` shows.
const MAX_CELLS: usize = 100_000;

/// What the session does after an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next entry.
    Continue,
    /// Leave (`:quit`).
    Quit,
}

/// An entry that defined something, replayed by `:reload` in a fresh session.
#[derive(Clone, Debug)]
enum Record {
    /// `:load FILE` (or a file named on the command line).
    Load(PathBuf),
    /// Definitions typed at the prompt (`game`, `fn`, `const`, `import`), with the entry's
    /// number.
    Definitions(String, usize),
    /// `let name = expr`, with the entry's number.
    Let(String, usize),
}

/// Diagnostics of a failed entry.
pub type Errors = Vec<Diag>;

/// A table's rows: each row's value of the row variable, and its cells (the column
/// variable's value and the expression's).
type Rows = Vec<(Value, Vec<(Value, Value)>)>;

/// The REPL: a session, the names bound at the prompt, and how to show things.
pub struct Repl {
    pub(super) session: Session,
    config: SessionConfig,
    stop: Stop,
    /// Names bound at the prompt: loaded files' names, definitions, `let`s. Later ones shadow
    /// earlier ones.
    scope: Exports,
    log: Vec<Record>,
    style: RenderStyle,
    /// Whether output may use colour.
    pub(super) color: bool,
    /// Number of entries read so far (names the sources `<input N>`).
    entries: usize,
    /// Whether any entry failed (the exit code of a piped session).
    pub failed: bool,
    /// How long the last timed entry took, and its text (for `:stats`).
    last: Option<(Duration, String)>,
}

impl Repl {
    /// A REPL over a fresh session.
    pub fn new(config: SessionConfig, style: RenderStyle, color: bool) -> Repl {
        let stop = Stop::new();
        let mut session = Session::new(config);
        session.set_stop(stop.clone());
        Repl {
            session,
            config,
            stop,
            scope: Exports::new(),
            log: Vec::new(),
            style,
            color,
            entries: 0,
            failed: false,
            last: None,
        }
    }

    /// The flag that stops a running computation (raised by Ctrl-C).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.flag()
    }

    /// The names bound at the prompt, for completion.
    pub fn names(&self) -> Vec<String> {
        self.scope.keys().cloned().collect()
    }

    pub(super) fn scope_map(&self) -> Scope {
        self.scope
            .iter()
            .map(|(name, (global, _))| (name.clone(), *global))
            .collect()
    }

    fn bind(&mut self, name: &str, global: Global, span: Span) {
        self.scope.shift_remove(name);
        self.scope.insert(name.to_string(), (global, span));
    }

    /// Registers the text of the current entry as a source, named after its number.
    pub(super) fn add_source(&mut self, text: &str) -> FileId {
        self.session
            .sources
            .add(format!("<input {}>", self.entries), text)
    }

    /// Writes diagnostics the way `cgl check` does.
    pub(super) fn report(&self, diags: &[Diag], err: &mut dyn Write) {
        for d in diags {
            let _ = write!(err, "{}", render(d, &self.session.sources, self.style));
            let _ = writeln!(err);
        }
    }

    /// Runs one entry; a failure is reported and the session goes on.
    pub fn entry(
        &mut self,
        text: &str,
        lines: &mut dyn Lines,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Flow {
        let kind = classify(text);
        if kind == EntryKind::Empty {
            return Flow::Continue;
        }
        self.entries += 1;
        // A Ctrl-C pressed between computations must not stop this one.
        self.stop.reset();
        // `:stats` shows the time of the last entry that computed something: not its own,
        // nor help, nor a game of `:play` (which waits for the player).
        let timed = kind != EntryKind::Command
            || !matches!(
                parse_command(text),
                Ok(Command::Stats | Command::Help(_) | Command::Quit | Command::Play { .. })
            );
        let started = Instant::now();
        let result = match kind {
            EntryKind::Command => self.command(text, lines, out, err),
            EntryKind::Let => self
                .let_entry(text, self.entries, out)
                .map(|_| Flow::Continue),
            EntryKind::Statements => self
                .statements(text, self.entries, Some((&mut *out, &mut *err)))
                .map(|_| Flow::Continue),
            EntryKind::Expr => self.expr_entry(text, out).map(|_| Flow::Continue),
            EntryKind::Empty => Ok(Flow::Continue),
        };
        if timed {
            self.last = Some((started.elapsed(), text.trim().to_string()));
        }
        self.stop.reset();
        match result {
            Ok(flow) => flow,
            Err(diags) => {
                self.failed = true;
                self.report(&diags, err);
                Flow::Continue
            }
        }
    }

    /// Parses part of the current entry (`range`) as an expression, in place.
    fn parse_part(
        &mut self,
        file: FileId,
        text: &str,
        range: &Range<usize>,
    ) -> Result<ast::Expr, Errors> {
        parse_expr(file, &mask(text, range)).map_err(|d| vec![*d])
    }

    /// Evaluates part of the current entry.
    pub(super) fn eval_part(
        &mut self,
        file: FileId,
        text: &str,
        range: &Range<usize>,
    ) -> Result<Value, Errors> {
        let expr = self.parse_part(file, text, range)?;
        let scope = self.scope_map();
        self.session.eval_expr_in(&expr, &scope)
    }

    fn expr_entry(&mut self, text: &str, out: &mut dyn Write) -> Result<(), Errors> {
        let file = self.add_source(text);
        let value = self.eval_part(file, text, &(0..text.len()))?;
        let _ = writeln!(out, "{}", self.session.show(&value));
        Ok(())
    }

    /// `let name = expr`: evaluated at once in the current scope (so `let x = x + 1` uses the
    /// old `x`), then bound.
    fn let_entry(&mut self, text: &str, number: usize, out: &mut dyn Write) -> Result<(), Errors> {
        let file = self.add_source(text);
        let (name_range, value_range) = parse_let(text).map_err(|e| vec![command_diag(file, e)])?;
        let name = &text[name_range.clone()];
        let span = Span::new(file, name_range.start, name_range.end);
        if builtins::lookup(name).is_some() || builtins::constant(name).is_some() {
            return Err(vec![Diag::error(
                Code::ResolveShadowsBuiltin,
                format!("`{name}` is the name of a built-in"),
            )
            .label(span, "bound here")
            .help("choose another name; built-ins cannot be redefined")]);
        }
        let value = self.eval_part(file, text, &value_range)?;
        let id = self.session.define_value(name, value.clone(), span);
        self.bind(name, Global::Const(id), span);
        let _ = writeln!(out, "{name} = {}", self.session.show(&value));
        self.log.push(Record::Let(text.to_string(), number));
        Ok(())
    }

    /// Statements typed at the prompt. Definitions join the scope (shadowing earlier ones of
    /// the same name); `expect` and `print` run at once. `shown` is where to say what was
    /// defined and to run the statements; `None` when `:reload` replays the entry.
    fn statements(
        &mut self,
        text: &str,
        number: usize,
        shown: Option<(&mut dyn Write, &mut dyn Write)>,
    ) -> Result<(), Errors> {
        let file = self.add_source(text);
        let parsed = parse_file(file, text).map_err(|d| vec![*d])?;
        let mut imported = Vec::new();
        let mut messages = Vec::new();
        for item in &parsed.items {
            if let Item::Import { path, span } = item {
                let index = self
                    .session
                    .load_path(Path::new(path))
                    .map_err(|diags| label_unlabelled(diags, *span, "imported here"))?;
                let names = self.file_names(index);
                messages.push(format!(
                    "imported {path}: {}",
                    list_or_nothing(names.iter().map(|(n, ..)| n.as_str()))
                ));
                imported.extend(names);
            }
        }
        let mut scope = self.scope.clone();
        for (name, global, span) in &imported {
            scope.shift_remove(name);
            scope.insert(name.clone(), (*global, *span));
        }
        let mut defined = Vec::new();
        for item in &parsed.items {
            let (what, ident) = match item {
                Item::Game(g) => ("game", &g.name),
                Item::Fn { name, .. } => ("fn", name),
                Item::Const { name, .. } => ("const", name),
                _ => continue,
            };
            scope.shift_remove(&ident.name);
            defined.push((what, ident.name.clone()));
        }
        let index = self.session.load_fragment(file, &parsed, &scope)?;
        for (name, global, span) in imported {
            self.bind(&name, global, span);
        }
        let exports: Vec<(String, Global, Span)> = self
            .session
            .file(index)
            .lowered
            .exports
            .iter()
            .map(|(n, (g, s))| (n.clone(), *g, *s))
            .collect();
        for (name, global, span) in exports {
            self.bind(&name, global, span);
        }
        for (what, name) in &defined {
            messages.push(format!("defined {what} {name}"));
        }
        if !messages.is_empty() {
            self.log.push(Record::Definitions(text.to_string(), number));
        }
        let Some((out, err)) = shown else {
            return Ok(());
        };
        for message in messages {
            let _ = writeln!(out, "{message}");
        }
        for statement in self.session.statements(index) {
            match statement {
                Statement::Print(body) => match self.session.eval_body(&body) {
                    Ok(Value::Str(s)) => {
                        let _ = writeln!(out, "{s}");
                    }
                    Ok(v) => {
                        let _ = writeln!(out, "{}", self.session.show(&v));
                    }
                    Err(d) => {
                        self.failed = true;
                        self.report(&[*d], err);
                    }
                },
                Statement::Expect(body) => match self.session.check_expect(&body) {
                    ExpectResult::Passed => {
                        let _ = writeln!(out, "ok");
                    }
                    ExpectResult::Failed(d) => {
                        self.failed = true;
                        self.report(&[*d], err);
                    }
                },
            }
        }
        Ok(())
    }

    /// The names a loaded file brings: its own and those it imports, as `cgl eval -f` sees
    /// them.
    fn file_names(&self, index: usize) -> Vec<(String, Global, Span)> {
        let loaded = self.session.file(index);
        let nowhere = Span::new(loaded.file, 0, 0);
        loaded
            .lowered
            .scope
            .iter()
            .map(|(name, global)| {
                let span = loaded
                    .lowered
                    .exports
                    .get(name)
                    .map_or(nowhere, |(_, s)| *s);
                (name.clone(), *global, span)
            })
            .collect()
    }

    /// Loads a file and binds its names. Returns its names, or the diagnostics.
    fn load(&mut self, path: &Path) -> Result<Vec<String>, Errors> {
        let index = self.session.load_path(path)?;
        let names = self.file_names(index);
        let shown = names.iter().map(|(n, ..)| n.clone()).collect();
        for (name, global, span) in names {
            self.bind(&name, global, span);
        }
        Ok(shown)
    }

    /// `:load FILE` (and the files named on the command line). A file loaded before is read
    /// again, with everything else, as by `:reload`.
    pub fn load_file(&mut self, path: &Path, out: &mut dyn Write, err: &mut dyn Write) {
        let canonical = std::fs::canonicalize(path).ok();
        let seen = self.log.iter().any(|r| match r {
            Record::Load(p) => canonical.is_some() && std::fs::canonicalize(p).ok() == canonical,
            _ => false,
        });
        if seen {
            self.reload(out, err);
            return;
        }
        if path.exists() {
            // Remembered even when it fails, so `:reload` reads it again once it is fixed.
            self.log.push(Record::Load(path.to_path_buf()));
        }
        match self.load(path) {
            Ok(names) => {
                let _ = writeln!(
                    out,
                    "loaded {}: {}",
                    path.display(),
                    list_or_nothing(names.iter().map(String::as_str))
                );
            }
            Err(diags) => {
                self.failed = true;
                self.report(&diags, err);
            }
        }
    }

    /// `:reload`: a fresh session, the files read again, then the definitions and `let`s
    /// typed at the prompt replayed in order. Those that no longer work are dropped, with the
    /// reason.
    fn reload(&mut self, out: &mut dyn Write, err: &mut dyn Write) {
        let log = std::mem::take(&mut self.log);
        self.session = Session::new(self.config);
        self.session.set_stop(self.stop.clone());
        self.scope = Exports::new();
        let (mut files, mut kept, mut dropped) = (0, Vec::new(), Vec::new());
        for record in log {
            match &record {
                Record::Load(path) => {
                    files += 1;
                    self.log.push(record.clone());
                    if let Err(diags) = self.load(path) {
                        self.failed = true;
                        self.report(&diags, err);
                    }
                }
                Record::Definitions(text, number) | Record::Let(text, number) => {
                    let saved = self.entries;
                    self.entries = *number;
                    let result = match &record {
                        Record::Let(..) => self.let_entry(text, *number, &mut std::io::sink()),
                        _ => self.statements(text, *number, None),
                    };
                    self.entries = saved;
                    let what = entry_names(text);
                    match result {
                        Ok(()) => kept.push(what),
                        Err(diags) => {
                            let _ = writeln!(err, "dropped `{what}`:");
                            self.report(&diags, err);
                            dropped.push(what);
                        }
                    }
                }
            }
        }
        let _ = writeln!(
            out,
            "reloaded {files} file{}; kept {}; dropped {}",
            if files == 1 { "" } else { "s" },
            list_or_nothing(kept.iter().map(String::as_str)),
            list_or_nothing(dropped.iter().map(String::as_str)),
        );
    }

    fn command(
        &mut self,
        text: &str,
        lines: &mut dyn Lines,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<Flow, Errors> {
        let file = self.add_source(text);
        let command = parse_command(text).map_err(|e| vec![command_diag(file, e)])?;
        match command {
            Command::Quit => return Ok(Flow::Quit),
            Command::Help(topic) => {
                let _ = write!(out, "{}", help::help(topic.as_deref()));
            }
            Command::Load(path) => self.load_file(Path::new(&path), out, err),
            Command::Reload => self.reload(out, err),
            Command::Games => {
                let _ = write!(out, "{}", self.games());
            }
            Command::Stats => {
                let graph = GraphSize::of(self.session.graph());
                let last = self.last.as_ref().map(|(t, text)| (*t, text.as_str()));
                let _ = write!(out, "{}", stats::session(&graph, last, self.scope.len()));
            }
            Command::Type(range) => {
                let value = self.eval_part(file, text, &range)?;
                let _ = writeln!(out, "{}", self.describe_type(&value));
            }
            Command::Time(range) => {
                let before = self.session.graph().len();
                let started = Instant::now();
                let result = self.eval_part(file, text, &range);
                let elapsed = started.elapsed();
                let after = self.session.graph().len();
                if let Ok(value) = &result {
                    let _ = writeln!(out, "{}", self.session.show(value));
                }
                // Shown for a failed computation too (interrupted, over the limit), where the
                // graph may have started afresh.
                let _ = writeln!(
                    out,
                    "time: {elapsed:.2?}; positions explored: {} (the graph holds {after})",
                    after.saturating_sub(before)
                );
                result?;
            }
            Command::Explain(range) => {
                let value = self.eval_part(file, text, &range)?;
                let span = Span::new(file, range.start, range.end);
                let shown = explain::explain(&mut self.session, &value, span, self.color)
                    .map_err(|d| vec![*d])?;
                let _ = write!(out, "{shown}");
            }
            Command::Table { expr, var } => {
                let rows = self.tabulate(file, text, &expr, &var, None)?;
                let title = format!(
                    "{} for {}",
                    &text[expr],
                    &text[var.name.start..var.source.end]
                );
                let values: Vec<(Value, Value)> = rows
                    .into_iter()
                    .map(|(n, cells)| {
                        (
                            n,
                            cells
                                .into_iter()
                                .next()
                                .map(|(_, v)| v)
                                .unwrap_or(Value::None),
                        )
                    })
                    .collect();
                let _ = write!(
                    out,
                    "{}",
                    explain::table(&self.session, &title, &values, self.color)
                );
            }
            Command::Grid { expr, rows, cols } => {
                let grid = self.tabulate(file, text, &expr, &rows, Some(&cols))?;
                let title = format!(
                    "{} for {}",
                    &text[expr],
                    &text[rows.name.start..cols.source.end]
                );
                let names = (&text[rows.name.clone()], &text[cols.name.clone()]);
                let _ = write!(
                    out,
                    "{}",
                    explain::grid(&self.session, &title, names, &grid, self.color)
                );
            }
            Command::Play {
                expr,
                computer_first,
            } => {
                let value = self.eval_part(file, text, &expr)?;
                let span = Span::new(file, expr.start, expr.end);
                play::play(self, value, span, computer_first, lines, out, err)?;
            }
        }
        Ok(Flow::Continue)
    }

    /// Evaluates `[(n, [(EXPR)]) for n in A]` for a table, or
    /// `[(a, [(b, EXPR) for b in B]) for a in A]` for a grid, built from the parts of the entry
    /// so that every diagnostic points into it.
    fn tabulate(
        &mut self,
        file: FileId,
        text: &str,
        expr: &Range<usize>,
        rows: &Generator,
        cols: Option<&Generator>,
    ) -> Result<Rows, Errors> {
        let span = |r: &Range<usize>| Span::new(file, r.start, r.end);
        let body = self.parse_part(file, text, expr)?;
        let rows_source = self.parse_part(file, text, &rows.source)?;
        self.check_size(&rows_source, span(&rows.source))?;
        let ident = |g: &Generator| Ident {
            name: text[g.name.clone()].to_string(),
            span: span(&g.name),
        };
        let inner = match cols {
            Some(cols) => {
                let cols_source = self.parse_part(file, text, &cols.source)?;
                // The columns may depend on the row variable; then the size shows afterwards.
                self.check_size(&cols_source, span(&cols.source))?;
                comprehension(body, ident(cols), cols_source)
            }
            None => {
                let s = body.span;
                ast::Expr {
                    kind: ExprKind::List(vec![ast::Expr {
                        kind: ExprKind::Tuple(vec![
                            ast::Expr {
                                kind: ExprKind::None,
                                span: s,
                            },
                            body,
                        ]),
                        span: s,
                    }]),
                    span: s,
                }
            }
        };
        let whole = comprehension(inner, ident(rows), rows_source);
        let value = self.session.eval_expr_in(&whole, &self.scope_map())?;
        let out = pairs(&value)
            .into_iter()
            .map(|(row, cells)| (row, pairs(&cells)))
            .collect::<Vec<_>>();
        let cells: usize = out.iter().map(|(_, c)| c.len()).sum();
        if cells > MAX_CELLS {
            return Err(vec![too_many_cells(cells, span(expr))]);
        }
        Ok(out)
    }

    /// Refuses a table over more than [`MAX_CELLS`] values before computing any; a source that
    /// cannot be evaluated on its own (it uses the row variable) is checked afterwards.
    fn check_size(&mut self, source: &ast::Expr, span: Span) -> Result<(), Errors> {
        let scope = self.scope_map();
        let n = match self.session.eval_expr_in(source, &scope) {
            Ok(Value::Range(a, b)) => (b as i128 - a as i128).max(0) as usize,
            Ok(Value::List(items) | Value::Tuple(items)) => items.len(),
            Ok(Value::Set(items)) => items.len(),
            _ => return Ok(()),
        };
        if n > MAX_CELLS {
            return Err(vec![too_many_cells(n, span)]);
        }
        Ok(())
    }

    /// `:games`: each game in scope with its parameters and the shape of its positions.
    fn games(&self) -> String {
        let program = self.session.program();
        let sources = &self.session.sources;
        let mut out = String::new();
        for (name, (global, _)) in &self.scope {
            let Global::Game(id) = global else { continue };
            let Some(game) = program.games.get(id.0 as usize) else {
                continue;
            };
            let params: Vec<String> = game
                .params
                .iter()
                .map(|p| match &p.default {
                    Some(d) => format!("{} = {}", p.name, sources.snippet(d.span)),
                    None => p.name.clone(),
                })
                .collect();
            let fields: Vec<String> = match &game.position {
                PositionShape::Single(crate::lower::ir::Pattern::Tuple(items, _)) => items
                    .iter()
                    .map(|p| sources.snippet(p.span()).to_string())
                    .collect(),
                PositionShape::Single(p) => vec![sources.snippet(p.span()).to_string()],
                PositionShape::Fields(fields) => fields
                    .iter()
                    .map(|(p, d)| match d {
                        Some(d) => {
                            format!(
                                "{} = {}",
                                sources.snippet(p.span()),
                                sources.snippet(d.span)
                            )
                        }
                        None => sources.snippet(p.span()).to_string(),
                    })
                    .collect(),
            };
            let header = if params.is_empty() {
                name.clone()
            } else {
                format!("{name}[{}]", params.join(", "))
            };
            let mut facts = vec![format!(
                "{} move rule{}",
                game.rules.len(),
                if game.rules.len() == 1 { "" } else { "s" }
            )];
            if game.convention == crate::syntax::ast::Convention::Misere {
                facts.push("misère play".to_string());
            }
            if let Some(mode) = &game.compound {
                facts.push(format!("split parts play {}", sources.snippet(mode.span)));
            }
            if let Some(start) = &game.start {
                facts.push(format!("start {}", sources.snippet(start.span)));
            }
            out.push_str(&format!(
                "{header}: positions {name}({}); {}\n",
                fields.join(", "),
                facts.join(", ")
            ));
        }
        if out.is_empty() {
            out.push_str(
                "no games in scope: `:load FILE` or define one with `game Name { ... }`\n",
            );
        }
        out
    }

    /// `:type`: the type of a value, with the game for a game or position.
    fn describe_type(&self, value: &Value) -> String {
        match value {
            Value::Game(_) => format!("game {}", self.session.show(value)),
            Value::Pos(p) => {
                let mut instances = Vec::new();
                p.term.instances(&mut instances);
                let mut games: Vec<String> = instances
                    .iter()
                    .map(|i| self.session.show(&Value::Game(*i)))
                    .collect();
                games.dedup();
                let play = match p.convention {
                    crate::syntax::ast::Convention::Normal => "normal play",
                    crate::syntax::ast::Convention::Misere => "misère play",
                };
                match &p.term {
                    PosTerm::Atom(..) => format!("position of {} ({play})", games.join(", ")),
                    PosTerm::Compound(_, parts) if parts.is_empty() => {
                        format!("position: the empty game ({play})")
                    }
                    PosTerm::Compound(kind, parts) => format!(
                        "position: {} compound of {} parts ({}; {play})",
                        kind.name(),
                        parts.len(),
                        games.join(", ")
                    ),
                }
            }
            Value::Split(_) => {
                "split (parts of a position, before their game is known)".to_string()
            }
            other => other.type_name().to_string(),
        }
    }
}

/// `[(name, body) for name in source]`, spans from the parts.
fn comprehension(body: ast::Expr, name: Ident, source: ast::Expr) -> ast::Expr {
    let span = body.span;
    let pair = ast::Expr {
        kind: ExprKind::Tuple(vec![
            ast::Expr {
                kind: ExprKind::Name(name.name.clone()),
                span: name.span,
            },
            body,
        ]),
        span,
    };
    ast::Expr {
        kind: ExprKind::ListComp(
            Box::new(pair),
            vec![CompClause::For(vec![(ast::Pattern::Bind(name), source)])],
        ),
        span,
    }
}

/// The pairs of a list of pairs (what [`comprehension`] builds).
fn pairs(value: &Value) -> Vec<(Value, Value)> {
    match value {
        Value::List(items) => items
            .iter()
            .filter_map(|item| match item {
                Value::Tuple(pair) if pair.len() == 2 => Some((pair[0].clone(), pair[1].clone())),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn too_many_cells(n: usize, span: Span) -> Diag {
    Diag::error(
        Code::ReplTooLarge,
        format!("a table of {n} values is too large to show"),
    )
    .label(span, "this ranges too far")
    .help(format!(
        "show at most {MAX_CELLS} values; use a smaller range"
    ))
}

/// A command mistake as a diagnostic pointing into the entry.
fn command_diag(file: FileId, e: CommandError) -> Diag {
    Diag::error(e.code, e.message)
        .label(Span::new(file, e.at.start, e.at.end), "here")
        .help(e.help)
}

/// Points unlabelled diagnostics (a file that cannot be read) at `span`.
fn label_unlabelled(mut diags: Errors, span: Span, message: &str) -> Errors {
    for d in &mut diags {
        if d.labels.is_empty() {
            d.labels.push(Label {
                span,
                message: message.to_string(),
            });
        }
    }
    diags
}

/// `a, b, c`, or `nothing`.
fn list_or_nothing<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.collect();
    if items.is_empty() {
        "nothing".to_string()
    } else {
        items.join(", ")
    }
}

/// What an entry defines, for `:reload`'s summary: `let x = ...` is `x`; definitions are
/// their names.
fn entry_names(text: &str) -> String {
    if let Ok((name, _)) = parse_let(text) {
        return text[name].to_string();
    }
    let file = FileId(u32::MAX);
    match parse_file(file, text) {
        Ok(parsed) => {
            let names: Vec<String> = parsed
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Game(g) => Some(g.name.name.clone()),
                    Item::Fn { name, .. } | Item::Const { name, .. } => Some(name.name.clone()),
                    Item::Import { path, .. } => Some(format!("import \"{path}\"")),
                    _ => None,
                })
                .collect();
            names.join(", ")
        }
        Err(_) => text.lines().next().unwrap_or("").to_string(),
    }
}
