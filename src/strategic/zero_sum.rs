//! Two-player zero-sum games: the value and an optimal mixed strategy for each player, by
//! the simplex method over exact rationals.
//!
//! With the row player's matrix shifted to `M = A + k > 0` (the value shifts by `k`, the
//! optimal strategies do not), the column player's problem is the linear program
//! `max 1·q subject to M q <= 1, q >= 0`; at its optimum `1·q = 1/v`, `y = v q`, and the
//! reduced costs of the slack columns are the dual solution `p` with `x = v p`. The
//! all-slack basis is feasible (the right-hand side is 1), the program is bounded (every
//! entry of `M` is positive) and Bland's rule (the lowest improving column, ties in the
//! ratio test to the lowest basic variable) never cycles, so the method ends.
//!
//! The tableau has a row per row strategy and a column per strategy of either player; when
//! it would pass [`MAX_TABLEAU_CELLS`] the game is solved as its column player sees it
//! (`-Aᵀ`, whose tableau has a row per column strategy), and refused when both are too
//! large.

use num_traits::{One, Signed, Zero};

use super::{Game, Mixed, StrategicError, MAX_TABLEAU_CELLS, Q};

/// The value of a zero-sum game for the row player and one optimal strategy of each.
#[derive(Clone, Debug)]
pub struct Solution {
    /// What the row player can guarantee, and the column player hold them to.
    pub value: Q,
    /// An optimal strategy of the row player.
    pub row: Mixed,
    /// An optimal strategy of the column player.
    pub column: Mixed,
}

impl Game {
    /// Solves a two-player zero-sum game.
    pub fn solve_zero_sum(&self, stop: &dyn Fn() -> bool) -> Result<Solution, StrategicError> {
        let (a, _) = self.bimatrix()?;
        self.zero_sum()?;
        solve_matrix(&a, stop)
    }
}

/// The entries of the simplex tableau of an `m × n` game.
fn tableau_cells(m: usize, n: usize) -> u128 {
    (m as u128 + 1) * (n as u128 + m as u128 + 1)
}

/// The value and optimal strategies of the zero-sum game whose row player's payoffs are
/// `a` (at least one row and one column).
pub(super) fn solve_matrix(
    a: &[Vec<Q>],
    stop: &dyn Fn() -> bool,
) -> Result<Solution, StrategicError> {
    let (m, n) = (a.len(), a[0].len());
    let cells = tableau_cells(m, n);
    if cells <= MAX_TABLEAU_CELLS {
        return simplex(a, stop);
    }
    if tableau_cells(n, m) > MAX_TABLEAU_CELLS {
        return Err(StrategicError::TableauTooLarge(
            cells.min(tableau_cells(n, m)),
        ));
    }
    // The column player's game: its value is minus this one's, its optimal strategies
    // this one's, swapped.
    let turned: Vec<Vec<Q>> = (0..n)
        .map(|j| a.iter().map(|row| -&row[j]).collect())
        .collect();
    let s = simplex(&turned, stop)?;
    Ok(Solution {
        value: -s.value,
        row: s.column,
        column: s.row,
    })
}

/// [`solve_matrix`] by the simplex method on the row player's tableau.
fn simplex(a: &[Vec<Q>], stop: &dyn Fn() -> bool) -> Result<Solution, StrategicError> {
    let (m, n) = (a.len(), a[0].len());
    let min = a.iter().flatten().min().cloned().unwrap_or_else(Q::zero);
    let shift = if min.is_positive() {
        Q::zero()
    } else {
        Q::one() - min
    };
    // Rows 0..m are the constraints, row m the objective; columns 0..n are q, n..n+m the
    // slacks, n+m the right-hand side.
    let width = n + m + 1;
    let mut t: Vec<Vec<Q>> = vec![vec![Q::zero(); width]; m + 1];
    for i in 0..m {
        for j in 0..n {
            t[i][j] = &a[i][j] + &shift;
        }
        t[i][n + i] = Q::one();
        t[i][n + m] = Q::one();
    }
    for x in &mut t[m][..n] {
        *x = -Q::one();
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    loop {
        if stop() {
            return Err(StrategicError::Stopped);
        }
        let Some(enter) = (0..n + m).find(|&j| t[m][j].is_negative()) else {
            break;
        };
        let mut leave: Option<(usize, Q)> = None;
        for i in 0..m {
            if t[i][enter].is_positive() {
                let ratio = &t[i][n + m] / &t[i][enter];
                let better = match &leave {
                    None => true,
                    Some((r, best)) => ratio < *best || (ratio == *best && basis[i] < basis[*r]),
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // Bounded: every column of M is positive, so a row always limits the step.
        let Some((row, _)) = leave else {
            return Err(StrategicError::Internal("an unbounded zero-sum program"));
        };
        pivot(&mut t, row, enter, stop)?;
        basis[row] = enter;
    }
    let z = t[m][n + m].clone();
    let v = Q::one() / &z;
    let mut column = vec![Q::zero(); n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            column[b] = &t[i][n + m] * &v;
        }
    }
    let row: Mixed = (0..m).map(|i| &t[m][n + i] * &v).collect();
    Ok(Solution {
        value: v - shift,
        row,
        column,
    })
}

/// One Gauss–Jordan pivot of a tableau on `(row, col)`, looking at `stop` before each row
/// (a row of big rationals may take long on a large tableau).
pub(super) fn pivot(
    t: &mut [Vec<Q>],
    row: usize,
    col: usize,
    stop: &dyn Fn() -> bool,
) -> Result<(), StrategicError> {
    let p = t[row][col].clone();
    for x in t[row].iter_mut() {
        *x /= &p;
    }
    let pivot_row = t[row].clone();
    for (i, r) in t.iter_mut().enumerate() {
        if i == row || r[col].is_zero() {
            continue;
        }
        if stop() {
            return Err(StrategicError::Stopped);
        }
        let f = r[col].clone();
        for (x, y) in r.iter_mut().zip(&pivot_row) {
            if !y.is_zero() {
                *x -= &f * y;
            }
        }
    }
    Ok(())
}
