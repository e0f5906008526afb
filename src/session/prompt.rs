//! What the REPL asks of a session, so that the REPL handles text, values and diagnostics
//! only, never the AST, the IR or resolved names: the names bound at the prompt
//! ([`Bindings`]), parts of a typed line parsed in place and evaluated with them, the
//! definitions typed at the prompt ([`Fragment`]), the tables of `:table` and `:grid`, and
//! what `:games` says of a game.
//!
//! The pictures of a value's positions are here too (`Session::picture`, `Session::pictures`; a
//! failed `expect` notes the pictures of the positions it compared).

use std::ops::Range;

use super::{LoadedFile, Session};
use crate::diag::{Diag, FileId, Span};
use crate::eval::value::Value;
use crate::eval::ConstState;
use crate::lower::ir::{GameId, Pattern, PositionShape};
use crate::lower::{lower_expr, lower_file, Exports, Global, Scope};
use crate::syntax::ast::{self, CompClause, ExprKind, Ident, Item};
use crate::syntax::{parse_expr_part, parse_file};

/// Names bound at a prompt (files loaded, definitions typed, `let`s) in the order they were
/// bound: binding a name again moves it to the end, and its new meaning shadows the old one.
#[derive(Clone, Debug, Default)]
pub struct Bindings(Exports);

/// One name and what it means, as a session hands it over to be bound.
#[derive(Clone, Debug)]
pub struct Binding {
    name: String,
    global: Global,
    span: Span,
}

impl Binding {
    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Bindings {
    /// No names.
    pub fn new() -> Bindings {
        Bindings::default()
    }

    /// Binds a name, shadowing what it meant before.
    pub fn bind(&mut self, binding: Binding) {
        self.0.shift_remove(&binding.name);
        self.0.insert(binding.name, (binding.global, binding.span));
    }

    /// Unbinds a name.
    pub fn forget(&mut self, name: &str) {
        self.0.shift_remove(name);
    }

    /// The names, in the order they were bound.
    pub fn names(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }

    /// How many names are bound.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no name is bound.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names as lowering resolves them.
    fn scope(&self) -> Scope {
        self.0
            .iter()
            .map(|(name, (global, _))| (name.clone(), *global))
            .collect()
    }
}

/// An expression parsed from part of an entry, not yet evaluated.
#[derive(Clone, Debug)]
pub struct ParsedExpr(ast::Expr);

impl ParsedExpr {
    /// Parses `range` of `text` (source `file`) in place, so that its diagnostics point into
    /// `text`.
    pub fn parse(file: FileId, text: &str, range: &Range<usize>) -> Result<ParsedExpr, Vec<Diag>> {
        parse_expr_part(file, text, range)
            .map(ParsedExpr)
            .map_err(|d| vec![*d])
    }

    /// Where it is.
    pub fn span(&self) -> Span {
        self.0.span
    }
}

/// A variable of a table: its name, where the name is, and what it ranges over.
#[derive(Clone, Debug)]
pub struct TableVar {
    /// The name.
    pub name: String,
    /// Where the name is.
    pub span: Span,
    /// The collection it ranges over.
    pub source: ParsedExpr,
}

/// A table's rows: each row's value of the row variable, and its cells (the column
/// variable's value, `none` for a one-variable table, and the expression's).
pub type Rows = Vec<(Value, Vec<(Value, Value)>)>;

/// Statements typed at the prompt, parsed, before they are loaded.
#[derive(Debug)]
pub struct Fragment {
    file: FileId,
    parsed: ast::File,
}

impl Fragment {
    /// Parses the statements `text` of source `file`.
    pub fn parse(file: FileId, text: &str) -> Result<Fragment, Vec<Diag>> {
        let parsed = parse_file(file, text).map_err(|d| vec![*d])?;
        Ok(Fragment { file, parsed })
    }

