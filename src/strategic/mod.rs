//! Finite strategic-form games: n players choose a strategy each at once, and player `i`
//! receives `u_i` of the profile. Pure data and algorithms (no IO, only `crate::num` of the
//! crate), as `crate::cgt` is for partizan values.
//!
//! - [`Game`]: the payoff table, one exact payoff per player and profile;
//! - pure analyses (this file): best responses to a pure or mixed profile, strictly and
//!   weakly dominated strategies (by a pure strategy), strategies strictly dominated by a
//!   mixture (an exact linear program), iterated elimination by any of the three (in one
//!   stated order), pure Nash equilibria (n players), Pareto-optimal profiles, the
//!   expected payoff of a mixed profile;
//! - `zero_sum.rs`: the value and optimal strategies of a two-player zero-sum game by an
//!   exact simplex method (Bland's rule, so it ends);
//! - `bimatrix.rs`: two-player general-sum games: a nondegeneracy check, support
//!   enumeration (every equilibrium of a nondegenerate game), Lemke–Howson from every
//!   starting label, and `nash`, which picks one of the three methods;
//! - `vertex.rs`: every extreme equilibrium of any two-player game, degenerate or not, by
//!   vertex enumeration of the best-response polytopes, and the connected components of
//!   the equilibria;
//! - `tableau.rs`: the integer-pivoting tableau Lemke–Howson and vertex enumeration pivot on,
//!   with the lexicographic ratio test;
//! - `nfg.rs`: the game written as Gambit's `.nfg` file.
//!
//! Arithmetic inside the algorithms is exact: big rationals ([`Q`]) for answers, and big
//! integers for pivots and eliminations (fraction-free, every entry a minor of the payoffs),
//! which overflow `i64` after a few steps even on small integer tables.
//!
//! ```
//! use cgl::num::Rational;
//! use cgl::strategic::Game;
//!
//! // Battle of the sexes: (2, 1), (0, 0) / (0, 0), (1, 2).
//! let p = |a: i64, b: i64| vec![Rational::int(a), Rational::int(b)];
//! let payoffs = [p(2, 1), p(0, 0), p(0, 0), p(1, 2)].concat();
//! let game = Game::new(vec!["Row".into(), "Col".into()], vec![2, 2], payoffs).unwrap();
//! let all = game.support_enumeration(&|| false).unwrap();
//! assert_eq!(all.len(), 3);
//! assert!(all.iter().any(|(x, _)| x[0].to_string() == "2/3"));
//! ```
//!
//! Support enumeration eliminates fraction-free on checked `i128`, and a system is redone on
//! big integers when it overflows; `vertex.rs` runs on `bimatrix.rs`'s eliminations and
//! `solve_matrix` of `zero_sum.rs` is shared with the dominance LP. `eval/interp/strategic.rs`
//! builds a game instance's table from its `player`, `payoff` and `table` clauses (cached in
//! `GameTable`) and implements the built-ins; `repl/strategic.rs` prints `:explain` and
//! `:table` of one.

mod bimatrix;
pub mod nfg;
mod tableau;
mod vertex;
mod zero_sum;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::num::Rational;

pub use bimatrix::{Nash, NashMethod, MAX_SUPPORT_SYSTEMS, NASH_SUPPORT_SYSTEMS};
pub use vertex::{vertex_budget, Extreme, MAX_VERTEX_BASES};

/// An exact big rational: the numbers the algorithms compute with.
pub type Q = BigRational;

/// A mixed strategy: one probability per strategy of its player.
pub type Mixed = Vec<Q>;

/// Why an analysis gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrategicError {
    /// The analysis is for games of exactly two players.
    NotTwoPlayers(usize),
    /// The value and optimal strategies need a zero-sum game; this profile's payoffs do not
    /// sum to zero.
    NotZeroSum(Vec<usize>),
    /// The game is degenerate (some mixed strategy of `support` strategies of `player` has
    /// more pure best responses than that): support enumeration and Lemke–Howson do not
    /// apply; the equilibria may form a continuum.
    Degenerate {
        /// The player whose mixed strategy has too many best responses.
        player: usize,
        /// Its support, as strategy indexes.
        support: Vec<usize>,
    },
    /// Support enumeration would solve more than [`MAX_SUPPORT_SYSTEMS`] linear systems
    /// (this many).
    TooLarge(u128),
    /// Vertex enumeration met more bases of a best-response polytope than its budget (this
    /// many).
    TooManyBases(usize),
    /// The linear program for a dominating mixture would have more than [`MAX_LP_CELLS`]
    /// entries (this many).
    LpTooLarge(u128),
    /// A simplex or Lemke–Howson tableau would have more than [`MAX_TABLEAU_CELLS`] entries
    /// (this many).
    TableauTooLarge(u128),
    /// The caller asked to stop.
    Stopped,
    /// A case the theory says cannot happen; a bug in cgl.
    Internal(&'static str),
}

