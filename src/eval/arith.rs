//! Checked integer arithmetic: the one implementation of cgl's integer operators, which the
//! interpreter and the compiled rules both call, one value at a time or a block of lanes at a
//! time, so that the two engines agree on every result and on every failure.
//!
//! The rule throughout: when the mathematical result fits in an `i64`, it is the answer
//! (`1 ** 9223372036854775807 == 1`, `(-9223372036854775808) % -1 == 0`); when it does not,
//! the operation fails with [`ArithError::Overflow`], never wraps. Lengths and counts are
//! computed exactly, in `u64` or wider, before they are compared with a limit or turned into
//! an `i64`.

use crate::syntax::ast::BinaryOp;

/// Why an integer operation has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// The result does not fit in 64 bits.
    Overflow,
    /// A division or a modulo by 0.
    DivisionByZero,
    /// `**` with a negative exponent.
    NegativeExponent,
}

/// A binary operator on two integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `div`, floor division.
    Div,
    /// `%`, floor modulo (the result has the divisor's sign).
    Rem,
    /// `**`.
    Pow,
    /// `^`.
    Xor,
    /// `&`.
    And,
    /// `|`.
    Or,
}

impl IntOp {
    /// The integer operator a binary operator means on two integers, if it is one.
    pub fn of(op: BinaryOp) -> Option<IntOp> {
        Some(match op {
            BinaryOp::Add => IntOp::Add,
            BinaryOp::Sub => IntOp::Sub,
            BinaryOp::Mul => IntOp::Mul,
            BinaryOp::FloorDiv => IntOp::Div,
            BinaryOp::Rem => IntOp::Rem,
            BinaryOp::Pow => IntOp::Pow,
            BinaryOp::Xor => IntOp::Xor,
            BinaryOp::BitAnd => IntOp::And,
            BinaryOp::BitOr => IntOp::Or,
            _ => return None,
        })
    }

    /// `a op b`.
    #[inline]
    pub fn apply(self, a: i64, b: i64) -> Result<i64, ArithError> {
        match self {
            IntOp::Add => add(a, b),
            IntOp::Sub => sub(a, b),
            IntOp::Mul => mul(a, b),
            IntOp::Div => div(a, b),
            IntOp::Rem => rem(a, b),
            IntOp::Pow => pow(a, b),
            IntOp::Xor => Ok(a ^ b),
            IntOp::And => Ok(a & b),
            IntOp::Or => Ok(a | b),
        }
    }

    /// Whether `a op b == b op a` for all `a` and `b`, failures included.
    pub fn commutes(self) -> bool {
        matches!(
            self,
            IntOp::Add | IntOp::Mul | IntOp::Xor | IntOp::And | IntOp::Or
        )
    }

    /// `out[i] = out[i] op rhs[i]` in every lane, the operator chosen once for the block;
    /// true when some lane fails (that lane's value is then meaningless).
    #[inline]
    pub fn apply_lanes(self, out: &mut [i64], rhs: impl Iterator<Item = i64>) -> bool {
        let mut bad = false;
        let pairs = out.iter_mut().zip(rhs);
        // Add, subtract and multiply in the form the compiler vectorises: every lane
        // computed, the overflow flags ORed together.
        match self {
            IntOp::Add => pairs.for_each(|(a, b)| {
                let (n, o) = a.overflowing_add(b);
                *a = n;
                bad |= o;
            }),
            IntOp::Sub => pairs.for_each(|(a, b)| {
                let (n, o) = a.overflowing_sub(b);
                *a = n;
                bad |= o;
            }),
            IntOp::Mul => pairs.for_each(|(a, b)| {
                let (n, o) = a.overflowing_mul(b);
                *a = n;
                bad |= o;
            }),
            IntOp::Xor => pairs.for_each(|(a, b)| *a ^= b),
            IntOp::And => pairs.for_each(|(a, b)| *a &= b),
            IntOp::Or => pairs.for_each(|(a, b)| *a |= b),
            IntOp::Div | IntOp::Rem | IntOp::Pow => pairs.for_each(|(a, b)| {
                let r = self.apply(*a, b);
                bad |= r.is_err();
                *a = r.unwrap_or(0);
            }),
        }
        bad
    }

    /// `out[i] = a op out[i]` in every lane; true when some lane fails.
    #[inline]
    pub fn apply_lanes_to(self, a: i64, out: &mut [i64]) -> bool {
        if self.commutes() {
            return self.apply_lanes(out, std::iter::repeat(a));
        }
        let mut bad = false;
        match self {
            IntOp::Sub => out.iter_mut().for_each(|v| {
                let (n, o) = a.overflowing_sub(*v);
                *v = n;
                bad |= o;
            }),
            _ => out.iter_mut().for_each(|v| {
                let r = self.apply(a, *v);
                bad |= r.is_err();
                *v = r.unwrap_or(0);
            }),
        }
        bad
    }
}

/// `a + b`.
#[inline]
pub fn add(a: i64, b: i64) -> Result<i64, ArithError> {
    a.checked_add(b).ok_or(ArithError::Overflow)
}

