//! A session: loaded files, the lowered program, game instances and the game graph, shared by
//! `check`, `run`, `eval` and the REPL. Reading files is the only IO here.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diag, FileId, SourceMap, Span};
use crate::eval::builtins::Builtin;
use crate::eval::value::Value;
use crate::eval::{ConstState, GameTable, Interp, Limits, Stop, World};
use crate::graph::{GameGraph, GraphConfig};
use crate::lower::ir::{Body, Clause, Const, ConstId, Expr, ExprKind, Pattern, Program, Statement};
use crate::lower::{lower_expr, lower_file, Exports, LoweredFile, Scope};
use crate::syntax::ast::{self, BinaryOp, Quantifier};
use crate::syntax::{parse_expr, parse_file};

/// Settings of a session.
#[derive(Clone, Copy, Debug, Default)]
pub struct SessionConfig {
    /// Graph settings (position limit, explicit products).
    pub graph: GraphConfig,
    /// Evaluation limits.
    pub limits: Limits,
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
    files: Vec<LoadedFile>,
    by_path: HashMap<PathBuf, usize>,
    games: GameTable,
    consts: Vec<ConstState>,
    graph: GameGraph,
    limits: Limits,
    stop: Stop,
}

impl Session {
    /// An empty session.
    pub fn new(config: SessionConfig) -> Session {
        Session {
            sources: SourceMap::default(),
            program: Program::default(),
            files: Vec::new(),
            by_path: HashMap::new(),
            games: GameTable::default(),
            consts: Vec::new(),
            graph: GameGraph::new(config.graph),
            limits: config.limits,
            stop: Stop::new(),
        }
    }

