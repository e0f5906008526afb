//! The catalogue of built-ins: every built-in function with its names and arities, and the
//! built-in constants. Name resolution reads it; `eval` implements the functions.

use crate::value::{CompoundKind, Outcome, Value};

/// A built-in function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `mex(xs)`: least non-negative integer not in `xs`.
    Mex,
    /// `lego(xs)`: least even element if any, else the greatest.
    Lego,
    /// `len(xs)`.
    Len,
    /// `popcount(n)`: number of binary ones.
    Popcount,
    /// `bits(n)`: binary length (0 for 0).
    Bits,
    /// `v2(n)`: exponent of 2 in `n` (n > 0).
    V2,
    /// `gcd(a, b)`.
    Gcd,
    /// `abs(n)`.
    Abs,
    /// `sorted(xs)`.
    Sorted,
    /// `reversed(xs)`.
    Reversed,
    /// `enumerate(xs)`: `[(0, x0), (1, x1), ...]`.
    Enumerate,
    /// `zip(xs, ys)`.
    Zip,
    /// `set(xs, i, v)`: `xs` with item `i` replaced by `v`.
    SetAt,
    /// `list(xs)`: any collection as a list.
    List,
    /// `min(xs)` or `min(a, b, ...)`.
    Min,
    /// `max(xs)` or `max(a, b, ...)`.
    Max,
    /// `sum(xs)`.
    Sum,
    /// `count(xs)`: number of items (of `true` items, for booleans).
    Count,
    /// `any(xs)`.
    Any,
    /// `all(xs)`.
    All,
    /// `str(x)`: the printed form.
    Str,
    /// `split(p, q, ...)` or `split(list)`: a position falls apart into a compound.
    Split,
    /// `period(xs)`: `(preperiod, period)`.
    Period,
    /// `outcome(p)`.
    Outcome,
    /// `grundy(p)`.
    Grundy,
    /// `remoteness(p)` / `ks(p)`.
    Remoteness,
    /// `moves(p)`.
    Moves,
    /// `winning_moves(p)`.
    WinningMoves,
    /// `line(p)`.
    Line,
    /// `score(p)`: the negamax of a payoff game's payoffs, for the player to move.
    Score,
    /// `optimal_moves(p)`: the options that keep the position's value.
    OptimalMoves,
    /// `reachable(p)`: the number of distinct positions reachable from `p`, `p` included.
    Reachable,
    /// `misere(p)`: the same position under misère play.
    Misere,
    /// `normal(p)`: the same position under normal play.
    Normal,
}

/// Every built-in function with its name(s) and its least and greatest argument count.
pub const BUILTINS: &[(&str, Builtin, usize, usize)] = &[
    ("mex", Builtin::Mex, 1, 1),
    ("lego", Builtin::Lego, 1, 1),
    ("len", Builtin::Len, 1, 1),
    ("popcount", Builtin::Popcount, 1, 1),
    ("bits", Builtin::Bits, 1, 1),
    ("v2", Builtin::V2, 1, 1),
    ("gcd", Builtin::Gcd, 2, 2),
    ("abs", Builtin::Abs, 1, 1),
    ("sorted", Builtin::Sorted, 1, 1),
    ("reversed", Builtin::Reversed, 1, 1),
    ("enumerate", Builtin::Enumerate, 1, 1),
    ("zip", Builtin::Zip, 2, 2),
    ("set", Builtin::SetAt, 3, 3),
    ("list", Builtin::List, 1, 1),
    ("min", Builtin::Min, 1, usize::MAX),
    ("max", Builtin::Max, 1, usize::MAX),
    ("sum", Builtin::Sum, 1, 1),
    ("count", Builtin::Count, 1, 1),
    ("any", Builtin::Any, 1, 1),
    ("all", Builtin::All, 1, 1),
    ("str", Builtin::Str, 1, 1),
    ("split", Builtin::Split, 0, usize::MAX),
    ("period", Builtin::Period, 1, 1),
    ("outcome", Builtin::Outcome, 1, 1),
    ("grundy", Builtin::Grundy, 1, 1),
    ("remoteness", Builtin::Remoteness, 1, 1),
    ("ks", Builtin::Remoteness, 1, 1),
    ("moves", Builtin::Moves, 1, 1),
    ("winning_moves", Builtin::WinningMoves, 1, 1),
    ("line", Builtin::Line, 1, 1),
    ("score", Builtin::Score, 1, 1),
    ("optimal_moves", Builtin::OptimalMoves, 1, 1),
    ("reachable", Builtin::Reachable, 1, 1),
    ("misere", Builtin::Misere, 1, 1),
    ("normal", Builtin::Normal, 1, 1),
];

/// Built-in constants.
pub fn constant(name: &str) -> Option<Value> {
    Some(match name {
        "N" => Value::Outcome(Outcome::N),
        "P" => Value::Outcome(Outcome::P),
        "D" => Value::Outcome(Outcome::D),
        "L" => Value::Outcome(Outcome::L),
        "R" => Value::Outcome(Outcome::R),
        "disjunctive" => Value::Mode(CompoundKind::Disjunctive),
        "conjunctive" => Value::Mode(CompoundKind::Conjunctive),
        "selective" => Value::Mode(CompoundKind::Selective),
        _ => return None,
    })
}

/// Names of the built-in constants (for suggestions).
pub const CONSTANT_NAMES: &[&str] = &[
    "N",
    "P",
    "D",
    "L",
    "R",
    "disjunctive",
    "conjunctive",
    "selective",
];

/// Looks a built-in function up by name.
pub fn lookup(name: &str) -> Option<(Builtin, usize, usize)> {
    BUILTINS
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, b, lo, hi)| (b, lo, hi))
}

impl Builtin {
    /// The analyses need the game graph; the rest are pure.
    pub fn is_analysis(self) -> bool {
        matches!(
            self,
            Builtin::Outcome
                | Builtin::Grundy
                | Builtin::Remoteness
                | Builtin::Moves
                | Builtin::WinningMoves
                | Builtin::Line
                | Builtin::Score
                | Builtin::OptimalMoves
                | Builtin::Reachable
        )
    }

    /// The name it is called by.
    pub fn name(self) -> &'static str {
        BUILTINS
            .iter()
            .find(|(_, b, ..)| *b == self)
            .map_or("?", |(n, ..)| n)
    }
}
