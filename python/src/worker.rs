//! The thread a Python `cgl.Session` computes on. A cgl session is not `Send` (its values
//! share `Rc`s, and game values live in a table of their thread), so each Python session owns
//! one thread that holds its `cgl::api::Session` for its whole life; Python calls send it a
//! [`Request`] and wait for the [`Answer`] with the GIL released, so other Python threads run
//! meanwhile. What crosses between the threads is plain data ([`Plain`]); a position, a game
//! value or a game stays on the session's thread, and Python holds its number ([`Held`]).

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver, Sender};

use cgl::api::{
    render, Bindings, Budget, Cancel, Code, Diag, Diagnostic, Gave, Locator, Outcome, ParsedExpr,
    Rational, RenderStyle, RunOptions, Session, SessionConfig, Span, StatementKind, TableVar,
    Value,
};

/// The stack of a session's thread: evaluation recurses (bounded by limits), and a large
/// stack makes those limits, not the stack, the bound (as `cgl`'s own threads have).
/// Reserved, not used, until a deep recursion touches it.
const STACK: usize = 512 << 20;

/// What a value held on the session's thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A position or a compound of positions.
    Position,
    /// A canonical form that is not a number, or a loopy nimber `inf(...)`.
    Form,
    /// A game with its parameters.
    Game,
}

/// A value held on the session's thread: its number there, what it is, how cgl prints it.
#[derive(Clone, Debug)]
pub struct Held {
    /// Its number in the session's table.
    pub id: u64,
    /// What it is.
    pub kind: Kind,
    /// As cgl prints it.
    pub text: String,
}

/// A value as plain data, the same on both threads.
#[derive(Clone, Debug)]
pub enum Plain {
    /// `none`.
    None,
    /// `true`, `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A fraction in lowest terms.
    Fraction(i64, i64),
    /// A fraction whose numerator or denominator needs more than 64 bits, in decimal.
    Wide(String, String),
    /// A string.
    Str(String),
    /// An outcome class (`"N"`, ...).
    Outcome(String),
    /// A compound mode (`"disjunctive"`, ...).
    Mode(String),
    /// A tuple (and `split(...)`).
    Tuple(Vec<Plain>),
    /// A list.
    List(Vec<Plain>),
    /// A set.
    Set(Vec<Plain>),
    /// `start..end`.
    Range(i64, i64),
    /// A position, game value or game, held on the session's thread.
    Held(Held),
}

/// A call's limits; `None` is the session's own.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Seconds.
    pub timeout: Option<f64>,
    /// Bytes.
    pub max_memory: Option<usize>,
    /// Positions.
    pub max_positions: Option<usize>,
}

/// What Python asks of its session.
pub enum Request {
    /// Load a file.
    Load(PathBuf),
    /// Load a text as a file of this name.
    LoadSource { text: String, name: String },
    /// Evaluate an expression with these names bound.
    Eval {
        expr: String,
        names: Vec<(String, Plain)>,
    },
    /// Tabulate `expr` over each variable's values (one: a table, two: a grid).
    Table {
        expr: String,
        vars: Vec<(String, Plain)>,
        names: Vec<(String, Plain)>,
    },
    /// Run every loaded file's `expect`s.
    Check,
    /// A held value's picture (its game's `show` clause).
    Picture(u64),
    /// A held game value's thermograph as SVG.
    Thermograph(u64),
    /// The files loaded.
    LoadedFiles,
    /// Forget a held value (its Python object is gone).
    Free(u64),
}

/// One `expect` as `check` ran it.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// The file, as cgl names it.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// `"passed"`, `"failed"` or `"skipped"`.
    pub status: String,
    /// Why it failed: the diagnostic.
    pub failure: Option<Failure>,
}

/// A table's rows, each its variables' values and the expression's; and its picture as
/// `cgl plot` draws it, when its values can be drawn.
#[derive(Clone, Debug)]
pub struct Table {
    /// The variables' names.
    pub vars: Vec<String>,
    /// Each cell: the variables' values, then the value.
    pub cells: Vec<(Vec<Plain>, Plain)>,
    /// The SVG picture.
    pub svg: Option<String>,
}

/// Diagnostics as data, each also drawn as `cgl` prints it (without colour).
#[derive(Clone, Debug)]
pub struct Failure {
    /// The diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Each drawn.
    pub rendered: Vec<String>,
}

