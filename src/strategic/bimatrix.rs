//! Two-player general-sum games: nondegeneracy, support enumeration, Lemke–Howson.
//!
//! A bimatrix game is nondegenerate when no mixed strategy with `k` strategies in its
//! support has more than `k` pure best responses. Then every equilibrium has supports of
//! one size `k` on both sides, and each pair of supports holds at most one, found by
//! solving the indifference equations (support enumeration, as in von Stengel's chapter of
//! the *Handbook of Game Theory* and nashpy's `support_enumeration`). The check is the
//! definition read as equations: a strategy mixing `k` strategies with `k + 1` best
//! responses solves `k + 2` equations in `k + 1` unknowns, tried for every pair of sets;
//! a system with many solutions counts as degenerate (a cautious answer: a refusal, never
//! a missed equilibrium).
//!
//! The systems are solved fraction-free (Bareiss's Gauss–Jordan elimination: every entry
//! is a minor of the matrix, so every division is exact), over `i128` with checked
//! operations and again over big integers if one overflows.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::tableau::Tableau;
use super::vertex::vertex_budget;
use super::{Game, Mixed, StrategicError, MAX_TABLEAU_CELLS, Q};

/// The most linear systems support enumeration (with its nondegeneracy check) solves; a
/// larger game is refused, naming Lemke–Howson.
pub const MAX_SUPPORT_SYSTEMS: u128 = 1_000_000;

/// Integers the eliminations run on: `i128` (checked) or big integers.
pub(super) trait Ring: Clone + PartialOrd {
    fn from_big(x: &BigInt) -> Option<Self>;
    fn int(n: i64) -> Self;
    fn add(&self, o: &Self) -> Option<Self>;
    fn sub(&self, o: &Self) -> Option<Self>;
    fn mul(&self, o: &Self) -> Option<Self>;
    fn div_exact(&self, o: &Self) -> Option<Self>;
    fn neg(&self) -> Option<Self>;
    fn is_zero(&self) -> bool;
    fn is_negative(&self) -> bool;
    fn to_big(&self) -> BigInt;
}

