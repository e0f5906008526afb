//! The pure built-ins' code (`mex`, `lego`, `period`, ...). Their names and arities, and the
//! constants, are the catalogue in `lower::builtins`, re-exported here; the analyses
//! (`grundy`, `outcome`, ...) are dispatched by `interp` to the host.

use std::collections::BTreeSet;
use std::rc::Rc;

pub use crate::lower::builtins::{
    constant, is_reserved, lookup, Builtin, BUILTINS, CONSTANT_NAMES, SOFT_CONSTANTS,
};
use crate::value::Value;

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
    period_checked(xs, &mut || Ok::<(), ()>(())).unwrap_or(None)
}

/// [`period`], calling `check` before each candidate period (each costs a pass over the
/// values): its error ends the search, so that a long sequence sees the deadline.
pub fn period_checked<T: PartialEq, E>(
    xs: &[T],
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Option<(usize, usize)>, E> {
    let n = xs.len();
    let mut best: Option<(usize, usize)> = None;
    for p in 1..=n / 2 {
        check()?;
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
    Ok(best)
}

/// Finds `(preperiod, period, saltus)` of an eventually arithmetic-periodic sequence: from
/// the preperiod on, `xs[i + p] == xs[i] + s` (octal games' "arithmetic periodicity"; a
/// saltus of 0 is plain periodicity).
///
/// The rule is [`period`]'s with differences: for each `p`, the saltus is the last
/// difference `xs[n - 1] - xs[n - 1 - p]`, the preperiod one past the last `i` whose
/// difference `xs[i + p] - xs[i]` is another; a candidate needs three whole periods after its
/// preperiod (so that the differences, like [`period`]'s values, repeat twice: two values
/// always differ by something) and at least [`SALTUS_LEAST_VALUES`] values there (three
/// values in arithmetic progression are no evidence of a period 1); the smallest preperiod +
/// period wins, then the smallest period. Differences that do not fit in an `i64` never
/// match.
pub fn saltus_period(xs: &[i64]) -> Option<(usize, usize, i64)> {
    saltus_period_checked(xs, &mut || Ok::<(), ()>(())).unwrap_or(None)
}

/// The fewest values after its preperiod that an arithmetic period is found in, whatever
/// its period: a short period seen three times in a few values (`[3, 5, 7]`, the last values
/// of the squares) is chance as often as not.
pub const SALTUS_LEAST_VALUES: usize = 10;

/// [`saltus_period`], calling `check` before each candidate period, as [`period_checked`].
pub fn saltus_period_checked<E>(
    xs: &[i64],
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Option<(usize, usize, i64)>, E> {
    let n = xs.len();
    let mut best: Option<(usize, usize, i64)> = None;
    for p in 1..=n / 2 {
        check()?;
        let Some(saltus) = xs[n - 1].checked_sub(xs[n - 1 - p]) else {
            continue;
        };
        let mut s = 0;
        for i in (0..n - p).rev() {
            if xs[i + p].checked_sub(xs[i]) != Some(saltus) {
                s = i + 1;
                break;
            }
        }
        if n - s >= (3 * p).max(SALTUS_LEAST_VALUES)
            && best.is_none_or(|(bs, bp, _)| s + p < bs + bp)
        {
            best = Some((s, p, saltus));
        }
    }
    Ok(best)
}

/// Items sorted in one step between two checks of the deadline (and merged between two).
const SORT_RUN: usize = 1 << 16;

/// Sorted copy of a list of values (a stable sort), calling `check` (the deadline) every
/// [`SORT_RUN`] items: runs of that many are sorted, then merged in pairs, so a sort of
/// millions of items stops within milliseconds of its deadline.
pub fn sorted(
    items: Vec<Value>,
    check: &mut dyn FnMut() -> crate::diag::DiagResult<()>,
) -> crate::diag::DiagResult<Value> {
    if items.len() <= SORT_RUN {
        let mut items = items;
        items.sort();
        return Ok(Value::List(Rc::from(items)));
    }
    let mut runs: Vec<Vec<Value>> = Vec::with_capacity(items.len() / SORT_RUN + 1);
    let mut rest = items.into_iter();
    loop {
        check()?;
        let mut run: Vec<Value> = rest.by_ref().take(SORT_RUN).collect();
        if run.is_empty() {
            break;
        }
        run.sort();
        runs.push(run);
    }
    while runs.len() > 1 {
        let mut merged = Vec::with_capacity(runs.len().div_ceil(2));
        let mut pairs = runs.into_iter();
        while let Some(left) = pairs.next() {
            match pairs.next() {
                Some(right) => merged.push(merge(left, right, check)?),
                None => merged.push(left),
            }
        }
        runs = merged;
    }
    Ok(Value::List(Rc::from(runs.pop().unwrap_or_default())))
}

/// Two sorted runs merged (the left one's item first among equals), checking the deadline
/// every [`SORT_RUN`] items.
fn merge(
    left: Vec<Value>,
    right: Vec<Value>,
    check: &mut dyn FnMut() -> crate::diag::DiagResult<()>,
) -> crate::diag::DiagResult<Vec<Value>> {
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut a = left.into_iter().peekable();
    let mut b = right.into_iter().peekable();
    loop {
        if out.len() % SORT_RUN == 0 {
            check()?;
        }
        let take_right = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => y < x,
            (Some(_), None) => false,
            (None, Some(_)) => true,
            (None, None) => break,
        };
        let next = if take_right { b.next() } else { a.next() };
        out.extend(next);
    }
    Ok(out)
}

/// A set value from items.
pub fn set_of(items: impl IntoIterator<Item = Value>) -> Value {
    Value::Set(Rc::new(items.into_iter().collect::<BTreeSet<_>>()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_in_runs_is_a_stable_sort() {
        // Past a run's size: pairs whose first items tie, in an order that needs merging.
        let n = SORT_RUN * 3 + 17;
        let items: Vec<Value> = (0..n)
            .map(|i| {
                let key = ((i * 7919) % 1000) as i64;
                Value::Tuple(Rc::from(vec![Value::Int(key), Value::Int(i as i64)]))
            })
            .collect();
        let mut expected = items.clone();
        expected.sort();
        let mut checks = 0;
        let got = sorted(items, &mut || {
            checks += 1;
            Ok(())
        })
        .unwrap_or(Value::None);
        assert_eq!(got, Value::List(Rc::from(expected)));
        assert!(checks >= 4, "the deadline is checked as it goes ({checks})");
        // A stop ends it.
        let stopped = sorted((0..n as i64).rev().map(Value::Int).collect(), &mut || {
            Err(Box::new(crate::diag::Diag::error(
                crate::diag::Code::LimitTimeout,
                "stop",
            )))
        });
        assert!(stopped.is_err());
    }

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

    #[test]
    fn saltus_period_finds_arithmetic_periods() {
        let naturals: Vec<i64> = (0..10).collect();
        assert_eq!(saltus_period(&naturals), Some((0, 1, 1)));
        assert_eq!(
            saltus_period(&[0, 1, 0, 1, 0, 1, 0, 1, 0, 1]),
            Some((0, 2, 0))
        );
        // Too few values after the preperiod, however many periods they hold.
        assert_eq!(saltus_period(&naturals[..9]), None);
        assert_eq!(saltus_period(&[3, 5, 7]), None);
        assert_eq!(saltus_period(&[0, 1, 0, 1, 0, 1]), None);
        // The last values alone are no evidence: 64, 81, 98 after the squares is no period 1.
        assert_eq!(saltus_period(&[0, 1, 4, 9, 16, 25, 36, 49, 64, 81]), None);
        assert_eq!(
            saltus_period(&[0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 98]),
            None
        );
        let mut tail = vec![0, 1, 4, 9, 16, 25, 36, 49, 64];
        tail.extend((0..10).map(|i| 81 + 17 * i));
        assert_eq!(saltus_period(&tail), Some((8, 1, 17)));
        // Lasker's Nim: 0, 1, 2, 4, 3, then +4 every 4.
        assert_eq!(
            saltus_period(&[0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11]),
            Some((1, 4, 4))
        );
        assert_eq!(saltus_period(&[1, 5, 2]), None);
        assert_eq!(saltus_period(&[]), None);
        // A difference that overflows matches nothing.
        let (lo, hi) = (i64::MIN, i64::MAX);
        assert_eq!(
            saltus_period(&[lo, hi, lo, hi, lo, hi, lo, hi, lo, hi]),
            Some((0, 2, 0))
        );
        let mut big = vec![lo, hi];
        big.extend(0..10);
        assert_eq!(saltus_period(&big), Some((2, 1, 1)));
    }

    /// Brute force: a random arithmetic-periodic sequence (a random preperiod, a random
    /// period's first values, a random saltus) is found with a description no longer than the
    /// one it was made from, and the description found holds on the whole sequence.
    #[test]
    fn saltus_period_against_random_sequences() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..2000 {
            let pre = next(6) as usize;
            let p = 1 + next(6) as usize;
            let s = next(9) as i64 - 4;
            let len = pre + (3 * p).max(SALTUS_LEAST_VALUES) + next(20) as usize;
            let mut xs: Vec<i64> = (0..pre + p).map(|_| next(10) as i64).collect();
            while xs.len() < len {
                let v = xs[xs.len() - p] + s;
                xs.push(v);
            }
            let (fpre, fp, fs) = saltus_period(&xs).expect("a description exists");
            assert!(fpre + fp <= pre + p, "{xs:?}: found ({fpre}, {fp}, {fs})");
            assert!(xs.len() - fpre >= (3 * fp).max(SALTUS_LEAST_VALUES));
            for i in fpre..xs.len() - fp {
                assert_eq!(xs[i + fp], xs[i] + fs, "{xs:?}: found ({fpre}, {fp}, {fs})");
            }
            // Minimal: no shorter description holds (checked by trying them all).
            for q in 1..=xs.len() / 2 {
                for t in 0..(fpre + fp).saturating_sub(q) {
                    if xs.len() - t < (3 * q).max(SALTUS_LEAST_VALUES) {
                        continue;
                    }
                    let d = xs[t + q] - xs[t];
                    assert!(
                        (t..xs.len() - q).any(|i| xs[i + q] - xs[i] != d),
                        "{xs:?}: ({t}, {q}, {d}) is shorter than ({fpre}, {fp}, {fs})"
                    );
                }
            }
        }
    }
}
