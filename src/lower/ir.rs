//! The lowered program: names resolved to ids and frame slots, ready to evaluate.
//! Nothing after lowering looks a name up by string.

use super::builtins::Builtin;
use crate::diag::Span;
use crate::syntax::ast::{BinaryOp, Convention, Quantifier, Side, UnaryOp};
use crate::value::Value;

/// Index of a game definition in [`Program::games`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub u32);
/// Index of a function in [`Program::fns`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FnId(pub u32);
/// Index of a constant in [`Program::consts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConstId(pub u32);
/// A variable's place in its frame.
pub type Slot = u32;

/// Everything loaded: the games, functions and constants of all files, and each file's
/// statements.
#[derive(Debug, Default)]
pub struct Program {
    /// Game definitions (added through [`Program::add_games`], which keeps `kinds` true).
    pub games: Vec<Game>,
    /// Functions.
    pub fns: Vec<Function>,
    /// Constants.
    pub consts: Vec<Const>,
    /// The game behind `octal(code)` and `hex(code)`, once the session's prelude is lowered
    /// (`session/prelude.game`): it is in no file's scope.
    pub take_and_break: Option<GameId>,
    /// What kinds of game the program holds, kept as games are added, so that an analysis
    /// asks it once per query and not once per game (a file of 20,000 games was quadratic).
    kinds: GameKinds,
}

/// Whether any game of a program has `draw if` conditions, is `loopy`, or scores payoffs.
#[derive(Debug, Default, Clone, Copy)]
pub struct GameKinds {
    /// Some game declares draws.
    pub draws: bool,
    /// Some game is `loopy`.
    pub loopy: bool,
    /// Some game has payoffs.
    pub payoffs: bool,
}

impl Program {
    /// Appends games, keeping [`Program::kinds`].
    pub fn add_games(&mut self, games: impl IntoIterator<Item = Game>) {
        for game in games {
            self.kinds.draws |= !game.draw.is_empty();
            self.kinds.loopy |= game.loopy;
            self.kinds.payoffs |= !game.payoffs.is_empty();
            self.games.push(game);
        }
    }

    /// What kinds of game the program holds.
    pub fn kinds(&self) -> GameKinds {
        self.kinds
    }
}

/// A top-level statement that does something when the file runs.
#[derive(Debug, Clone)]
pub enum Statement {
    /// `expect expr`, with its points when it is an exercise of a key for `cgl grade`.
    Expect(Body, Option<crate::syntax::ast::Grade>),
    /// `print expr`.
    Print(Body),
}

/// An expression with the size of the frame it runs in.
#[derive(Debug, Clone)]
pub struct Body {
    /// The expression.
    pub expr: Expr,
    /// Slots it needs.
    pub frame_size: usize,
    /// The whole statement.
    pub span: Span,
}

/// A constant.
#[derive(Debug)]
pub struct Const {
    /// Its name.
    pub name: String,
    /// Its value expression.
    pub body: Body,
}

/// A user function.
#[derive(Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Number of parameters; they occupy slots `0..arity`.
    pub arity: usize,
    /// The body.
    pub body: Body,
}

/// A game parameter.
#[derive(Debug)]
pub struct GameParam {
    /// Its name.
    pub name: String,
    /// Default value (evaluated with the earlier parameters in slots).
    pub default: Option<Expr>,
    /// Where it is declared.
    pub span: Span,
}

/// The shape of a game's positions.
#[derive(Debug)]
pub enum PositionShape {
    /// One pattern; `G(x)` takes one argument, or as many as the pattern's tuple has fields.
    Single(Pattern),
    /// A tuple of fields, some with defaults: `G(a, b)` fills the rest.
    Fields(Vec<(Pattern, Option<Expr>)>),
}

impl PositionShape {
    /// The fewest and most arguments a position constructor takes.
    pub fn arity(&self) -> (usize, usize) {
        match self {
            PositionShape::Single(Pattern::Tuple(items, _)) => (items.len(), items.len()),
            PositionShape::Single(_) => (1, 1),
            PositionShape::Fields(fields) => {
                let required = fields.iter().take_while(|(_, d)| d.is_none()).count();
                (required, fields.len())
            }
        }
    }

    /// The pattern a position's data must match.
    pub fn pattern(&self) -> Pattern {
        match self {
            PositionShape::Single(p) => p.clone(),
            PositionShape::Fields(fields) => Pattern::Tuple(
                fields.iter().map(|(p, _)| p.clone()).collect(),
                fields
                    .first()
                    .map_or(Span::new(crate::diag::FileId(0), 0, 0), |(p, _)| p.span()),
            ),
        }
    }
}

/// A move rule.
#[derive(Debug)]
pub struct MoveRule {
    /// Whose move.
    pub side: Side,
    /// The target expression.
    pub target: Expr,
    /// Generators and guards.
    pub clauses: Vec<Clause>,
    /// The whole rule.
    pub span: Span,
}