/// `a - b`.
#[inline]
pub fn sub(a: i64, b: i64) -> Result<i64, ArithError> {
    a.checked_sub(b).ok_or(ArithError::Overflow)
}

/// `a * b`.
#[inline]
pub fn mul(a: i64, b: i64) -> Result<i64, ArithError> {
    a.checked_mul(b).ok_or(ArithError::Overflow)
}

/// `-a`.
#[inline]
pub fn neg(a: i64) -> Result<i64, ArithError> {
    a.checked_neg().ok_or(ArithError::Overflow)
}

/// `abs(a)`.
#[inline]
pub fn abs(a: i64) -> Result<i64, ArithError> {
    a.checked_abs().ok_or(ArithError::Overflow)
}

/// `-x` in every lane; true when some lane fails.
#[inline]
pub fn neg_lanes(out: &mut [i64]) -> bool {
    let mut bad = false;
    for v in out.iter_mut() {
        let (n, o) = v.overflowing_neg();
        *v = n;
        bad |= o;
    }
    bad
}

/// `abs(x)` in every lane; true when some lane fails.
#[inline]
pub fn abs_lanes(out: &mut [i64]) -> bool {
    let mut bad = false;
    for v in out.iter_mut() {
        bad |= *v == i64::MIN;
        *v = v.wrapping_abs();
    }
    bad
}

