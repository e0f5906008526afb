//! The abstract syntax tree: what the text says, with spans, before any name is resolved.

use crate::diag::Span;

/// A parsed `.game` file.
#[derive(Clone, Debug)]
pub struct File {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// A name as written, with its place.
#[derive(Clone, Debug)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    /// `import "path"`, or `import "path.nfg" as Name`.
    Import {
        /// The path as written (relative to the importing file).
        path: String,
        /// `as Name`: the name of the game an `.nfg` file defines.
        alias: Option<Ident>,
        /// The whole item.
        span: Span,
    },
    /// `const NAME = expr`.
    Const {
        /// The constant's name.
        name: Ident,
        /// Its value.
        value: Expr,
    },
    /// `fn name(a, b) = expr`.
    Fn {
        /// The function's name.
        name: Ident,
        /// Parameter names.
        params: Vec<Ident>,
        /// The body.
        body: Expr,
    },
    /// `game Name(params) { clauses }`.
    Game(GameDef),
    /// `expect expr`, or an exercise of a key for `cgl grade`: `expect 3 points: expr`.
    Expect {
        /// The assertion.
        expr: Expr,
        /// Its points, for `cgl grade` (`cgl check` ignores them).
        grade: Option<Grade>,
        /// The whole item.
        span: Span,
    },
    /// `print expr` or `show expr`.
    Print {
        /// What to print.
        expr: Expr,
        /// The whole item.
        span: Span,
    },
}

/// What an expectation of a key for `cgl grade` is worth: `expect 3 points hide "hint": ...`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grade {
    /// The points a submission earns when the expectation holds.
    pub points: u32,
    /// `hide`: the feedback must not show the expected value (the right side), only that the
    /// submission's value differs and what it is.
    pub hide: bool,
    /// The teacher's line of feedback for a submission that fails it.
    pub feedback: Option<String>,
}

/// A game definition.
#[derive(Clone, Debug)]
pub struct GameDef {
    /// The game's name.
    pub name: Ident,
    /// Parameters with optional defaults.
    pub params: Vec<(Ident, Option<Expr>)>,
    /// The clauses of the body, in source order.
    pub clauses: Vec<GameClause>,
    /// The whole definition.
    pub span: Span,
}

/// Which player a move rule belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Both players (impartial).
    Both,
    /// Left only (`left move`).
    Left,
    /// Right only (`right move`).
    Right,
}

/// Normal or misère play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Convention {
    /// The player who cannot move loses.
    Normal,
    /// The player who cannot move wins.
    Misere,
}

/// One clause in a game body.
#[derive(Clone, Debug)]
pub enum GameClause {
    /// `position pattern`.
    Position(PositionPattern),
    /// `start expr`.
    Start(Expr),
    /// `compound expr` (the mode of `split`).
    Compound(Expr),
    /// `play misere` / `play normal`.
    Play(Convention, Span),
    /// `terminal if expr`.
    Terminal(Expr),
    /// `draw if expr`.
    Draw(Expr),
    /// `loopy`: play may return to a position.
    Loopy(Span),
    /// `show expr`: how a position is drawn as text.
    Show(Expr),
    /// `move target for ... if ...`.
    Move(MoveRule),
    /// `player name in strategies` (a strategic-form game).
    Player(Ident, Expr),
    /// `payoff expr [if cond]`: in a strategic game (one with `player` clauses) every
    /// player's payoff as a function of their strategies, without `if`; otherwise what a
    /// terminal position pays the player to move there.
    Payoff(Expr, Option<Expr>, Span),
    /// `table expr`: the payoffs as nested lists, one level per player.
    Table(Expr),
}

/// The shape of a game's positions: one pattern, or a tuple of fields with defaults.
#[derive(Clone, Debug)]
pub enum PositionPattern {
    /// `position n` or `position (a, b)` without defaults.
    Single(Pattern),
    /// `position (a, b, h = limit)`: fields, some with defaults.
    Fields(Vec<(Pattern, Option<Expr>)>, Span),
}

