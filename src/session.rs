//! A session: loaded files, the lowered program, game instances and the game graph, shared by
//! `check`, `run`, `eval` and the REPL. Reading files is the only IO here. `run.rs` is the
//! statement driver that `check`, `run` and the REPL share; `prompt.rs` is what the REPL asks
//! of a session (parts of a line, definitions typed at the prompt, tables).

mod failure;
mod prompt;
mod run;

pub use prompt::{Binding, Bindings, Fragment, GameInfo, ParsedExpr, Rows, TableVar};
pub use run::{Outcome, Ran, RunOptions, StatementKind};

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::analysis::Analyzer;
use crate::diag::{Code, Diag, FileId, SourceMap, Span};
use crate::eval::builtins::Builtin;
use crate::eval::compiled::CompiledGames;
use crate::eval::value::Value;
use crate::eval::{ConstState, GameTable, Interp, Limits, Stop, World};
use crate::graph::{GameGraph, GraphConfig};
use crate::lower::ir::{Body, Clause, Const, ConstId, Expr, ExprKind, Pattern, Program, Statement};
use crate::lower::{lower_expr, lower_file, LoweredFile, Scope};
use crate::syntax::ast::{self, BinaryOp, Quantifier};
use crate::syntax::{parse_expr, parse_file_checked};
use failure::Sides;

/// Settings of a session.
#[derive(Clone, Copy, Debug, Default)]
pub struct SessionConfig {
    /// Graph settings (position limit, explicit products).
    pub graph: GraphConfig,
    /// Evaluation limits.
    pub limits: Limits,
}

/// How a session reads files: how large a file may be, and whether it may read only inside
/// one folder (`cgl check --confine DIR`, for files that students wrote).
#[derive(Clone, Debug)]
pub struct LoadPolicy {
    /// The largest file read, in bytes (`--max-file-size`).
    pub max_file_size: u64,
    /// If set, the folder (its canonical path) that every file read must be in: imports may
    /// not leave it by `..`, an absolute path or a symbolic link.
    pub confine: Option<PathBuf>,
}

/// The default of `--max-file-size`, in MiB: far above any hand-written game (a 9 MB file
/// of 100,000 constants loads in about a second), far below what would exhaust memory.
pub const DEFAULT_MAX_FILE_MIB: u64 = 16;

impl Default for LoadPolicy {
    fn default() -> LoadPolicy {
        LoadPolicy {
            max_file_size: DEFAULT_MAX_FILE_MIB << 20,
            confine: None,
        }
    }
}

/// A file loaded into a session.
#[derive(Debug)]
pub struct LoadedFile {
    /// Its source id.
    pub file: FileId,
    /// Its lowered form.
    pub lowered: LoweredFile,
}

/// The result of one `expect`.
#[derive(Debug)]
pub enum ExpectResult {
    /// It held.
    Passed,
    /// It did not hold, or its evaluation failed: the diagnostic says why.
    Failed(Box<Diag>),
}

/// What a failed `expect` evaluated to ([`Session::failed_values`]), values shown as cgl
/// prints them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedValues {
    /// The value of the whole expression (`false`, or the non-boolean it was).
    pub value: Option<String>,
    /// The comparison that is false (`==`, `<`, `in`, `is`, ...), if the expression is one.
    pub operator: Option<&'static str>,
    /// Its left side; for `p is O`, the outcome that `p` has.
    pub actual: Option<String>,
    /// Its right side.
    pub expected: Option<String>,
}

/// Loaded files and everything computed from them.
pub struct Session {
    /// Every source text loaded (files, expressions).
    pub sources: SourceMap,
    program: Program,
    compiled: CompiledGames,
    files: Vec<LoadedFile>,
    by_path: HashMap<PathBuf, usize>,
    games: GameTable,
    consts: Vec<ConstState>,
    analyzer: Analyzer,
    limits: Limits,
    stop: Stop,
    policy: LoadPolicy,
}

