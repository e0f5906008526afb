//! Name resolution and lowering of one file.

use std::collections::{BTreeMap, HashMap};

use indexmap::IndexMap;

use super::builtins::{self, CONSTANT_NAMES};
use super::ir::{self, Body, Clause, ConstId, FnId, GameId, Program, Slot, Statement};
use crate::diag::{did_you_mean, Code, Diag, Span};
use crate::syntax::ast::{
    self, BinaryOp, Convention, ExprKind, FieldName, GameClause, Item, Side, UnaryOp,
};
use crate::value::Value;

/// The type an operator needs of a literal operand.
#[derive(Clone, Copy)]
enum LiteralType {
    Int,
    Bool,
}

/// A top-level name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    /// A game.
    Game(GameId),
    /// A function.
    Fn(FnId),
    /// A constant.
    Const(ConstId),
}

/// Names in scope, ordered so that nothing depends on hash order.
pub type Scope = BTreeMap<String, Global>;

/// The names a file defines, which an `import` of it brings into scope.
pub type Exports = IndexMap<String, (Global, Span)>;

/// A lowered file: what it exports and what it runs.
#[derive(Debug, Default)]
pub struct LoweredFile {
    /// Games, functions and constants it defines.
    pub exports: Exports,
    /// All names in scope in the file (its own and imported ones).
    pub scope: Scope,
    /// `expect` and `print` statements in source order.
    pub statements: Vec<Statement>,
}