/// A game definition.
#[derive(Debug)]
pub struct Game {
    /// Its name.
    pub name: String,
    /// The `game Name` header.
    pub span: Span,
    /// Parameters, in slots `0..params.len()`.
    pub params: Vec<GameParam>,
    /// Position shape; its bindings follow the parameters in the frame.
    pub position: PositionShape,
    /// `start` expression.
    pub start: Option<Expr>,
    /// `compound` expression (the mode of `split`).
    pub compound: Option<Expr>,
    /// `play misere` or normal.
    pub convention: Convention,
    /// `terminal if` conditions (any true makes the position terminal).
    pub terminal: Vec<Expr>,
    /// `draw if` conditions (any true makes a terminal position a draw).
    pub draw: Vec<Expr>,
    /// Move rules in source order.
    pub rules: Vec<MoveRule>,
    /// Some rule is `left move` or `right move`: the game is partizan (its plain moves are
    /// both players').
    pub partizan: bool,
    /// Declared `loopy`: its moves may form cycles, solved by retrograde analysis.
    pub loopy: bool,
    /// `payoff` clauses, in source order: a game with any is a payoff game.
    pub payoffs: Vec<Payoff>,
    /// `show`: the position's picture, a string built from its fields (evaluated in the
    /// position's frame, as `draw if` is).
    pub show: Option<Expr>,
    /// Slots the game's frame needs.
    pub frame_size: usize,
    /// A strategic-form game's players and payoffs (then it has no positions or rules).
    pub strategic: Option<StrategicDef>,
}

/// The players and payoffs of a strategic-form game.
#[derive(Debug)]
pub struct StrategicDef {
    /// The players in order: name, strategies (an expression over the parameters), where
    /// declared. The payoff function sees player `i`'s strategy in slot
    /// `params.len() + i`.
    pub players: Vec<(String, Expr, Span)>,
    /// How the payoffs are given.
    pub payoff: StrategicPayoff,
}

/// The payoffs of a strategic-form game.
#[derive(Debug)]
pub enum StrategicPayoff {
    /// `payoff expr`: a tuple of every player's payoff, evaluated for each profile.
    Function(Expr),
    /// `table expr`: nested lists (one level per player, in order) of payoff tuples.
    Table(Expr),
}

/// A `payoff amount [if cond]` clause: at a terminal position where `cond` holds (always,
/// without one), the player to move receives `amount` from the player who moved there.
#[derive(Debug)]
pub struct Payoff {
    /// The number paid.
    pub amount: Expr,
    /// Where it applies; `None`: at every terminal position.
    pub cond: Option<Expr>,
    /// The whole clause.
    pub span: Span,
}

/// A binding pattern over slots.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// Binds the value to a slot.
    Bind(Slot, Span),
    /// `_`.
    Wildcard(Span),
    /// Destructures a tuple (or list) of exactly this many items.
    Tuple(Vec<Pattern>, Span),
}

impl Pattern {
    /// Calls `f` with each variable the pattern binds: its slot and where it is written.
    pub fn binds(&self, f: &mut dyn FnMut(u32, Span)) {
        match self {
            Pattern::Bind(slot, span) => f(*slot, *span),
            Pattern::Wildcard(_) => {}
            Pattern::Tuple(items, _) => items.iter().for_each(|p| p.binds(f)),
        }
    }
}

impl Pattern {
    /// Where it is written.
    pub fn span(&self) -> Span {
        match self {
            Pattern::Bind(_, s) | Pattern::Wildcard(s) | Pattern::Tuple(_, s) => *s,
        }
    }
}

/// A comprehension clause.
#[derive(Debug, Clone)]
pub enum Clause {
    /// `for pattern in expr`.
    For(Pattern, Expr),
    /// `if expr`.
    If(Expr),
}

/// A lowered expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it came from.
    pub span: Span,
}

/// What a lowered expression does.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A constant value.
    Lit(Value),
    /// A variable in the current frame.
    Local(Slot),
    /// A top-level constant.
    Const(ConstId),
    /// A game, as a value (its default instance).
    Game(GameId),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation (`and`/`or` short-circuit).
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(a, b)`.
    Tuple(Vec<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `{a, b}`.
    Set(Vec<Expr>),
    /// `[x; n]`.
    Repeat(Box<Expr>, Box<Expr>),
    /// `[e for ...]`.
    ListComp(Box<Expr>, Vec<Clause>),
    /// `{e for ...}`.
    SetComp(Box<Expr>, Vec<Clause>),
    /// `forall`/`exists`.
    Quantified(Quantifier, Vec<Clause>, Box<Expr>),
    /// A user function call.
    CallFn(FnId, Vec<Expr>),
    /// A built-in call.
    CallBuiltin(Builtin, Vec<Expr>),
    /// A call of any other value (a game or variant: makes a position).
    CallValue(Box<Expr>, Vec<Expr>),
    /// `x[...]`: an index, or a variant when `x` is a game.
    Bracket(Box<Expr>, Vec<(Option<String>, Expr)>),
    /// `x.0`.
    TupleField(Box<Expr>, usize),
    /// `x.name` (`G.start`).
    NamedField(Box<Expr>, String),
    /// `{a, b | c}`: the game value with these Left and Right options.
    GameLit(Vec<Expr>, Vec<Expr>),
    /// `*n`: the nimber of an integer.
    Nimber(Box<Expr>),
    /// A game value in CGSuite's notation (`^`, `^^*`, `↓`), read when evaluated.
    Notation(String),
}