impl Ring for i128 {
    fn from_big(x: &BigInt) -> Option<Self> {
        i128::try_from(x).ok()
    }
    fn int(n: i64) -> Self {
        i128::from(n)
    }
    fn add(&self, o: &Self) -> Option<Self> {
        self.checked_add(*o)
    }
    fn sub(&self, o: &Self) -> Option<Self> {
        self.checked_sub(*o)
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        self.checked_mul(*o)
    }
    fn div_exact(&self, o: &Self) -> Option<Self> {
        self.checked_div(*o)
    }
    fn neg(&self) -> Option<Self> {
        self.checked_neg()
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn is_negative(&self) -> bool {
        *self < 0
    }
    fn to_big(&self) -> BigInt {
        BigInt::from(*self)
    }
}

impl Ring for BigInt {
    fn from_big(x: &BigInt) -> Option<Self> {
        Some(x.clone())
    }
    fn int(n: i64) -> Self {
        BigInt::from(n)
    }
    fn add(&self, o: &Self) -> Option<Self> {
        Some(self + o)
    }
    fn sub(&self, o: &Self) -> Option<Self> {
        Some(self - o)
    }
    fn mul(&self, o: &Self) -> Option<Self> {
        Some(self * o)
    }
    fn div_exact(&self, o: &Self) -> Option<Self> {
        Some(self / o)
    }
    fn neg(&self) -> Option<Self> {
        Some(-self)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn is_negative(&self) -> bool {
        Signed::is_negative(self)
    }
    fn to_big(&self) -> BigInt {
        self.clone()
    }
}

/// The solutions of a linear system.
pub(super) enum Solved<R> {
    /// None.
    Inconsistent,
    /// More than one.
    Many,
    /// Exactly one: unknown `i` is `num[i] / den`, with `den > 0`.
    One { num: Vec<R>, den: R },
}

/// Solves the system whose rows are `coefficients.., right-hand side`; `None` on overflow.
pub(super) fn solve<R: Ring>(mut rows: Vec<Vec<R>>, unknowns: usize) -> Option<Solved<R>> {
    let mut prev = R::int(1);
    let mut rank = 0;
    let mut pivots = Vec::new();
    for c in 0..unknowns {
        let Some(p) = (rank..rows.len()).find(|&r| !rows[r][c].is_zero()) else {
            continue;
        };
        rows.swap(rank, p);
        let pivot_row = rows[rank].clone();
        let a = pivot_row[c].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i == rank {
                continue;
            }
            let f = row[c].clone();
            for j in 0..=unknowns {
                if j == c {
                    continue;
                }
                let v = a.mul(&row[j])?.sub(&f.mul(&pivot_row[j])?)?;
                row[j] = v.div_exact(&prev)?;
            }
            row[c] = R::int(0);
        }
        // The rows already reduced keep their pivots scaled by the new one.
        prev = a;
        pivots.push(c);
        rank += 1;
    }
    if rows[rank..].iter().any(|r| !r[unknowns].is_zero()) {
        return Some(Solved::Inconsistent);
    }
    if rank < unknowns {
        return Some(Solved::Many);
    }
    // Fraction-free Gauss–Jordan leaves `det` on the diagonal and `det * x` on the right.
    let mut den = prev;
    let mut num: Vec<R> = (0..unknowns).map(|r| rows[r][unknowns].clone()).collect();
    if den.is_negative() {
        den = den.neg()?;
        for x in &mut num {
            *x = x.neg()?;
        }
    }
    Some(Solved::One { num, den })
}

/// A mix of the `mixer`'s strategies `support` that makes the other player indifferent
/// among `targets`: `payoff[s][t]` is the other player's payoff. Unknowns: the weights,
/// then the other's payoff `u`.
fn indifference<R: Ring>(
    payoff: &[Vec<R>],
    support: &[usize],
    targets: &[usize],
) -> Option<Solved<R>> {
    let k = support.len();
    let mut rows = Vec::with_capacity(targets.len() + 1);
    for &t in targets {
        let mut row: Vec<R> = support.iter().map(|&s| payoff[s][t].clone()).collect();
        row.push(R::int(-1));
        row.push(R::int(0));
        rows.push(row);
    }
    let mut sum = vec![R::int(1); k];
    sum.push(R::int(0));
    sum.push(R::int(1));
    rows.push(sum);
    solve(rows, k + 1)
}

/// How a solved mix fares: whether every weight is positive (`>= 0` when `nonneg`), and for
/// the other's strategies outside `targets` whether all pay at most `u`, and whether one
/// pays exactly `u` (a tie).
struct Fit {
    weights_ok: bool,
    outside_ok: bool,
    outside_tie: bool,
}

fn fit<R: Ring>(
    payoff: &[Vec<R>],
    support: &[usize],
    targets: &[usize],
    num: &[R],
    nonneg: bool,
) -> Option<Fit> {
    let k = support.len();
    let weights_ok = num[..k]
        .iter()
        .all(|w| !w.is_negative() && (nonneg || !w.is_zero()));
    let u = &num[k];
    let mut outside_ok = true;
    let mut outside_tie = false;
    if weights_ok {
        for t in (0..payoff[0].len()).filter(|t| !targets.contains(t)) {
            let mut total = R::int(0);
            for (w, &s) in num.iter().zip(support) {
                total = total.add(&w.mul(&payoff[s][t])?)?;
            }
            if total > *u {
                outside_ok = false;
                break;
            }
            outside_tie |= total == *u;
        }
    }
    Some(Fit {
        weights_ok,
        outside_ok,
        outside_tie,
    })
}

/// Every `k`-subset of `0..n`, in lexicographic order.
pub(super) fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut cur: Vec<usize> = (0..k).collect();
    loop {
        out.push(cur.clone());
        let Some(i) = (0..k).rev().find(|&i| cur[i] < n - k + i) else {
            return out;
        };
        cur[i] += 1;
        for j in i + 1..k {
            cur[j] = cur[j - 1] + 1;
        }
    }
}

