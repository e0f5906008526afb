//! Every extreme equilibrium of a two-player game, degenerate or not, by vertex enumeration
//! of the best-response polytopes, and the connected components of the equilibria.
//!
//! With both payoff matrices shifted to positive entries (which changes no best response),
//! the best-response polytopes are `P = {x >= 0 : Bᵀx <= 1}` and `Q = {y >= 0 : Ay <= 1}`
//! (von Stengel, *Computing equilibria for two-person games*, §3). A point carries the
//! labels of its tight inequalities: `i` for `x_i = 0` or `(Ay)_i = 1`, `m + j` for
//! `(Bᵀx)_j = 1` or `y_j = 0`. The equilibria whose strategies are vertices (after
//! normalising) are the pairs of vertices `x ≠ 0`, `y ≠ 0` that together carry every label:
//! the extreme equilibria. A vertex is a feasible point where `m` (resp. `n`) independent
//! inequalities are tight; it is found by solving the system of every set of that many
//! inequalities, so a degenerate vertex (more tight inequalities than the dimension) is
//! found several times and kept once, with all its labels.
//!
//! The set of all equilibria is the union of the products `conv(X) × conv(Y)` over the sets
//! `X × Y` of extreme equilibria that pair every `x` of `X` with every `y` of `Y` (Winkels;
//! Audet, Hansen, Jaumard and Savard, *Enumeration of all extreme equilibria of bimatrix
//! games*, 2001). Two such products meet only in an extreme equilibrium they share, so the
//! connected components of the equilibria are the connected components of the bipartite
//! graph whose edges are the extreme equilibria: a component of one edge is an isolated
//! equilibrium, a larger one a continuum.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_traits::{One, Zero};

use super::bimatrix::{binomial, convert, integral, solve, subsets, transpose, Ring, Solved};
use super::{Game, Mixed, StrategicError, Q};

/// The most linear systems vertex enumeration solves (both polytopes together).
pub const MAX_VERTEX_SYSTEMS: u128 = 1_000_000;

/// A set of labels, as bits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Labels(Vec<u64>);

impl Labels {
    fn new(size: usize) -> Labels {
        Labels(vec![0; size.div_ceil(64)])
    }
    fn insert(&mut self, label: usize) {
        self.0[label / 64] |= 1 << (label % 64);
    }
    /// Whether `self` and `other` together hold every label of `0..size`.
    fn covers_with(&self, other: &Labels, size: usize) -> bool {
        self.0.iter().zip(&other.0).enumerate().all(|(w, (a, b))| {
            let bits = (size - 64 * w).min(64);
            let full = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            (a | b) & full == full
        })
    }
}

/// A vertex of a best-response polytope: the point, not normalised, and its labels.
struct Vertex {
    point: Mixed,
    labels: Labels,
}

/// The linear systems vertex enumeration solves for an `m × n` game.
pub fn vertex_systems(m: usize, n: usize) -> u128 {
    // Every k rows with k columns, for k = 1..=min(m, n), once per polytope.
    let per: u128 = (1..=m.min(n))
        .map(|k| binomial(m, k) * binomial(n, k))
        .sum();
    2 * per
}