/// A finite strategic game with exact payoffs.
#[derive(Clone, Debug)]
pub struct Game {
    /// The players' names.
    pub players: Vec<String>,
    /// How many strategies each player has.
    pub counts: Vec<usize>,
    /// Payoffs, profile by profile (the last player's strategy varies fastest), one per
    /// player.
    payoffs: Vec<Rational>,
}

/// A profile as one strategy index per player.
pub type Profile = Vec<usize>;

/// A payoff matrix: rows for the first player's strategies, columns for the second's.
pub type Matrix = Vec<Vec<Q>>;

/// One step of iterated elimination: the player, the strategy removed, what dominates it.
pub type Elimination = (usize, usize, Dominator);

/// Which dominance iterated elimination removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dominance {
    /// Strict dominance by a pure strategy: worse against every profile of the others.
    Strict,
    /// Weak dominance by a pure strategy: never better, worse against some profile.
    Weak,
    /// Strict dominance by a mixture of the player's other strategies.
    Mixed,
}

/// What dominates a strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dominator {
    /// A pure strategy, by index.
    Pure(usize),
    /// A mixed strategy, one probability per strategy of the player.
    Mixture(Mixed),
}

/// The most entries (strategies × the others' profiles) of the linear program that looks
/// for a dominating mixture.
pub const MAX_LP_CELLS: u128 = 200_000;

/// The most entries of a tableau the exact simplex method (a zero-sum game) or Lemke–Howson
/// pivots on: each is a big rational, so this bounds the memory they start with (about 64
/// bytes an entry) and the work of one pivot.
pub const MAX_TABLEAU_CELLS: u128 = 2_500_000;

/// How many profiles a dominance check compares between two looks at `stop`.
const PROFILES_PER_CHECK: usize = 4096;

impl Game {
    /// The game of these players, strategy counts and payoffs (profile-major, the last
    /// player's strategy fastest, one payoff per player). `None` if the sizes disagree or a
    /// player has no strategy.
    pub fn new(players: Vec<String>, counts: Vec<usize>, payoffs: Vec<Rational>) -> Option<Game> {
        let profiles = counts
            .iter()
            .try_fold(1usize, |acc, &c| acc.checked_mul(c))?;
        if players.len() != counts.len()
            || counts.contains(&0)
            || players.is_empty()
            || profiles.checked_mul(players.len())? != payoffs.len()
        {
            return None;
        }
        Some(Game {
            players,
            counts,
            payoffs,
        })
    }

    /// The number of players.
    pub fn n(&self) -> usize {
        self.counts.len()
    }

    /// The number of profiles.
    pub fn profile_count(&self) -> usize {
        self.payoffs.len() / self.n()
    }

    /// The index of a profile in the table.
    fn index(&self, profile: &[usize]) -> usize {
        profile
            .iter()
            .zip(&self.counts)
            .fold(0, |acc, (&s, &c)| acc * c + s)
    }

    /// The profile at an index of the table.
    pub fn profile_at(&self, mut index: usize) -> Profile {
        let mut out = vec![0; self.n()];
        for (slot, &c) in out.iter_mut().zip(&self.counts).rev() {
            *slot = index % c;
            index /= c;
        }
        out
    }