pub(super) fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i as u128 + 1))
}

/// The linear systems support enumeration and its nondegeneracy check solve for an
/// `m × n` game.
pub fn support_systems(m: usize, n: usize) -> u128 {
    let equal: u128 = (1..=m.min(n))
        .map(|k| binomial(m, k) * binomial(n, k))
        .sum();
    let row_check: u128 = (1..=m).map(|k| binomial(m, k) * binomial(n, k + 1)).sum();
    let col_check: u128 = (1..=n).map(|k| binomial(n, k) * binomial(m, k + 1)).sum();
    2 * equal + row_check + col_check
}

/// A matrix of rationals scaled to integers (by the least common multiple of the
/// denominators: a positive factor, which changes no best response).
pub(super) fn integral(m: &[Vec<Q>]) -> Vec<Vec<BigInt>> {
    let lcm = m
        .iter()
        .flatten()
        .fold(BigInt::one(), |acc, x| acc.lcm(x.denom()));
    m.iter()
        .map(|row| row.iter().map(|x| (x * &lcm).to_integer()).collect())
        .collect()
}

pub(super) fn transpose<T: Clone>(m: &[Vec<T>]) -> Vec<Vec<T>> {
    (0..m[0].len())
        .map(|j| m.iter().map(|row| row[j].clone()).collect())
        .collect()
}

pub(super) fn convert<R: Ring>(m: &[Vec<BigInt>]) -> Option<Vec<Vec<R>>> {
    m.iter()
        .map(|row| row.iter().map(R::from_big).collect())
        .collect()
}

/// The mixed strategy of a solved mix over its support.
fn mixed(count: usize, support: &[usize], num: &[BigInt], den: &BigInt) -> Mixed {
    let mut out = vec![Q::zero(); count];
    for (w, &s) in num.iter().zip(support) {
        out[s] = Q::new(w.clone(), den.clone());
    }
    out
}

/// A player's payoffs for the systems: `i128` where they fit, and always as big integers.
struct Payoffs {
    small: Option<Vec<Vec<i128>>>,
    big: Vec<Vec<BigInt>>,
}

impl Payoffs {
    fn new(big: Vec<Vec<BigInt>>) -> Payoffs {
        Payoffs {
            small: convert(&big),
            big,
        }
    }
}

/// A solved indifference system and how it fares; the weights only when it fits.
enum Mix {
    Inconsistent,
    Many,
    One {
        fit: Fit,
        /// The weights and `u` over `den` (filled only when the weights and the outside
        /// strategies fit).
        num: Vec<BigInt>,
        den: BigInt,
    },
}

fn mix_in<R: Ring>(
    payoff: &[Vec<R>],
    support: &[usize],
    targets: &[usize],
    nonneg: bool,
) -> Option<Mix> {
    Some(match indifference(payoff, support, targets)? {
        Solved::Inconsistent => Mix::Inconsistent,
        Solved::Many => Mix::Many,
        Solved::One { num, den } => {
            let fit = fit(payoff, support, targets, &num, nonneg)?;
            let (num, den) = if fit.weights_ok && fit.outside_ok {
                (num.iter().map(R::to_big).collect(), den.to_big())
            } else {
                (Vec::new(), BigInt::zero())
            };
            Mix::One { fit, num, den }
        }
    })
}

/// One system, on `i128` first and on big integers when that overflows.
fn mix(payoff: &Payoffs, support: &[usize], targets: &[usize], nonneg: bool) -> Mix {
    if let Some(small) = &payoff.small {
        if let Some(m) = mix_in(small, support, targets, nonneg) {
            return m;
        }
    }
    // Big integers do not overflow.
    mix_in(&payoff.big, support, targets, nonneg).unwrap_or(Mix::Many)
}

