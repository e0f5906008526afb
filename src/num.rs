//! Exact rational numbers: the numeric tower's middle floor.
//!
//! The value language has one numeric tower: integers (`Value::Int`, `i64`) ⊂ rationals
//! ([`Rational`], `i64 / i64`) and, beside them, the game values of `crate::cgt` (whose numbers
//! are the dyadic rationals). A rational whose denominator is 1 is always written back as an
//! integer ([`crate::value::Value::number`]), so equal numbers have one representation.
//!
//! Every operation is exact; one whose result does not fit `i64 / i64` returns `None`, never a
//! wrap. The caller then redoes it on big rationals ([`Fraction::of`]): a fraction may be of
//! any size up to [`MAX_FRACTION_BITS`], while an integer stays 64-bit (an integral result past
//! it is `cgl::eval::overflow`, as integer arithmetic's is).

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// `num / den`, reduced, with `den > 0`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rational {
    num: i64,
    den: i64,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational { num: 0, den: 1 };

    /// The integer `n`.
    pub const fn int(n: i64) -> Rational {
        Rational { num: n, den: 1 }
    }

    /// `num / den` reduced; `None` if `den` is zero or the reduced form does not fit.
    pub fn new(num: i64, den: i64) -> Option<Rational> {
        Self::from_wide(i128::from(num), i128::from(den))
    }

    /// Reduces a wide fraction and checks that it fits.
    fn from_wide(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i128;
        let (mut num, mut den) = (num / g, den / g);
        if den < 0 {
            num = -num;
            den = -den;
        }
        Some(Rational {
            num: i64::try_from(num).ok()?,
            den: i64::try_from(den).ok()?,
        })
    }

    /// The numerator (its sign is the number's).
    pub fn numer(self) -> i64 {
        self.num
    }

    /// The denominator, positive.
    pub fn denom(self) -> i64 {
        self.den
    }

    /// Whether the denominator is 1.
    pub fn is_integer(self) -> bool {
        self.den == 1
    }

    // The wide operations below never fail: a product of two `i64`s is below 2^126 in
    // magnitude and a sum or difference of two such below 2^127, so only the reduced result
    // can fail to fit, and `from_wide` says so.

    /// `self + other`, or `None` if it does not fit.
    pub fn checked_add(self, other: Rational) -> Option<Rational> {
        let (a, b, c, d) = self.wide(other);
        Self::from_wide(
            a.checked_mul(d)?.checked_add(c.checked_mul(b)?)?,
            b.checked_mul(d)?,
        )
    }

    /// `self - other`, or `None` if it does not fit.
    ///
    /// Computed directly, not as `self + -other`: `-other` does not fit when `other`'s
    /// numerator is `i64::MIN` (`-(-9223372036854775808/3)`), though the difference may
    /// (`x - x` is 0).
    pub fn checked_sub(self, other: Rational) -> Option<Rational> {
        let (a, b, c, d) = self.wide(other);
        Self::from_wide(
            a.checked_mul(d)?.checked_sub(c.checked_mul(b)?)?,
            b.checked_mul(d)?,
        )
    }

    /// `self * other`, or `None` if it does not fit.
    pub fn checked_mul(self, other: Rational) -> Option<Rational> {
        let (a, b, c, d) = self.wide(other);
        Self::from_wide(a.checked_mul(c)?, b.checked_mul(d)?)
    }

    /// `self / other`, or `None` if `other` is zero or the result does not fit.
    pub fn checked_div(self, other: Rational) -> Option<Rational> {
        let (a, b, c, d) = self.wide(other);
        Self::from_wide(a.checked_mul(d)?, b.checked_mul(c)?)
    }

    /// `-self`, or `None` for `i64::MIN` numerators.
    pub fn checked_neg(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    /// The largest integer at most `self`.
    pub fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
    }

    fn wide(self, other: Rational) -> (i128, i128, i128, i128) {
        (
            i128::from(self.num),
            i128::from(self.den),
            i128::from(other.num),
            i128::from(other.den),
        )
    }
}

/// A running `sum(...)` of integers and rationals, exact whatever the order of the items (a
/// big fraction inside), so it fails only when the total does not fit:
/// `sum([9223372036854775807, 1/2, -1/2])` is 9223372036854775807, though the running total
/// after two items, `18446744073709551615/2`, does not fit.
#[derive(Clone, Debug)]
pub struct RationalSum(BigRational);

impl Default for RationalSum {
    fn default() -> Self {
        RationalSum(BigRational::zero())
    }
}

impl RationalSum {
    /// Adds an integer (a wide one: the exact total of integer items).
    pub fn add_int(&mut self, n: i128) {
        self.0 += BigRational::from_integer(BigInt::from(n));
    }

    /// Adds a rational.
    pub fn add(&mut self, r: Rational) {
        self.0 += r.big();
    }