impl Session {
    /// An empty session. The thread's table of game values is capped at the graph's memory
    /// budget.
    pub fn new(config: SessionConfig) -> Session {
        crate::value::with_forms(|t| t.set_max_bytes(config.graph.max_memory));
        Session {
            sources: SourceMap::default(),
            program: Program::default(),
            compiled: CompiledGames::default(),
            files: Vec::new(),
            by_path: HashMap::new(),
            games: GameTable::default(),
            consts: Vec::new(),
            analyzer: Analyzer::new(config.graph),
            limits: config.limits,
            stop: Stop::new(),
            policy: LoadPolicy::default(),
        }
    }

    /// Sets how files are read (size limit, confinement to a folder).
    pub fn set_load_policy(&mut self, policy: LoadPolicy) {
        self.policy = policy;
    }

    /// Sets when long computations stop (a deadline, or a flag raised by Ctrl-C).
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// The current stop condition (its flag can be raised from another thread).
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// The compiled forms of the program's games (for statistics and tests).
    pub fn compiled(&self) -> &CompiledGames {
        &self.compiled
    }

    /// The game graph (for statistics and tests).
    pub fn graph(&self) -> &GameGraph {
        &self.analyzer.graph
    }

    /// The game graph and the analyses' memos (for statistics).
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// Loads a file from disk, with the files it imports. Returns the index of the file.
    pub fn load_path(&mut self, path: &Path) -> Result<usize, Vec<Diag>> {
        self.load_path_from(path, None, &mut Vec::new())
    }

    /// Loads source text given directly (tests, the REPL), with imports resolved against the
    /// current directory.
    pub fn load_source(&mut self, name: &str, text: &str) -> Result<usize, Vec<Diag>> {
        let file = self.sources.add(name, text);
        self.load_parsed(file, Path::new("."), &mut Vec::new())
    }

    /// The loaded file at an index.
    pub fn file(&self, index: usize) -> &LoadedFile {
        &self.files[index]
    }

