//! The catalogue of built-ins: every built-in function with its names and arities, and the
//! built-in constants. Name resolution reads it; `eval` implements the functions.

use crate::value::{CompoundKind, Outcome, Value};

/// How a take-and-break code is written: octal digits, or hexadecimal ones (splits in three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Radix {
    /// `octal("0.77")`: digits 0 to 7.
    Octal,
    /// `hex("0.F")`: digits 0 to F.
    Hex,
}

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
    /// `regions(m, w)`: the connected components of a bit-mask board `w` cells wide.
    Regions,
    /// `normalize(m, w)` or `normalize(m, w, mirrors)`: a bit-mask board moved to the
    /// corner (and the least of its mirror images).
    Normalize,
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
    /// `chars(s)`: a string's characters, as a list of one-character strings.
    Chars,
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
    /// `join(xs, sep)`: the items as text with `sep` between them.
    Join,
    /// `grid(cells, width, symbols)`: cells drawn as a board of symbols.
    Grid,
    /// `picture(p)`: a position's picture (its game's `show`), else its printed form.
    Picture,
    /// `split(p, q, ...)` or `split(list)`: a position falls apart into a compound.
    Split,
    /// `period(xs)`: `(preperiod, period)`.
    Period,
    /// `saltus_period(xs)`: `(preperiod, period, saltus)` of integers, `xs[n + p] == xs[n] + s`.
    SaltusPeriod,
    /// `inf(0, 1)`: the loopy nimber `∞` with those finite option values.
    Inf,
    /// `octal(code)`, `hex(code)`: the take-and-break game of a code, whose positions are
    /// heaps (`octal("0.77")(5)`); `hex` allows the digits 8 to F.
    TakeAndBreak(Radix),
    /// `octal_moves(code, n)`: the options of a heap of `n`, each a heap or a `split`.
    OctalMoves,
    /// `octal_values(code, n)`: a take-and-break game's Grundy values of heaps 0..=n.
    OctalValues,
    /// `octal_period(code[, most])`: its period, proved.
    OctalPeriod,
    /// `misere_quotient(code, n)`: the misère quotient of its sums of heaps up to `n`.
    MisereQuotient,
    /// `misere_outcome(code, heaps)`: a sum's misère outcome, through its quotient.
    MisereOutcome,
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
    /// `value(p)`: the canonical form of a short game (an impartial one's nimber).
    Value,
    /// `misere(p)`: the same position under misère play.
    Misere,
    /// `normal(p)`: the same position under normal play.
    Normal,
    /// `players(G)`: a strategic game's players' names.
    Players,
    /// `strategies(G)`: each player's strategies, a tuple of lists.
    Strategies,
    /// `pure_nash(G)`: every pure Nash equilibrium, as profiles.
    PureNash,
    /// `best_responses(G, profile)`: each player's best responses to the others' part of a
    /// pure or mixed profile.
    BestResponses,
    /// `strictly_dominated(G)`: each player's strategies strictly dominated by another.
    StrictlyDominated,
    /// `weakly_dominated(G)`: each player's strategies weakly dominated by another.
    WeaklyDominated,
    /// `mixed_dominated(G)`: each player's strategies strictly dominated by a mixture of
    /// its others, each with such a mixture.
    MixedDominated,
    /// `iterated_elimination(G[, kind])`: the steps of iterated elimination of dominated
    /// strategies (`"strict"`, `"weak"` or `"mixed"`), and what survives.
    IteratedElimination,
    /// `pareto_optimal(G)`: the profiles no other profile Pareto-improves.
    ParetoOptimal,
    /// `nfg(G)`: the game as the text of Gambit's `.nfg` file.
    Nfg,
    /// `expected_payoff(G, profile)`: every player's expected payoff of a mixed profile.
    ExpectedPayoff,
    /// `minimax_value(G)`: the value of a two-player zero-sum game.
    MinimaxValue,
    /// `minimax_strategies(G)`: an optimal mixed strategy of each player of a zero-sum game.
    MinimaxStrategies,
    /// `equilibria(G)`: every equilibrium of a nondegenerate two-player game (support
    /// enumeration).
    Equilibria,
    /// `lemke_howson(G)`: the equilibria Lemke–Howson finds from every starting label.
    LemkeHowson,
    /// `vertex_enumeration(G)`: every extreme equilibrium of a two-player game, degenerate
    /// or not.
    VertexEnumeration,
    /// `equilibrium_components(G)`: the connected components of a two-player game's
    /// equilibria, each as its extreme equilibria.
    EquilibriumComponents,
    /// `nash(G)`: `(method, complete, equilibria)`: support enumeration, vertex enumeration
    /// for a degenerate game, or Lemke–Howson for games too large for both.
    Nash,
    /// A built-in on game values (`mean(g)`, `cool(g, t)`, ...), by its name; `eval::values`
    /// implements them all.
    GameValue(&'static str),
}