/// Lowers a parsed file into `program`. `imports` are the exports of the files it imports,
/// with the span of each import statement. Returns every static error found. `check` (the
/// deadline) is called every [`CHECK_EVERY`] statements, so that a file of millions of
/// statements stops at `--timeout` while it is lowered; its error is the only one returned.
pub fn lower_file(
    program: &mut Program,
    file: &ast::File,
    imports: &[(&Exports, Span)],
    check: &mut dyn FnMut() -> crate::diag::DiagResult<()>,
) -> Result<LoweredFile, Vec<Diag>> {
    let mut errors = Vec::new();
    let mut scope: HashMap<String, (Global, Span)> = HashMap::new();
    for (exports, import_span) in imports {
        for (name, (global, _)) in exports.iter() {
            if let Some((other, _)) = scope.get(name) {
                if other != global {
                    errors.push(
                        Diag::error(
                            Code::ResolveImportConflict,
                            format!("`{name}` is imported twice"),
                        )
                        .label(*import_span, format!("this import brings another `{name}`"))
                        .help("two imported files define the same name; rename one of them"),
                    );
                }
                continue;
            }
            scope.insert(name.clone(), (*global, *import_span));
        }
    }
    let imported: HashMap<String, (Global, Span)> = scope.clone();

    // Reserve ids for this file's definitions so bodies can refer to each other in any order.
    let (mut n_games, mut n_fns, mut n_consts) =
        (program.games.len(), program.fns.len(), program.consts.len());
    let mut exports = Exports::new();
    let mut sigs: HashMap<GameId, GameSig> = HashMap::new();
    for (i, game) in program.games.iter().enumerate() {
        sigs.insert(GameId(i as u32), GameSig::from_ir(game));
    }
    let mut fn_arities: HashMap<FnId, usize> = program
        .fns
        .iter()
        .enumerate()
        .map(|(i, f)| (FnId(i as u32), f.arity))
        .collect();
    for item in &file.items {
        let (name, global) = match item {
            Item::Game(g) => {
                let id = GameId(n_games as u32);
                n_games += 1;
                sigs.insert(id, GameSig::from_ast(g));
                (&g.name, Global::Game(id))
            }
            Item::Fn { name, params, .. } => {
                let id = FnId(n_fns as u32);
                n_fns += 1;
                fn_arities.insert(id, params.len());
                (name, Global::Fn(id))
            }
            Item::Const { name, .. } => {
                let id = ConstId(n_consts as u32);
                n_consts += 1;
                (name, Global::Const(id))
            }
            _ => continue,
        };
        if let Some((_, previous)) = exports.get(&name.name) {
            errors.push(
                Diag::error(
                    Code::ResolveDuplicate,
                    format!("`{}` is defined twice", name.name),
                )
                .label(name.span, "defined again here")
                .label(*previous, "first defined here")
                .help("give one of the definitions another name"),
            );
            continue;
        }
        if let Some((_, import_span)) = imported.get(&name.name) {
            errors.push(
                Diag::error(
                    Code::ResolveDuplicate,
                    format!("`{}` is defined here and also imported", name.name),
                )
                .label(name.span, "defined here")
                .label(*import_span, "imported here")
                .help("rename the local definition, or drop the import"),
            );
            continue;
        }
        if builtins::is_reserved(&name.name) {
            errors.push(
                Diag::error(
                    Code::ResolveShadowsBuiltin,
                    format!("`{}` is the name of a built-in", name.name),
                )
                .label(name.span, "defined here")
                .help("choose another name; built-ins cannot be redefined"),
            );
            continue;
        }
        exports.insert(name.name.clone(), (global, name.span));
        scope.insert(name.name.clone(), (global, name.span));
    }
    let scope: Scope = scope.into_iter().map(|(k, (g, _))| (k, g)).collect();

    let mut lowered = LoweredFile {
        exports,
        scope,
        statements: Vec::new(),
    };
    let mut games = Vec::new();
    let mut fns = Vec::new();
    let mut consts = Vec::new();
    for (i, item) in file.items.iter().enumerate() {
        if i % CHECK_EVERY == CHECK_EVERY - 1 {
            check().map_err(|d| vec![*d])?;
        }
        let mut r = Resolver::new(&lowered.scope, &sigs, &fn_arities);
        match item {
            Item::Import { .. } => {}
            Item::Game(g) => games.push(r.game(g)),
            Item::Fn { name, params, body } => {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                r.push_scope();
                for p in params {
                    if let Some(prev) = seen.insert(&p.name, p.span) {
                        r.errors.push(duplicate_binding(&p.name, p.span, prev));
                    }
                    r.bind(&p.name);
                }
                let body_expr = r.expr(body);
                fns.push(ir::Function {
                    name: name.name.clone(),
                    arity: params.len(),
                    body: Body {
                        expr: body_expr,
                        frame_size: r.frame_size(),
                        span: body.span,
                    },
                });
            }
            Item::Const { name, value } => {
                let expr = r.expr(value);
                consts.push(ir::Const {
                    name: name.name.clone(),
                    body: Body {
                        expr,
                        frame_size: r.frame_size(),
                        span: value.span,
                    },
                });
            }
            Item::Expect { expr, span } => {
                let e = r.expr(expr);
                lowered.statements.push(Statement::Expect(Body {
                    expr: e,
                    frame_size: r.frame_size(),
                    span: *span,
                }));
            }
            Item::Print { expr, span } => {
                let e = r.expr(expr);
                lowered.statements.push(Statement::Print(Body {
                    expr: e,
                    frame_size: r.frame_size(),
                    span: *span,
                }));
            }
        }
        errors.append(&mut r.errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    program.games.extend(games);
    program.fns.extend(fns);
    program.consts.extend(consts);
    Ok(lowered)
}

/// Statements lowered between two checks of the deadline.
const CHECK_EVERY: usize = 1024;

/// Lowers a standalone expression (for `cgl eval` and the REPL) against a file's scope.
pub fn lower_expr(program: &Program, scope: &Scope, expr: &ast::Expr) -> Result<Body, Vec<Diag>> {
    let sigs: HashMap<GameId, GameSig> = program
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| (GameId(i as u32), GameSig::from_ir(g)))
        .collect();
    let fn_arities: HashMap<FnId, usize> = program
        .fns
        .iter()
        .enumerate()
        .map(|(i, f)| (FnId(i as u32), f.arity))
        .collect();
    let mut r = Resolver::new(scope, &sigs, &fn_arities);
    let lowered = r.expr(expr);
    if r.errors.is_empty() {
        Ok(Body {
            expr: lowered,
            frame_size: r.frame_size(),
            span: expr.span,
        })
    } else {
        Err(r.errors)
    }
}

/// What lowering needs to know of a game to check calls of it.
struct GameSig {
    name: String,
    params: Vec<String>,
    arity: (usize, usize),
    /// A strategic-form game: it has no positions to call for.
    strategic: bool,
}

impl GameSig {
    fn from_ir(game: &ir::Game) -> GameSig {
        GameSig {
            name: game.name.clone(),
            params: game.params.iter().map(|p| p.name.clone()).collect(),
            arity: game.position.arity(),
            strategic: game.strategic.is_some(),
        }
    }

    fn from_ast(game: &ast::GameDef) -> GameSig {
        let mut arity = (1, 1);
        for clause in &game.clauses {
            if let GameClause::Position(p) = clause {
                arity = match p {
                    ast::PositionPattern::Single(ast::Pattern::Tuple(items, _)) => {
                        (items.len(), items.len())
                    }
                    ast::PositionPattern::Single(_) => (1, 1),
                    ast::PositionPattern::Fields(fields, _) => (
                        fields.iter().take_while(|(_, d)| d.is_none()).count(),
                        fields.len(),
                    ),
                };
            }
        }
        GameSig {
            name: game.name.name.clone(),
            params: game.params.iter().map(|(p, _)| p.name.clone()).collect(),
            arity,
            strategic: is_strategic(game),
        }
    }
}

#[cold]
fn duplicate_binding(name: &str, span: Span, previous: Span) -> Diag {
    Diag::error(
        Code::ResolveDuplicateBinding,
        format!("`{name}` is bound twice"),
    )
    .label(span, "bound again here")
    .label(previous, "first bound here")
    .help("use a different name for each variable in one pattern")
}

struct Resolver<'a> {
    globals: &'a Scope,
    sigs: &'a HashMap<GameId, GameSig>,
    fn_arities: &'a HashMap<FnId, usize>,
    errors: Vec<Diag>,
    scopes: Vec<Vec<(String, Slot)>>,
    next_slot: Slot,
    max_slot: Slot,
}