    /// Its `import`s: each path, its `as` name (an `.nfg` file's game) and the statement's
    /// place.
    pub fn imports(&self) -> Vec<(String, Option<crate::syntax::ast::Ident>, Span)> {
        self.parsed
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Import { path, alias, span } => Some((path.clone(), alias.clone(), *span)),
                _ => None,
            })
            .collect()
    }

    /// What it defines and imports, in order: `("game", name)`, `("fn", name)`,
    /// `("const", name)` and `("import", path)`.
    pub fn names(&self) -> Vec<(&'static str, String)> {
        self.parsed
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Game(g) => Some(("game", g.name.name.clone())),
                Item::Fn { name, .. } => Some(("fn", name.name.clone())),
                Item::Const { name, .. } => Some(("const", name.name.clone())),
                Item::Import { path, .. } => Some(("import", path.clone())),
                Item::Expect { .. } | Item::Print { .. } => None,
            })
            .collect()
    }
}

/// What `:games` shows of a game, its parts as they are written in its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// Its parameters, with their defaults (`k = 2`).
    pub params: Vec<String>,
    /// The fields of its positions, with their defaults.
    pub fields: Vec<String>,
    /// How many move rules it has.
    pub rules: usize,
    /// Whether it is played misère.
    pub misere: bool,
    /// Its `compound` mode, if given.
    pub compound: Option<String>,
    /// Its `start`, if given.
    pub start: Option<String>,
}

impl Session {
    /// Adds a source text (a REPL entry) and returns its id, for diagnostics to point into.
    /// The first source brings in the prelude (`load_prelude`), whose failure would be a bug
    /// of cgl's own text: `octal(code)` then reports it, as an internal error.
    pub fn add_source(
        &mut self,
        name: impl Into<String>,
        text: impl Into<std::sync::Arc<str>>,
    ) -> FileId {
        let file = self.sources.add(name, text);
        let _ = self.load_prelude();
        file
    }

    /// Lowers and evaluates a parsed expression with the names of `scope`.
    pub fn eval_parsed(&mut self, expr: &ParsedExpr, scope: &Bindings) -> Result<Value, Vec<Diag>> {
        let body = lower_expr(&self.program, &scope.scope(), &expr.0)?;
        self.eval_body(&body).map_err(|d| vec![*d])
    }

    /// Parses `range` of `text` (source `file`) in place and evaluates it with the names of
    /// `scope`.
    pub fn eval_part(
        &mut self,
        file: FileId,
        text: &str,
        range: &Range<usize>,
        scope: &Bindings,
    ) -> Result<Value, Vec<Diag>> {
        let expr = ParsedExpr::parse(file, text, range)?;
        self.eval_parsed(&expr, scope)
    }

    /// Evaluates `body` for each value of `rows` (and, for a grid, of `cols` in each row, whose
    /// range may use the row variable), as the comprehension
    /// `[(a, [(b, body) for b in B]) for a in A]` (for a table, `[(n, [(none, body)]) for n in
    /// A]`) whose parts are the entry's, so that every diagnostic points into it.
    pub fn tabulate(
        &mut self,
        body: ParsedExpr,
        rows: TableVar,
        cols: Option<TableVar>,
        scope: &Bindings,
    ) -> Result<Rows, Vec<Diag>> {
        let body = body.0;
        let inner = match cols {
            Some(cols) => comprehension(body, cols),
            None => {
                let s = body.span;
                let none = ast::Expr {
                    kind: ExprKind::None,
                    span: s,
                };
                let pair = ast::Expr {
                    kind: ExprKind::Tuple(vec![none, body]),
                    span: s,
                };
                ast::Expr {
                    kind: ExprKind::List(vec![pair]),
                    span: s,
                }
            }
        };
        let whole = ParsedExpr(comprehension(inner, rows));
        let value = self.eval_parsed(&whole, scope)?;
        Ok(pairs(&value)
            .into_iter()
            .map(|(row, cells)| (row, pairs(&cells)))
            .collect())
    }

