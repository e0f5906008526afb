//! Every extreme equilibrium of a two-player game, degenerate or not, by vertex enumeration
//! of the best-response polytopes, and the connected components of the equilibria.
//!
//! With both payoff matrices shifted to positive entries (which changes no best response),
//! the best-response polytopes are `P = {x >= 0 : Bᵀx <= 1}` and `Q = {y >= 0 : Ay <= 1}`
//! (von Stengel, *Computing equilibria for two-person games*, §3). A point carries the
//! labels of its tight inequalities: `i` for `x_i = 0` or `(Ay)_i = 1`, `m + j` for
//! `(Bᵀx)_j = 1` or `y_j = 0`. The equilibria whose strategies are vertices (after
//! normalising) are the pairs of vertices `x ≠ 0`, `y ≠ 0` that together carry every label:
//! the extreme equilibria. The vertices are found by walking each polytope from basis to
//! basis with lexicographic pivots on an integer tableau (`vertices`, below); a degenerate
//! vertex (more tight inequalities than the dimension) may have several bases, and is kept
//! once, with all its labels.
//!
//! The set of all equilibria is the union of the products `conv(X) × conv(Y)` over the sets
//! `X × Y` of extreme equilibria that pair every `x` of `X` with every `y` of `Y` (Winkels;
//! Audet, Hansen, Jaumard and Savard, *Enumeration of all extreme equilibria of bimatrix
//! games*, 2001). Two such products meet only in an extreme equilibrium they share, so the
//! connected components of the equilibria are the connected components of the bipartite
//! graph whose edges are the extreme equilibria: a component of one edge is an isolated
//! equilibrium, a larger one a continuum.

use std::collections::{BTreeMap, HashSet};

use num_bigint::BigInt;
use num_traits::{One, Zero};

use super::bimatrix::{integral, transpose};
use super::tableau::Tableau;
use super::{Game, Mixed, StrategicError, MAX_TABLEAU_CELLS, Q};

/// The most bases vertex enumeration visits in one polytope (each is kept as a set of
/// variables, and each vertex as its point).
pub const MAX_VERTEX_BASES: usize = 200_000;

/// The bases `nash` lets vertex enumeration visit before it turns to Lemke–Howson: about
/// 2·10^7 tableau entries pivoted (a few seconds), at most [`MAX_VERTEX_BASES`].
pub fn vertex_budget(m: usize, n: usize) -> usize {
    let cells = (m.max(n) * (m + n + 1)).max(1);
    (20_000_000 / cells).min(MAX_VERTEX_BASES)
}

/// A set of labels, as bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