/// The degeneracy check for one player mixing over its strategies: `payoff[s][t]` is the
/// other's payoff. `Ok(Some(support))` names a degenerate mix.
fn degenerate_mix(
    payoff: &Payoffs,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Vec<usize>>, StrategicError> {
    let (own, other) = (payoff.big.len(), payoff.big[0].len());
    for k in 1..=own {
        if k + 1 > other {
            break;
        }
        for support in subsets(own, k) {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            for targets in subsets(other, k + 1) {
                if stop() {
                    return Err(StrategicError::Stopped);
                }
                match mix(payoff, &support, &targets, true) {
                    Mix::Inconsistent => {}
                    Mix::Many => return Ok(Some(support)),
                    Mix::One { fit, num, .. } => {
                        if fit.weights_ok && fit.outside_ok {
                            let used = support
                                .iter()
                                .zip(&num)
                                .filter(|(_, w)| !Zero::is_zero(*w))
                                .map(|(&s, _)| s)
                                .collect();
                            return Ok(Some(used));
                        }
                    }
                }
            }
        }
    }
    Ok(None)
}

/// Support enumeration of the game with integer payoffs `a`, `b`.
fn enumerate(
    a: &[Vec<BigInt>],
    b: &[Vec<BigInt>],
    stop: &dyn Fn() -> bool,
) -> Result<Vec<(Mixed, Mixed)>, StrategicError> {
    let (m, n) = (a.len(), a[0].len());
    // The row player's mix makes the column player indifferent (B); the column player's
    // the row player (A transposed).
    let pb = Payoffs::new(b.to_vec());
    let pa = Payoffs::new(transpose(a));
    for (player, payoff) in [(0, &pb), (1, &pa)] {
        if let Some(support) = degenerate_mix(payoff, stop)? {
            return Err(StrategicError::Degenerate { player, support });
        }
    }
    let mut out = Vec::new();
    for k in 1..=m.min(n) {
        let rows = subsets(m, k);
        let cols = subsets(n, k);
        for i in &rows {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            for j in &cols {
                if stop() {
                    return Err(StrategicError::Stopped);
                }
                let Mix::One {
                    fit: fx,
                    num: xn,
                    den: xd,
                } = mix(&pb, i, j, false)
                else {
                    continue;
                };
                if !(fx.weights_ok && fx.outside_ok) {
                    continue;
                }
                let Mix::One {
                    fit: fy,
                    num: yn,
                    den: yd,
                } = mix(&pa, j, i, false)
                else {
                    continue;
                };
                if !(fy.weights_ok && fy.outside_ok) {
                    continue;
                }
                if fx.outside_tie || fy.outside_tie {
                    // A best response outside the support: the check above missed a
                    // degenerate game; refuse rather than risk an incomplete list.
                    let (player, support) = if fx.outside_tie {
                        (0, i.clone())
                    } else {
                        (1, j.clone())
                    };
                    return Err(StrategicError::Degenerate { player, support });
                }
                out.push((mixed(m, i, &xn[..k], &xd), mixed(n, j, &yn[..k], &yd)));
            }
        }
    }
    Ok(out)
}

/// The most linear systems `nash` lets support enumeration solve before it turns to vertex
/// enumeration (7×7 games: 12,854). Past it, vertex enumeration is the faster (10×10: 0.08 s
/// against 1.9 s).
pub const NASH_SUPPORT_SYSTEMS: u128 = 20_000;

/// How `nash` found its equilibria.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NashMethod {
    /// Every equilibrium of a small nondegenerate game.
    SupportEnumeration,
    /// Every extreme equilibrium.
    VertexEnumeration,
    /// What Lemke–Howson reaches from every label: not necessarily all.
    LemkeHowson,
}

impl NashMethod {
    /// The method as `nash` names it.
    pub fn name(self) -> &'static str {
        match self {
            NashMethod::SupportEnumeration => "support enumeration",
            NashMethod::VertexEnumeration => "vertex enumeration",
            NashMethod::LemkeHowson => "lemke-howson",
        }
    }
}