    /// Every profile, in table order.
    pub fn profiles(&self) -> impl Iterator<Item = Profile> + '_ {
        (0..self.profile_count()).map(|i| self.profile_at(i))
    }

    /// Player `player`'s payoff at `profile`.
    pub fn payoff(&self, profile: &[usize], player: usize) -> Rational {
        self.payoffs[self.index(profile) * self.n() + player]
    }

    /// Every player's payoff at `profile`.
    pub fn payoffs(&self, profile: &[usize]) -> &[Rational] {
        let at = self.index(profile) * self.n();
        &self.payoffs[at..at + self.n()]
    }

    /// Whether every profile's payoffs sum to zero; `Err` names one that does not.
    pub fn zero_sum(&self) -> Result<(), StrategicError> {
        for profile in self.profiles() {
            let total = self
                .payoffs(&profile)
                .iter()
                .fold(Q::zero(), |acc, p| acc + q(*p));
            if !total.is_zero() {
                return Err(StrategicError::NotZeroSum(profile));
            }
        }
        Ok(())
    }

    /// Each player's best responses to the others' strategies in `profile` (its own entry
    /// is ignored), in strategy order.
    pub fn best_responses(&self, profile: &[usize]) -> Vec<Vec<usize>> {
        (0..self.n())
            .map(|i| {
                let mut p = profile.to_vec();
                let values: Vec<Rational> = (0..self.counts[i])
                    .map(|s| {
                        p[i] = s;
                        self.payoff(&p, i)
                    })
                    .collect();
                argmax(&values)
            })
            .collect()
    }

    /// Player `player`'s expected payoff from each of its pure strategies when the others
    /// play `mixed` (its own entry is ignored).
    pub fn pure_payoffs(&self, mixed: &[Mixed], player: usize) -> Vec<Q> {
        let mut out = vec![Q::zero(); self.counts[player]];
        for (index, profile) in self.profiles().enumerate() {
            let mut weight = Q::one();
            for (j, &s) in profile.iter().enumerate() {
                if j != player {
                    weight *= &mixed[j][s];
                }
            }
            if !weight.is_zero() {
                out[profile[player]] += weight * q(self.payoffs[index * self.n() + player]);
            }
        }
        out
    }

    /// Each player's best responses (pure strategies) to the others' mixed strategies.
    pub fn best_responses_mixed(&self, mixed: &[Mixed]) -> Vec<Vec<usize>> {
        (0..self.n())
            .map(|i| argmax(&self.pure_payoffs(mixed, i)))
            .collect()
    }

    /// Every player's expected payoff when each plays their mixed strategy.
    pub fn expected_payoffs(&self, mixed: &[Mixed]) -> Vec<Q> {
        let mut out = vec![Q::zero(); self.n()];
        for (index, profile) in self.profiles().enumerate() {
            let mut weight = Q::one();
            for (j, &s) in profile.iter().enumerate() {
                weight *= &mixed[j][s];
            }
            if weight.is_zero() {
                continue;
            }
            for (i, slot) in out.iter_mut().enumerate() {
                *slot += &weight * q(self.payoffs[index * self.n() + i]);
            }
        }
        out
    }

    /// Every pure Nash equilibrium: profiles where no player gains by deviating alone.
    pub fn pure_equilibria(&self, stop: &dyn Fn() -> bool) -> Result<Vec<Profile>, StrategicError> {
        let mut out = Vec::new();
        for (k, profile) in self.profiles().enumerate() {
            if k % 4096 == 0 && stop() {
                return Err(StrategicError::Stopped);
            }
            let stable = (0..self.n()).all(|i| {
                let own = self.payoff(&profile, i);
                let mut p = profile.clone();
                (0..self.counts[i]).all(|s| {
                    p[i] = s;
                    self.payoff(&p, i) <= own
                })
            });
            if stable {
                out.push(profile);
            }
        }
        Ok(out)
    }

    /// The profiles whose payoff vector no other profile's weakly improves for every player
    /// and strictly for one.
    pub fn pareto_optimal(&self, stop: &dyn Fn() -> bool) -> Result<Vec<Profile>, StrategicError> {
        let n = self.n();
        let rows: Vec<&[Rational]> = self.payoffs.chunks(n).collect();
        let mut out = Vec::new();
        for (k, mine) in rows.iter().enumerate() {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            let dominated = rows.iter().any(|other| {
                other.iter().zip(mine.iter()).all(|(a, b)| a >= b)
                    && other.iter().zip(mine.iter()).any(|(a, b)| a > b)
            });
            if !dominated {
                out.push(self.profile_at(k));
            }
        }
        Ok(out)
    }

    /// Whether `by` dominates `s` for `player` against every profile of the others' `alive`
    /// strategies: strictly (better everywhere) or weakly (never worse, once better).
    fn dominates(
        &self,
        (player, by, s): (usize, usize, usize),
        strict: bool,
        alive: &[Vec<usize>],
        stop: &dyn Fn() -> bool,
    ) -> Result<bool, StrategicError> {
        let mut better_once = false;
        let mut profile: Vec<usize> = alive.iter().map(|a| a[0]).collect();
        let mut digits = vec![0usize; self.n()];
        let mut compared = 0usize;
        loop {
            compared += 1;
            if compared.is_multiple_of(PROFILES_PER_CHECK) && stop() {
                return Err(StrategicError::Stopped);
            }
            profile[player] = by;
            let u_by = self.payoff(&profile, player);
            profile[player] = s;
            let u_s = self.payoff(&profile, player);
            if u_by < u_s || (strict && u_by == u_s) {
                return Ok(false);
            }
            better_once |= u_by > u_s;
            // The next profile of the others' alive strategies (odometer, own digit fixed).
            let mut j = self.n();
            loop {
                if j == 0 {
                    return Ok(strict || better_once);
                }
                j -= 1;
                if j == player {
                    continue;
                }
                digits[j] += 1;
                if digits[j] < alive[j].len() {
                    profile[j] = alive[j][digits[j]];
                    break;
                }
                digits[j] = 0;
                profile[j] = alive[j][0];
            }
        }
    }

    /// The first of `player`'s `alive` strategies other than `s` that dominates it.
    fn pure_dominator(
        &self,
        player: usize,
        s: usize,
        strict: bool,
        alive: &[Vec<usize>],
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<usize>, StrategicError> {
        for &t in &alive[player] {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            if t != s && self.dominates((player, t, s), strict, alive, stop)? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// Each player's dominated strategies among `alive`, with the first strategy that
    /// dominates each: `(strategy, by)` in strategy order.
    pub fn dominated(
        &self,
        strict: bool,
        alive: &[Vec<usize>],
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<Vec<(usize, usize)>>, StrategicError> {
        let mut out = Vec::new();
        for (i, mine) in alive.iter().enumerate() {
            let mut found = Vec::new();
            for &s in mine {
                if let Some(t) = self.pure_dominator(i, s, strict, alive, stop)? {
                    found.push((s, t));
                }
            }
            out.push(found);
        }
        Ok(out)
    }

    /// Every strategy of every player.
    pub fn all_strategies(&self) -> Vec<Vec<usize>> {
        self.counts.iter().map(|&c| (0..c).collect()).collect()
    }

    /// A mixture of `player`'s other `alive` strategies that strictly dominates `s` against
    /// every profile of the others' `alive` strategies, if there is one: the optimal
    /// strategy of the zero-sum game `D[t][p] = u(t, p) - u(s, p)` (rows `t`, the other
    /// strategies; columns `p`, the others' profiles) when its value is positive, found by
    /// the exact simplex method. The mixture has one probability per strategy of `player`.
    pub fn mixed_dominator(
        &self,
        player: usize,
        s: usize,
        alive: &[Vec<usize>],
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Mixed>, StrategicError> {
        let rows: Vec<usize> = alive[player].iter().copied().filter(|&t| t != s).collect();
        if rows.is_empty() {
            return Ok(None);
        }
        let mut others: Vec<Vec<usize>> = alive.to_vec();
        others[player] = vec![s];
        let columns = others.iter().fold(1u128, |acc, a| acc * a.len() as u128);
        let cells = columns * rows.len() as u128;
        if cells > MAX_LP_CELLS {
            return Err(StrategicError::LpTooLarge(cells));
        }
        let mut d: Matrix = vec![Vec::with_capacity(columns as usize); rows.len()];
        let mut digits = vec![0usize; self.n()];
        let mut profile: Vec<usize> = others.iter().map(|a| a[0]).collect();
        loop {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            profile[player] = s;
            let own = q(self.payoff(&profile, player));
            for (row, &t) in d.iter_mut().zip(&rows) {
                profile[player] = t;
                row.push(q(self.payoff(&profile, player)) - &own);
            }
            // The next profile of the others' alive strategies (odometer).
            let mut j = self.n();
            let done = loop {
                if j == 0 {
                    break true;
                }
                j -= 1;
                digits[j] += 1;
                if digits[j] < others[j].len() {
                    profile[j] = others[j][digits[j]];
                    break false;
                }
                digits[j] = 0;
                profile[j] = others[j][0];
            };
            if done {
                break;
            }
        }
        let solution = zero_sum::solve_matrix(&d, stop)?;
        if !solution.value.is_positive() {
            return Ok(None);
        }
        let mut mixture = vec![Q::zero(); self.counts[player]];
        for (&t, p) in rows.iter().zip(solution.row) {
            mixture[t] = p;
        }
        Ok(Some(mixture))
    }

    /// Each player's `alive` strategies that a mixture of its other alive strategies
    /// strictly dominates, with one such mixture each, in strategy order.
    pub fn mixed_dominated(
        &self,
        alive: &[Vec<usize>],
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<Vec<(usize, Mixed)>>, StrategicError> {
        let mut out = Vec::new();
        for i in 0..self.n() {
            let mut mine = Vec::new();
            for &s in &alive[i] {
                if let Some(m) = self.mixed_dominator(i, s, alive, stop)? {
                    mine.push((s, m));
                }
            }
            out.push(mine);
        }
        Ok(out)
    }

    /// What dominates `s` for `player` among the `alive` strategies, by `kind`.
    fn dominator(
        &self,
        kind: Dominance,
        player: usize,
        s: usize,
        alive: &[Vec<usize>],
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Dominator>, StrategicError> {
        Ok(match kind {
            Dominance::Strict | Dominance::Weak => self
                .pure_dominator(player, s, kind == Dominance::Strict, alive, stop)?
                .map(Dominator::Pure),
            Dominance::Mixed => self
                .mixed_dominator(player, s, alive, stop)?
                .map(Dominator::Mixture),
        })
    }

    /// Iterated elimination of dominated strategies, one at a time, in a fixed order: the
    /// first player (in order) with a dominated strategy among the survivors loses the
    /// first one (in strategy order), and the search starts again from the first player.
    /// The steps `(player, strategy, dominated by)` in order, and the strategies that
    /// survive. For strict dominance, by pure strategies or by mixtures, the survivors do
    /// not depend on the order; for weak dominance they may, and this order is the answer.
    pub fn iterated_elimination(
        &self,
        kind: Dominance,
        stop: &dyn Fn() -> bool,
    ) -> Result<(Vec<Elimination>, Vec<Vec<usize>>), StrategicError> {
        let mut alive = self.all_strategies();
        let mut steps = Vec::new();
        'next: loop {
            for i in 0..self.n() {
                if alive[i].len() < 2 {
                    continue;
                }
                for k in 0..alive[i].len() {
                    let s = alive[i][k];
                    if let Some(by) = self.dominator(kind, i, s, &alive, stop)? {
                        steps.push((i, s, by));
                        alive[i].remove(k);
                        continue 'next;
                    }
                }
            }
            return Ok((steps, alive));
        }
    }

    /// `Ok` for a game of two players.
    fn two_players(&self) -> Result<(), StrategicError> {
        match self.n() {
            2 => Ok(()),
            n => Err(StrategicError::NotTwoPlayers(n)),
        }
    }

    /// The two payoff matrices of a two-player game, `A` (the row player's) and `B`.
    fn bimatrix(&self) -> Result<(Matrix, Matrix), StrategicError> {
        self.two_players()?;
        let (m, n) = (self.counts[0], self.counts[1]);
        let matrix = |player: usize| -> Matrix {
            (0..m)
                .map(|i| (0..n).map(|j| q(self.payoff(&[i, j], player))).collect())
                .collect()
        };
        Ok((matrix(0), matrix(1)))
    }
}

/// The indexes of the greatest items.
fn argmax<T: PartialOrd>(values: &[T]) -> Vec<usize> {
    let Some(best) = values.iter().fold(None, |acc: Option<&T>, v| match acc {
        Some(b) if b >= v => Some(b),
        _ => Some(v),
    }) else {
        return Vec::new();
    };
    (0..values.len()).filter(|&i| values[i] == *best).collect()
}

/// A rational as a big rational.
pub fn q(r: Rational) -> Q {
    Q::new(BigInt::from(r.numer()), BigInt::from(r.denom()))
}

#[cfg(test)]
mod tests;
