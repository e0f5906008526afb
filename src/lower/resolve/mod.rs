//! Name resolution and lowering of one file.

use std::collections::{BTreeMap, HashMap};

use indexmap::IndexMap;

use super::builtins;
use super::ir::{self, Body, ConstId, FnId, GameId, Program, Slot, Statement};
use crate::diag::{Code, Diag, Span};
use crate::syntax::ast::{self, GameClause, Item};

mod exprs;
mod games;
mod hidden;

use games::is_strategic;

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
    /// Every name used in the file, with what it resolved to, in source order (for hover and
    /// go-to-definition).
    pub references: Vec<Reference>,
    /// Every variable the file binds, with the part of the file that can see it, in source
    /// order (for completion and highlighting).
    pub bindings: Vec<Bound>,
    /// Warnings: nothing is wrong for certain, but a use may not mean what it seems to
    /// (a definition that hides a built-in constant the file uses, `hidden.rs`).
    pub warnings: Vec<Diag>,
}

/// A name used in a file, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Where the name is written.
    pub span: Span,
    /// What it names.
    pub target: Target,
}

/// A variable bound in a file: a parameter, a position's field, a pattern's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Where its name is written where it is bound (what [`Target::Local`] holds).
    pub span: Span,
    /// The definition or expression it is visible in: a game, a function, a move rule, a
    /// comprehension.
    pub scope: Span,
    /// What binds it.
    pub kind: BoundKind,
}

/// What binds a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    /// A parameter of a game or a function.
    Parameter,
    /// A field (or the pattern) of a game's `position`.
    Field,
    /// A comprehension's or a rule's variable, a player of a strategic game.
    Variable,
}

/// What a used name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A game, function or constant of the program.
    Global(Global),
    /// A variable (a parameter, a pattern, a comprehension's variable), bound at this span.
    Local(Span),
    /// A built-in function or constant, by name.
    Builtin(&'static str),
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
    // Where each imported name is defined, in its own file.
    let mut imported_at: HashMap<&str, Span> = HashMap::new();
    for (exports, import_span) in imports {
        for (name, (global, defined)) in exports.iter() {
            imported_at.entry(name.as_str()).or_insert(*defined);
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
        references: Vec::new(),
        bindings: Vec::new(),
        warnings: Vec::new(),
    };
    let mut hidden_uses: Vec<(String, Span)> = Vec::new();
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
                r.extent = Span {
                    end: body.span.end,
                    ..name.span
                };
                r.binding = BoundKind::Parameter;
                for p in params {
                    if let Some(prev) = seen.insert(&p.name, p.span) {
                        r.errors.push(duplicate_binding(&p.name, p.span, prev));
                    }
                    r.bind(&p.name, p.span);
                }
                r.binding = BoundKind::Variable;
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
            Item::Expect { expr, grade, span } => {
                let e = r.expr(expr);
                let body = Body {
                    expr: e,
                    frame_size: r.frame_size(),
                    span: *span,
                };
                lowered
                    .statements
                    .push(Statement::Expect(body, grade.clone()));
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
        lowered.references.append(&mut r.references);
        lowered.bindings.append(&mut r.bindings);
        hidden_uses.append(&mut r.hidden_uses);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // Resolved in the order lowering visits them (a comprehension's clauses before its body).
    lowered
        .references
        .sort_unstable_by_key(|r| (r.span.start, r.span.end));
    lowered
        .bindings
        .sort_unstable_by_key(|b| (b.span.start, b.span.end));
    lowered.warnings = hidden::warnings(&hidden_uses, &lowered.exports, &imported, &imported_at);
    program.add_games(games);
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
    /// The names resolved so far, and what they name.
    references: Vec<Reference>,
    /// The variables bound so far.
    bindings: Vec<Bound>,
    /// What the variables bound now can be seen in (see [`Bound::scope`]).
    extent: Span,
    /// What binds the variables bound now.
    binding: BoundKind,
    /// Uses of a file-wide name that hides a built-in constant (`hidden.rs`).
    hidden_uses: Vec<(String, Span)>,
    /// The variables in scope, innermost last: name, slot, where it is bound.
    scopes: Vec<Vec<(String, Slot, Span)>>,
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
            references: Vec::new(),
            bindings: Vec::new(),
            extent: Span::new(crate::diag::FileId(0), 0, 0),
            binding: BoundKind::Variable,
            hidden_uses: Vec::new(),
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

    fn bind(&mut self, name: &str, span: Span) -> Slot {
        let slot = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), slot, span));
        }
        self.bindings.push(Bound {
            span,
            scope: self.extent,
            kind: self.binding,
        });
        slot
    }

    /// The slot of a variable in scope, and where it is bound.
    fn lookup_local(&self, name: &str) -> Option<(Slot, Span)> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, ..)| n == name)
            .map(|(_, slot, span)| (*slot, *span))
    }

    /// Notes that the name at `span` names `target`.
    fn refer(&mut self, span: Span, target: Target) {
        self.references.push(Reference { span, target });
    }

    fn pattern(&mut self, pattern: &ast::Pattern, seen: &mut HashMap<String, Span>) -> ir::Pattern {
        match pattern {
            ast::Pattern::Bind(ident) => {
                if let Some(prev) = seen.insert(ident.name.clone(), ident.span) {
                    self.errors
                        .push(duplicate_binding(&ident.name, ident.span, prev));
                }
                ir::Pattern::Bind(self.bind(&ident.name, ident.span), ident.span)
            }
            ast::Pattern::Wildcard(span) => ir::Pattern::Wildcard(*span),
            ast::Pattern::Tuple(items, span) => {
                ir::Pattern::Tuple(items.iter().map(|p| self.pattern(p, seen)).collect(), *span)
            }
        }
    }
}
