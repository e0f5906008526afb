//! An integer-pivoting tableau (Edmonds; the dictionary lrs keeps): the rows of `det · B⁻¹ [A | b]`
//! for the current basis `B`, where `det = |det B|`. A pivot multiplies and divides exactly
//! (each entry is a minor of the initial matrix), so it takes no gcd and its entries stay the
//! size of the input's determinants, where a tableau of big rationals reduces every entry.
//! Lemke–Howson (`bimatrix.rs`) and the enumeration of a polytope's vertices (`vertex.rs`)
//! pivot on it.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

use super::StrategicError;

/// The tableau: `rows[r]` is the row of basic variable `basis[r]`; its column `rhs` is the
/// right-hand side, every other column a variable.
#[derive(Clone, Debug)]
pub(super) struct Tableau {
    rows: Vec<Vec<BigInt>>,
    det: BigInt,
    basis: Vec<usize>,
    rhs: usize,
}

impl Tableau {
    /// A tableau whose basis is `basis` (the columns of an identity in `rows`), with the
    /// right-hand side in column `rhs`.
    pub(super) fn new(rows: Vec<Vec<BigInt>>, basis: Vec<usize>, rhs: usize) -> Tableau {
        Tableau {
            rows,
            det: BigInt::one(),
            basis,
            rhs,
        }
    }

    /// The basic variable of each row.
    pub(super) fn basis(&self) -> &[usize] {
        &self.basis
    }

    /// The common denominator: `|det B|`.
    pub(super) fn det(&self) -> &BigInt {
        &self.det
    }

    /// Each basic variable's value times `det` (the right-hand side), by row.
    pub(super) fn scaled_values(&self) -> impl Iterator<Item = (usize, &BigInt)> {
        self.basis
            .iter()
            .zip(&self.rows)
            .map(|(&v, row)| (v, &row[self.rhs]))
    }

    /// The lexicographic minimum ratio test for `entering`: among rows with a positive entry
    /// in its column, the least `rhs / entry`, ties broken by the columns `order` (the
    /// columns of the first basis, so that the right-hand side is read as perturbed by ε,
    /// ε², ...: the rows of the basis inverse are independent, so exactly one row wins when
    /// `order` holds the first basis). `None` when no entry is positive (an unbounded ray).
    pub(super) fn ratio_test(&self, entering: usize, order: &[usize]) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (r, row) in self.rows.iter().enumerate() {
            if !row[entering].is_positive() {
                continue;
            }
            let better = best.is_none_or(|b| {
                let other = &self.rows[b];
                // row[c] / row[e] < other[c] / other[e], both entries positive.
                std::iter::once(self.rhs)
                    .chain(order.iter().copied())
                    .map(|c| (&row[c] * &other[entering]).cmp(&(&other[c] * &row[entering])))
                    .find(|o| o.is_ne())
                    == Some(Ordering::Less)
            });
            if better {
                best = Some(r);
            }
        }
        best
    }

    /// Pivots `entering` into the basis at `row`; gives the variable that left.
    pub(super) fn pivot(
        &mut self,
        row: usize,
        entering: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<usize, StrategicError> {
        let mut p = self.rows[row][entering].clone();
        if p.is_zero() {
            return Err(StrategicError::Internal("a pivot on a zero entry"));
        }
        if p.is_negative() {
            for x in self.rows[row].iter_mut() {
                *x = -&*x;
            }
            p = -p;
        }
        let pivot_row = std::mem::take(&mut self.rows[row]);
        for (i, r) in self.rows.iter_mut().enumerate() {
            if i == row {
                continue;
            }
            if stop() {
                self.rows[row] = pivot_row;
                return Err(StrategicError::Stopped);
            }
            let f = std::mem::take(&mut r[entering]);
            let unit = self.det.is_one();
            for (x, y) in r.iter_mut().zip(&pivot_row) {
                // In place: the entries are big, and allocation is most of a pivot's cost.
                *x *= &p;
                if !f.is_zero() && !y.is_zero() {
                    *x -= &f * y;
                }
                if !unit {
                    *x /= &self.det;
                }
            }
            r[entering] = BigInt::zero();
        }
        self.rows[row] = pivot_row;
        self.det = p;
        Ok(std::mem::replace(&mut self.basis[row], entering))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    fn big(rows: &[&[i64]]) -> Vec<Vec<BigInt>> {
        rows.iter()
            .map(|r| r.iter().map(|&x| BigInt::from(x)).collect())
            .collect()
    }

    /// Every pivot keeps `det · B⁻¹ [A | b]`: checked against the same pivots done on big
    /// rationals (divide the pivot row, eliminate the column), on random tableaux.
    #[test]
    fn integer_pivots_agree_with_rational_pivots() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |k: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * k as u64 + 1)) as i64 - k
        };
        for _ in 0..200 {
            let (m, n) = (3, 4);
            let mut rows = Vec::new();
            for i in 0..m {
                let mut row: Vec<i64> = (0..n).map(|_| next(5)).collect();
                row.extend((0..m).map(|j| i64::from(i == j)));
                row.push(next(9));
                rows.push(row);
            }
            let refs: Vec<&[i64]> = rows.iter().map(|r| r.as_slice()).collect();
            let mut t = Tableau::new(big(&refs), (n..n + m).collect(), n + m);
            let mut q: Vec<Vec<BigRational>> = t
                .rows
                .iter()
                .map(|r| r.iter().map(|x| BigRational::from(x.clone())).collect())
                .collect();
            for _ in 0..6 {
                let (row, col) = (
                    (next(9).unsigned_abs() % m as u64) as usize,
                    (next(9).unsigned_abs() % n as u64) as usize,
                );
                if q[row][col].is_zero() {
                    continue;
                }
                t.pivot(row, col, &|| false).unwrap();
                let p = q[row][col].clone();
                for x in q[row].iter_mut() {
                    *x /= &p;
                }
                let pr = q[row].clone();
                for (i, r) in q.iter_mut().enumerate() {
                    if i != row {
                        let f = r[col].clone();
                        for (x, y) in r.iter_mut().zip(&pr) {
                            *x -= &f * y;
                        }
                    }
                }
                for (r, qr) in t.rows.iter().zip(&q) {
                    for (x, y) in r.iter().zip(qr) {
                        let scaled = BigRational::new(x.clone(), t.det.clone());
                        assert_eq!(&scaled, y);
                    }
                }
            }
        }
    }
}