    /// Lowers statements typed at the prompt whose names are resolved in `scope`, as if
    /// `scope` were imported. Its `import`s are not loaded here: the caller loads those files
    /// with [`Session::load_path`] and puts their names into `scope`. Returns the index of
    /// the new loaded file; nothing is added when lowering fails.
    pub fn load_fragment(
        &mut self,
        fragment: &Fragment,
        scope: &Bindings,
    ) -> Result<usize, Vec<Diag>> {
        let file = fragment.file;
        let stop = self.stop.clone();
        let lowered = lower_file(
            &mut self.program,
            &fragment.parsed,
            &[(&scope.0, Span::new(file, 0, 0))],
            &mut || stop.check(),
        )?;
        self.compiled.extend(&self.program);
        self.consts
            .resize(self.program.consts.len(), ConstState::Pending);
        self.files.push(LoadedFile { file, lowered });
        Ok(self.files.len() - 1)
    }

    /// The names the loaded file `index` brings: its own and those it imports (as `cgl eval
    /// -f` sees them), each with where it is defined in that file (its start for imported ones).
    pub fn file_names(&self, index: usize) -> Vec<Binding> {
        let loaded = &self.files[index];
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
                Binding {
                    name: name.clone(),
                    global: *global,
                    span,
                }
            })
            .collect()
    }

    /// The names the loaded file `index` defines itself, in order.
    pub fn file_exports(&self, index: usize) -> Vec<Binding> {
        self.files[index]
            .lowered
            .exports
            .iter()
            .map(|(n, (g, s))| Binding {
                name: n.clone(),
                global: *g,
                span: *s,
            })
            .collect()
    }

    /// Adds a constant that already has its value (`let name = ...`, evaluated at once) and
    /// returns it to be bound; `span` is where the name is.
    pub fn let_binding(&mut self, name: &str, value: Value, span: Span) -> Binding {
        let id = self.define_value(name, value, span);
        Binding {
            name: name.to_string(),
            global: Global::Const(id),
            span,
        }
    }

    /// The games among `scope`'s names, in order, with what `:games` shows of each.
    pub fn games_in(&self, scope: &Bindings) -> Vec<(String, GameInfo)> {
        scope
            .0
            .iter()
            .filter_map(|(name, (global, _))| match global {
                Global::Game(id) => Some((name.clone(), self.game_info(*id)?)),
                _ => None,
            })
            .collect()
    }

    /// What `:games` shows of a game.
    fn game_info(&self, id: GameId) -> Option<GameInfo> {
        let game = self.program.games.get(id.0 as usize)?;
        let snippet = |span: Span| self.sources.snippet(span).to_string();
        let params = game
            .params
            .iter()
            .map(|p| match &p.default {
                Some(d) => format!("{} = {}", p.name, snippet(d.span)),
                None => p.name.clone(),
            })
            .collect();
        let fields = match &game.position {
            PositionShape::Single(Pattern::Tuple(items, _)) => {
                items.iter().map(|p| snippet(p.span())).collect()
            }
            PositionShape::Single(p) => vec![snippet(p.span())],
            PositionShape::Fields(fields) => fields
                .iter()
                .map(|(p, d)| match d {
                    Some(d) => format!("{} = {}", snippet(p.span()), snippet(d.span)),
                    None => snippet(p.span()),
                })
                .collect(),
        };
        Some(GameInfo {
            params,
            fields,
            rules: game.rules.len(),
            misere: game.convention == ast::Convention::Misere,
            compound: game.compound.as_ref().map(|mode| snippet(mode.span)),
            start: game.start.as_ref().map(|start| snippet(start.span)),
        })
    }
}

/// `[(name, body) for name in source]`, spans from the parts.
fn comprehension(body: ast::Expr, var: TableVar) -> ast::Expr {
    let span = body.span;
    let name = Ident {
        name: var.name,
        span: var.span,
    };
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
            vec![CompClause::For(vec![(
                ast::Pattern::Bind(name),
                var.source.0,
            )])],
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