/// The equilibria `nash` found, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nash {
    /// The method that answered.
    pub method: NashMethod,
    /// Its equilibria, sorted.
    pub equilibria: Vec<(Mixed, Mixed)>,
}

impl Game {
    /// The equilibria of a two-player game by the first method that applies: support
    /// enumeration on a small nondegenerate game (at most [`NASH_SUPPORT_SYSTEMS`]
    /// systems), else vertex enumeration within [`vertex_budget`] bases (every extreme
    /// equilibrium, degenerate or not), else Lemke–Howson from every label.
    pub fn nash(&self, stop: &dyn Fn() -> bool) -> Result<Nash, StrategicError> {
        self.two_players()?;
        let (m, n) = (self.counts[0], self.counts[1]);
        if support_systems(m, n) <= NASH_SUPPORT_SYSTEMS {
            match self.support_enumeration(stop) {
                Ok(equilibria) => {
                    return Ok(Nash {
                        method: NashMethod::SupportEnumeration,
                        equilibria,
                    })
                }
                Err(StrategicError::Degenerate { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        match self.vertex_enumeration(vertex_budget(m, n), stop) {
            Ok(found) => Ok(Nash {
                method: NashMethod::VertexEnumeration,
                equilibria: found.equilibria,
            }),
            // Too large to enumerate: Lemke–Howson, whose lexicographic pivots reach an
            // equilibrium of a degenerate game too.
            Err(StrategicError::TooManyBases(_) | StrategicError::TableauTooLarge(_)) => Ok(Nash {
                method: NashMethod::LemkeHowson,
                equilibria: self.lemke_howson(stop)?,
            }),
            Err(e) => Err(e),
        }
    }

    /// Every Nash equilibrium of a nondegenerate two-player game, by support enumeration,
    /// sorted. Refuses a degenerate game and one needing more than
    /// [`MAX_SUPPORT_SYSTEMS`] systems.
    pub fn support_enumeration(
        &self,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<(Mixed, Mixed)>, StrategicError> {
        self.two_players()?;
        let systems = support_systems(self.counts[0], self.counts[1]);
        if systems > MAX_SUPPORT_SYSTEMS {
            return Err(StrategicError::TooLarge(systems));
        }
        let (a, b) = self.bimatrix()?;
        let (a, b) = (integral(&a), integral(&b));
        let mut found = enumerate(&a, &b, stop)?;
        found.sort();
        Ok(found)
    }

    /// The equilibria Lemke–Howson reaches from the artificial equilibrium, dropping each
    /// label in turn (`m + n` paths), sorted and without repeats; each answer is verified.
    /// Not necessarily every equilibrium. Ties in a ratio test (a degenerate game) are
    /// broken lexicographically, so every path ends at an equilibrium; a game whose two
    /// tableaux would have more than [`MAX_TABLEAU_CELLS`] entries is refused.
    pub fn lemke_howson(
        &self,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<(Mixed, Mixed)>, StrategicError> {
        self.two_players()?;
        let labels = self.counts[0] as u128 + self.counts[1] as u128;
        let cells = labels * (labels + 1);
        if cells > MAX_TABLEAU_CELLS {
            return Err(StrategicError::TableauTooLarge(cells));
        }
        let (a, b) = self.bimatrix()?;
        let (m, n) = (a.len(), a[0].len());
        let positive = |mat: &[Vec<Q>]| -> Vec<Vec<Q>> {
            let min = mat.iter().flatten().min().cloned().unwrap_or_else(Q::zero);
            let shift = Q::one() - min;
            mat.iter()
                .map(|row| row.iter().map(|x| x + &shift).collect())
                .collect()
        };
        let (a1, b1) = (integral(&positive(&a)), integral(&positive(&b)));
        let mut out = Vec::new();
        for label in 0..m + n {
            let (x, y) = lemke_howson_path(&a1, &b1, label, stop)?;
            if !self.is_equilibrium(&x, &y) {
                return Err(StrategicError::Internal(
                    "Lemke–Howson ended off an equilibrium",
                ));
            }
            out.push((x, y));
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// Whether `(x, y)` is a Nash equilibrium of a two-player game: both are probability
    /// vectors and every strategy either plays is a best response to the other.
    pub fn is_equilibrium(&self, x: &Mixed, y: &Mixed) -> bool {
        let profile = [x.clone(), y.clone()];
        let ok_mix = |p: &Mixed, count: usize| {
            p.len() == count
                && p.iter().all(|v| !v.is_negative())
                && p.iter().sum::<Q>() == Q::one()
        };
        if self.n() != 2 || !ok_mix(x, self.counts[0]) || !ok_mix(y, self.counts[1]) {
            return false;
        }
        let best = self.best_responses_mixed(&profile);
        profile
            .iter()
            .zip(&best)
            .all(|(p, b)| (0..p.len()).all(|s| p[s].is_zero() || b.contains(&s)))
    }
}

/// One Lemke–Howson path: `a`, `b` positive integers; labels `0..m` are the row strategies,
/// `m..m+n` the column strategies; the path drops `label`.
fn lemke_howson_path(
    a: &[Vec<BigInt>],
    b: &[Vec<BigInt>],
    label: usize,
    stop: &dyn Fn() -> bool,
) -> Result<(Mixed, Mixed), StrategicError> {
    let (m, n) = (a.len(), a[0].len());
    let width = m + n + 1;
    // Tableau P (for x): B^T x + s = 1, rows per column strategy; tableau Q (for y):
    // r + A y = 1, rows per row strategy. A variable's column is its label: x_i and r_i
    // are label i, s_j and y_j label m + j.
    let mut tp = vec![vec![BigInt::zero(); width]; n];
    for (j, row) in tp.iter_mut().enumerate() {
        for i in 0..m {
            row[i] = b[i][j].clone();
        }
        row[m + j] = BigInt::one();
        row[m + n] = BigInt::one();
    }
    let mut tq = vec![vec![BigInt::zero(); width]; m];
    for (i, row) in tq.iter_mut().enumerate() {
        row[i] = BigInt::one();
        row[m..m + n].clone_from_slice(&a[i][..n]);
        row[m + n] = BigInt::one();
    }
    let (init_p, init_q): (Vec<usize>, Vec<usize>) = ((m..m + n).collect(), (0..m).collect());
    let mut tp = Tableau::new(tp, init_p.clone(), m + n);
    let mut tq = Tableau::new(tq, init_q.clone(), m + n);
    let mut in_p = label < m;
    let mut entering = label;
    loop {
        if stop() {
            return Err(StrategicError::Stopped);
        }
        let (t, init) = if in_p {
            (&mut tp, &init_p)
        } else {
            (&mut tq, &init_q)
        };
        // The lexicographic ratio test breaks every tie, so no path cycles or stops, and
        // every path reaches an equilibrium, degenerate game or not.
        let Some(row) = t.ratio_test(entering, init) else {
            return Err(StrategicError::Internal("an unbounded Lemke–Howson step"));
        };
        let leaving = t.pivot(row, entering, stop)?;
        if leaving == label {
            break;
        }
        entering = leaving;
        in_p = !in_p;
    }
    // A basic variable's value is its right-hand side over the tableau's determinant, which
    // the normalisation to a probability vector cancels.
    let read = |t: &Tableau, range: std::ops::Range<usize>| -> Mixed {
        let mut v = vec![BigInt::zero(); range.len()];
        for (var, value) in t.scaled_values() {
            if range.contains(&var) {
                v[var - range.start] = value.clone();
            }
        }
        let total: BigInt = v.iter().sum();
        v.into_iter().map(|p| Q::new(p, total.clone())).collect()
    };
    Ok((read(&tp, 0..m), read(&tq, m..m + n)))
}