/// The vertices `x ≠ 0` of `{x >= 0 : Mᵀ x <= 1}`, where `payoff[s][t] > 0` is the other
/// player's payoff (`s` this player's strategy). Labels: `own_label(s)` for `x_s = 0`,
/// `other_label(t)` for a tight `t`.
///
/// A depth-first search over the lexicographically feasible bases (lrs's traversal, with a
/// set of the bases seen instead of its reverse-search rule): the right-hand side read as
/// perturbed by ε, ε², ... makes the polytope simple, so each basis has one neighbour per
/// entering variable (the lexicographic ratio test picks its row), the bases form a connected
/// graph, and every vertex of the polytope, degenerate or not, has one basis at least. A
/// neighbour already seen is known from its basis before any pivot; the search pivots only
/// along the tree of its path, and back. More than `budget` bases is refused.
fn vertices(
    payoff: &[Vec<BigInt>],
    own_label: &dyn Fn(usize) -> usize,
    other_label: &dyn Fn(usize) -> usize,
    labels: usize,
    budget: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<Vertex>, StrategicError> {
    let (own, other) = (payoff.len(), payoff[0].len());
    let vars = own + other;
    // Rows per inequality t: Σ_s payoff[s][t] x_s + slack_t = 1; x_s is column s, slack_t
    // column own + t, the right-hand side column own + other.
    let rows: Vec<Vec<BigInt>> = (0..other)
        .map(|t| {
            let mut row = vec![BigInt::zero(); vars + 1];
            for s in 0..own {
                row[s] = payoff[s][t].clone();
            }
            row[own + t] = BigInt::one();
            row[vars] = BigInt::one();
            row
        })
        .collect();
    let init: Vec<usize> = (own..vars).collect();
    let mut t = Tableau::new(rows, init.clone(), vars);
    let key = |basis: &[usize]| {
        let mut k = Labels::new(vars);
        basis.iter().for_each(|&v| k.insert(v));
        k
    };
    let mut seen: HashSet<Labels> = HashSet::from([key(t.basis())]);
    let mut found: BTreeMap<Mixed, Labels> = BTreeMap::new();
    // Each frame: the next variable to try entering, and the pivot that undoes its arrival.
    let mut path: Vec<(usize, Option<(usize, usize)>)> = vec![(0, None)];
    while let Some((next, undo)) = path.last_mut() {
        if *next == vars {
            if let Some((row, var)) = *undo {
                t.pivot(row, var, stop)?;
            }
            path.pop();
            continue;
        }
        let entering = *next;
        *next += 1;
        if t.basis().contains(&entering) {
            continue;
        }
        if stop() {
            return Err(StrategicError::Stopped);
        }
        let Some(row) = t.ratio_test(entering, &init) else {
            return Err(StrategicError::Internal(
                "an unbounded edge of a bounded polytope",
            ));
        };
        let mut basis = t.basis().to_vec();
        basis[row] = entering;
        if !seen.insert(key(&basis)) {
            continue;
        }
        if seen.len() > budget {
            return Err(StrategicError::TooManyBases(budget));
        }
        let leaving = t.pivot(row, entering, stop)?;
        let mut point = vec![Q::zero(); own];
        let mut point_labels = Labels::new(labels);
        for (var, value) in t.scaled_values() {
            if var < own && !value.is_zero() {
                point[var] = Q::new(value.clone(), t.det().clone());
            }
        }
        for (s, x) in point.iter().enumerate() {
            if x.is_zero() {
                point_labels.insert(own_label(s));
            }
        }
        let mut slack = vec![true; other];
        for (var, value) in t.scaled_values() {
            if var >= own && !value.is_zero() {
                slack[var - own] = false;
            }
        }
        for (j, tight) in slack.into_iter().enumerate() {
            if tight {
                point_labels.insert(other_label(j));
            }
        }
        found.entry(point).or_insert(point_labels);
        path.push((0, Some((row, leaving))));
    }
    Ok(found
        .into_iter()
        .map(|(point, labels)| Vertex { point, labels })
        .collect())
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
    /// nondegenerate) and the connected components of its equilibria. Refuses a polytope
    /// with more than `budget` bases (at most [`MAX_VERTEX_BASES`]; see [`vertex_budget`])
    /// and a tableau past [`MAX_TABLEAU_CELLS`] entries.
    pub fn vertex_enumeration(
        &self,
        budget: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Extreme, StrategicError> {
        self.two_players()?;
        let (m, n) = (self.counts[0], self.counts[1]);
        let cells = (m.max(n) * (m + n + 1)) as u128;
        if cells > MAX_TABLEAU_CELLS {
            return Err(StrategicError::TableauTooLarge(cells));
        }
        let budget = budget.min(MAX_VERTEX_BASES);
        let (a, b) = self.bimatrix()?;
        let labels = m + n;
        let b = positive(integral(&b));
        // For Q the mixer is the column player: payoff[j][i] is A's, transposed.
        let at = positive(integral(&transpose(&a)));
        let xs = vertices(&b, &|i| i, &|j| m + j, labels, budget, stop)?;
        let ys = vertices(&at, &|j| m + j, &|i| i, labels, budget, stop)?;
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
        let e = g.vertex_enumeration(MAX_VERTEX_BASES, &|| false).unwrap();
        let shown: Vec<String> = e.equilibria.iter().map(show).collect();
        assert_eq!(shown, ["0,1|0,1", "2/3,1/3|1/3,2/3", "1,0|1,0"]);
        assert_eq!(e.components, vec![vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn a_continuum_is_one_component_of_two_extreme_equilibria() {
        // Row's payoffs are all 1 (Row is indifferent); Col gets 1 for L, 0 for R against
        // Top and 1 for both against Bottom. Equilibria: (Top, L) and (Bottom, any y).
        let g = game(2, 2, &[1, 1, 1, 0, 1, 1, 1, 1]);
        let e = g.vertex_enumeration(MAX_VERTEX_BASES, &|| false).unwrap();
        let shown: Vec<String> = e.equilibria.iter().map(show).collect();
        // (Bottom, L), (Bottom, R), and every mix of Top and Bottom against L.
        assert_eq!(shown, ["0,1|0,1", "0,1|1,0", "1,0|1,0"]);
        assert_eq!(e.components, vec![vec![0, 1, 2]]);
    }
}