/// Every built-in function with its name(s) and its least and greatest argument count.
pub const BUILTINS: &[(&str, Builtin, usize, usize)] = &[
    ("mex", Builtin::Mex, 1, 1),
    ("lego", Builtin::Lego, 1, 1),
    ("len", Builtin::Len, 1, 1),
    ("popcount", Builtin::Popcount, 1, 1),
    ("bits", Builtin::Bits, 1, 1),
    ("regions", Builtin::Regions, 2, 2),
    ("normalize", Builtin::Normalize, 2, 3),
    ("v2", Builtin::V2, 1, 1),
    ("gcd", Builtin::Gcd, 2, 2),
    ("abs", Builtin::Abs, 1, 1),
    ("sorted", Builtin::Sorted, 1, 1),
    ("reversed", Builtin::Reversed, 1, 1),
    ("enumerate", Builtin::Enumerate, 1, 1),
    ("zip", Builtin::Zip, 2, 2),
    ("set", Builtin::SetAt, 3, 3),
    ("list", Builtin::List, 1, 1),
    ("chars", Builtin::Chars, 1, 1),
    ("min", Builtin::Min, 1, usize::MAX),
    ("max", Builtin::Max, 1, usize::MAX),
    ("sum", Builtin::Sum, 1, 1),
    ("count", Builtin::Count, 1, 1),
    ("any", Builtin::Any, 1, 1),
    ("all", Builtin::All, 1, 1),
    ("str", Builtin::Str, 1, 1),
    ("join", Builtin::Join, 2, 2),
    ("grid", Builtin::Grid, 3, 3),
    ("picture", Builtin::Picture, 1, 1),
    ("split", Builtin::Split, 0, usize::MAX),
    ("period", Builtin::Period, 1, 1),
    ("saltus_period", Builtin::SaltusPeriod, 1, 1),
    ("octal", Builtin::TakeAndBreak(Radix::Octal), 1, 1),
    ("hex", Builtin::TakeAndBreak(Radix::Hex), 1, 1),
    ("octal_moves", Builtin::OctalMoves, 2, 2),
    ("octal_values", Builtin::OctalValues, 2, 2),
    ("inf", Builtin::Inf, 0, usize::MAX),
    ("octal_period", Builtin::OctalPeriod, 1, 2),
    ("misere_quotient", Builtin::MisereQuotient, 2, 2),
    ("misere_outcome", Builtin::MisereOutcome, 2, 2),
    ("outcome", Builtin::Outcome, 1, 1),
    ("grundy", Builtin::Grundy, 1, 1),
    ("remoteness", Builtin::Remoteness, 1, 2),
    ("ks", Builtin::Remoteness, 1, 2),
    ("moves", Builtin::Moves, 1, 2),
    ("winning_moves", Builtin::WinningMoves, 1, 2),
    ("line", Builtin::Line, 1, 2),
    ("score", Builtin::Score, 1, 1),
    ("optimal_moves", Builtin::OptimalMoves, 1, 2),
    ("reachable", Builtin::Reachable, 1, 1),
    ("value", Builtin::Value, 1, 1),
    ("misere", Builtin::Misere, 1, 1),
    ("normal", Builtin::Normal, 1, 1),
    ("players", Builtin::Players, 1, 1),
    ("strategies", Builtin::Strategies, 1, 1),
    ("pure_nash", Builtin::PureNash, 1, 1),
    ("best_responses", Builtin::BestResponses, 2, 2),
    ("strictly_dominated", Builtin::StrictlyDominated, 1, 1),
    ("weakly_dominated", Builtin::WeaklyDominated, 1, 1),
    ("mixed_dominated", Builtin::MixedDominated, 1, 1),
    ("iterated_elimination", Builtin::IteratedElimination, 1, 2),
    ("pareto_optimal", Builtin::ParetoOptimal, 1, 1),
    ("nfg", Builtin::Nfg, 1, 1),
    ("expected_payoff", Builtin::ExpectedPayoff, 2, 2),
    ("minimax_value", Builtin::MinimaxValue, 1, 1),
    ("minimax_strategies", Builtin::MinimaxStrategies, 1, 1),
    ("equilibria", Builtin::Equilibria, 1, 1),
    ("lemke_howson", Builtin::LemkeHowson, 1, 1),
    ("vertex_enumeration", Builtin::VertexEnumeration, 1, 1),
    (
        "equilibrium_components",
        Builtin::EquilibriumComponents,
        1,
        1,
    ),
    ("nash", Builtin::Nash, 1, 1),
    ("confused", Builtin::GameValue("confused"), 2, 2),
    ("is_number", Builtin::GameValue("is_number"), 1, 1),
    (
        "is_infinitesimal",
        Builtin::GameValue("is_infinitesimal"),
        1,
        1,
    ),
    ("left_stop", Builtin::GameValue("left_stop"), 1, 1),
    ("right_stop", Builtin::GameValue("right_stop"), 1, 1),
    ("mean", Builtin::GameValue("mean"), 1, 1),
    ("temperature", Builtin::GameValue("temperature"), 1, 1),
    ("thermograph", Builtin::GameValue("thermograph"), 1, 1),
    ("birthday", Builtin::GameValue("birthday"), 1, 1),
    ("cool", Builtin::GameValue("cool"), 2, 2),
    ("heat", Builtin::GameValue("heat"), 2, 2),
    ("atomic_weight", Builtin::GameValue("atomic_weight"), 1, 1),
    ("reduced", Builtin::GameValue("reduced"), 1, 1),
    ("left_options", Builtin::GameValue("left_options"), 1, 1),
    ("right_options", Builtin::GameValue("right_options"), 1, 1),
    ("Tiny", Builtin::GameValue("Tiny"), 1, 1),
    ("Miny", Builtin::GameValue("Miny"), 1, 1),
];