    /// Sets when long computations stop (a deadline, or a flag raised by Ctrl-C).
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// The current stop condition (its flag can be raised from another thread).
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// The game graph (for statistics and tests).
    pub fn graph(&self) -> &GameGraph {
        &self.graph
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
                format!("cannot read `{}`: {}", path.display(), io_reason(&e)),
                where_help,
            )
        })?;
        if let Some(i) = self.by_path.get(&canonical) {
            return Ok(*i);
        }
        if let Some(first) = stack.iter().position(|(c, _)| *c == canonical) {
            let chain: Vec<String> = stack[first..]
                .iter()
                .map(|(_, shown)| shown.display().to_string())
                .chain([path.display().to_string()])
                .collect();
            let mut d = Diag::error(Code::LoadImportCycle, "files import each other in a cycle")
                .note(format!("import chain: {}", chain.join(" → ")))
                .help("move what the files share into another file that each of them imports");
            if let Some(span) = import {
                d = d.label(span, "this import closes the cycle");
            }
            return Err(vec![d]);
        }
        let bytes = std::fs::read(&canonical).map_err(|e| {
            unreadable(
                format!("cannot read `{}`: {}", path.display(), io_reason(&e)),
                where_help,
            )
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            let before = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            unreadable(
                format!(
                    "`{}` is not UTF-8 text (line {line}, column {col})",
                    path.display()
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
        let file = self.sources.add(path.display().to_string(), text);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        stack.push((canonical.clone(), path.to_path_buf()));
        let result = self.load_parsed(file, &dir, stack);
        stack.pop();
        let index = result?;
        self.by_path.insert(canonical, index);
        Ok(index)
    }

    fn load_parsed(
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
        let parsed = parse_file(file, &text).map_err(|d| vec![*d])?;
        let mut imported = Vec::new();
        for item in &parsed.items {
            if let ast::Item::Import { path, span } = item {
                let shown = if dir == Path::new(".") {
                    PathBuf::from(path)
                } else {
                    dir.join(path)
                };
                let index = self.load_path_from(&shown, Some(*span), stack)?;
                imported.push((index, *span));
            }
        }
        let imports: Vec<(&crate::lower::Exports, Span)> = imported
            .iter()
            .map(|(i, span)| (&self.files[*i].lowered.exports, *span))
            .collect();
        let lowered = lower_file(&mut self.program, &parsed, &imports)?;
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        self.files.push(LoadedFile { file, lowered });
        Ok(self.files.len() - 1)
    }

    fn interp(&mut self) -> Interp<'_> {
        let world = World {
            program: &self.program,
            games: &mut self.games,
            consts: &mut self.consts,
            limits: self.limits,
            stop: &self.stop,
        };
        Interp::new(world, Some(&mut self.graph))
    }

    /// Prints a value.
    pub fn show(&self, value: &Value) -> String {
        crate::eval::value::display(value, &self.games)
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
        let expr = parse_expr(file, text).map_err(|d| vec![*d])?;
        let mut scope = Scope::new();
        for i in scope_files {
            for (name, global) in &self.files[*i].lowered.scope {
                scope.insert(name.clone(), *global);
            }
        }
        let body = lower_expr(&self.program, &scope, &expr)?;
        self.eval_body(&body).map_err(|d| vec![*d])
    }

    /// The lowered program: every game, function and constant loaded so far (the REPL lists
    /// games and their parameters from it).
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Lowers an already parsed fragment (a REPL entry) whose names are resolved in `scope`, as
    /// if `scope` were imported. Its `import` items are ignored: the caller loads those files
    /// with [`Session::load_path`] and puts their names into `scope`. Returns the index of
    /// the new loaded file; nothing is added when lowering fails.
    pub fn load_fragment(
        &mut self,
        file: FileId,
        parsed: &ast::File,
        scope: &Exports,
    ) -> Result<usize, Vec<Diag>> {
        let lowered = lower_file(&mut self.program, parsed, &[(scope, Span::new(file, 0, 0))])?;
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        self.files.push(LoadedFile { file, lowered });
        Ok(self.files.len() - 1)
    }

    /// Lowers and evaluates an already parsed expression with the names of `scope` (the REPL,
    /// which keeps its own bindings and builds expressions such as a table's comprehension).
    pub fn eval_expr_in(&mut self, expr: &ast::Expr, scope: &Scope) -> Result<Value, Vec<Diag>> {
        let body = lower_expr(&self.program, scope, expr)?;
        self.eval_body(&body).map_err(|d| vec![*d])
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
                .label(body.expr.span, format!("this is {}", self.show(&other)))
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
                .map(|v| self.show(&v)),
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
                    (_, left) => left.ok().map(|v| self.show(&v)),
                };
                values.expected = self
                    .interp()
                    .eval(r, &mut frame)
                    .ok()
                    .map(|v| self.show(&v));
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
                let right = self.interp().eval(r, &mut frame).map(|v| self.show(&v));
                match (left, outcome, right) {
                    (Ok(position), Some(Ok(outcome)), Ok(right)) => {
                        let shown = self.show(&position);
                        diag = diag
                            .label(l.span, format!("{shown} is {outcome}"))
                            .label(r.span, format!("not {right}"))
                            .note(format!("the outcome of {shown} is {outcome}, not {right}"));
                    }
                    _ => diag = diag.label(expr.span, "this is false"),
                }
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() => {
                let left = self.interp().eval(l, &mut frame).map(|v| self.show(&v));
                let right = self.interp().eval(r, &mut frame).map(|v| self.show(&v));
                if let (Ok(left), Ok(right)) = (left, right) {
                    diag = diag
                        .label(l.span, format!("this is {left}"))
                        .label(r.span, format!("this is {right}"))
                        .note(format!("`{}` is false for {left} and {right}", op.symbol()));
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
                if found.is_ok() && failed {
                    for clause in clauses {
                        if let Clause::For(pattern, _) = clause {
                            collect_binds(pattern, &mut |slot, span| {
                                let name = self.sources.snippet(span).to_string();
                                bindings
                                    .push(format!("{name} = {}", self.show(&frame[slot as usize])));
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
                    if let ExprKind::Binary(op, l, r) = &inner.kind {
                        if op.is_comparison() {
                            let left = self.interp().eval(l, &mut frame).map(|v| self.show(&v));
                            let right = self.interp().eval(r, &mut frame).map(|v| self.show(&v));
                            if let (Ok(left), Ok(right)) = (left, right) {
                                diag = diag.note(format!(
                                    "there `{}` is false for {left} and {right}",
                                    op.symbol()
                                ));
                            }
                        }
                    }
                }
            }
            _ => diag = diag.label(expr.span, "this is false"),
        }
        diag.help("the expected fact does not hold: fix the expectation or the game")
    }

    /// Runs a file's statements in order: `print` values go to `out`, failed `expect`s to the
    /// returned list.
    pub fn run_file(&mut self, index: usize, out: &mut dyn FnMut(String)) -> Vec<Diag> {
        let mut failures = Vec::new();
        for statement in self.statements(index) {
            match statement {
                Statement::Print(body) => match self.eval_body(&body) {
                    Ok(Value::Str(s)) => out(s.to_string()),
                    Ok(v) => out(self.show(&v)),
                    Err(d) => failures.push(*d),
                },
                Statement::Expect(body) => {
                    if let ExpectResult::Failed(d) = self.check_expect(&body) {
                        failures.push(*d);
                    }
                }
            }
        }
        failures
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
                path.display()
            ),
            "cgl reads .game files as UTF-8 text; check that this is the file you meant",
        )
    } else if !c.is_control() {
        (
            format!(
                "`{}` contains the bidirectional control character U+{:04X} at line {line}, \
                 column {col}",
                path.display(),
                u32::from(c)
            ),
            "remove it: it makes the text show in another order than cgl reads it",
        )
    } else {
        (
            format!(
                "`{}` contains the control character U+{:04X} at line {line}, column {col}",
                path.display(),
                u32::from(c)
            ),
            "remove it: a .game file may hold printable characters, tabs and line breaks only",
        )
    };
    Some(Diag::error(Code::LoadBinary, message).help(help))
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