/// A move rule.
#[derive(Clone, Debug)]
pub struct MoveRule {
    /// Whose move it is.
    pub side: Side,
    /// The position moved to (or a `split(...)`).
    pub target: Expr,
    /// Generators and guards.
    pub clauses: Vec<CompClause>,
    /// The whole rule.
    pub span: Span,
}

/// A binding pattern.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// A name.
    Bind(Ident),
    /// `_`.
    Wildcard(Span),
    /// `(p, q, ...)`.
    Tuple(Vec<Pattern>, Span),
}

impl Pattern {
    /// Where the pattern is written.
    pub fn span(&self) -> Span {
        match self {
            Pattern::Bind(i) => i.span,
            Pattern::Wildcard(s) | Pattern::Tuple(_, s) => *s,
        }
    }
}

/// A clause of a comprehension, quantifier or move rule.
#[derive(Clone, Debug)]
pub enum CompClause {
    /// `for p in xs, q in ys`.
    For(Vec<(Pattern, Expr)>),
    /// `if cond`.
    If(Expr),
}

/// An expression with its span.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`.
    Neg,
    /// `not x`.
    Not,
    /// `+-x` (or `±x`): the switch `{x | -x}`.
    Switch,
}

/// Binary operators, named after their symbols (see [`BinaryOp::symbol`]).
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    In,
    NotIn,
    Is,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    RangeIncl,
    BitOr,
    Xor,
    BitAnd,
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Rem,
    Pow,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::In => "in",
            BinaryOp::NotIn => "not in",
            BinaryOp::Is => "is",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Range => "..",
            BinaryOp::RangeIncl => "..=",
            BinaryOp::BitOr => "|",
            BinaryOp::Xor => "^",
            BinaryOp::BitAnd => "&",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::FloorDiv => "div",
            BinaryOp::Rem => "%",
            BinaryOp::Pow => "**",
        }
    }

    /// Whether this is a comparison (`==`, `<`, `in`, `is`, ...), whose two sides a failing
    /// `expect` reports.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::In
                | BinaryOp::NotIn
                | BinaryOp::Is
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
        )
    }
}

/// `forall` or `exists`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// True when the body holds for every binding.
    Forall,
    /// True when the body holds for some binding.
    Exists,
}

/// An argument in `G[...]`: named (a variant) or positional.
#[derive(Clone, Debug)]
pub struct BracketArg {
    /// `S = ...` names the parameter.
    pub name: Option<Ident>,
    /// The value.
    pub value: Expr,
}

/// A field after a dot.
#[derive(Clone, Debug)]
pub enum FieldName {
    /// `.0`, `.1`, ...: a tuple field.
    Index(usize),
    /// `.start` and other named fields.
    Name(String),
}

/// The kinds of expression.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A string literal.
    Str(String),
    /// `true` / `false`.
    Bool(bool),
    /// `none`.
    None,
    /// A name.
    Name(String),
    /// `-x`, `not x`.
    Unary(UnaryOp, Box<Expr>),
    /// `x op y`.
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
    ListComp(Box<Expr>, Vec<CompClause>),
    /// `{e for ...}`.
    SetComp(Box<Expr>, Vec<CompClause>),
    /// `forall ...: e` / `exists ...: e`.
    Quantified(Quantifier, Vec<CompClause>, Box<Expr>),
    /// `f(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `f(e for ...)`: a call whose one argument is a generator.
    CallGen(Box<Expr>, Box<Expr>, Vec<CompClause>),
    /// `x[...]`: an index or a variant.
    Bracket(Box<Expr>, Vec<BracketArg>),
    /// `x.field`.
    Field(Box<Expr>, FieldName, Span),
    /// `{a, b | c}`: a game value from its Left and Right options (bars already resolved
    /// into nested literals: `{0 || 0 | -2}` is `{0 | {0 | -2}}`).
    GameLit(Vec<Expr>, Vec<Expr>),
    /// `*` (`None`), `*3`, `*(n)`: a nimber.
    Star(Option<Box<Expr>>),
    /// An up/down token such as `^`, `^^*`, `^3*2`, `↓`, in CGSuite's notation.
    Ups(String),
}