    /// The total, or `None` if it does not fit `i64 / i64`.
    pub fn total(&self) -> Option<Rational> {
        // A `BigRational` is kept reduced, with a positive denominator.
        Some(Rational {
            num: i64::try_from(self.0.numer()).ok()?,
            den: i64::try_from(self.0.denom()).ok()?,
        })
    }
}

impl RationalSum {
    /// Adds a wide fraction.
    pub fn add_big(&mut self, q: &BigRational) {
        self.0 += q;
    }

    /// The exact total.
    pub fn exact(self) -> BigRational {
        self.0
    }
}

/// The most bits the numerator or the denominator of a fraction may have (about 315,000
/// decimal digits): past it an answer is refused, so that no loop of products grows a number
/// without bound.
pub const MAX_FRACTION_BITS: u64 = 1 << 20;

/// An exact fraction as the language holds it: in 64 bits when it fits, else wide.
#[derive(Clone, Debug, PartialEq)]
pub enum Fraction {
    /// It fits `i64 / i64` (an integer when its denominator is 1).
    Fits(Rational),
    /// A fraction that is not an integer, whose numerator or denominator needs more than 64
    /// bits.
    Wide(BigRational),
}

/// Why a big rational is no fraction of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// It is an integer past 64 bits (integers are 64-bit).
    Integer,
    /// Its numerator or denominator has more than [`MAX_FRACTION_BITS`] bits.
    Size,
}

impl Fraction {
    /// The fraction `q` is, or why it is none.
    pub fn of(q: BigRational) -> Result<Fraction, Unfit> {
        if let (Ok(num), Ok(den)) = (i64::try_from(q.numer()), i64::try_from(q.denom())) {
            return Ok(Fraction::Fits(Rational { num, den }));
        }
        if q.is_integer() {
            return Err(Unfit::Integer);
        }
        if q.numer().bits().max(q.denom().bits()) > MAX_FRACTION_BITS {
            return Err(Unfit::Size);
        }
        Ok(Fraction::Wide(q))
    }
}

impl Rational {
    /// The rational as a big rational.
    pub fn big(self) -> BigRational {
        BigRational::new_raw(BigInt::from(self.num), BigInt::from(self.den))
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Rational) -> Ordering {
        let (a, b, c, d) = self.wide(*other);
        // Both denominators are positive and below 2^63, so the products fit in i128.
        (a * d).cmp(&(c * b))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Rational) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rational;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d).unwrap_or(Rational::ZERO)
    }

    #[test]
    fn fractions_reduce_and_keep_the_sign_on_top() {
        assert_eq!(r(2, -4).to_string(), "-1/2");
        assert_eq!(r(6, 3).to_string(), "2");
        assert_eq!(Rational::new(1, 0), None);
        assert_eq!(Rational::new(i64::MIN, -1), None);
    }

    #[test]
    fn arithmetic_is_exact_or_none() {
        assert_eq!(r(1, 3).checked_add(r(1, 6)), Some(r(1, 2)));
        assert_eq!(r(1, 3).checked_sub(r(1, 2)), Some(r(-1, 6)));
        assert_eq!(r(2, 3).checked_mul(r(3, 4)), Some(r(1, 2)));
        assert_eq!(r(2, 3).checked_div(r(0, 1)), None);
        assert_eq!(r(i64::MAX, 1).checked_add(r(1, 1)), None);
        assert_eq!(r(-7, 2).floor(), -4);
        assert!(r(1, 3) < r(1, 2) && r(-1, 2) < r(-1, 3));
    }

    /// See: issue "Reliability III", finding 1 (`x - x` with `x`'s numerator `i64::MIN` was
    /// refused). `tests/rational_oracle.rs` checks every operator against Python.
    #[test]
    fn a_difference_that_fits_is_the_answer() {
        let third_of_min = r(i64::MIN, 3);
        assert_eq!(third_of_min.checked_sub(third_of_min), Some(Rational::ZERO));
        assert_eq!(
            r(1, 3).checked_sub(third_of_min),
            Some(Rational::int(3074457345618258603))
        );
        assert_eq!(
            r(-1, 1).checked_sub(third_of_min),
            Some(r(9223372036854775805, 3))
        );
        assert_eq!(third_of_min.checked_neg(), None);
        assert_eq!(r(1, 2).checked_sub(Rational::int(i64::MIN)), None);
    }

    #[test]
    fn a_sum_is_exact_whatever_the_order() {
        let mut sum = super::RationalSum::default();
        sum.add_int(i128::from(i64::MAX));
        sum.add(r(1, 2));
        assert_eq!(sum.total(), None);
        sum.add(r(-1, 2));
        assert_eq!(sum.total(), Some(Rational::int(i64::MAX)));
    }
}
