//! What the formatter learns from the AST: which tokens are game values (`*3`, `^*`), and
//! which start an item or a clause, open or close a game's body, or are a clause's
//! contextual keyword (`position`, `left move`). Everything else about a token follows from
//! the tokens around it ([`super::tokens::roles`]).

use std::collections::BTreeMap;

use super::tokens::{after_open_parens, AtomKind, Class, Structure, Token};
use crate::diag::{Diag, DiagResult};
use crate::syntax::ast::*;

/// The game values of `file` that are one token each: their start, end and kind.
pub(super) fn atoms(text: &str, file: &File) -> BTreeMap<usize, (usize, AtomKind)> {
    let mut atoms = BTreeMap::new();
    let mut visit = |x: &Expr| {
        let own = after_open_parens(text, x.span.start as usize);
        match &x.kind {
            ExprKind::Star(None) => {
                atoms.insert(own, (own + 1, AtomKind::BareStar));
            }
            ExprKind::Star(Some(_)) if text[own..].starts_with("*(") => {
                atoms.insert(own, (own + 1, AtomKind::StarParen));
            }
            ExprKind::Star(Some(inner)) => {
                atoms.insert(own, (inner.span.end as usize, AtomKind::Whole));
            }
            ExprKind::Ups(ups) => {
                atoms.insert(own, (own + ups.len(), AtomKind::Whole));
            }
            _ => {}
        }
    };
    for item in &file.items {
        each_expr_of_item(item, &mut visit);
    }
    atoms
}

/// Sets the structure of the tokens (items, clauses, game braces, a game's header) and the
/// clause keywords, from the AST. A token not found where the AST says one starts is a bug
/// in cgl: an internal error, and nothing is formatted.
pub(super) fn structure(text: &str, file: &File, tokens: &mut [Token]) -> DiagResult<()> {
    let code: Vec<usize> = (0..tokens.len())
        .filter(|&k| !tokens[k].is_comment())
        .collect();
    // The index in `code` of the token that starts at `at`.
    let find = |tokens: &[Token], at: usize| -> DiagResult<usize> {
        code.binary_search_by_key(&at, |&k| tokens[k].start)
            .map_err(|_| lost(at))
    };
    for item in &file.items {
        let first = match item {
            Item::Import { span, .. } | Item::Expect { span, .. } | Item::Print { span, .. } => {
                find(tokens, span.start as usize)?
            }
            Item::Const { name, .. } | Item::Fn { name, .. } => {
                before(find(tokens, name.span.start as usize)?, 1)?
            }
            Item::Game(game) => find(tokens, game.span.start as usize)?,
        };
        let game = matches!(item, Item::Game(_));
        tokens[code[first]].structure = Structure::Item { game };
        if let Item::Game(def) = item {
            game_structure(text, def, tokens, &code, &find)?;
        }
    }
    Ok(())
}