/// What the session answers.
pub enum Answer {
    /// Done, nothing to give.
    Done,
    /// A value.
    Value(Plain),
    /// Text, or none.
    Text(Option<String>),
    /// Names.
    Names(Vec<String>),
    /// A table.
    Table(Table),
    /// The expectations.
    Checked(Vec<Expectation>),
    /// It failed.
    Failed(Failure),
}

/// A request with its limits and its cancellation, and where to answer.
struct Job {
    request: Request,
    limits: Limits,
    cancel: Cancel,
    reply: Sender<Answer>,
}

/// The Python side's end of a session's thread.
pub struct Link {
    jobs: Sender<Job>,
}

impl Link {
    /// Starts a session's thread with these settings.
    pub fn start(config: SessionConfig) -> std::io::Result<Link> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("cgl-session".into())
            .stack_size(STACK)
            .spawn(move || serve(config, inbox))?;
        Ok(Link { jobs })
    }

    /// Sends a request; the answer comes on the receiver (nothing if the thread is gone).
    pub fn send(&self, request: Request, limits: Limits, cancel: Cancel) -> Receiver<Answer> {
        let (reply, answer) = mpsc::channel();
        let _ = self.jobs.send(Job {
            request,
            limits,
            cancel,
            reply,
        });
        answer
    }
}

/// The session's thread: answers each job until the Python session is gone.
fn serve(config: SessionConfig, inbox: Receiver<Job>) {
    let mut state = State {
        core: Session::new(config),
        files: Vec::new(),
        held: HashMap::new(),
        next: 0,
    };
    for job in inbox {
        let mut budget = Budget::new().cancel(&job.cancel);
        if let Some(t) = job.limits.timeout {
            budget = budget.seconds(t);
        }
        if let Some(m) = job.limits.max_memory {
            budget = budget.memory(m);
        }
        if let Some(p) = job.limits.max_positions {
            budget = budget.positions(p);
        }
        let answer = state.answer(job.request, &budget);
        let _ = job.reply.send(answer);
    }
}

/// A session and what Python holds of it.
struct State {
    core: Session,
    /// The files loaded, in order: the scope of evaluations, the files checked.
    files: Vec<usize>,
    /// The values Python holds, by number.
    held: HashMap<u64, Value>,
    next: u64,
}

/// A zero-width span in no file, for values that come from Python.
fn nowhere() -> Span {
    Span::new(cgl::api::FileId(0), 0, 0)
}

impl State {
    fn answer(&mut self, request: Request, budget: &Budget) -> Answer {
        match request {
            Request::Load(path) => {
                let loaded = self.core.within(budget, |s| s.load_path(&path));
                self.loaded(loaded)
            }
            Request::LoadSource { text, name } => {
                let loaded = self.core.within(budget, |s| s.load_source(&name, &text));
                self.loaded(loaded)
            }
            Request::Eval { expr, names } => match self.eval(&expr, names, budget) {
                Ok(v) => Answer::Value(self.plain(&v)),
                Err(d) => self.failed(&d),
            },
            Request::Table { expr, vars, names } => match self.table(&expr, vars, names, budget) {
                Ok(t) => Answer::Table(t),
                Err(d) => self.failed(&d),
            },
            Request::Check => Answer::Checked(self.check(budget)),
            Request::Picture(id) => match self.held.get(&id).cloned() {
                None => self.failed(&[gone()]),
                Some(v) => match self.core.within(budget, |s| s.picture(&v, nowhere())) {
                    Ok(p) => Answer::Text(p),
                    Err(d) => self.failed(&[*d]),
                },
            },
            Request::Thermograph(id) => match self.held.get(&id).cloned() {
                None => self.failed(&[gone()]),
                Some(v) => {
                    let text = self.core.show(&v);
                    match self
                        .core
                        .within(budget, |s| s.thermograph_walls(&v, nowhere()))
                    {
                        Ok(walls) => Answer::Text(
                            walls.map(|w| cgl::api::plot::thermograph::write(&text, &w)),
                        ),
                        Err(d) => self.failed(&[*d]),
                    }
                }
            },
            Request::LoadedFiles => Answer::Names(self.core.loaded_files()),
            Request::Free(id) => {
                self.held.remove(&id);
                Answer::Done
            }
        }
    }