/// Floor division `a / b` (rounds toward negative infinity, as Python's `//`).
#[inline]
pub fn div(a: i64, b: i64) -> Result<i64, ArithError> {
    if b == 0 {
        return Err(ArithError::DivisionByZero);
    }
    // Only `i64::MIN / -1` (2^63) does not fit.
    let q = a.checked_div(b).ok_or(ArithError::Overflow)?;
    // Rounded toward 0 and inexact with the signs apart: one less. `q` is then at most 0
    // and above `i64::MIN`, so `q - 1` fits.
    Ok(if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

/// Floor modulo `a % b`: the remainder of [`div`], with the sign of `b`. Always fits:
/// `i64::MIN % -1` is 0.
#[inline]
pub fn rem(a: i64, b: i64) -> Result<i64, ArithError> {
    if b == 0 {
        return Err(ArithError::DivisionByZero);
    }
    if b == -1 {
        // Every integer is a multiple of -1 (and `checked_rem` refuses `i64::MIN % -1`).
        return Ok(0);
    }
    let r = a % b;
    // `r` and `b` of opposite signs: `r + b` lies between them, so it fits.
    Ok(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

/// `base ** exp`, exact whenever the result fits: `0`, `1` and `-1` to any power, and any
/// base to a power up to 63.
pub fn pow(base: i64, exp: i64) -> Result<i64, ArithError> {
    if exp < 0 {
        return Err(ArithError::NegativeExponent);
    }
    match base {
        0 => Ok(i64::from(exp == 0)),
        1 => Ok(1),
        -1 => Ok(if exp % 2 == 0 { 1 } else { -1 }),
        // `|base| >= 2`: from the power 64 on, the result is at least 2^64.
        _ => u32::try_from(exp)
            .ok()
            .and_then(|e| base.checked_pow(e))
            .ok_or(ArithError::Overflow),
    }
}

/// `a + 1`, the exclusive end of the inclusive range `..= a`.
#[inline]
pub fn inclusive_end(a: i64) -> Result<i64, ArithError> {
    add(a, 1)
}

/// How many integers the half-open range `lo..hi` holds (0 when `hi <= lo`), exactly: up to
/// 2^64 - 1, so never a wrap.
#[inline]
pub fn range_count(lo: i64, hi: i64) -> u64 {
    if hi <= lo {
        0
    } else {
        // The difference is below 2^64: in two's complement it is the wrapped difference.
        hi.wrapping_sub(lo) as u64
    }
}

/// `len(lo..hi)`: [`range_count`] as an integer, which fails for a range of 2^63 numbers or
/// more (`-1..9223372036854775807`).
#[inline]
pub fn range_len(lo: i64, hi: i64) -> Result<i64, ArithError> {
    i64::try_from(range_count(lo, hi)).map_err(|_| ArithError::Overflow)
}

/// A count of items (at most `usize::MAX`) as an integer.
#[inline]
pub fn count(n: usize) -> Result<i64, ArithError> {
    i64::try_from(n).map_err(|_| ArithError::Overflow)
}

/// A running `sum(...)`: exact (in 128 bits) whatever the order of the items, so it fails
/// only when the total does not fit: `sum([9223372036854775807, 1, -1])` is
/// 9223372036854775807.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sum(i128);

impl Sum {
    /// Adds an item. 128 bits hold the sum of 2^64 items of 64 bits, so this never wraps
    /// for a collection that can exist; it saturates rather than wrap beyond.
    #[inline]
    pub fn add(&mut self, x: i64) {
        self.0 = self.0.saturating_add(i128::from(x));
    }

    /// The exact total, in 128 bits.
    #[inline]
    pub fn wide(self) -> i128 {
        self.0
    }

    /// The total.
    #[inline]
    pub fn total(self) -> Result<i64, ArithError> {
        i64::try_from(self.0).map_err(|_| ArithError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = i64::MIN;
    const MAX: i64 = i64::MAX;

    /// Every operator against exact 128-bit arithmetic, on values at and near the
    /// boundaries.
    #[test]
    fn operators_agree_with_exact_arithmetic_at_the_boundaries() {
        let values = [
            MIN,
            MIN + 1,
            -(1 << 32),
            -3,
            -2,
            -1,
            0,
            1,
            2,
            3,
            63,
            64,
            1 << 20,
            1 << 32,
            3_037_000_499,
            3_037_000_500,
            MAX - 1,
            MAX,
        ];
        let fits = |v: i128| i64::try_from(v).map_err(|_| ArithError::Overflow);
        for &a in &values {
            for &b in &values {
                let (x, y) = (i128::from(a), i128::from(b));
                assert_eq!(add(a, b), fits(x + y), "{a} + {b}");
                assert_eq!(sub(a, b), fits(x - y), "{a} - {b}");
                assert_eq!(mul(a, b), fits(x * y), "{a} * {b}");
                if b == 0 {
                    assert_eq!(div(a, b), Err(ArithError::DivisionByZero));
                    assert_eq!(rem(a, b), Err(ArithError::DivisionByZero));
                } else {
                    // The floor of x / y: Euclid's quotient when y > 0, of -x / -y else.
                    let q = if y > 0 {
                        x.div_euclid(y)
                    } else {
                        (-x).div_euclid(-y)
                    };
                    assert_eq!(div(a, b), fits(q), "{a} / {b}");
                    assert_eq!(rem(a, b), fits(x - q * y), "{a} % {b}");
                }
                let lanes = [a, a];
                for op in [IntOp::Add, IntOp::Sub, IntOp::Mul, IntOp::Div, IntOp::Rem] {
                    let mut out = lanes;
                    let bad = op.apply_lanes(&mut out, [b, b].into_iter());
                    assert_eq!(bad, op.apply(a, b).is_err(), "{op:?} {a} {b}");
                    if !bad {
                        assert_eq!(out[0], op.apply(a, b).unwrap_or(0));
                    }
                    let mut out = [b, b];
                    let bad = op.apply_lanes_to(a, &mut out);
                    assert_eq!(bad, op.apply(a, b).is_err(), "{op:?} {a} {b} (to)");
                }
            }
            assert_eq!(neg(a), fits(-i128::from(a)));
            assert_eq!(abs(a), fits(i128::from(a).abs()));
            let mut lanes = [a];
            assert_eq!(neg_lanes(&mut lanes), neg(a).is_err());
            let mut lanes = [a];
            assert_eq!(abs_lanes(&mut lanes), abs(a).is_err());
        }
    }

    #[test]
    fn a_power_that_fits_is_the_answer() {
        assert_eq!(pow(1, MAX), Ok(1));
        assert_eq!(pow(0, MAX), Ok(0));
        assert_eq!(pow(0, 0), Ok(1));
        assert_eq!(pow(-1, MAX), Ok(-1));
        assert_eq!(pow(-1, MAX - 1), Ok(1));
        assert_eq!(pow(-2, 63), Ok(MIN));
        assert_eq!(pow(2, 62), Ok(1 << 62));
        assert_eq!(pow(2, 63), Err(ArithError::Overflow));
        assert_eq!(pow(2, 1 << 32), Err(ArithError::Overflow));
        assert_eq!(pow(MIN, 1), Ok(MIN));
        assert_eq!(pow(MIN, 0), Ok(1));
        assert_eq!(pow(3, -1), Err(ArithError::NegativeExponent));
        // Against repeated multiplication for small bases and every exponent up to 70.
        for base in -5i64..=5 {
            let mut exact: Option<i64> = Some(1);
            for exp in 0..=70 {
                assert_eq!(pow(base, exp).ok(), exact, "{base} ** {exp}");
                exact = exact.and_then(|e| e.checked_mul(base));
            }
        }
    }

    #[test]
    fn ranges_count_exactly() {
        assert_eq!(range_count(0, 10), 10);
        assert_eq!(range_count(10, 0), 0);
        assert_eq!(range_count(MIN, MAX), u64::MAX);
        assert_eq!(range_count(-1, MAX), 1 << 63);
        assert_eq!(range_len(-1, MAX), Err(ArithError::Overflow));
        assert_eq!(range_len(0, MAX), Ok(MAX));
        assert_eq!(range_len(MIN, MIN + 5), Ok(5));
        assert_eq!(inclusive_end(MAX), Err(ArithError::Overflow));
    }

    #[test]
    fn a_sum_fails_only_when_its_total_does_not_fit() {
        let total = |xs: &[i64]| {
            let mut s = Sum::default();
            xs.iter().for_each(|x| s.add(*x));
            s.total()
        };
        assert_eq!(total(&[MAX, 1, -1]), Ok(MAX));
        assert_eq!(total(&[MIN, -1, 1]), Ok(MIN));
        assert_eq!(total(&[MAX, 1]), Err(ArithError::Overflow));
        assert_eq!(total(&[]), Ok(0));
    }
}
