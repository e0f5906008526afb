//! Built-in functions and constants: their names, arities, and the pure ones' code.
//! The analyses (`grundy`, `outcome`, ...) are dispatched by `interp` to `analysis`.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::value::{CompoundKind, Outcome, Value};

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
        "disjunctive" => Value::Mode(CompoundKind::Disjunctive),
        "conjunctive" => Value::Mode(CompoundKind::Conjunctive),
        "selective" => Value::Mode(CompoundKind::Selective),
        _ => return None,
    })
}

/// Names of the built-in constants (for suggestions).
pub const CONSTANT_NAMES: &[&str] = &["N", "P", "D", "disjunctive", "conjunctive", "selective"];

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

/// The least non-negative integer not in `values`: exact for any values, since the mex of
/// `n` values is at most `n` and no value from `n` on can change it.
pub fn mex(values: &[u64]) -> u64 {
    let n = values.len();
    // Bits 0..=n, one word per 64.
    let mut seen = vec![0u64; n / 64 + 1];
    for &v in values {
        if let Ok(i) = usize::try_from(v) {
            if i <= n {
                seen[i / 64] |= 1 << (i % 64);
            }
        }
    }
    let (word, bits) = seen
        .iter()
        .enumerate()
        .find(|(_, w)| **w != u64::MAX)
        .map_or((seen.len(), 0), |(i, w)| (i, w.trailing_ones()));
    (word * 64) as u64 + u64::from(bits)
}

/// The lego rule of the Kalmár–Steinhaus function: the least even element, or if there is
/// none the greatest (odd) one. `None` for an empty set.
pub fn lego(values: impl IntoIterator<Item = u64>) -> Option<u64> {
    let mut least_even: Option<u64> = None;
    let mut greatest: Option<u64> = None;
    for v in values {
        if v % 2 == 0 {
            least_even = Some(least_even.map_or(v, |e| e.min(v)));
        }
        greatest = Some(greatest.map_or(v, |g| g.max(v)));
    }
    least_even.or(greatest)
}

/// Finds `(preperiod, period)` of an eventually periodic sequence.
///
/// For each period `p` the preperiod `s(p)` is one past the last `i` with `xs[i] != xs[i + p]`.
/// A candidate needs at least two whole periods after the preperiod; among candidates the one
/// with the smallest `s + p` wins (the shortest description), then the smallest `p`.
pub fn period<T: PartialEq>(xs: &[T]) -> Option<(usize, usize)> {
    let n = xs.len();
    let mut best: Option<(usize, usize)> = None;
    for p in 1..=n / 2 {
        let mut s = 0;
        for i in (0..n - p).rev() {
            if xs[i] != xs[i + p] {
                s = i + 1;
                break;
            }
        }
        if n - s >= 2 * p && best.is_none_or(|(bs, bp)| s + p < bs + bp) {
            best = Some((s, p));
        }
    }
    best
}

/// Sorted copy of a list of values.
pub fn sorted(mut items: Vec<Value>) -> Value {
    items.sort();
    Value::List(Rc::from(items))
}

/// A set value from items.
pub fn set_of(items: impl IntoIterator<Item = Value>) -> Value {
    Value::Set(Rc::new(items.into_iter().collect::<BTreeSet<_>>()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_and_lego() {
        assert_eq!(mex(&[0, 1, 3]), 2);
        assert_eq!(mex(&[]), 0);
        assert_eq!(mex(&[1 << 20, 0]), 1);
        assert_eq!(mex(&[u64::MAX, 0, 1]), 2);
        // Values at and past 2^20 and past a word of 64 bits count like any other.
        let upto = |n: u64| (0..n).collect::<Vec<u64>>();
        for n in [63, 64, 65, 127, 128, (1 << 20) - 1, 1 << 20, (1 << 20) + 1] {
            assert_eq!(mex(&upto(n)), n);
            let mut reversed = upto(n);
            reversed.reverse();
            assert_eq!(mex(&reversed), n);
        }
        assert_eq!(lego([1, 3, 4, 6]), Some(4));
        assert_eq!(lego([1, 5, 3]), Some(5));
        assert_eq!(lego([]), None);
    }

    #[test]
    fn period_finds_preperiod_and_period() {
        assert_eq!(period(&[0, 1, 0, 1, 0, 1]), Some((0, 2)));
        assert_eq!(period(&[3, 2, 1, 0, 0, 0, 0, 0]), Some((3, 1)));
        assert_eq!(period(&[1, 2, 3]), None);
    }
}