    fn loaded(&mut self, loaded: Result<usize, Vec<Diag>>) -> Answer {
        match loaded {
            Ok(file) => {
                if !self.files.contains(&file) {
                    self.files.push(file);
                }
                Answer::Done
            }
            Err(d) => self.failed(&d),
        }
    }

    fn failed(&self, diags: &[Diag]) -> Answer {
        Answer::Failed(self.failure(diags))
    }

    fn failure(&self, diags: &[Diag]) -> Failure {
        Failure {
            diagnostics: self.core.diagnostics(diags),
            rendered: diags
                .iter()
                .map(|d| render(d, &self.core.sources, RenderStyle::Plain))
                .collect(),
        }
    }

    /// The names the loaded files define, and `names` bound to their values.
    fn scope(&mut self, names: Vec<(String, Plain)>) -> Result<Bindings, Vec<Diag>> {
        let mut scope = Bindings::new();
        for &file in &self.files {
            for b in self.core.file_names(file) {
                scope.bind(b);
            }
        }
        for (name, plain) in names {
            let value = self.value(&plain).map_err(|d| vec![d])?;
            let binding = self.core.let_binding(&name, value, nowhere());
            scope.bind(binding);
        }
        Ok(scope)
    }

    fn eval(
        &mut self,
        expr: &str,
        names: Vec<(String, Plain)>,
        budget: &Budget,
    ) -> Result<Value, Vec<Diag>> {
        let scope = self.scope(names)?;
        self.core.within(budget, |s| {
            let file = s.add_source("<expression>", expr.to_string());
            let parsed = ParsedExpr::parse(file, expr, &(0..expr.len()))?;
            s.eval_parsed(&parsed, &scope)
        })
    }