    /// Loads `path` (as the user sees it: relative to the working directory, or to the
    /// importing file's folder joined in front). `stack` holds the files being loaded, to
    /// find import cycles.
    fn load_path_from(
        &mut self,
        path: &Path,
        import: Option<Span>,
        stack: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<usize, Vec<Diag>> {
        let unreadable = |message: String, help: &str| {
            let mut d = Diag::error(Code::LoadUnreadable, message).help(help.to_string());
            if let Some(span) = import {
                d = d.label(span, "imported here");
            }
            vec![d]
        };
        let where_help = if import.is_some() {
            "check the path; an import is relative to the folder of the importing file"
        } else {
            "check the path; it is relative to the current directory"
        };
        let canonical = std::fs::canonicalize(path).map_err(|e| {
            unreadable(
                format!("cannot read `{}`: {}", shown(path), io_reason(&e)),
                where_help,
            )
        })?;
        if let Some(root) = &self.policy.confine {
            if !canonical.starts_with(root) {
                // Where a link leads is not said: it is outside, and that is all a log of
                // the check may show.
                return Err(vec![refused(
                    Code::LoadConfined,
                    format!(
                        "`{}` leads outside the folder that cgl check is confined to",
                        shown(path)
                    ),
                    "with --confine, cgl reads only files inside the confined folder; copy \
                     what the file needs into it",
                    import,
                )]);
            }
        }
        if let Some(i) = self.by_path.get(&canonical) {
            return Ok(*i);
        }
        if let Some(first) = stack.iter().position(|(c, _)| *c == canonical) {
            let chain: Vec<String> = stack[first..]
                .iter()
                .map(|(_, shown_path)| shown(shown_path))
                .chain([shown(path)])
                .collect();
            let mut d = Diag::error(Code::LoadImportCycle, "files import each other in a cycle")
                .note(format!("import chain: {}", chain.join(" → ")))
                .help("move what the files share into another file that each of them imports");
            if let Some(span) = import {
                d = d.label(span, "this import closes the cycle");
            }
            return Err(vec![d]);
        }
        let bytes =
            read_regular(&canonical, self.policy.max_file_size).map_err(
                |refusal| match refusal {
                    Refusal::Io(e) => unreadable(
                        format!("cannot read `{}`: {}", shown(path), io_reason(&e)),
                        where_help,
                    ),
                    Refusal::NotRegular(kind) => unreadable(
                        format!("`{}` is not a regular file: it is {kind}", shown(path)),
                        "cgl reads .game files only; a device, pipe or socket could block or \
                     never end",
                    ),
                    Refusal::TooLarge(size) => vec![refused(
                        Code::LoadTooLarge,
                        format!(
                            "`{}` is larger than the limit of {} ({})",
                            shown(path),
                            bytes_text(self.policy.max_file_size),
                            size.map_or_else(
                                || "it kept growing while read".to_string(),
                                |n| { format!("it has {}", bytes_text(n)) }
                            )
                        ),
                        "split the file, or allow larger files with --max-file-size (MiB)",
                        import,
                    )],
                },
            )?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            let before = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            unreadable(
                format!(
                    "`{}` is not UTF-8 text (line {line}, column {col})",
                    shown(path)
                ),
                "cgl reads .game files as UTF-8 text; save the file as UTF-8",
            )
        })?;
        // Editors on Windows may start UTF-8 files with a byte-order mark; it is not part of
        // the program, and a correct file must not fail because of it.
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        };
        if let Some(d) = control_character(path, &text) {
            let mut d = d;
            if let Some(span) = import {
                d = d.label(span, "imported here");
            }
            return Err(vec![d]);
        }
        let file = self.sources.add(shown(path), text);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        stack.push((canonical.clone(), path.to_path_buf()));
        let result = self.load_parsed(file, &dir, stack);
        stack.pop();
        let index = result?;
        self.by_path.insert(canonical, index);
        Ok(index)
    }

    /// Refuses an import before anything is read: one of a file that is not a `.game` file
    /// (so that `import "/etc/passwd"` quotes nothing of it), and, when confined, one that
    /// leaves the folder by an absolute path or `..`.
    fn check_import(&self, path: &str, span: Span) -> Result<(), Vec<Diag>> {
        let written = Path::new(path);
        if written.extension().is_none_or(|e| e != "game") {
            return Err(vec![refused(
                Code::LoadNotGame,
                format!("`{}` is not a .game file", escaped(path)),
                "an import names a .game file (its name ends in .game); cgl does not read \
                 other files, so that a diagnostic never quotes them",
                Some(span),
            )]);
        }
        if self.policy.confine.is_some() {
            let leaves = if written.has_root() || written.is_absolute() {
                Some("an absolute path")
            } else if written
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir))
            {
                Some("`..`")
            } else {
                None
            };
            if let Some(how) = leaves {
                return Err(vec![refused(
                    Code::LoadConfined,
                    format!(
                        "`{}` may leave the folder that cgl check is confined to",
                        escaped(path)
                    ),
                    &format!(
                        "with --confine, an import is a path below the importing file's folder, \
                         without {how}"
                    ),
                    Some(span),
                )]);
            }
        }
        Ok(())
    }

    /// Parses and lowers a loaded source, after loading its imports. Parsing, lowering and
    /// compiling recurse over each statement's nesting, which the syntax bounds (spec §12);
    /// they run on a stack of at least [`crate::stack::PHASE_STACK`] (a fresh segment on a
    /// thread with less left), so that the deepest statement allowed loads on any thread.
    fn load_parsed(
        &mut self,
        file: FileId,
        dir: &Path,
        stack: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<usize, Vec<Diag>> {
        crate::stack::with_phase_stack(|| self.load_parsed_here(file, dir, stack))
    }

    fn load_parsed_here(
        &mut self,
        file: FileId,
        dir: &Path,
        stack: &mut Vec<(PathBuf, PathBuf)>,
    ) -> Result<usize, Vec<Diag>> {
        let text = self
            .sources
            .get(file)
            .map(|s| s.text.clone())
            .unwrap_or_default();
        let stop = self.stop.clone();
        let parsed = parse_file_checked(file, &text, &mut || stop.check()).map_err(|d| vec![*d])?;
        let mut imported = Vec::new();
        for item in &parsed.items {
            if let ast::Item::Import { path, span } = item {
                self.check_import(path, *span)?;
                let joined = if dir == Path::new(".") {
                    PathBuf::from(path)
                } else {
                    dir.join(path)
                };
                let index = self.load_path_from(&joined, Some(*span), stack)?;
                imported.push((index, *span));
            }
        }
        let imports: Vec<(&crate::lower::Exports, Span)> = imported
            .iter()
            .map(|(i, span)| (&self.files[*i].lowered.exports, *span))
            .collect();
        self.stop.check().map_err(|d| vec![*d])?;
        let stop = self.stop.clone();
        let lowered = lower_file(&mut self.program, &parsed, &imports, &mut || stop.check())?;
        self.compiled.extend(&self.program);
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        self.files.push(LoadedFile { file, lowered });
        Ok(self.files.len() - 1)
    }

    fn interp(&mut self) -> Interp<'_> {
        let world = World {
            program: &self.program,
            compiled: &self.compiled,
            games: &mut self.games,
            consts: &mut self.consts,
            limits: self.limits,
            stop: &self.stop,
        };
        Interp::new(world, Some(&mut self.analyzer))
    }

    /// Both sides of a failed comparison as a diagnostic shows them, if both evaluate.
    fn both_sides(&mut self, l: &Expr, r: &Expr, frame: &mut [Value]) -> Option<Sides> {
        let left = self.interp().eval(l, frame).ok()?;
        let right = self.interp().eval(r, frame).ok()?;
        let difference = self.first_difference(&left, &right);
        Some(Sides {
            left: self.show_short(&left),
            right: self.show_short(&right),
            difference,
        })
    }

    /// A value as a diagnostic shows it (cut short if long).
    pub fn show_short(&self, value: &Value) -> String {
        crate::eval::value::display_short(value, &self.games)
    }

    /// A value as cgl prints it, and whether it was cut (past
    /// [`crate::eval::value::MAX_SHOWN`] bytes).
    pub fn show_cut(&self, value: &Value) -> (String, bool) {
        crate::eval::value::display_bounded(value, &self.games, crate::eval::value::MAX_SHOWN)
    }

    /// Prints a value.
    pub fn show(&self, value: &Value) -> String {
        crate::eval::value::display(value, &self.games)
    }

    /// The picture of a position, cut to a size a terminal shows
    /// ([`crate::eval::picture::bounded`]): its game's `show` clause run on it (a compound's
    /// parts side by side). `None` for a value that is not a position, or a position whose
    /// games have no `show`. An error of the clause points at `span` when it is too large.
    pub fn picture(&mut self, value: &Value, span: Span) -> Result<Option<String>, Box<Diag>> {
        let drawn = self.interp().picture(value, span)?;
        Ok(drawn.map(|p| crate::eval::picture::bounded(&p)))
    }

    /// The pictures of a value that is a position, or a list or tuple of positions (what
    /// `moves`, `winning_moves` and `line` give), labelled by their index in it (`""` for a
    /// position alone); empty when none of them has a picture. At most `most` are drawn.
    pub fn pictures(
        &mut self,
        value: &Value,
        span: Span,
        most: usize,
    ) -> Result<Vec<(String, String)>, Box<Diag>> {
        let items: Vec<(String, &Value)> = match value {
            Value::Pos(_) => vec![(String::new(), value)],
            Value::List(items) | Value::Tuple(items) => items
                .iter()
                .take(most)
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
            _ => Vec::new(),
        };
        if !items.iter().all(|(_, v)| matches!(v, Value::Pos(_))) {
            return Ok(Vec::new());
        }
        let mut out = Vec::with_capacity(items.len());
        let mut any = false;
        for (label, item) in items {
            let drawn = self.picture(item, span)?;
            any |= drawn.is_some();
            out.push((label, drawn.unwrap_or_else(|| self.show(item))));
        }
        Ok(if any { out } else { Vec::new() })
    }

    /// The statements of a loaded file, in source order.
    pub fn statements(&self, index: usize) -> Vec<Statement> {
        self.files[index].lowered.statements.clone()
    }

    /// Evaluates a statement's expression.
    pub fn eval_body(&mut self, body: &Body) -> Result<Value, Box<Diag>> {
        self.interp().eval_body(&body.expr, body.frame_size)
    }

    /// Parses, lowers and evaluates one expression in the scope of the given loaded files.
    pub fn eval_text(&mut self, text: &str, scope_files: &[usize]) -> Result<Value, Vec<Diag>> {
        let file = self.sources.add("<expression>", text);
        let mut scope = Scope::new();
        for i in scope_files {
            for (name, global) in &self.files[*i].lowered.scope {
                scope.insert(name.clone(), *global);
            }
        }
        // As in `load_parsed`: the deepest expression allowed parses on any thread.
        let body = crate::stack::with_phase_stack(|| {
            let expr = parse_expr(file, text).map_err(|d| vec![*d])?;
            lower_expr(&self.program, &scope, &expr)
        })?;
        self.eval_body(&body).map_err(|d| vec![*d])
    }

    /// The lowered program: every game, function and constant loaded so far (the REPL lists
    /// games and their parameters from it).
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Adds a constant that already has its value (the REPL's `let x = ...`, evaluated at
    /// once) and returns its id; the caller puts the name in scope.
    pub fn define_value(&mut self, name: &str, value: Value, span: Span) -> ConstId {
        let id = ConstId(self.program.consts.len() as u32);
        self.program.consts.push(Const {
            name: name.to_string(),
            body: Body {
                expr: Expr {
                    kind: ExprKind::Lit(value.clone()),
                    span,
                },
                frame_size: 0,
                span,
            },
        });
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        self.consts[id.0 as usize] = ConstState::Done(value);
        id
    }

    /// Runs an analysis built-in (`outcome`, `grundy`, `remoteness`, `moves`, ...) on a value,
    /// as the call `builtin(value)` in an expression would; errors point at `span`. The REPL's
    /// `:explain` and `:play` use it on positions they already hold.
    pub fn analyse(
        &mut self,
        builtin: Builtin,
        value: &Value,
        span: Span,
    ) -> Result<Value, Box<Diag>> {
        let arg = Expr {
            kind: ExprKind::Lit(value.clone()),
            span,
        };
        let call = Expr {
            kind: ExprKind::CallBuiltin(builtin, vec![arg]),
            span,
        };
        self.interp().eval_body(&call, 0)
    }

    /// The payoff table of a strategic game (`None` if the value is not one); errors of its
    /// declaration point at `span`. The REPL's `:explain` and `:table` print it.
    pub fn strategic_table(
        &mut self,
        value: &Value,
        span: Span,
    ) -> Option<Result<std::rc::Rc<crate::eval::StrategicTable>, Box<Diag>>> {
        let Value::Game(inst) = value else {
            return None;
        };
        let game = self.games.info(*inst).game;
        self.program.games[game.0 as usize].strategic.as_ref()?;
        Some(self.interp().strategic_table(value, span, "`:explain`"))
    }

    /// [`Session::analyse`] with a side as its second argument (`moves(p, left)`).
    pub fn analyse_side(
        &mut self,
        builtin: Builtin,
        value: &Value,
        side: crate::cgt::Side,
        span: Span,
    ) -> Result<Value, Box<Diag>> {
        let lit = |value: Value| Expr {
            kind: ExprKind::Lit(value),
            span,
        };
        let named = match side {
            crate::cgt::Side::Left => crate::value::Outcome::L,
            crate::cgt::Side::Right => crate::value::Outcome::R,
        };
        let call = Expr {
            kind: ExprKind::CallBuiltin(
                builtin,
                vec![lit(value.clone()), lit(Value::Outcome(named))],
            ),
            span,
        };
        self.interp().eval_body(&call, 0)
    }

    /// Whether a position is partizan (its players' moves may differ).
    pub fn is_partizan(&mut self, value: &Value) -> bool {
        let Value::Pos(p) = value else {
            return false;
        };
        let mut games = Vec::new();
        p.term.instances(&mut games);
        games
            .iter()
            .any(|i| self.program.games[self.games.info(*i).game.0 as usize].partizan)
    }

    /// Checks one `expect`: it must evaluate to `true`. A failure reports what the expression
    /// evaluated to, both sides of a comparison, and a `forall`'s first counterexample.
    pub fn check_expect(&mut self, body: &Body) -> ExpectResult {
        let value = match self.eval_body(body) {
            Ok(v) => v,
            Err(d) => return ExpectResult::Failed(d),
        };
        match value {
            Value::Bool(true) => ExpectResult::Passed,
            Value::Bool(false) => ExpectResult::Failed(Box::new(self.explain_failure(body))),
            other => ExpectResult::Failed(Box::new(
                Diag::error(
                    Code::CheckNotBoolean,
                    "an expectation must be true or false",
                )
                .label(
                    body.expr.span,
                    format!("this is {}", self.show_short(&other)),
                )
                .help("write a comparison, e.g. `expect grundy(Nim(3)) == 3`"),
            )),
        }
    }

    /// What a failed expectation evaluated to, as cgl prints values, for reports that a
    /// machine reads (`cgl check --format json`). Like the diagnostic, it looks through `and`
    /// to the part that is false. Fields are `None` where evaluation fails (a failed expect
    /// may have failed by an error) or the expression has another shape.
    #[cold]
    pub fn failed_values(&mut self, body: &Body) -> FailedValues {
        let mut frame = vec![Value::None; body.frame_size];
        let mut values = FailedValues {
            value: self
                .interp()
                .eval(&body.expr, &mut frame)
                .ok()
                .map(|v| self.show_short(&v)),
            ..FailedValues::default()
        };
        let mut expr = &body.expr;
        while let ExprKind::Binary(BinaryOp::And, l, r) = &expr.kind {
            expr = match self.interp().eval(l, &mut frame) {
                Ok(Value::Bool(false)) => l,
                _ => r,
            };
        }
        if let ExprKind::Binary(op, l, r) = &expr.kind {
            if op.is_comparison() {
                values.operator = Some(op.symbol());
                let left = self.interp().eval(l, &mut frame);
                values.actual = match (*op, left) {
                    (BinaryOp::Is, Ok(position)) => {
                        let mut interp = self.interp();
                        interp
                            .outcome_of(&position, l.span)
                            .ok()
                            .map(|o| interp.show(&o))
                    }
                    (_, left) => left.ok().map(|v| self.show_short(&v)),
                };
                values.expected = self
                    .interp()
                    .eval(r, &mut frame)
                    .ok()
                    .map(|v| self.show_short(&v));
            }
        }
        values
    }

    #[cold]
    fn explain_failure(&mut self, body: &Body) -> Diag {
        let mut expr = &body.expr;
        let mut frame = vec![Value::None; body.frame_size];
        // In `a and b`, the part that is false is the one to explain.
        while let ExprKind::Binary(BinaryOp::And, l, r) = &expr.kind {
            expr = match self.interp().eval(l, &mut frame) {
                Ok(Value::Bool(false)) => l,
                _ => r,
            };
        }
        let mut diag = Diag::error(Code::CheckFailed, "expectation failed");
        match &expr.kind {
            ExprKind::Binary(BinaryOp::Is, l, r) => {
                let left = self.interp().eval(l, &mut frame);
                let outcome = left.as_ref().ok().map(|position| {
                    let mut interp = self.interp();
                    interp.outcome_of(position, l.span).map(|o| interp.show(&o))
                });
                let right = self
                    .interp()
                    .eval(r, &mut frame)
                    .map(|v| self.show_short(&v));
                match (left, outcome, right) {
                    (Ok(position), Some(Ok(outcome)), Ok(right)) => {
                        let shown = self.show_short(&position);
                        diag = diag
                            .label(l.span, format!("{shown} is {outcome}"))
                            .label(r.span, format!("not {right}"))
                            .note(format!("the outcome of {shown} is {outcome}, not {right}"));
                        diag = self.drawn_note(diag, &position, l.span, "the position");
                    }
                    _ => diag = diag.label(expr.span, "this is false"),
                }
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() => {
                if let Some(sides) = self.both_sides(l, r, &mut frame) {
                    let Sides {
                        left,
                        right,
                        difference,
                    } = sides;
                    diag = diag
                        .label(l.span, format!("this is {left}"))
                        .label(r.span, format!("this is {right}"))
                        .note(format!("`{}` is false for {left} and {right}", op.symbol()));
                    if let Some(difference) = difference {
                        diag = diag.note(difference);
                    }
                    for (side, what) in [(l, "the left side"), (r, "the right side")] {
                        if let Ok(value) = self.interp().eval(side, &mut frame) {
                            diag = self.drawn_note(diag, &value, side.span, what);
                        }
                    }
                } else {
                    diag = diag.label(expr.span, "this is false");
                }
            }
            ExprKind::Quantified(Quantifier::Forall, clauses, inner) => {
                let mut failed = false;
                let found = self
                    .interp()
                    .run_clauses(clauses, &mut frame, &mut |this, frame| {
                        let v = this.eval(inner, frame)?;
                        if v == Value::Bool(false) {
                            failed = true;
                            return Ok(ControlFlow::Break(()));
                        }
                        Ok(ControlFlow::Continue(()))
                    });
                let mut bindings = Vec::new();
                let mut bound = Vec::new();
                if found.is_ok() && failed {
                    for clause in clauses {
                        if let Clause::For(pattern, _) = clause {
                            collect_binds(pattern, &mut |slot, span| {
                                let name = self.sources.snippet(span).to_string();
                                bindings.push(format!(
                                    "{name} = {}",
                                    self.show_short(&frame[slot as usize])
                                ));
                                bound.push((name, frame[slot as usize].clone(), span));
                            });
                        }
                    }
                }
                if bindings.is_empty() {
                    diag = diag.label(expr.span, "this is false");
                } else {
                    let counter = bindings.join(", ");
                    diag = diag
                        .label(inner.span, format!("false for {counter}"))
                        .note(format!("first counterexample: {counter}"));
                    for (name, value, span) in &bound {
                        diag = self.drawn_note(diag, value, *span, &format!("`{name}`"));
                    }
                    if let ExprKind::Binary(op, l, r) = &inner.kind {
                        if op.is_comparison() {
                            if let Some(sides) = self.both_sides(l, r, &mut frame) {
                                diag = diag.note(format!(
                                    "there `{}` is false for {} and {}",
                                    op.symbol(),
                                    sides.left,
                                    sides.right
                                ));
                                if let Some(difference) = sides.difference {
                                    diag = diag.note(difference);
                                }
                            }
                        }
                    }
                }
            }
            _ => diag = diag.label(expr.span, "this is false"),
        }
        diag.help("the expected fact does not hold: fix the expectation or the game")
    }
}

impl Session {
    /// A failed expectation's diagnostic with the picture of a position in it, when its game
    /// draws its positions (`what` names the value: "the left side", "`p`"). A `show` clause
    /// that fails here is said in the note, not raised: the expectation is what failed.
    #[cold]
    fn drawn_note(&mut self, diag: Diag, value: &Value, span: Span, what: &str) -> Diag {
        match self.picture(value, span) {
            Ok(Some(picture)) => diag.note(format!(
                "{what} drawn:\n{}",
                crate::eval::picture::indent(&picture, "  ")
            )),
            Ok(None) => diag,
            Err(d) => diag.note(format!(
                "{what} could not be drawn: {} ({})",
                d.message, d.code
            )),
        }
    }
}

fn collect_binds(pattern: &Pattern, f: &mut dyn FnMut(u32, Span)) {
    match pattern {
        Pattern::Bind(slot, span) => f(*slot, *span),
        Pattern::Wildcard(_) => {}
        Pattern::Tuple(items, _) => items.iter().for_each(|p| collect_binds(p, f)),
    }
}

/// A control character (other than tab and line breaks) in a file: a binary file, text that
/// would reach the terminal as escape sequences when a diagnostic quotes it, or a
/// bidirectional override that shows the code in another order than cgl reads it (as rustc
/// refuses them). No snippet, for that reason; the message says where the character is.
fn control_character(path: &Path, text: &str) -> Option<Diag> {
    let (offset, c) = text.char_indices().find(|&(_, c)| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })?;
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let (message, help) = if c == '\0' {
        (
            format!(
                "`{}` is a binary file, not text (a NUL byte at line {line}, column {col})",
                shown(path)
            ),
            "cgl reads .game files as UTF-8 text; check that this is the file you meant",
        )
    } else if !c.is_control() {
        (
            format!(
                "`{}` contains the bidirectional control character U+{:04X} at line {line}, \
                 column {col}",
                shown(path),
                u32::from(c)
            ),
            "remove it: it makes the text show in another order than cgl reads it",
        )
    } else {
        (
            format!(
                "`{}` contains the control character U+{:04X} at line {line}, column {col}",
                shown(path),
                u32::from(c)
            ),
            "remove it: a .game file may hold printable characters, tabs and line breaks only",
        )
    };
    Some(Diag::error(Code::LoadBinary, message).help(help))
}