/// Built-in constants.
pub fn constant(name: &str) -> Option<Value> {
    Some(match name {
        "N" => Value::Outcome(Outcome::N),
        "P" => Value::Outcome(Outcome::P),
        "D" => Value::Outcome(Outcome::D),
        "L" => Value::Outcome(Outcome::L),
        "R" => Value::Outcome(Outcome::R),
        // A side is named by the class of the games that player wins: `left` is `L`.
        "left" => Value::Outcome(Outcome::L),
        "right" => Value::Outcome(Outcome::R),
        "disjunctive" => Value::Mode(CompoundKind::Disjunctive),
        "conjunctive" => Value::Mode(CompoundKind::Conjunctive),
        "selective" => Value::Mode(CompoundKind::Selective),
        // CGSuite's down and double down (a local or parameter named `v` shadows them).
        "v" | "vv" => {
            let id = crate::value::with_forms(|t| {
                let down = t.down()?;
                if name == "v" {
                    Ok(down)
                } else {
                    t.add(down, down)
                }
            });
            return id.ok().and_then(|id| Value::form(id).ok());
        }
        _ => return None,
    })
}

/// Constants a definition may take the name of (the definition then hides the constant in its
/// file): the partizan outcome classes and `v` (down) came after users had named games `L`
/// and `R` and constants `v`.
pub const SOFT_CONSTANTS: &[&str] = &["L", "R", "v", "vv"];

/// Whether defining `name` is an error: it names a built-in function or a constant that is
/// not soft ([`SOFT_CONSTANTS`]).
pub fn is_reserved(name: &str) -> bool {
    lookup(name).is_some() || (constant(name).is_some() && !SOFT_CONSTANTS.contains(&name))
}

/// Names of the built-in constants (for suggestions).
pub const CONSTANT_NAMES: &[&str] = &[
    "N",
    "P",
    "D",
    "L",
    "R",
    "left",
    "right",
    "disjunctive",
    "conjunctive",
    "selective",
    "v",
    "vv",
];

/// The help for a call of a function other languages have and cgl writes another way
/// (`range(n)` is `0..n`), or `None` for a name cgl does not know in that sense.
pub fn written_elsewhere(name: &str) -> Option<&'static str> {
    Some(match name {
        "range" => {
            "cgl writes a range as `0..n` (the integers 0 to n - 1), `a..b` or `a..=b` \
             (b included); there is no `range` function"
        }
        "length" | "size" | "count_of" => "the length of a list, set, string or range is `len(xs)`",
        "xor" | "nim_sum" | "nimsum" => "the nim-sum (XOR) of two integers is `a ^ b`",
        "sort" => "a sorted copy of a collection is `sorted(xs)`",
        "reverse" => "a reversed copy of a list is `reversed(xs)`",
        "map" | "filter" => {
            "cgl writes a map or a filter as a comprehension: `[f(x) for x in xs if ok(x)]`"
        }
        _ => return None,
    })
}

/// The built-in function or constant of this name, as a `'static` name (for references).
pub fn known_name(name: &str) -> Option<&'static str> {
    BUILTINS
        .iter()
        .map(|(n, ..)| *n)
        .chain(CONSTANT_NAMES.iter().copied())
        .find(|n| *n == name)
}

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
                | Builtin::Value
        )
    }

    /// The analyses of strategic-form games (pure, on a game's payoff table).
    pub fn is_strategic(self) -> bool {
        matches!(
            self,
            Builtin::Players
                | Builtin::Strategies
                | Builtin::PureNash
                | Builtin::BestResponses
                | Builtin::StrictlyDominated
                | Builtin::WeaklyDominated
                | Builtin::IteratedElimination
                | Builtin::MixedDominated
                | Builtin::VertexEnumeration
                | Builtin::EquilibriumComponents
                | Builtin::ParetoOptimal
                | Builtin::Nfg
                | Builtin::ExpectedPayoff
                | Builtin::MinimaxValue
                | Builtin::MinimaxStrategies
                | Builtin::Equilibria
                | Builtin::LemkeHowson
                | Builtin::Nash
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