    fn table(
        &mut self,
        expr: &str,
        vars: Vec<(String, Plain)>,
        mut names: Vec<(String, Plain)>,
        budget: &Budget,
    ) -> Result<Table, Vec<Diag>> {
        // Each variable ranges over a name bound to its values: `__cgl_rows`, `__cgl_cols`.
        let hidden = ["__cgl_rows", "__cgl_cols"];
        let var_names: Vec<String> = vars.iter().map(|(n, _)| n.clone()).collect();
        for ((_, values), hidden) in vars.into_iter().zip(hidden) {
            names.push((hidden.to_string(), values));
        }
        let scope = self.scope(names)?;
        let rows = self.core.within(budget, |s| {
            let var = |s: &mut Session, name: &str, over: &str| -> Result<TableVar, Vec<Diag>> {
                let file = s.add_source("<table>", over.to_string());
                Ok(TableVar {
                    name: name.to_string(),
                    span: nowhere(),
                    source: ParsedExpr::parse(file, over, &(0..over.len()))?,
                })
            };
            let file = s.add_source("<expression>", expr.to_string());
            let body = ParsedExpr::parse(file, expr, &(0..expr.len()))?;
            let span = body.span();
            let rows = var(s, &var_names[0], hidden[0])?;
            let cols = match var_names.get(1) {
                Some(name) => Some(var(s, name, hidden[1])?),
                None => None,
            };
            s.tabulate(body, rows, cols, &scope).map(|t| (t, span))
        });
        let (rows, span) = rows?;
        let axes = (var_names[0].clone(), var_names.get(1).cloned());
        let svg = self
            .core
            .plot_rows(expr, axes, &rows, span)
            .and_then(|plot| self.core.plot_image(&plot, false))
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok());
        let two = var_names.len() == 2;
        let mut cells = Vec::new();
        for (row, row_cells) in &rows {
            for (col, value) in row_cells {
                let mut at = vec![self.plain(row)];
                if two {
                    at.push(self.plain(col));
                }
                cells.push((at, self.plain(value)));
            }
        }
        Ok(Table {
            vars: var_names,
            cells,
            svg,
        })
    }

    fn check(&mut self, budget: &Budget) -> Vec<Expectation> {
        let files = self.files.clone();
        let options = RunOptions {
            skip_after_timeout: true,
            ..RunOptions::default()
        };
        let mut out = Vec::new();
        let mut failures = Vec::new();
        self.core.within(budget, |s| {
            let mut locator = Locator::default();
            for &file in &files {
                s.run_statements(file, options, &mut |s, ran| {
                    if ran.kind != StatementKind::Expect {
                        return;
                    }
                    let place = locator.place(ran.span, &s.sources);
                    let (status, failed) = match ran.outcome {
                        Gave::Passed => ("passed", None),
                        Gave::Failed(d) => ("failed", Some(*d)),
                        Gave::Skipped => ("skipped", None),
                        Gave::Printed(_) => return,
                    };
                    failures.push(failed);
                    out.push(Expectation {
                        file: place.as_ref().map(|p| p.file.clone()).unwrap_or_default(),
                        line: place.as_ref().map_or(0, |p| p.line),
                        status: status.to_string(),
                        failure: None,
                    });
                });
            }
        });
        for (e, failed) in out.iter_mut().zip(failures) {
            e.failure = failed.map(|d| self.failure(&[d]));
        }
        out
    }

    /// A value as plain data, holding what cannot cross threads.
    fn plain(&mut self, value: &Value) -> Plain {
        let all = |this: &mut State, items: &[Value]| items.iter().map(|v| this.plain(v)).collect();
        match value {
            Value::None => Plain::None,
            Value::Bool(b) => Plain::Bool(*b),
            Value::Int(n) => Plain::Int(*n),
            Value::Rational(r) => Plain::Fraction(r.numer(), r.denom()),
            Value::Wide(q) => Plain::Wide(q.numer().to_string(), q.denom().to_string()),
            Value::Str(s) => Plain::Str(s.to_string()),
            Value::Outcome(o) => Plain::Outcome(o.to_string()),
            Value::Tuple(items) | Value::Split(items) => Plain::Tuple(all(self, items)),
            Value::List(items) => Plain::List(all(self, items)),
            Value::Set(items) => Plain::Set(items.iter().map(|v| self.plain(v)).collect()),
            Value::Range(a, b) => Plain::Range(*a, *b),
            Value::Pos(_) => self.hold(value, Kind::Position),
            Value::Form(_) | Value::Infinite(_) => self.hold(value, Kind::Form),
            Value::Game(_) => self.hold(value, Kind::Game),
            Value::Mode(_) => Plain::Mode(self.core.show(value)),
        }
    }

    fn hold(&mut self, value: &Value, kind: Kind) -> Plain {
        let id = self.next;
        self.next += 1;
        self.held.insert(id, value.clone());
        Plain::Held(Held {
            id,
            kind,
            text: self.core.show(value),
        })
    }

    /// Plain data as a value of this session.
    fn value(&self, plain: &Plain) -> Result<Value, Diag> {
        let all = |items: &[Plain]| -> Result<Vec<Value>, Diag> {
            items.iter().map(|p| self.value(p)).collect()
        };
        Ok(match plain {
            Plain::None => Value::None,
            Plain::Bool(b) => Value::Bool(*b),
            Plain::Int(n) => Value::Int(*n),
            Plain::Fraction(n, d) => Value::number(Rational::new(*n, *d).ok_or_else(|| {
                Diag::internal(format!("{n}/{d} is not a fraction cgl can hold"))
            })?),
            Plain::Wide(n, d) => Value::fraction_text(n, d).ok_or_else(|| {
                Diag::error(
                    Code::EvalOverflow,
                    format!("{n}/{d} is too large a number for cgl"),
                )
                .help("cgl's integers are 64-bit and its fractions at most 2^20 bits")
            })?,
            Plain::Str(s) => Value::Str(Rc::from(s.as_str())),
            Plain::Outcome(o) => Value::Outcome(match o.as_str() {
                "N" => Outcome::N,
                "P" => Outcome::P,
                "L" => Outcome::L,
                "R" => Outcome::R,
                _ => Outcome::D,
            }),
            Plain::Mode(m) => return Err(Diag::internal(format!("a mode ({m}) from Python"))),
            Plain::Tuple(items) => Value::tuple(all(items)?),
            Plain::List(items) => Value::list(all(items)?),
            Plain::Set(items) => {
                Value::Set(Rc::new(all(items)?.into_iter().collect::<BTreeSet<_>>()))
            }
            Plain::Range(a, b) => Value::Range(*a, *b),
            Plain::Held(h) => self.held.get(&h.id).cloned().ok_or_else(gone)?,
        })
    }
}

/// The diagnostic of a held value this session no longer has.
fn gone() -> Diag {
    Diag::internal("a value this session no longer holds (or one of another session)")
}
