//! A session: loaded files, the lowered program, game instances and the game graph, shared by
//! `check`, `run`, `eval` and the REPL. Reading files is the only IO here. `run.rs` is the
//! statement driver that `check`, `run` and the REPL share; `prompt.rs` is what the REPL asks
//! of a session (parts of a line, definitions typed at the prompt, tables); `load.rs` reads
//! files and their imports, `expect.rs` checks `expect` lines and explains failures.

mod budget;
mod certify;
pub mod command;
mod compare;
mod complete;
mod data;
mod drawing;
mod expect;
mod failure;
mod grade;
mod heaps;
mod highlight;
mod load;
mod lookup;
mod play;
mod plot;
mod prompt;
mod run;
mod seal;
mod shift;

pub use budget::{Budget, Cancel};
pub use certify::{Certificate, Entry, Proves, CERTIFICATE_FORMAT};
pub use compare::Facts;
pub use complete::{completions, word_start, Completion, CompletionKind};
pub use data::{picture_svg, Data, Equilibria, Equilibrium};
pub use drawing::{MovesGraph, DOT_NODES};
pub use grade::{Exercise, Marked};
pub use heaps::{HeapTable, TABLE_PROOF_HEAP};
pub use highlight::{highlights, Highlight, HighlightKind};
pub use load::{escaped, shown};
pub use lookup::{Definition, DefinitionKind, NameAt, Symbol};
pub use play::{
    choose_move, ForMover, OptionFacts, PlayEnd, PlayOption, PlayView, Winner, MOST_OPTIONS,
};
pub use plot::short_label;
pub use prompt::{Binding, Bindings, Fragment, GameInfo, ParsedExpr, Rows, TableVar};
pub use run::{Gave, Ran, RunOptions, StatementKind};
pub use seal::{SealedExercise, SealedKey, SEALED_FORMAT};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::analysis::Analyzer;
use crate::diag::{Diag, FileId, SourceMap, Span};
use crate::eval::builtins::Builtin;
use crate::eval::compiled::CompiledGames;
use crate::eval::value::Value;
use crate::eval::{ConstState, GameTable, Interp, Limits, Stop, World};
use crate::graph::{GameGraph, GraphConfig};
use crate::lower::ir::{Body, Const, ConstId, Expr, ExprKind, Program, Statement};
use crate::lower::{lower_expr, LoweredFile, Scope};
use crate::syntax::parse_expr;

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
    /// Loaded files by canonical path, and for an `.nfg` file the name of its game.
    by_path: HashMap<(PathBuf, String), usize>,
    games: GameTable,
    consts: Vec<ConstState>,
    analyzer: Analyzer,
    limits: Limits,
    stop: Stop,
    policy: LoadPolicy,
}

impl Session {
    /// An empty session. The thread's table of game values, and the payoff tables of
    /// strategic games, are capped at the graph's memory budget.
    pub fn new(config: SessionConfig) -> Session {
        crate::value::with_forms(|t| t.set_max_bytes(config.graph.max_memory));
        let mut games = GameTable::default();
        games.set_max_table_bytes(config.graph.max_memory);
        // One memory account for the graph, the table of game values and values.
        let stop = Stop::new();
        stop.account().set_limit(config.graph.max_memory);
        let mut analyzer = Analyzer::new(config.graph);
        analyzer.graph.account = stop.account().clone();
        Session {
            sources: SourceMap::default(),
            program: Program::default(),
            compiled: CompiledGames::default(),
            files: Vec::new(),
            by_path: HashMap::new(),
            games,
            consts: Vec::new(),
            analyzer,
            limits: config.limits,
            stop,
            policy: LoadPolicy::default(),
        }
    }

    /// Sets how files are read (size limit, confinement to a folder).
    pub fn set_load_policy(&mut self, policy: LoadPolicy) {
        self.policy = policy;
    }

    /// Sets when long computations stop (a deadline, or a flag raised by Ctrl-C).
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = stop.with_account(self.stop.account().clone());
    }

    /// The current stop condition (its flag can be raised from another thread).
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// The compiled forms of the program's games (for statistics and tests).
    pub fn compiled(&self) -> &CompiledGames {
        &self.compiled
    }

    /// The compiled forms with the id of the prelude's game, which `--stats` leaves out of
    /// its count of the rules a user wrote.
    pub fn compiled_rules(&self) -> (&CompiledGames, Option<usize>) {
        let prelude = self.program.take_and_break.map(|g| g.0 as usize);
        (&self.compiled, prelude)
    }

    /// The game graph (for statistics and tests).
    pub fn graph(&self) -> &GameGraph {
        &self.analyzer.graph
    }

    /// The game instances made so far, by id (for statistics: their names).
    pub fn instances(&self) -> &crate::eval::GameTable {
        &self.games
    }

    /// The game graph and the analyses' memos (for statistics).
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// Loads a file from disk, with the files it imports. Returns the index of the file.
    pub fn load_path(&mut self, path: &Path) -> Result<usize, Vec<Diag>> {
        self.load_path_from(path, None, None, &mut Vec::new())
    }

    /// Loads `path` as an `import "path" as alias` at the REPL's prompt would: an `.nfg`
    /// file's game named `alias` (see [`Session::load_path`]).
    pub fn load_path_as(
        &mut self,
        path: &Path,
        alias: Option<&crate::syntax::ast::Ident>,
    ) -> Result<usize, Vec<Diag>> {
        self.load_path_from(path, None, alias, &mut Vec::new())
    }

    /// Loads source text given directly (tests, the REPL), with imports resolved against the
    /// current directory.
    pub fn load_source(&mut self, name: &str, text: &str) -> Result<usize, Vec<Diag>> {
        let file = self.sources.add(name, text);
        self.load_parsed(file, Path::new("."), &mut Vec::new())
    }

    /// Loads the text of an editor's buffer for the file at `path`: its imports are read
    /// beside that file (under the session's [`LoadPolicy`]), its diagnostics name `path`.
    pub fn load_buffer(&mut self, path: &Path, text: &str) -> Result<usize, Vec<Diag>> {
        let file = self.sources.add(shown(path), text);
        let dir = path.parent().unwrap_or(Path::new("."));
        self.load_parsed(file, dir, &mut Vec::new())
    }

    /// The loaded file at an index.
    pub fn file(&self, index: usize) -> &LoadedFile {
        &self.files[index]
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

    /// A value as a diagnostic shows it (cut short if long).
    pub fn show_short(&self, value: &Value) -> String {
        crate::eval::value::display_short(value, &self.games)
    }

    /// A value as cgl prints it, and whether it was cut (past
    /// [`crate::eval::value::MAX_SHOWN`] bytes).
    pub fn show_cut(&self, value: &Value) -> (String, bool) {
        crate::eval::value::display_bounded(value, &self.games, crate::eval::value::MAX_SHOWN)
    }

    /// The help for `value` where a position was needed (`fallback` when it is no game).
    pub fn position_help(&self, value: &Value, fallback: &str) -> String {
        crate::eval::position_help(&self.program, &self.games, value, fallback)
    }

    /// The name of a game instance as a value prints it (`Subtraction[S = {2, 4}]`).
    pub fn instance_label(&self, id: crate::eval::value::InstanceId) -> &str {
        crate::eval::value::InstanceNames::instance_label(&self.games, id)
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
        self.load_prelude()?;
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
        let game = self.games.info(inst.id()).game;
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
}
