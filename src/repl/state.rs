//! The REPL's state and what each entry does: the session, the names bound at the prompt, and
//! the record of definitions that `:reload` replays.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::editor::Lines;
use super::{explain, help, play, table, Errors};
use crate::api::builtins;
use crate::api::command::{
    classify, parse_command, parse_let, Command, CommandError, EntryKind, Generator,
};
use crate::api::stats::{self, GraphSize};
use crate::api::Stop;
use crate::api::{gallery, indent};
use crate::api::{render, Code, Diag, FileId, Label, RenderStyle, Span};
use crate::api::{
    Binding, Bindings, Fragment, Gave, LoadPolicy, ParsedExpr, Rows, RunOptions, Session,
    SessionConfig, TableVar,
};
use crate::api::{PosTerm, Value, DOT_NODES};

/// Most values a `:table` or `:grid` shows.
const MAX_CELLS: usize = 100_000;

/// Most positions of a list whose pictures an entry's value shows.
const MAX_PICTURES: usize = 40;

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

/// The REPL: a session, the names bound at the prompt, and how to show things.
pub struct Repl {
    pub(super) session: Session,
    config: SessionConfig,
    stop: Stop,
    /// Names bound at the prompt: loaded files' names, definitions, `let`s. Later ones shadow
    /// earlier ones.
    scope: Bindings,
    log: Vec<Record>,
    style: RenderStyle,
    /// Whether output may use colour.
    pub(super) color: bool,
    /// How files are read (`--max-file-size`), kept for `:reload`.
    policy: LoadPolicy,
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
            scope: Bindings::new(),
            log: Vec::new(),
            style,
            color,
            policy: LoadPolicy::default(),
            entries: 0,
            failed: false,
            last: None,
        }
    }

    /// Notes the progress of every computation on `meter` (the progress line reads it).
    pub fn set_meter(&mut self, meter: Arc<crate::api::Meter>) {
        self.stop = self.stop.clone().with_meter(meter);
        self.session.set_stop(self.stop.clone());
    }

    /// Sets how files are read (the size limit), now and after `:reload`.
    pub fn set_load_policy(&mut self, policy: LoadPolicy) {
        self.session.set_load_policy(policy.clone());
        self.policy = policy;
    }

    /// The flag that stops a running computation (raised by Ctrl-C).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.flag()
    }

    /// The names bound at the prompt, for completion.
    pub fn names(&self) -> Vec<String> {
        self.scope.names()
    }

    /// The name of the current entry's source (`<input N>`).
    fn source_name(&self) -> String {
        format!("<input {}>", self.entries)
    }

    /// Registers the text of the current entry as a source, named after its number.
    fn add_source(&mut self, text: &str) -> FileId {
        let name = self.source_name();
        self.session.add_source(name, text)
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

    /// Evaluates part of the current entry.
    fn eval_part(
        &mut self,
        file: FileId,
        text: &str,
        range: &Range<usize>,
    ) -> Result<Value, Errors> {
        self.session.eval_part(file, text, range, &self.scope)
    }

    fn expr_entry(&mut self, text: &str, out: &mut dyn Write) -> Result<(), Errors> {
        let file = self.add_source(text);
        let value = self.eval_part(file, text, &(0..text.len()))?;
        let _ = writeln!(out, "{}", self.session.show(&value));
        // A position, or a list of them (`line`, `moves`), whose game draws its positions:
        // the pictures too, labelled by index.
        let span = Span::new(file, 0, text.len());
        let pictures = self
            .session
            .pictures(&value, span, MAX_PICTURES)
            .map_err(|d| vec![*d])?;
        match pictures.as_slice() {
            [] => {}
            [(label, picture)] if label.is_empty() => {
                let _ = writeln!(out, "{}", indent(picture, "    "));
            }
            _ => {
                let _ = writeln!(
                    out,
                    "{}",
                    indent(
                        &gallery(&pictures, super::columns().saturating_sub(2)),
                        "  "
                    )
                );
                if let Value::List(items) | Value::Tuple(items) = &value {
                    if items.len() > MAX_PICTURES {
                        let _ = writeln!(out, "  ... and {} more", items.len() - MAX_PICTURES);
                    }
                }
            }
        }
        Ok(())
    }

    /// `let name = expr`: evaluated at once in the current scope (so `let x = x + 1` uses the
    /// old `x`), then bound.
    fn let_entry(&mut self, text: &str, number: usize, out: &mut dyn Write) -> Result<(), Errors> {
        let file = self.add_source(text);
        let (name_range, value_range) = parse_let(text).map_err(|e| vec![command_diag(file, e)])?;
        let name = &text[name_range.clone()];
        let span = Span::new(file, name_range.start, name_range.end);
        if builtins::is_reserved(name) {
            return Err(vec![Diag::error(
                Code::ResolveShadowsBuiltin,
                format!("`{name}` is the name of a built-in"),
            )
            .label(span, "bound here")
            .help("choose another name; built-ins cannot be redefined")]);
        }
        let value = self.eval_part(file, text, &value_range)?;
        let binding = self.session.let_binding(name, value.clone(), span);
        self.scope.bind(binding);
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
        let fragment = Fragment::parse(file, text)?;
        let mut imported = Vec::new();
        let mut messages = Vec::new();
        for (path, alias, span) in fragment.imports() {
            let index = self
                .session
                .load_path_as(Path::new(&path), alias.as_ref())
                .map_err(|diags| label_unlabelled(diags, span, "imported here"))?;
            let names = self.session.file_names(index);
            messages.push(format!(
                "imported {path}: {}",
                list_or_nothing(names.iter().map(Binding::name))
            ));
            imported.extend(names);
        }
        let mut scope = self.scope.clone();
        for binding in &imported {
            scope.bind(binding.clone());
        }
        let mut defined = Vec::new();
        for (what, name) in fragment.names() {
            if what == "import" {
                continue;
            }
            scope.forget(&name);
            defined.push((what, name));
        }
        let index = self.session.load_fragment(&fragment, &scope)?;
        for binding in imported {
            self.scope.bind(binding);
        }
        for binding in self.session.file_exports(index) {
            self.scope.bind(binding);
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
        let style = self.style;
        let mut failed = false;
        let options = RunOptions {
            prints: true,
            ..RunOptions::default()
        };
        self.session
            .run_statements(index, options, &mut |session, ran| match ran.outcome {
                Gave::Printed(text) => {
                    let _ = writeln!(out, "{text}");
                }
                Gave::Passed => {
                    let _ = writeln!(out, "ok");
                }
                Gave::Failed(d) => {
                    failed = true;
                    let _ = write!(err, "{}", render(&d, &session.sources, style));
                    let _ = writeln!(err);
                }
                Gave::Skipped => {}
            });
        self.failed |= failed;
        Ok(())
    }

    /// Loads a file and binds its names. Returns its names, or the diagnostics.
    fn load(&mut self, path: &Path) -> Result<Vec<String>, Errors> {
        let index = self.session.load_path(path)?;
        let names = self.session.file_names(index);
        let shown = names.iter().map(|b| b.name().to_string()).collect();
        for binding in names {
            self.scope.bind(binding);
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
        self.session.set_load_policy(self.policy.clone());
        self.scope = Bindings::new();
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
                let graph = GraphSize::of(self.session.analyzer(), self.session.instances());
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
            Command::Dot(range) => {
                let value = self.eval_part(file, text, &range)?;
                let span = Span::new(file, range.start, range.end);
                let graph = self.session.moves_graph(
                    &value,
                    span,
                    DOT_NODES,
                    ":dot",
                    "`cgl dot --max-nodes`",
                )?;
                let _ = write!(
                    out,
                    "{}",
                    crate::api::plot::dot::write(&text[range], &graph.nodes, &graph.edges)
                );
            }
            Command::PayoffTable { expr, player } => {
                let value = self.eval_part(file, text, &expr)?;
                let span = Span::new(file, expr.start, expr.end);
                // A take-and-break game by code: its heaps' values and proved period.
                if let (Some(heaps), None) = (self.session.heap_table(&value), &player) {
                    let heaps = heaps.map_err(|d| vec![*d])?;
                    let shown = table::heap_table(&self.session, &heaps, self.color);
                    let _ = write!(out, "{shown}");
                } else {
                    let player = player.map(|r| &text[r]);
                    let shown = super::strategic::table(&mut self.session, &value, player, span)
                        .map_err(|d| vec![*d])?;
                    let _ = write!(out, "{shown}");
                }
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
                    table::table(&self.session, &title, &values, self.color)
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
                    table::grid(&self.session, &title, names, &grid, self.color)
                );
            }
            Command::Play {
                expr,
                computer_first,
            } => {
                let value = self.eval_part(file, text, &expr)?;
                let span = Span::new(file, expr.start, expr.end);
                let name = self.source_name();
                let game = play::Game {
                    session: &mut self.session,
                    scope: &self.scope,
                    source_name: &name,
                };
                play::play(game, value, span, computer_first, lines, out, err)?;
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
        let body = ParsedExpr::parse(file, text, expr)?;
        let rows_source = ParsedExpr::parse(file, text, &rows.source)?;
        self.check_size(&rows_source, span(&rows.source))?;
        let var = |g: &Generator, source: ParsedExpr| TableVar {
            name: text[g.name.clone()].to_string(),
            span: span(&g.name),
            source,
        };
        let cols = match cols {
            Some(cols) => {
                let cols_source = ParsedExpr::parse(file, text, &cols.source)?;
                // The columns may depend on the row variable; then the size shows afterwards.
                self.check_size(&cols_source, span(&cols.source))?;
                Some(var(cols, cols_source))
            }
            None => None,
        };
        let out = self
            .session
            .tabulate(body, var(rows, rows_source), cols, &self.scope)?;
        let cells: usize = out.iter().map(|(_, c)| c.len()).sum();
        if cells > MAX_CELLS {
            return Err(vec![too_many_cells(cells, span(expr))]);
        }
        Ok(out)
    }

    /// Refuses a table over more than [`MAX_CELLS`] values before computing any; a source that
    /// cannot be evaluated on its own (it uses the row variable) is checked afterwards.
    fn check_size(&mut self, source: &ParsedExpr, span: Span) -> Result<(), Errors> {
        let n = match self.session.eval_parsed(source, &self.scope) {
            Ok(Value::Range(a, b)) => {
                usize::try_from(crate::api::range_count(a, b)).unwrap_or(usize::MAX)
            }
            Ok(Value::List(ref items) | Value::Tuple(ref items)) => items.len(),
            Ok(Value::Set(ref items)) => items.len(),
            _ => return Ok(()),
        };
        if n > MAX_CELLS {
            return Err(vec![too_many_cells(n, span)]);
        }
        Ok(())
    }

    /// `:games`: each game in scope with its parameters and the shape of its positions.
    fn games(&self) -> String {
        let mut out = String::new();
        for (name, game) in self.session.games_in(&self.scope) {
            let params = game.params;
            let fields = game.fields;
            let header = if params.is_empty() {
                name.clone()
            } else {
                format!("{name}[{}]", params.join(", "))
            };
            let mut facts = vec![format!(
                "{} move rule{}",
                game.rules,
                if game.rules == 1 { "" } else { "s" }
            )];
            if game.misere {
                facts.push("misère play".to_string());
            }
            if let Some(mode) = &game.compound {
                facts.push(format!("split parts play {mode}"));
            }
            if let Some(start) = &game.start {
                facts.push(format!("start {start}"));
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
                    .map(|i| self.session.instance_label(*i).to_string())
                    .collect();
                games.dedup();
                let play = if p.is_misere() {
                    "misère play"
                } else {
                    "normal play"
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
    match Fragment::parse(file, text) {
        Ok(fragment) => {
            let names: Vec<String> = fragment
                .names()
                .into_iter()
                .map(|(what, name)| match what {
                    "import" => format!("import \"{name}\""),
                    _ => name,
                })
                .collect();
            names.join(", ")
        }
        Err(_) => text.lines().next().unwrap_or("").to_string(),
    }
}