/// The vertices `x ≠ 0` of `{x >= 0 : Mᵀ x <= 1}`, where `payoff[s][t] > 0` is the other
/// player's payoff (`s` this player's strategy). Labels: `own_label(s)` for `x_s = 0`,
/// `other_label(t)` for a tight `t`.
fn vertices<R: Ring>(
    payoff: &[Vec<R>],
    own_label: &dyn Fn(usize) -> usize,
    other_label: &dyn Fn(usize) -> usize,
    labels: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Vec<Vertex>>, StrategicError> {
    let (own, other) = (payoff.len(), payoff[0].len());
    let mut found: BTreeMap<Mixed, Labels> = BTreeMap::new();
    for k in 1..=own.min(other) {
        for support in subsets(own, k) {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            for tight in subsets(other, k) {
                if stop() {
                    return Err(StrategicError::Stopped);
                }
                // Σ_s payoff[s][t] x_s = 1 for each tight t, over the support's x_s.
                let rows: Vec<Vec<R>> = tight
                    .iter()
                    .map(|&t| {
                        let mut row: Vec<R> =
                            support.iter().map(|&s| payoff[s][t].clone()).collect();
                        row.push(R::int(1));
                        row
                    })
                    .collect();
                let Some(solved) = solve(rows, k) else {
                    return Ok(None);
                };
                let Solved::One { num, den } = solved else {
                    continue;
                };
                if num.iter().any(Ring::is_negative) {
                    continue;
                }
                // Feasible when no other inequality is broken: Σ payoff[s][t] num_s <= den.
                let mut point_labels = Labels::new(labels);
                let mut feasible = true;
                let totals: Option<Vec<R>> = (0..other)
                    .map(|t| {
                        num.iter()
                            .zip(&support)
                            .try_fold(R::int(0), |acc, (w, &s)| acc.add(&w.mul(&payoff[s][t])?))
                    })
                    .collect();
                let Some(totals) = totals else {
                    return Ok(None);
                };
                for (t, total) in totals.into_iter().enumerate() {
                    if total > den {
                        feasible = false;
                        break;
                    }
                    if total == den {
                        point_labels.insert(other_label(t));
                    }
                }
                if !feasible {
                    continue;
                }
                let mut point = vec![Q::zero(); own];
                for (w, &s) in num.iter().zip(&support) {
                    point[s] = Q::new(w.to_big(), den.to_big());
                }
                for (s, x) in point.iter().enumerate() {
                    if x.is_zero() {
                        point_labels.insert(own_label(s));
                    }
                }
                found.entry(point).or_insert(point_labels);
            }
        }
    }
    Ok(Some(
        found
            .into_iter()
            .map(|(point, labels)| Vertex { point, labels })
            .collect(),
    ))
}

/// The vertices on `i128` first, again on big integers if a number overflows.
fn vertices_exact(
    payoff: &[Vec<BigInt>],
    own_label: &dyn Fn(usize) -> usize,
    other_label: &dyn Fn(usize) -> usize,
    labels: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<Vertex>, StrategicError> {
    if let Some(small) = convert::<i128>(payoff) {
        if let Some(found) = vertices(&small, own_label, other_label, labels, stop)? {
            return Ok(found);
        }
    }
    vertices(payoff, own_label, other_label, labels, stop)?
        .ok_or(StrategicError::Internal("big integers overflowed"))
}

/// A matrix of integers shifted so that every entry is at least 1.
fn positive(m: Vec<Vec<BigInt>>) -> Vec<Vec<BigInt>> {
    let min = m
        .iter()
        .flatten()
        .min()
        .cloned()
        .unwrap_or_else(BigInt::zero);
    let shift = BigInt::one() - min;
    m.into_iter()
        .map(|row| row.into_iter().map(|x| x + &shift).collect())
        .collect()
}

fn normalised(p: &Mixed) -> Mixed {
    let total: Q = p.iter().sum();
    p.iter().map(|x| x / &total).collect()
}

/// The extreme equilibria of a two-player game and their connected components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extreme {
    /// Every extreme equilibrium, sorted.
    pub equilibria: Vec<(Mixed, Mixed)>,
    /// The connected components of the set of equilibria, each as the indexes (into
    /// `equilibria`) of its extreme equilibria, in order; the components sorted by their
    /// first index.
    pub components: Vec<Vec<usize>>,
}

impl Game {
    /// Every extreme equilibrium of a two-player game (every equilibrium, when the game is
    /// nondegenerate) and the connected components of its equilibria. Refuses a game
    /// needing more than [`MAX_VERTEX_SYSTEMS`] systems.
    pub fn vertex_enumeration(&self, stop: &dyn Fn() -> bool) -> Result<Extreme, StrategicError> {
        self.two_players()?;
        let (m, n) = (self.counts[0], self.counts[1]);
        let systems = vertex_systems(m, n);
        if systems > MAX_VERTEX_SYSTEMS {
            return Err(StrategicError::TooLarge(systems));
        }
        let (a, b) = self.bimatrix()?;
        let labels = m + n;
        let b = positive(integral(&b));
        // For Q the mixer is the column player: payoff[j][i] is A's, transposed.
        let at = positive(integral(&transpose(&a)));
        let xs = vertices_exact(&b, &|i| i, &|j| m + j, labels, stop)?;
        let ys = vertices_exact(&at, &|j| m + j, &|i| i, labels, stop)?;
        // Extreme equilibria: completely labelled pairs.
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for (i, x) in xs.iter().enumerate() {
            if stop() {
                return Err(StrategicError::Stopped);
            }
            for (j, y) in ys.iter().enumerate() {
                if x.labels.covers_with(&y.labels, labels) {
                    edges.push((i, j));
                }
            }
        }
        let mut pairs: Vec<((Mixed, Mixed), (usize, usize))> = edges
            .iter()
            .map(|&(i, j)| ((normalised(&xs[i].point), normalised(&ys[j].point)), (i, j)))
            .collect();
        pairs.sort();
        for ((x, y), _) in &pairs {
            if !self.is_equilibrium(x, y) {
                return Err(StrategicError::Internal(
                    "vertex enumeration paired vertices that are no equilibrium",
                ));
            }
        }
        // Components: union-find over the vertices, x's first, then y's.
        let mut parent: Vec<usize> = (0..xs.len() + ys.len()).collect();
        fn find(parent: &mut [usize], mut v: usize) -> usize {
            while parent[v] != v {
                parent[v] = parent[parent[v]];
                v = parent[v];
            }
            v
        }
        for (_, (i, j)) in &pairs {
            let (ri, rj) = (find(&mut parent, *i), find(&mut parent, xs.len() + j));
            parent[ri] = rj;
        }
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (k, (_, (i, _))) in pairs.iter().enumerate() {
            groups.entry(find(&mut parent, *i)).or_default().push(k);
        }
        let mut components: Vec<Vec<usize>> = groups.into_values().collect();
        components.sort();
        Ok(Extreme {
            equilibria: pairs.into_iter().map(|(e, _)| e).collect(),
            components,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Rational;

    fn game(m: usize, n: usize, cells: &[i64]) -> Game {
        Game::new(
            vec!["Row".into(), "Col".into()],
            vec![m, n],
            cells.iter().map(|&c| Rational::int(c)).collect(),
        )
        .unwrap()
    }

    fn show(e: &(Mixed, Mixed)) -> String {
        let part = |m: &Mixed| {
            m.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("{}|{}", part(&e.0), part(&e.1))
    }

    #[test]
    fn battle_of_the_sexes_has_three_isolated_equilibria() {
        let g = game(2, 2, &[2, 1, 0, 0, 0, 0, 1, 2]);
        let e = g.vertex_enumeration(&|| false).unwrap();
        let shown: Vec<String> = e.equilibria.iter().map(show).collect();
        assert_eq!(shown, ["0,1|0,1", "2/3,1/3|1/3,2/3", "1,0|1,0"]);
        assert_eq!(e.components, vec![vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn a_continuum_is_one_component_of_two_extreme_equilibria() {
        // Row's payoffs are all 1 (Row is indifferent); Col gets 1 for L, 0 for R against
        // Top and 1 for both against Bottom. Equilibria: (Top, L) and (Bottom, any y).
        let g = game(2, 2, &[1, 1, 1, 0, 1, 1, 1, 1]);
        let e = g.vertex_enumeration(&|| false).unwrap();
        let shown: Vec<String> = e.equilibria.iter().map(show).collect();
        // (Bottom, L), (Bottom, R), and every mix of Top and Bottom against L.
        assert_eq!(shown, ["0,1|0,1", "0,1|1,0", "1,0|1,0"]);
        assert_eq!(e.components, vec![vec![0, 1, 2]]);
    }
}
