//! Lowering of game definitions: parameters, positions, move rules, and strategic-form games.

use std::collections::HashMap;

use super::{duplicate_binding, BoundKind, Resolver};
use crate::diag::{Code, Diag, Span};
use crate::lower::ir;
use crate::syntax::ast::{self, Convention, GameClause, Side};
use crate::value::Value;

impl<'a> Resolver<'a> {
    pub(super) fn game(&mut self, game: &ast::GameDef) -> ir::Game {
        let mut params = Vec::new();
        let mut seen = HashMap::new();
        (self.extent, self.binding) = (game.span, BoundKind::Parameter);
        for (name, default) in &game.params {
            // A default sees the parameters before it.
            let default = default.as_ref().map(|d| self.expr(d));
            if let Some(prev) = seen.insert(name.name.clone(), name.span) {
                self.errors
                    .push(duplicate_binding(&name.name, name.span, prev));
            }
            self.bind(&name.name, name.span);
            params.push(ir::GameParam {
                name: name.name.clone(),
                default,
                span: name.span,
            });
        }
        self.binding = BoundKind::Field;
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
        self.binding = BoundKind::Variable;
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
            return self.game_without_moves(game, params);
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
            self.extent = rule.span;
            let clauses = self.clauses(&rule.clauses);
            let target = self.expr(&rule.target);
            self.pop_clause_scopes(&rule.clauses);
            self.pop_scope();
            self.extent = game.span;
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
        self.binding = BoundKind::Variable;
        for (name, _) in &players {
            if let Some(prev) = seen.insert(name.name.clone(), name.span) {
                self.errors
                    .push(duplicate_binding(&name.name, name.span, prev));
            }
            slots.push(self.bind(&name.name, name.span));
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
            strategic: Some(ir::StrategicDef {
                players: players
                    .into_iter()
                    .map(|(name, e)| (name.name.clone(), e, name.span))
                    .collect(),
                payoff,
            }),
            ..self.game_without_moves(game, params)
        }
    }

    /// A game with no position, start, rule or clause of play: what a strategic-form game
    /// is, and what a game missing its `position` becomes (its other clauses would only add
    /// follow-on errors).
    fn game_without_moves(&self, game: &ast::GameDef, params: Vec<ir::GameParam>) -> ir::Game {
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
            payoffs: Vec::new(),
            show: None,
            frame_size: self.frame_size(),
            strategic: None,
        }
    }
}

/// Whether a game is strategic-form: it has `player` (or `table`) clauses. Its `payoff` is
/// then every player's payoffs by profile; in any other game, a terminal position's payoff.
pub(super) fn is_strategic(game: &ast::GameDef) -> bool {
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