impl<'a> Resolver<'a> {
    fn new(
        globals: &'a Scope,
        sigs: &'a HashMap<GameId, GameSig>,
        fn_arities: &'a HashMap<FnId, usize>,
    ) -> Resolver<'a> {
        Resolver {
            globals,
            sigs,
            fn_arities,
            errors: Vec::new(),
            scopes: vec![Vec::new()],
            next_slot: 0,
            max_slot: 0,
        }
    }

    fn frame_size(&self) -> usize {
        self.max_slot as usize
    }

    fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn pop_scope(&mut self) {
        if let Some(scope) = self.scopes.pop() {
            self.next_slot -= scope.len() as Slot;
        }
    }

    fn bind(&mut self, name: &str) -> Slot {
        let slot = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), slot));
        }
        slot
    }

    fn lookup_local(&self, name: &str) -> Option<Slot> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    fn pattern(&mut self, pattern: &ast::Pattern, seen: &mut HashMap<String, Span>) -> ir::Pattern {
        match pattern {
            ast::Pattern::Bind(ident) => {
                if let Some(prev) = seen.insert(ident.name.clone(), ident.span) {
                    self.errors
                        .push(duplicate_binding(&ident.name, ident.span, prev));
                }
                ir::Pattern::Bind(self.bind(&ident.name), ident.span)
            }
            ast::Pattern::Wildcard(span) => ir::Pattern::Wildcard(*span),
            ast::Pattern::Tuple(items, span) => {
                ir::Pattern::Tuple(items.iter().map(|p| self.pattern(p, seen)).collect(), *span)
            }
        }
    }

    fn game(&mut self, game: &ast::GameDef) -> ir::Game {
        let mut params = Vec::new();
        let mut seen = HashMap::new();
        for (name, default) in &game.params {
            // A default sees the parameters before it.
            let default = default.as_ref().map(|d| self.expr(d));
            if let Some(prev) = seen.insert(name.name.clone(), name.span) {
                self.errors
                    .push(duplicate_binding(&name.name, name.span, prev));
            }
            self.bind(&name.name);
            params.push(ir::GameParam {
                name: name.name.clone(),
                default,
                span: name.span,
            });
        }
        if is_strategic(game) {
            return self.strategic_game(game, params, seen);
        }
        let mut position = None;
        let mut start = None;
        let mut compound = None;
        let mut convention = None;
        let mut terminal = Vec::new();
        let mut draw = Vec::new();
        let mut loopy = false;
        let mut payoffs = Vec::new();
        let mut show = None;
        let mut rule_asts = Vec::new();
        let mut seen_clause: HashMap<&str, Span> = HashMap::new();
        let mut once = |this: &mut Self, what: &'static str, span: Span| {
            if let Some(prev) = seen_clause.insert(what, span) {
                this.errors.push(
                    Diag::error(
                        Code::ResolveDuplicateClause,
                        format!("two `{what}` clauses"),
                    )
                    .label(span, "second one here")
                    .label(prev, "first one here")
                    .help(format!("a game has at most one `{what}` clause")),
                );
            }
        };
        // The position pattern comes first in the frame, so every other clause sees it.
        for clause in &game.clauses {
            if let GameClause::Position(p) = clause {
                let span = match p {
                    ast::PositionPattern::Single(pat) => pat.span(),
                    ast::PositionPattern::Fields(_, s) => *s,
                };
                once(self, "position", span);
                if position.is_some() {
                    continue;
                }
                let mut seen_fields = seen.clone();
                position = Some(match p {
                    ast::PositionPattern::Single(pat) => {
                        ir::PositionShape::Single(self.pattern(pat, &mut seen_fields))
                    }
                    ast::PositionPattern::Fields(fields, _) => {
                        let mut out = Vec::new();
                        let mut had_default = false;
                        for (pat, default) in fields {
                            // Defaults see the parameters only, not the other fields.
                            let default_ir = default.as_ref().map(|d| {
                                let saved = std::mem::take(&mut self.scopes);
                                let mut outer = saved.clone();
                                if let Some(first) = outer.first_mut() {
                                    first.truncate(game.params.len());
                                }
                                self.scopes = outer;
                                let e = self.expr(d);
                                self.scopes = saved;
                                e
                            });
                            if default.is_some() {
                                had_default = true;
                            } else if had_default {
                                self.errors.push(
                                    Diag::error(
                                        Code::ResolveDefaultOrder,
                                        "a field without a default follows one with a default",
                                    )
                                    .label(pat.span(), "this field needs a default too")
                                    .help("put the fields with defaults last"),
                                );
                            }
                            out.push((self.pattern(pat, &mut seen_fields), default_ir));
                        }
                        ir::PositionShape::Fields(out)
                    }
                });
            }
        }
        let Some(position) = position else {
            self.errors.push(
                Diag::error(
                    Code::ResolveNoPosition,
                    format!("game `{}` has no `position` clause", game.name.name),
                )
                .label(game.name.span, "this game")
                .help("name the fields of a position, e.g. `position n` or `position (a, b)`"),
            );
            // Without the position's names every other clause would only add follow-on errors.
            return ir::Game {
                name: game.name.name.clone(),
                span: game.name.span,
                params,
                position: ir::PositionShape::Single(ir::Pattern::Wildcard(game.name.span)),
                start: None,
                compound: None,
                convention: Convention::Normal,
                terminal: Vec::new(),
                draw: Vec::new(),
                rules: Vec::new(),
                partizan: false,
                loopy: false,
                payoffs: Vec::new(),
                show: None,
                frame_size: self.frame_size(),
                strategic: None,
            };
        };
        for clause in &game.clauses {
            match clause {
                GameClause::Position(_) => {}
                GameClause::Start(e) => {
                    once(self, "start", e.span);
                    start = Some(self.expr(e));
                }
                GameClause::Compound(e) => {
                    once(self, "compound", e.span);
                    compound = Some(self.expr(e));
                }
                GameClause::Play(c, span) => {
                    once(self, "play", *span);
                    convention = Some(*c);
                }
                GameClause::Terminal(e) => terminal.push(self.expr(e)),
                GameClause::Draw(e) => draw.push(self.expr(e)),
                GameClause::Loopy(span) => {
                    once(self, "loopy", *span);
                    loopy = true;
                }
                GameClause::Payoff(amount, cond, span) => payoffs.push(ir::Payoff {
                    amount: self.expr(amount),
                    cond: cond.as_ref().map(|c| self.expr(c)),
                    span: *span,
                }),
                GameClause::Show(e) => {
                    once(self, "show", e.span);
                    show = Some(self.expr(e));
                }
                GameClause::Move(rule) => rule_asts.push(rule),
                GameClause::Player(..) | GameClause::Table(_) => {}
            }
        }
        if let Some(first) = payoffs.first() {
            let clash = game.clauses.iter().find_map(|c| match c {
                GameClause::Draw(e) => Some((
                    e.span,
                    "`draw if`",
                    "write `payoff 0 if ...` for a drawn end",
                )),
                GameClause::Play(Convention::Misere, span) => Some((
                    *span,
                    "`play misere`",
                    "pay the player who cannot move instead: `payoff 1 if ...`",
                )),
                GameClause::Move(rule) if rule.side != Side::Both => Some((
                    rule.span,
                    "a one-sided move (`left move`, `right move`)",
                    "payoff games are impartial: write `move ...`, a move either player may make",
                )),
                _ => None,
            });
            if let Some((span, what, help)) = clash {
                self.errors.push(
                    Diag::error(
                        Code::ResolvePayoffConflict,
                        format!("a payoff game cannot also have {what}"),
                    )
                    .label(span, "this clause")
                    .label(first.span, "payoffs decide how play ends")
                    .help(help),
                );
            }
        }
        let mut rules = Vec::new();
        let partizan = rule_asts.iter().any(|r| r.side != Side::Both);
        for rule in rule_asts {
            self.push_scope();
            let clauses = self.clauses(&rule.clauses);
            let target = self.expr(&rule.target);
            self.pop_clause_scopes(&rule.clauses);
            self.pop_scope();
            rules.push(ir::MoveRule {
                side: rule.side,
                target,
                clauses,
                span: rule.span,
            });
        }
        ir::Game {
            name: game.name.name.clone(),
            span: game.name.span,
            params,
            position,
            start,
            compound,
            convention: convention.unwrap_or(Convention::Normal),
            terminal,
            draw,
            rules,
            partizan,
            loopy,
            payoffs,
            show,
            frame_size: self.frame_size(),
            strategic: None,
        }
    }

    /// A strategic-form game: `player` clauses, then one `payoff` or `table`; no clause of
    /// a game of moves.
    fn strategic_game(
        &mut self,
        game: &ast::GameDef,
        params: Vec<ir::GameParam>,
        mut seen: HashMap<String, Span>,
    ) -> ir::Game {
        let mut players = Vec::new();
        let mut payoff_ast: Option<(&ast::Expr, bool)> = None;
        for clause in &game.clauses {
            let misplaced = match clause {
                GameClause::Player(name, strategies) => {
                    // Strategies see the parameters only.
                    players.push((name, self.expr(strategies)));
                    None
                }
                GameClause::Payoff(e, _, _) | GameClause::Table(e) => {
                    let is_table = matches!(clause, GameClause::Table(_));
                    if let GameClause::Payoff(_, Some(cond), _) = clause {
                        self.errors.push(
                            Diag::error(
                                Code::ResolveStrategic,
                                format!("the payoff of the strategic game `{}` has an `if`", game.name.name),
                            )
                            .label(cond.span, "a condition on the payoff")
                            .label(game.name.span, strategic_because(game))
                            .help("a strategic game's `payoff` gives every profile's payoffs, with no condition (write `if ... then ... else ...` inside it); `payoff EXPR if COND` is for terminal positions of a game of moves"),
                        );
                    }
                    if let Some((prev, _)) = payoff_ast {
                        self.errors.push(
                            Diag::error(Code::ResolveStrategic, "a strategic game has two payoff clauses")
                                .label(e.span, "second one here")
                                .label(prev.span, "first one here")
                                .help("give the payoffs once: `payoff (u1, u2)` as a function of the players' strategies, or `table [...]`"),
                        );
                    } else {
                        payoff_ast = Some((e, is_table));
                    }
                    None
                }
                GameClause::Position(ast::PositionPattern::Single(p)) => {
                    Some(("position", p.span()))
                }
                GameClause::Position(ast::PositionPattern::Fields(_, s)) => Some(("position", *s)),
                GameClause::Move(rule) => Some(("move", rule.span)),
                GameClause::Start(e) => Some(("start", e.span)),
                GameClause::Compound(e) => Some(("compound", e.span)),
                GameClause::Terminal(e) => Some(("terminal", e.span)),
                GameClause::Draw(e) => Some(("draw", e.span)),
                GameClause::Play(_, s) => Some(("play", *s)),
                GameClause::Loopy(s) => Some(("loopy", *s)),
                GameClause::Show(e) => Some(("show", e.span)),
            };
            if let Some((what, span)) = misplaced {
                self.errors.push(
                    Diag::error(
                        Code::ResolveStrategic,
                        format!("a `{what}` clause in the strategic game `{}`", game.name.name),
                    )
                    .label(span, "a clause of a game of moves")
                    .label(game.name.span, strategic_because(game))
                    .help("a strategic game has only `player`, `payoff` and `table` clauses; write a game of moves as a separate `game`"),
                );
            }
        }
        if players.is_empty() {
            self.errors.push(
                Diag::error(
                    Code::ResolveStrategic,
                    format!("the strategic game `{}` has no players", game.name.name),
                )
                .label(game.name.span, "this game")
                .help("name each player and their strategies: `player Row in [\"Up\", \"Down\"]`"),
            );
        }
        let mut slots = Vec::new();
        for (name, _) in &players {
            if let Some(prev) = seen.insert(name.name.clone(), name.span) {
                self.errors
                    .push(duplicate_binding(&name.name, name.span, prev));
            }
            slots.push(self.bind(&name.name));
        }
        let payoff = match payoff_ast {
            Some((e, true)) => {
                // A table sees the parameters, not the players' names.
                let saved = std::mem::take(&mut self.scopes);
                let mut outer = saved.clone();
                if let Some(first) = outer.first_mut() {
                    first.truncate(game.params.len());
                }
                self.scopes = outer;
                let table = self.expr(e);
                self.scopes = saved;
                ir::StrategicPayoff::Table(table)
            }
            Some((e, false)) => ir::StrategicPayoff::Function(self.expr(e)),
            None => {
                self.errors.push(
                    Diag::error(Code::ResolveStrategic, format!("the strategic game `{}` has no payoffs", game.name.name))
                        .label(game.name.span, "this game")
                        .help("add `payoff (u1, u2)` (an expression of the players' strategies) or `table [[(u1, u2), ...], ...]`"),
                );
                ir::StrategicPayoff::Table(ir::Expr {
                    kind: ir::ExprKind::Lit(Value::None),
                    span: game.name.span,
                })
            }
        };
        ir::Game {
            name: game.name.name.clone(),
            span: game.name.span,
            params,
            position: ir::PositionShape::Single(ir::Pattern::Wildcard(game.name.span)),
            start: None,
            compound: None,
            convention: Convention::Normal,
            terminal: Vec::new(),
            draw: Vec::new(),
            rules: Vec::new(),
            partizan: false,
            loopy: false,
            show: None,
            payoffs: Vec::new(),
            frame_size: self.frame_size(),
            strategic: Some(ir::StrategicDef {
                players: players
                    .into_iter()
                    .map(|(name, e)| (name.name.clone(), e, name.span))
                    .collect(),
                payoff,
            }),
        }
    }

    /// Lowers comprehension clauses, opening one scope per generator; the caller closes them
    /// with `pop_clause_scopes` after lowering the body.
    fn clauses(&mut self, clauses: &[ast::CompClause]) -> Vec<Clause> {
        let mut out = Vec::new();
        // One name bound twice in the generators of one comprehension is a mistake, not
        // shadowing: the first binding could never be used.
        let mut seen = HashMap::new();
        for clause in clauses {
            match clause {
                ast::CompClause::For(gens) => {
                    for (pattern, source) in gens {
                        let source = self.expr(source);
                        self.push_scope();
                        let pattern = self.pattern(pattern, &mut seen);
                        out.push(Clause::For(pattern, source));
                    }
                }
                ast::CompClause::If(cond) => out.push(Clause::If(self.expr(cond))),
            }
        }
        out
    }

    fn pop_clause_scopes(&mut self, clauses: &[ast::CompClause]) {
        for clause in clauses {
            if let ast::CompClause::For(gens) = clause {
                for _ in gens {
                    self.pop_scope();
                }
            }
        }
    }

    fn comprehension(
        &mut self,
        body: &ast::Expr,
        clauses: &[ast::CompClause],
    ) -> (ir::Expr, Vec<Clause>) {
        let lowered_clauses = self.clauses(clauses);
        let body = self.expr(body);
        self.pop_clause_scopes(clauses);
        (body, lowered_clauses)
    }

    fn unknown_name(&mut self, name: &str, span: Span) -> ir::Expr {
        let mut candidates: Vec<&str> = self.globals.keys().map(String::as_str).collect();
        candidates.extend(self.scopes.iter().flatten().map(|(n, _)| n.as_str()));
        candidates.extend(builtins::BUILTINS.iter().map(|(n, ..)| *n));
        candidates.extend(CONSTANT_NAMES);
        candidates.sort_unstable();
        let mut diag = Diag::error(Code::ResolveUnknownName, format!("unknown name `{name}`"))
            .label(span, "not defined");
        diag = match did_you_mean(name, candidates) {
            Some(s) => diag.help(format!("did you mean `{s}`?")),
            None => {
                diag.help("define it with `game`, `fn` or `const`, or import the file that does")
            }
        };
        self.errors.push(diag);
        ir::Expr {
            kind: ir::ExprKind::Lit(Value::None),
            span,
        }
    }

    fn arity_error(&mut self, what: &str, expected: (usize, usize), got: usize, span: Span) {
        let expected_text = match expected {
            (lo, hi) if lo == hi => format!("{lo}"),
            (lo, usize::MAX) => format!("at least {lo}"),
            (lo, hi) => format!("{lo} to {hi}"),
        };
        let plural = if expected == (1, 1) { "" } else { "s" };
        self.errors.push(
            Diag::error(
                Code::ResolveArity,
                format!(
                    "{what} takes {expected_text} argument{plural}, but {got} {} given",
                    if got == 1 { "was" } else { "were" }
                ),
            )
            .label(
                span,
                format!("{got} argument{}", if got == 1 { "" } else { "s" }),
            )
            .help(format!("call it with {expected_text} argument{plural}")),
        );
    }

    fn exprs(&mut self, exprs: &[ast::Expr]) -> Vec<ir::Expr> {
        exprs.iter().map(|e| self.expr(e)).collect()
    }

    fn expr(&mut self, expr: &ast::Expr) -> ir::Expr {
        use ir::ExprKind as K;
        let span = expr.span;
        let kind = match &expr.kind {
            ExprKind::Int(n) => K::Lit(Value::Int(*n)),
            ExprKind::Str(s) => K::Lit(Value::Str(s.as_str().into())),
            ExprKind::Bool(b) => K::Lit(Value::Bool(*b)),
            ExprKind::None => K::Lit(Value::None),
            ExprKind::Name(name) => {
                if let Some(slot) = self.lookup_local(name) {
                    K::Local(slot)
                } else if let Some(global) = self.globals.get(name) {
                    match global {
                        Global::Game(id) => K::Game(*id),
                        Global::Const(id) => K::Const(*id),
                        Global::Fn(_) => {
                            self.errors.push(
                                Diag::error(
                                    Code::ResolveFnValue,
                                    format!("`{name}` is a function and must be called"),
                                )
                                .label(span, "used as a value")
                                .help(format!("call it: `{name}(...)`")),
                            );
                            K::Lit(Value::None)
                        }
                    }
                } else if let Some(v) = builtins::constant(name) {
                    K::Lit(v)
                } else if builtins::lookup(name).is_some() {
                    self.errors.push(
                        Diag::error(
                            Code::ResolveFnValue,
                            format!("`{name}` is a built-in function and must be called"),
                        )
                        .label(span, "used as a value")
                        .help(format!("call it: `{name}(...)`")),
                    );
                    K::Lit(Value::None)
                } else {
                    return self.unknown_name(name, span);
                }
            }
            ExprKind::Unary(op, e) => {
                match op {
                    UnaryOp::Neg => self.check_literal(e, LiteralType::Int, "`-`"),
                    UnaryOp::Not => self.check_literal(e, LiteralType::Bool, "`not`"),
                    UnaryOp::Switch => self.check_literal(e, LiteralType::Int, "`+-`"),
                }
                K::Unary(*op, Box::new(self.expr(e)))
            }
            ExprKind::Binary(op, l, r) => {
                let wants = match op {
                    BinaryOp::And | BinaryOp::Or => Some(LiteralType::Bool),
                    BinaryOp::Sub
                    | BinaryOp::Mul
                    | BinaryOp::Div
                    | BinaryOp::FloorDiv
                    | BinaryOp::Rem
                    | BinaryOp::Pow
                    | BinaryOp::Xor
                    | BinaryOp::Range
                    | BinaryOp::RangeIncl => Some(LiteralType::Int),
                    _ => None,
                };
                if let Some(wants) = wants {
                    let what = format!("`{}`", op.symbol());
                    self.check_literal(l, wants, &what);
                    self.check_literal(r, wants, &what);
                }
                K::Binary(*op, Box::new(self.expr(l)), Box::new(self.expr(r)))
            }
            ExprKind::If(c, t, e) => K::If(
                Box::new(self.expr(c)),
                Box::new(self.expr(t)),
                Box::new(self.expr(e)),
            ),
            // A tuple or list of literals is a literal: built once, not at every evaluation.
            ExprKind::Tuple(items) => match literals(self.exprs(items)) {
                Ok(values) => K::Lit(Value::tuple(values)),
                Err(items) => K::Tuple(items),
            },
            ExprKind::List(items) => match literals(self.exprs(items)) {
                Ok(values) => K::Lit(Value::list(values)),
                Err(items) => K::List(items),
            },
            ExprKind::Set(items) => K::Set(self.exprs(items)),
            ExprKind::GameLit(left, right) => K::GameLit(self.exprs(left), self.exprs(right)),
            ExprKind::Star(None) => K::Nimber(Box::new(ir::Expr {
                kind: K::Lit(Value::Int(1)),
                span,
            })),
            ExprKind::Star(Some(n)) => K::Nimber(Box::new(self.expr(n))),
            ExprKind::Ups(text) => K::Notation(text.clone()),
            ExprKind::Repeat(v, n) => K::Repeat(Box::new(self.expr(v)), Box::new(self.expr(n))),
            ExprKind::ListComp(body, clauses) => {
                let (body, clauses) = self.comprehension(body, clauses);
                K::ListComp(Box::new(body), clauses)
            }
            ExprKind::SetComp(body, clauses) => {
                let (body, clauses) = self.comprehension(body, clauses);
                K::SetComp(Box::new(body), clauses)
            }
            ExprKind::Quantified(q, clauses, body) => {
                let (body, clauses) = self.comprehension(body, clauses);
                K::Quantified(*q, clauses, Box::new(body))
            }
            ExprKind::Call(callee, args) => {
                let args = self.exprs(args);
                self.call(callee, args, span)
            }
            ExprKind::CallGen(callee, body, clauses) => {
                let (body, clauses) = self.comprehension(body, clauses);
                let list = ir::Expr {
                    kind: K::ListComp(Box::new(body), clauses),
                    span,
                };
                self.call(callee, vec![list], span)
            }
            ExprKind::Bracket(base, args) => {
                let base_ir = self.expr(base);
                if let ir::ExprKind::Game(id) = base_ir.kind {
                    self.check_variant(id, args);
                }
                let args = args
                    .iter()
                    .map(|a| (a.name.as_ref().map(|n| n.name.clone()), self.expr(&a.value)))
                    .collect();
                K::Bracket(Box::new(base_ir), args)
            }
            ExprKind::Field(base, field, _) => {
                let base = Box::new(self.expr(base));
                match field {
                    FieldName::Index(i) => K::TupleField(base, *i),
                    FieldName::Name(n) => K::NamedField(base, n.clone()),
                }
            }
        };
        ir::Expr { kind, span }
    }

    /// Reports an operand that is a literal of the wrong type: an obvious type error, caught
    /// before anything runs.
    fn check_literal(&mut self, operand: &ast::Expr, wants: LiteralType, what: &str) {
        let found = match &operand.kind {
            ExprKind::Int(_) => "an integer",
            ExprKind::Str(_) => "a string",
            ExprKind::Bool(_) => "a boolean",
            ExprKind::None => "`none`",
            _ => return,
        };
        let ok = match wants {
            LiteralType::Int => matches!(operand.kind, ExprKind::Int(_)),
            LiteralType::Bool => matches!(operand.kind, ExprKind::Bool(_)),
        };
        if !ok {
            let (needs, help) = match wants {
                LiteralType::Int => ("integers", "use an integer here"),
                LiteralType::Bool => ("booleans", "use a comparison or `true`/`false` here"),
            };
            self.errors.push(
                Diag::error(
                    Code::ResolveType,
                    format!("{what} needs {needs}, but this is {found}"),
                )
                .label(operand.span, found)
                .help(help),
            );
        }
    }

    fn check_variant(&mut self, id: GameId, args: &[ast::BracketArg]) {
        let Some(sig) = self.sigs.get(&id) else {
            return;
        };
        let mut positional = 0;
        for arg in args {
            match &arg.name {
                Some(name) => {
                    if !sig.params.contains(&name.name) {
                        let mut d = Diag::error(
                            Code::ResolveUnknownParam,
                            format!("game `{}` has no parameter `{}`", sig.name, name.name),
                        )
                        .label(name.span, "unknown parameter");
                        d = match did_you_mean(&name.name, sig.params.iter().map(String::as_str)) {
                            Some(s) => d.help(format!("did you mean `{s}`?")),
                            None if sig.params.is_empty() => {
                                d.help(format!("`{}` has no parameters", sig.name))
                            }
                            None => {
                                d.help(format!("its parameters are: {}", sig.params.join(", ")))
                            }
                        };
                        self.errors.push(d);
                    }
                }
                None => positional += 1,
            }
        }
        if positional > sig.params.len() {
            self.arity_error(
                &format!("the variant `{}[...]`", sig.name),
                (0, sig.params.len()),
                positional,
                args.last()
                    .map_or(Span::new(crate::diag::FileId(0), 0, 0), |a| a.value.span),
            );
        }
    }

    fn call(&mut self, callee: &ast::Expr, args: Vec<ir::Expr>, span: Span) -> ir::ExprKind {
        use ir::ExprKind as K;
        if let ExprKind::Name(name) = &callee.kind {
            if self.lookup_local(name).is_none() {
                match self.globals.get(name) {
                    Some(Global::Fn(id)) => {
                        let arity = self.fn_arities.get(id).copied().unwrap_or(0);
                        if arity != args.len() {
                            self.arity_error(
                                &format!("function `{name}`"),
                                (arity, arity),
                                args.len(),
                                span,
                            );
                        }
                        return K::CallFn(*id, args);
                    }
                    Some(Global::Game(id)) => {
                        if let Some(sig) = self.sigs.get(id) {
                            let (lo, hi) = sig.arity;
                            if sig.strategic {
                                self.errors.push(
                                    Diag::error(Code::ResolveStrategic, format!("`{name}` is a strategic game: it has no positions"))
                                        .label(span, "called like a game of moves")
                                        .help(format!("analyse the game itself, e.g. `pure_nash({name})` or `nash({name})`")),
                                );
                            } else if args.len() < lo || args.len() > hi {
                                self.arity_error(
                                    &format!("a position of `{name}`"),
                                    (lo, hi),
                                    args.len(),
                                    span,
                                );
                            }
                        }
                        let callee = self.expr(callee);
                        return K::CallValue(Box::new(callee), args);
                    }
                    Some(Global::Const(_)) => {}
                    None => {
                        if let Some((builtin, lo, hi)) = builtins::lookup(name) {
                            if args.len() < lo || args.len() > hi {
                                self.arity_error(&format!("`{name}`"), (lo, hi), args.len(), span);
                            }
                            return K::CallBuiltin(builtin, args);
                        }
                        if builtins::constant(name).is_none() {
                            let mut candidates: Vec<&str> =
                                self.globals.keys().map(String::as_str).collect();
                            candidates.extend(builtins::BUILTINS.iter().map(|(n, ..)| *n));
                            candidates.sort_unstable();
                            let mut d = Diag::error(
                                Code::ResolveUnknownName,
                                format!("unknown function or game `{name}`"),
                            )
                            .label(callee.span, "not defined");
                            d = match (
                                builtins::written_elsewhere(name),
                                did_you_mean(name, candidates),
                            ) {
                                (Some(help), _) => d.help(help),
                                (None, Some(s)) => d.help(format!("did you mean `{s}`?")),
                                (None, None) => d.help(
                                    "define it with `game` or `fn`, or import the file that does",
                                ),
                            };
                            self.errors.push(d);
                            return K::Lit(Value::None);
                        }
                    }
                }
            }
        }
        let callee = self.expr(callee);
        K::CallValue(Box::new(callee), args)
    }
}

/// The values of expressions that are all literals, or the expressions as they were.
fn literals(items: Vec<ir::Expr>) -> Result<Vec<Value>, Vec<ir::Expr>> {
    if !items.iter().all(|e| matches!(e.kind, ir::ExprKind::Lit(_))) {
        return Err(items);
    }
    Ok(items
        .into_iter()
        .filter_map(|e| match e.kind {
            ir::ExprKind::Lit(v) => Some(v),
            _ => None,
        })
        .collect())
}

/// Whether a game is strategic-form: it has `player` (or `table`) clauses. Its `payoff` is
/// then every player's payoffs by profile; in any other game, a terminal position's payoff.
fn is_strategic(game: &ast::GameDef) -> bool {
    game.clauses
        .iter()
        .any(|c| matches!(c, GameClause::Player(..) | GameClause::Table(_)))
}

/// Why a game is strategic, for a label on its name.
fn strategic_because(game: &ast::GameDef) -> &'static str {
    if game
        .clauses
        .iter()
        .any(|c| matches!(c, GameClause::Player(..)))
    {
        "this game has `player` clauses"
    } else {
        "this game has a `table` clause"
    }
}
