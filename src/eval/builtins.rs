//! The pure built-ins' code (`mex`, `lego`, `period`, ...). Their names and arities, and the
//! constants, are the catalogue in `lower::builtins`, re-exported here; the analyses
//! (`grundy`, `outcome`, ...) are dispatched by `interp` to the host.

use std::collections::BTreeSet;
use std::rc::Rc;

pub use crate::lower::builtins::{constant, lookup, Builtin, BUILTINS, CONSTANT_NAMES};
use crate::value::Value;

/// The least non-negative integer not in `values`.
pub fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut seen: Vec<bool> = Vec::new();
    for v in values {
        if let Ok(i) = usize::try_from(v) {
            if i < 1 << 20 {
                if seen.len() <= i {
                    seen.resize(i + 1, false);
                }
                seen[i] = true;
            }
        }
    }
    seen.iter().position(|s| !s).unwrap_or(seen.len()) as u64
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

/// Floor division (rounds toward negative infinity, as Python's `//`); `None` on overflow
/// (the divisor must not be 0).
pub fn floor_div(x: i64, y: i64) -> Option<i64> {
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}

/// The remainder of floor division (takes the divisor's sign); `None` on overflow (the
/// divisor must not be 0).
pub fn floor_mod(x: i64, y: i64) -> Option<i64> {
    let r = x.checked_rem(y)?;
    Some(if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_and_lego() {
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([]), 0);
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