/// A refusal to read a file, with the import (if any) that asked for it.
fn refused(code: Code, message: String, help: &str, import: Option<Span>) -> Diag {
    let mut d = Diag::error(code, message).help(help.to_string());
    if let Some(span) = import {
        d = d.label(span, "imported here");
    }
    d
}

/// Why [`read_regular`] did not read a file.
enum Refusal {
    Io(std::io::Error),
    /// What it is instead (a folder, a device, a named pipe, ...).
    NotRegular(&'static str),
    /// Its size, if the file system said.
    TooLarge(Option<u64>),
}

/// Reads a regular file of at most `max` bytes. Anything else is refused before it is read
/// (a device such as `/dev/zero` never ends, a named pipe may block forever), and the read
/// stops after `max` bytes even if the file grows meanwhile.
fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, Refusal> {
    use std::io::Read;
    let kind = |meta: &std::fs::Metadata| -> Option<&'static str> {
        let t = meta.file_type();
        if t.is_file() {
            return None;
        }
        if t.is_dir() {
            return Some("a folder");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return Some("a named pipe");
            }
            if t.is_char_device() || t.is_block_device() {
                return Some("a device");
            }
            if t.is_socket() {
                return Some("a socket");
            }
        }
        Some("not a regular file")
    };
    // `metadata` does not open the file, so a named pipe is refused without blocking.
    let meta = std::fs::metadata(path).map_err(Refusal::Io)?;
    if let Some(what) = kind(&meta) {
        return Err(Refusal::NotRegular(what));
    }
    if meta.len() > max {
        return Err(Refusal::TooLarge(Some(meta.len())));
    }
    let file = std::fs::File::open(path).map_err(Refusal::Io)?;
    // The file opened may not be the one looked at (replaced meanwhile): look again.
    let meta = file.metadata().map_err(Refusal::Io)?;
    if let Some(what) = kind(&meta) {
        return Err(Refusal::NotRegular(what));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(max) as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > max {
        return Err(Refusal::TooLarge(None));
    }
    Ok(bytes)
}

/// A size in bytes, in the unit that reads best.
fn bytes_text(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    } else {
        format!("{n} bytes")
    }
}

/// A path as a diagnostic shows it: control characters (a newline, an escape sequence) are
/// written as escapes, so that a file name cannot forge output lines or drive the terminal.
pub fn shown(path: &Path) -> String {
    escaped(&path.display().to_string())
}

/// Text with its control characters escaped as `\u{..}` (`\n`, `\t` and `\r` as such).
pub fn escaped(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// An IO error in words, without the "(os error N)" tail.
fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::IsADirectory => "it is a folder".to_string(),
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}
