//! Exact dyadic rationals: `num / 2^exp`, always reduced, with checked arithmetic.

use std::cmp::Ordering;
use std::fmt;

use super::CgtError;

/// The largest power of two a denominator may have (`2^62`).
pub const MAX_EXP: u32 = 62;

/// A dyadic rational `num / 2^exp`, reduced (`exp == 0` or `num` odd), with `exp <=`
/// [`MAX_EXP`]. Every operation is exact; one whose result does not fit is
/// [`CgtError::Overflow`], never a wrap.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };
    /// One.
    pub const ONE: Dyadic = Dyadic { num: 1, exp: 0 };
    /// Minus one.
    pub const MINUS_ONE: Dyadic = Dyadic { num: -1, exp: 0 };

    /// The integer `n`.
    pub const fn int(n: i64) -> Dyadic {
        Dyadic { num: n, exp: 0 }
    }

    /// `num / 2^exp`, reduced; an error if `2^exp` is too large even after reducing.
    pub fn new(num: i64, exp: u32) -> Result<Dyadic, CgtError> {
        Self::from_wide(i128::from(num), exp)
    }

    /// `num / den`, where `den` must be a positive power of two.
    pub fn from_fraction(num: i64, den: i64) -> Result<Dyadic, CgtError> {
        if den <= 0 || den.count_ones() != 1 {
            return Err(CgtError::NotDyadic);
        }
        Self::new(num, den.trailing_zeros())
    }

    /// Reduces a wide numerator over `2^exp` and checks that it fits.
    fn from_wide(mut num: i128, mut exp: u32) -> Result<Dyadic, CgtError> {
        if num == 0 {
            return Ok(Dyadic::ZERO);
        }
        let shift = num.trailing_zeros().min(exp);
        num >>= shift;
        exp -= shift;
        if exp > MAX_EXP {
            return Err(CgtError::Overflow);
        }
        let num = i64::try_from(num).map_err(|_| CgtError::Overflow)?;
        Ok(Dyadic { num, exp })
    }

    /// The numerator of the reduced form.
    pub fn numerator(self) -> i64 {
        self.num
    }

    /// The exponent `k` of the reduced denominator `2^k`.
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// Whether this is an integer.
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// Whether this is zero.
    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// The numerator scaled to denominator `2^exp` (`exp >= self.exp`), as `i128`.
    fn scaled(self, exp: u32) -> i128 {
        i128::from(self.num) << (exp - self.exp)
    }

    /// `self + other`.
    pub fn checked_add(self, other: Dyadic) -> Result<Dyadic, CgtError> {
        let exp = self.exp.max(other.exp);
        Self::from_wide(self.scaled(exp) + other.scaled(exp), exp)
    }

    /// `self - other`.
    pub fn checked_sub(self, other: Dyadic) -> Result<Dyadic, CgtError> {
        let exp = self.exp.max(other.exp);
        Self::from_wide(self.scaled(exp) - other.scaled(exp), exp)
    }

    /// `-self`.
    pub fn checked_neg(self) -> Result<Dyadic, CgtError> {
        let num = self.num.checked_neg().ok_or(CgtError::Overflow)?;
        Ok(Dyadic { num, exp: self.exp })
    }

    /// `self * k` for an integer `k`.
    pub fn mul_int(self, k: i64) -> Result<Dyadic, CgtError> {
        Self::from_wide(i128::from(self.num) * i128::from(k), self.exp)
    }

    /// `self / 2`.
    pub fn half(self) -> Result<Dyadic, CgtError> {
        Self::from_wide(i128::from(self.num), self.exp + 1)
    }

    /// The greatest integer `<= self`.
    pub fn floor(self) -> i64 {
        self.num >> self.exp
    }

    /// The least integer `>= self`.
    pub fn ceil(self) -> i64 {
        let f = self.floor();
        if self.exp == 0 {
            f
        } else {
            f + 1
        }
    }

    /// The simplest number strictly between `lo` and `hi` (`None`: unbounded on that side),
    /// by the simplest-number rule: the integer of least absolute value if the interval
    /// holds one, otherwise the dyadic of least denominator (which is unique). An error
    /// if `lo >= hi`.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Result<Dyadic, CgtError> {
        if let (Some(l), Some(h)) = (lo, hi) {
            if l >= h {
                return Err(CgtError::EmptyInterval);
            }
        }
        let above_lo = |x: Dyadic| lo.is_none_or(|l| x > l);
        let below_hi = |x: Dyadic| hi.is_none_or(|h| x < h);
        if above_lo(Dyadic::ZERO) && below_hi(Dyadic::ZERO) {
            return Ok(Dyadic::ZERO);
        }
        // The interval lies on one side of 0: the integer nearest 0 inside, if any.
        let candidate = match lo {
            Some(l) if l >= Dyadic::ZERO => {
                Dyadic::int(l.floor().checked_add(1).ok_or(CgtError::Overflow)?)
            }
            _ => {
                let h = hi.ok_or(CgtError::EmptyInterval)?;
                Dyadic::int(h.ceil().checked_sub(1).ok_or(CgtError::Overflow)?)
            }
        };
        if above_lo(candidate) && below_hi(candidate) {
            return Ok(candidate);
        }
        // No integer inside, so both ends are finite: the least denominator wins.
        let (l, h) = match (lo, hi) {
            (Some(l), Some(h)) => (l, h),
            _ => return Err(CgtError::EmptyInterval),
        };
        for k in 1..=MAX_EXP {
            // The least multiple of 2^-k above l.
            let m = (l.scaled(l.exp.max(k)) >> (l.exp.max(k) - k)) + 1;
            let x = Self::from_wide(m, k)?;
            if x < h {
                return Ok(x);
            }
        }
        Err(CgtError::Overflow)
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Dyadic) -> Ordering {
        let exp = self.exp.max(other.exp);
        self.scaled(exp).cmp(&other.scaled(exp))
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<i32> for Dyadic {
    fn from(n: i32) -> Dyadic {
        Dyadic::int(i64::from(n))
    }
}

/// CGSuite's notation: `5`, `-3/4`, `0`.
impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(num: i64, den: i64) -> Dyadic {
        Dyadic::from_fraction(num, den).unwrap()
    }

    #[test]
    fn reduces_and_prints() {
        assert_eq!(d(6, 8), d(3, 4));
        assert_eq!(d(6, 8).to_string(), "3/4");
        assert_eq!(d(-6, 8).to_string(), "-3/4");
        assert_eq!(d(10, 2).to_string(), "5");
        assert_eq!(d(0, 16).to_string(), "0");
        assert_eq!(Dyadic::from_fraction(1, 3), Err(CgtError::NotDyadic));
        assert_eq!(Dyadic::from_fraction(1, 0), Err(CgtError::NotDyadic));
    }

    #[test]
    fn arithmetic_and_order() {
        assert_eq!(d(1, 2).checked_add(d(1, 4)).unwrap(), d(3, 4));
        assert_eq!(d(1, 2).checked_sub(d(3, 4)).unwrap(), d(-1, 4));
        assert_eq!(d(3, 8).checked_neg().unwrap(), d(-3, 8));
        assert_eq!(d(3, 2).half().unwrap(), d(3, 4));
        assert_eq!(d(3, 4).mul_int(4).unwrap(), Dyadic::int(3));
        assert!(d(1, 2) < d(3, 4));
        assert!(d(-1, 2) > Dyadic::int(-1));
        assert_eq!(d(-3, 2).floor(), -2);
        assert_eq!(d(-3, 2).ceil(), -1);
        assert_eq!(d(7, 4).floor(), 1);
        assert_eq!(d(7, 4).ceil(), 2);
    }

    #[test]
    fn overflow_is_an_error() {
        let big = Dyadic::int(i64::MAX);
        assert_eq!(big.checked_add(Dyadic::ONE), Err(CgtError::Overflow));
        assert_eq!(Dyadic::int(i64::MIN).checked_neg(), Err(CgtError::Overflow));
        let tiny = Dyadic::new(1, MAX_EXP).unwrap();
        assert_eq!(tiny.half(), Err(CgtError::Overflow));
        assert_eq!(big.mul_int(2), Err(CgtError::Overflow));
        assert_eq!(Dyadic::new(1, 63), Err(CgtError::Overflow));
        // 2/2^63 reduces to 1/2^62, which fits.
        assert_eq!(Dyadic::new(2, 63), Dyadic::new(1, 62));
    }

    #[test]
    fn simplest_between() {
        let s = |lo: Option<Dyadic>, hi: Option<Dyadic>| Dyadic::simplest_between(lo, hi).unwrap();
        assert_eq!(s(None, None), Dyadic::ZERO);
        assert_eq!(s(Some(Dyadic::ZERO), None), Dyadic::ONE);
        assert_eq!(s(Some(d(5, 2)), None), Dyadic::int(3));
        assert_eq!(s(None, Some(d(-5, 2))), Dyadic::int(-3));
        assert_eq!(s(None, Some(Dyadic::int(-3))), Dyadic::int(-4));
        assert_eq!(s(Some(Dyadic::int(-1)), Some(Dyadic::int(2))), Dyadic::ZERO);
        assert_eq!(s(Some(Dyadic::ONE), Some(Dyadic::int(5))), Dyadic::int(2));
        assert_eq!(s(Some(Dyadic::ZERO), Some(Dyadic::ONE)), d(1, 2));
        assert_eq!(s(Some(d(1, 2)), Some(Dyadic::ONE)), d(3, 4));
        assert_eq!(s(Some(d(1, 8)), Some(d(7, 8))), d(1, 2));
        assert_eq!(s(Some(d(-7, 8)), Some(d(-1, 8))), d(-1, 2));
        assert_eq!(s(Some(d(5, 8)), Some(d(11, 16))), d(21, 32));
        assert_eq!(s(Some(d(3, 2)), Some(Dyadic::int(2))), d(7, 4));
        assert_eq!(
            Dyadic::simplest_between(Some(Dyadic::ONE), Some(Dyadic::ONE)),
            Err(CgtError::EmptyInterval)
        );
    }

    /// The simplest-number rule against a search of the numbers born by day 8, in birth order.
    #[test]
    fn simplest_between_matches_birth_order() {
        // All numbers born by day n, each with its birthday.
        let mut born: Vec<(Dyadic, u32)> = vec![(Dyadic::ZERO, 0)];
        for day in 1..=8u32 {
            let mut sorted: Vec<Dyadic> = born.iter().map(|&(x, _)| x).collect();
            sorted.sort();
            let mut new = vec![];
            new.push(sorted[0].checked_sub(Dyadic::ONE).unwrap());
            new.push(sorted[sorted.len() - 1].checked_add(Dyadic::ONE).unwrap());
            for w in sorted.windows(2) {
                new.push(w[0].checked_add(w[1]).unwrap().half().unwrap());
            }
            born.extend(new.into_iter().map(|x| (x, day)));
        }
        let xs: Vec<Dyadic> = born.iter().map(|&(x, _)| x).collect();
        for &lo in &xs {
            for &hi in &xs {
                if lo >= hi {
                    continue;
                }
                let first = born
                    .iter()
                    .filter(|&&(x, _)| x > lo && x < hi)
                    .min_by_key(|&&(_, b)| b);
                if let Some(&(want, b)) = first {
                    // Only trust the search where the winner is born well before day 8.
                    if b < 8 {
                        assert_eq!(
                            Dyadic::simplest_between(Some(lo), Some(hi)).unwrap(),
                            want,
                            "{lo} {hi}"
                        );
                    }
                }
            }
        }
    }
}