fn game_structure(
    text: &str,
    def: &GameDef,
    tokens: &mut [Token],
    code: &[usize],
    find: &dyn Fn(&[Token], usize) -> DiagResult<usize>,
) -> DiagResult<()> {
    let name = find(tokens, def.name.span.start as usize)?;
    tokens[code[name]].structure = Structure::Header;
    // The body's `{`: the first `{` after the name outside the parameters' brackets.
    let mut depth = 0usize;
    let mut open = None;
    for (n, &k) in code.iter().enumerate().skip(name + 1) {
        let t = &tokens[k];
        match t.class {
            Class::Open if depth == 0 && t.text(text) == "{" => {
                open = Some(n);
                break;
            }
            Class::Open => {
                if depth == 0 {
                    tokens[k].structure = Structure::Header;
                }
                depth += 1;
            }
            Class::Close => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let open = open.ok_or_else(|| lost(def.span.start as usize))?;
    tokens[code[open]].structure = Structure::GameOpen;
    let close = find(tokens, (def.span.end as usize).saturating_sub(1))?;
    tokens[code[close]].structure = Structure::GameClose;
    for clause in &def.clauses {
        // The clause's first token, and how many keywords it has.
        let (first, keywords) = match clause {
            GameClause::Move(rule) => {
                let words = if rule.side == Side::Both { 1 } else { 2 };
                (find(tokens, rule.span.start as usize)?, words)
            }
            GameClause::Play(_, span) => (find(tokens, span.start as usize)?, 2),
            GameClause::Loopy(span) | GameClause::Payoff(_, _, span) => {
                (find(tokens, span.start as usize)?, 1)
            }
            GameClause::Position(PositionPattern::Single(p)) => {
                (before(find(tokens, p.span().start as usize)?, 1)?, 1)
            }
            GameClause::Position(PositionPattern::Fields(_, span)) => {
                (before(find(tokens, span.start as usize)?, 1)?, 1)
            }
            GameClause::Player(name, _) => (before(find(tokens, name.span.start as usize)?, 1)?, 1),
            GameClause::Start(x)
            | GameClause::Compound(x)
            | GameClause::Show(x)
            | GameClause::Table(x) => (before(find(tokens, x.span.start as usize)?, 1)?, 1),
            GameClause::Terminal(x) | GameClause::Draw(x) => {
                (before(find(tokens, x.span.start as usize)?, 2)?, 1)
            }
        };
        tokens[code[first]].structure = Structure::Clause;
        for n in first..first + keywords {
            let k = *code.get(n).ok_or_else(|| lost(def.span.start as usize))?;
            tokens[k].keyword = true;
        }
    }
    Ok(())
}

/// The index `back` code tokens before `n`.
fn before(n: usize, back: usize) -> DiagResult<usize> {
    n.checked_sub(back).ok_or_else(|| lost(0))
}

fn lost(at: usize) -> Box<Diag> {
    Box::new(Diag::internal(format!(
        "the formatter found no token at byte {at} where the syntax tree has one"
    )))
}

/// Calls `f` on every expression of an item, outer ones first.
pub(super) fn each_expr_of_item(item: &Item, f: &mut dyn FnMut(&Expr)) {
    match item {
        Item::Import { .. } => {}
        Item::Const { value: x, .. }
        | Item::Fn { body: x, .. }
        | Item::Expect { expr: x, .. }
        | Item::Print { expr: x, .. } => each_expr(x, f),
        Item::Game(def) => {
            for (_, default) in &def.params {
                if let Some(x) = default {
                    each_expr(x, f);
                }
            }
            for clause in &def.clauses {
                match clause {
                    GameClause::Position(PositionPattern::Fields(fields, _)) => {
                        for (_, default) in fields {
                            if let Some(x) = default {
                                each_expr(x, f);
                            }
                        }
                    }
                    GameClause::Position(PositionPattern::Single(_))
                    | GameClause::Play(..)
                    | GameClause::Loopy(_) => {}
                    GameClause::Start(x)
                    | GameClause::Compound(x)
                    | GameClause::Terminal(x)
                    | GameClause::Draw(x)
                    | GameClause::Show(x)
                    | GameClause::Player(_, x)
                    | GameClause::Table(x) => each_expr(x, f),
                    GameClause::Move(rule) => {
                        each_expr(&rule.target, f);
                        each_clause_expr(&rule.clauses, f);
                    }
                    GameClause::Payoff(x, cond, _) => {
                        each_expr(x, f);
                        if let Some(c) = cond {
                            each_expr(c, f);
                        }
                    }
                }
            }
        }
    }
}

fn each_clause_expr(clauses: &[CompClause], f: &mut dyn FnMut(&Expr)) {
    for clause in clauses {
        match clause {
            CompClause::For(gens) => {
                for (_, x) in gens {
                    each_expr(x, f);
                }
            }
            CompClause::If(x) => each_expr(x, f),
        }
    }
}

/// Calls `f` on `x` and every expression inside it. Recurses over the nesting, which the
/// parser bounds; grows the stack where it runs low.
pub(super) fn each_expr(x: &Expr, f: &mut dyn FnMut(&Expr)) {
    crate::stack::grow(|| {
        f(x);
        match &x.kind {
            ExprKind::Int(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::None
            | ExprKind::Name(_)
            | ExprKind::Ups(_)
            | ExprKind::Star(None) => {}
            ExprKind::Unary(_, a) | ExprKind::Field(a, _, _) | ExprKind::Star(Some(a)) => {
                each_expr(a, f)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Repeat(a, b) => {
                each_expr(a, f);
                each_expr(b, f);
            }
            ExprKind::If(a, b, c) => {
                each_expr(a, f);
                each_expr(b, f);
                each_expr(c, f);
            }
            ExprKind::Tuple(items) | ExprKind::List(items) | ExprKind::Set(items) => {
                for a in items {
                    each_expr(a, f);
                }
            }
            ExprKind::ListComp(body, clauses) | ExprKind::SetComp(body, clauses) => {
                each_expr(body, f);
                each_clause_expr(clauses, f);
            }
            ExprKind::Quantified(_, clauses, body) => {
                each_clause_expr(clauses, f);
                each_expr(body, f);
            }
            ExprKind::Call(g, args) => {
                each_expr(g, f);
                for a in args {
                    each_expr(a, f);
                }
            }
            ExprKind::CallGen(g, body, clauses) => {
                each_expr(g, f);
                each_expr(body, f);
                each_clause_expr(clauses, f);
            }
            ExprKind::Bracket(g, args) => {
                each_expr(g, f);
                for a in args {
                    each_expr(&a.value, f);
                }
            }
            ExprKind::GameLit(left, right) => {
                for a in left.iter().chain(right) {
                    each_expr(a, f);
                }
            }
        }
    })
}
