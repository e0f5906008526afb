//! Strategic-form games checked against an independent implementation written here:
//! support enumeration by plain Gaussian elimination over every pair of supports (of any
//! sizes), the equilibrium conditions verified exactly on every answer (probabilities
//! summing to 1, no profitable deviation), pure equilibria by brute force, and on random
//! games the library's support enumeration against its Lemke–Howson and, for zero-sum
//! games, its linear program.

use cgl::num::Rational;
use cgl::session::{Session, SessionConfig};
use cgl::strategic::{Game, Mixed, StrategicError, Q};
use num_traits::{One, Signed, Zero};

/// A small deterministic generator (xorshift), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn payoff(&mut self, range: i64) -> i64 {
        (self.below(2 * range as u64 + 1) as i64) - range
    }
}

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// A random m × n game with payoffs in `-range..=range`; `zero_sum` makes B = -A.
fn random_game(
    rng: &mut Rng,
    m: usize,
    n: usize,
    range: i64,
    zero_sum: bool,
) -> (Game, Vec<Vec<i64>>, Vec<Vec<i64>>) {
    let mut a = vec![vec![0; n]; m];
    let mut b = vec![vec![0; n]; m];
    let mut cells = Vec::new();
    for i in 0..m {
        for j in 0..n {
            a[i][j] = rng.payoff(range);
            b[i][j] = if zero_sum {
                -a[i][j]
            } else {
                rng.payoff(range)
            };
            cells.push(Rational::int(a[i][j]));
            cells.push(Rational::int(b[i][j]));
        }
    }
    let game = Game::new(vec!["Row".into(), "Col".into()], vec![m, n], cells).unwrap();
    (game, a, b)
}

/// Solves a square system by Gaussian elimination over rationals; `None` if singular.
fn gauss(mut rows: Vec<Vec<Q>>) -> Option<Vec<Q>> {
    let k = rows.len();
    for c in 0..k {
        let p = (c..k).find(|&r| !rows[r][c].is_zero())?;
        rows.swap(c, p);
        let pivot = rows[c][c].clone();
        for x in rows[c].iter_mut() {
            *x = &*x / &pivot;
        }
        for r in 0..k {
            if r != c && !rows[r][c].is_zero() {
                let f = rows[r][c].clone();
                let pr = rows[c].clone();
                for (x, y) in rows[r].iter_mut().zip(&pr) {
                    *x = &*x - &f * y;
                }
            }
        }
    }
    Some(rows.into_iter().map(|r| r[k].clone()).collect())
}

/// Payoff of each pure strategy of the player whose payoffs are `u[own][other]` against
/// the other's mix `p`.
fn against(u: &[Vec<i64>], p: &[Q]) -> Vec<Q> {
    u.iter()
        .map(|row| row.iter().zip(p).map(|(&x, w)| q(x) * w).sum())
        .collect()
}

fn transpose(u: &[Vec<i64>]) -> Vec<Vec<i64>> {
    (0..u[0].len())
        .map(|j| u.iter().map(|r| r[j]).collect())
        .collect()
}

/// The equilibrium conditions, checked exactly: both are distributions, and no pure
/// strategy pays either player more than what they get.
fn is_equilibrium(a: &[Vec<i64>], b: &[Vec<i64>], x: &[Q], y: &[Q]) -> bool {
    let dist = |p: &[Q]| p.iter().all(|v| !v.is_negative()) && p.iter().sum::<Q>() == Q::one();
    if !dist(x) || !dist(y) {
        return false;
    }
    let row = against(a, y);
    let col = against(&transpose(b), x);
    let ux: Q = row.iter().zip(x).map(|(r, w)| r * w).sum();
    let uy: Q = col.iter().zip(y).map(|(c, w)| c * w).sum();
    row.iter().all(|r| *r <= ux) && col.iter().all(|c| *c <= uy)
}

/// Every subset of `0..n` with at least one element.
fn supports(n: usize) -> Vec<Vec<usize>> {
    (1u32..(1 << n))
        .map(|mask| (0..n).filter(|i| mask & (1 << i) != 0).collect())
        .collect()
}

/// The mix over `support` that makes the other player (payoffs `u[own][other]`)
/// indifferent among `targets`, with `|support| == |targets|`.
fn indifferent(
    u: &[Vec<i64>],
    count: usize,
    support: &[usize],
    targets: &[usize],
) -> Option<Mixed> {
    let k = support.len();
    let mut rows = Vec::new();
    for &t in targets {
        let mut row: Vec<Q> = support.iter().map(|&s| q(u[s][t])).collect();
        row.push(q(-1));
        row.push(q(0));
        rows.push(row);
    }
    let mut sum = vec![q(1); k];
    sum.push(q(0));
    sum.push(q(1));
    rows.push(sum);
    let sol = gauss(rows)?;
    let mut out = vec![q(0); count];
    for (w, &s) in sol.iter().zip(support) {
        out[s] = w.clone();
    }
    Some(out)
}

/// Independent support enumeration: every equal-size pair of supports, kept when the
/// solution is an equilibrium whose supports are exactly these.
fn reference_equilibria(a: &[Vec<i64>], b: &[Vec<i64>]) -> Vec<(Mixed, Mixed)> {
    let (m, n) = (a.len(), a[0].len());
    let mut out = Vec::new();
    for i in supports(m) {
        for j in supports(n).into_iter().filter(|j| j.len() == i.len()) {
            let (Some(x), Some(y)) = (
                indifferent(b, m, &i, &j),
                indifferent(&transpose(a), n, &j, &i),
            ) else {
                continue;
            };
            let exact =
                |p: &Mixed, s: &[usize]| (0..p.len()).all(|t| p[t].is_positive() == s.contains(&t));
            if exact(&x, &i) && exact(&y, &j) && is_equilibrium(a, b, &x, &y) {
                out.push((x, y));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn support_enumeration_matches_the_reference_on_random_games() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut solved = 0;
    let mut refused = 0;
    for round in 0..400 {
        let (m, n) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
        let (game, a, b) = random_game(&mut rng, m, n, 20, false);
        match game.support_enumeration(&|| false) {
            Ok(found) => {
                solved += 1;
                for (x, y) in &found {
                    assert!(
                        is_equilibrium(&a, &b, x, y),
                        "round {round}: not an equilibrium"
                    );
                    assert!(game.is_equilibrium(x, y));
                }
                assert!(
                    !found.is_empty(),
                    "round {round}: every finite game has an equilibrium"
                );
                assert_eq!(
                    found,
                    reference_equilibria(&a, &b),
                    "round {round}: {a:?} {b:?}"
                );
                // Nondegenerate games have an odd number of equilibria.
                assert_eq!(found.len() % 2, 1, "round {round}");
                // Lemke–Howson finds some of them, each one of the list.
                let lh = game.lemke_howson(&|| false).unwrap();
                assert!(!lh.is_empty());
                assert!(lh.iter().all(|e| found.contains(e)), "round {round}");
            }
            Err(StrategicError::Degenerate { .. }) => refused += 1,
            Err(e) => panic!("round {round}: {e:?}"),
        }
    }
    // Random payoffs from 41 values are mostly in general position.
    assert!(solved > 300, "solved {solved}, refused {refused}");
}

#[test]
fn a_pure_strategy_with_two_best_responses_is_degenerate() {
    let mut rng = Rng(7);
    for _ in 0..100 {
        let (m, n) = (2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
        let (_, a, mut b) = random_game(&mut rng, m, n, 9, false);
        // Make the column player's two best replies to row 0 tie.
        let best = *b[0].iter().max().unwrap();
        let other = (0..n).find(|&j| b[0][j] != best).unwrap_or(0);
        if b[0][other] == best {
            continue;
        }
        b[0][other] = best;
        let cells = (0..m)
            .flat_map(|i| {
                (0..n)
                    .flat_map(|j| [Rational::int(a[i][j]), Rational::int(b[i][j])])
                    .collect::<Vec<_>>()
            })
            .collect();
        let game = Game::new(vec!["Row".into(), "Col".into()], vec![m, n], cells).unwrap();
        assert!(matches!(
            game.support_enumeration(&|| false),
            Err(StrategicError::Degenerate { .. })
        ));
    }
}

#[test]
fn zero_sum_value_is_guaranteed_by_both_strategies() {
    let mut rng = Rng(0xfeed_beef_0000_0042);
    for round in 0..300 {
        let (m, n) = (1 + rng.below(6) as usize, 1 + rng.below(6) as usize);
        let (game, a, _) = random_game(&mut rng, m, n, 30, true);
        let s = game.solve_zero_sum(&|| false).unwrap();
        let dist = |p: &[Q]| p.iter().all(|v| !v.is_negative()) && p.iter().sum::<Q>() == Q::one();
        assert!(dist(&s.row) && dist(&s.column), "round {round}");
        // x guarantees at least v against every column, y at most v against every row.
        for pay in against(&transpose(&a), &s.row) {
            assert!(pay >= s.value, "round {round}");
        }
        for (i, pay) in against(&a, &s.column).iter().enumerate() {
            assert!(*pay <= s.value, "round {round} row {i}");
        }
        let b = a
            .iter()
            .map(|r| r.iter().map(|x| -x).collect())
            .collect::<Vec<Vec<i64>>>();
        assert!(is_equilibrium(&a, &b, &s.row, &s.column));
        // Every equilibrium of a zero-sum game pays the value.
        if let Ok(all) = game.support_enumeration(&|| false) {
            for (x, y) in all {
                let pay = game.expected_payoffs(&[x, y]);
                assert_eq!(pay[0], s.value, "round {round}");
            }
        }
    }
}

#[test]
fn pure_equilibria_match_brute_force_for_three_players() {
    let mut rng = Rng(99);
    for round in 0..100 {
        let counts = vec![
            1 + rng.below(3) as usize,
            1 + rng.below(3) as usize,
            1 + rng.below(3) as usize,
        ];
        let total: usize = counts.iter().product();
        let cells: Vec<i64> = (0..total * 3).map(|_| rng.payoff(3)).collect();
        let game = Game::new(
            vec!["a".into(), "b".into(), "c".into()],
            counts.clone(),
            cells.iter().map(|&c| Rational::int(c)).collect(),
        )
        .unwrap();
        let at =
            |p: [usize; 3], i: usize| cells[((p[0] * counts[1] + p[1]) * counts[2] + p[2]) * 3 + i];
        let mut expected = Vec::new();
        for p0 in 0..counts[0] {
            for p1 in 0..counts[1] {
                for p2 in 0..counts[2] {
                    let p = [p0, p1, p2];
                    let stable = (0..3).all(|i| {
                        (0..counts[i]).all(|s| {
                            let mut d = p;
                            d[i] = s;
                            at(d, i) <= at(p, i)
                        })
                    });
                    if stable {
                        expected.push(p.to_vec());
                    }
                }
            }
        }
        assert_eq!(
            game.pure_equilibria(&|| false).unwrap(),
            expected,
            "round {round}"
        );
    }
}

#[test]
fn eight_by_eight_is_solved_fast() {
    let mut rng = Rng(0x8888_8888_1234_5678);
    let mut games = 0;
    while games < 3 {
        let (game, a, b) = random_game(&mut rng, 8, 8, 1000, false);
        let start = std::time::Instant::now();
        let Ok(found) = game.support_enumeration(&|| false) else {
            continue;
        };
        assert!(start.elapsed().as_secs_f64() < 1.0, "{:?}", start.elapsed());
        games += 1;
        assert!(found.iter().all(|(x, y)| is_equilibrium(&a, &b, x, y)));
        let lh = game.lemke_howson(&|| false).unwrap();
        assert!(lh.iter().all(|e| found.contains(e)));
    }
}

/// The language gives the library's answers, exactly printed.
#[test]
fn the_language_prints_exact_equilibria() {
    let mut session = Session::new(SessionConfig::default());
    let source = "game BoS {\n player Row in [\"O\", \"F\"]\n player Col in [\"O\", \"F\"]\n table [[(2, 1), (0, 0)], [(0, 0), (1, 2)]]\n}\n";
    let file = session.load_source("bos.game", source).unwrap();
    let eval = |s: &mut Session, text: &str| {
        let v = s.eval_text(text, &[file]).unwrap();
        s.show(&v)
    };
    assert_eq!(
        eval(&mut session, "equilibria(BoS)"),
        "[([0, 1], [0, 1]), ([2/3, 1/3], [1/3, 2/3]), ([1, 0], [1, 0])]"
    );
    assert_eq!(eval(&mut session, "nash(BoS).0"), "\"support enumeration\"");
    assert_eq!(
        eval(&mut session, "expected_payoff(BoS, equilibria(BoS)[1])"),
        "(2/3, 2/3)"
    );
}

/// `payoff` is one clause: in a game with `player` clauses a strategic payoff function, in
/// a game of moves a terminal payment; both kinds in one file keep their meanings, and the
/// values the strategic analyses give are the language's exact fractions (`1/2 == 1/2`).
#[test]
fn payoff_means_what_its_game_is() {
    let mut session = Session::new(SessionConfig::default());
    let source = "game Pennies {\n player Row in [\"H\", \"T\"]\n player Col in [\"H\", \"T\"]\n payoff if Row == Col then (1, -1) else (-1, 1)\n}\n\
                  game Take {\n position n\n payoff -1 if n == 0\n move n - k for k in [1, 2] if k <= n\n}\n";
    let file = session.load_source("both.game", source).unwrap();
    let mut eval = |text: &str| {
        let v = session.eval_text(text, &[file]).unwrap();
        session.show(&v)
    };
    assert_eq!(eval("nash(Pennies).2"), "[([1/2, 1/2], [1/2, 1/2])]");
    assert_eq!(
        eval("nash(Pennies).2 == [([1/2, 1/2], [1/2, 1/2])]"),
        "true"
    );
    assert_eq!(eval("minimax_value(Pennies)"), "0");
    // Take: the player to move at 0 pays 1, so multiples of 3 lose.
    assert_eq!(
        eval("[score(Take(n)) for n in 0..7]"),
        "[-1, 1, 1, -1, 1, 1, -1]"
    );
    // A condition on a strategic payoff is refused, not ignored.
    let bad = "game G {\n player A in [0]\n player B in [0]\n payoff (1, 1) if A == B\n}\n";
    let codes: Vec<String> = match session.load_source("bad.game", bad) {
        Ok(_) => Vec::new(),
        Err(diags) => diags.iter().map(|d| d.code.to_string()).collect(),
    };
    assert_eq!(codes, ["cgl::resolve::strategic"]);
}

/// Solves `rows` (coefficients, then the right-hand side) over rationals by plain Gaussian
/// elimination; `Some` only when the solution is unique.
fn unique_solution(mut rows: Vec<Vec<Q>>, unknowns: usize) -> Option<Vec<Q>> {
    let mut rank = 0;
    for c in 0..unknowns {
        let p = (rank..rows.len()).find(|&r| !rows[r][c].is_zero())?;
        rows.swap(rank, p);
        let pivot = rows[rank][c].clone();
        for x in rows[rank].iter_mut() {
            *x = &*x / &pivot;
        }
        let pr = rows[rank].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != rank && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, y) in row.iter_mut().zip(&pr) {
                    *x = &*x - &f * y;
                }
            }
        }
        rank += 1;
    }
    if rows[rank..].iter().any(|r| !r[unknowns].is_zero()) {
        return None;
    }
    Some(
        rows[..unknowns]
            .iter()
            .map(|r| r[unknowns].clone())
            .collect(),
    )
}

/// The mixed strategies `x` of the player whose opponent's payoffs are `u[own][other]`
/// that are vertices of the best-response region: for a support `I` and a set `J` of the
/// opponent's replies, the system `x_i = 0 (i ∉ I)`, `Σ x = 1`, `Σ_i u[i][j] x_i = v
/// (j ∈ J)` has one solution, with `x >= 0` and no reply paying more than `v`.
fn brute_vertices(u: &[Vec<i64>]) -> Vec<Mixed> {
    let (own, other) = (u.len(), u[0].len());
    let mut out: Vec<Mixed> = Vec::new();
    for support in supports(own) {
        for replies in supports(other) {
            let k = support.len();
            let mut rows = Vec::new();
            for &j in &replies {
                let mut row: Vec<Q> = support.iter().map(|&i| q(u[i][j])).collect();
                row.push(q(-1));
                row.push(q(0));
                rows.push(row);
            }
            let mut sum = vec![q(1); k];
            sum.push(q(0));
            sum.push(q(1));
            rows.push(sum);
            let Some(sol) = unique_solution(rows, k + 1) else {
                continue;
            };
            if sol[..k].iter().any(Signed::is_negative) {
                continue;
            }
            let mut x = vec![q(0); own];
            for (w, &i) in sol.iter().zip(&support) {
                x[i] = w.clone();
            }
            let v = &sol[k];
            let pays = against(&transpose(u), &x);
            if pays.iter().all(|p| p <= v) && !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

/// Every extreme equilibrium by brute force: pairs of vertex strategies that are best
/// responses to each other.
fn brute_extreme(a: &[Vec<i64>], b: &[Vec<i64>]) -> Vec<(Mixed, Mixed)> {
    let xs = brute_vertices(b);
    let ys = brute_vertices(&transpose(a));
    let mut out = Vec::new();
    for x in &xs {
        for y in &ys {
            if is_equilibrium(a, b, x, y) {
                out.push((x.clone(), y.clone()));
            }
        }
    }
    out.sort();
    out
}

/// Components checked by their definition: every extreme equilibrium in exactly one, two
/// sharing a strategy in the same one, and each connected through shared strategies.
fn check_components(e: &cgl::strategic::Extreme, round: usize) {
    let mut seen = vec![0; e.equilibria.len()];
    for c in &e.components {
        for &k in c {
            seen[k] += 1;
        }
        // Connected: grow from the first member through shared x or y.
        let mut reached = vec![c[0]];
        let mut grew = true;
        while grew {
            grew = false;
            for &k in c {
                if !reached.contains(&k)
                    && reached.iter().any(|&r| {
                        e.equilibria[r].0 == e.equilibria[k].0
                            || e.equilibria[r].1 == e.equilibria[k].1
                    })
                {
                    reached.push(k);
                    grew = true;
                }
            }
        }
        assert_eq!(
            reached.len(),
            c.len(),
            "round {round}: a component not connected"
        );
    }
    assert!(seen.iter().all(|&s| s == 1), "round {round}: {seen:?}");
    for (i, c) in e.components.iter().enumerate() {
        for d in &e.components[i + 1..] {
            for &k in c {
                for &l in d {
                    let (p, r) = (&e.equilibria[k], &e.equilibria[l]);
                    assert!(p.0 != r.0 && p.1 != r.1, "round {round}: split component");
                }
            }
        }
    }
}

#[test]
fn vertex_enumeration_is_support_enumeration_on_nondegenerate_games() {
    let mut rng = Rng(0x7e57_0001_dead_beef);
    let mut compared = 0;
    for round in 0..200 {
        let (m, n) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
        let (game, _, _) = random_game(&mut rng, m, n, 20, false);
        let Ok(all) = game.support_enumeration(&|| false) else {
            continue;
        };
        compared += 1;
        let e = game
            .vertex_enumeration(cgl::strategic::MAX_VERTEX_BASES, &|| false)
            .unwrap();
        assert_eq!(e.equilibria, all, "round {round}");
        // Nondegenerate equilibria are isolated: one component each.
        assert_eq!(e.components.len(), all.len(), "round {round}");
        check_components(&e, round);
    }
    assert!(compared > 150, "{compared}");
}

#[test]
fn vertex_enumeration_matches_brute_force_on_degenerate_games() {
    let mut rng = Rng(0xd0d0_cafe_0000_0003);
    let mut degenerate = 0;
    let mut continua = 0;
    for round in 0..300 {
        let (m, n) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
        // Payoffs from three values: ties everywhere.
        let (game, a, b) = random_game(&mut rng, m, n, 1, false);
        let e = game
            .vertex_enumeration(cgl::strategic::MAX_VERTEX_BASES, &|| false)
            .unwrap();
        assert!(!e.equilibria.is_empty(), "round {round}");
        for (x, y) in &e.equilibria {
            assert!(is_equilibrium(&a, &b, x, y), "round {round}");
        }
        assert_eq!(
            e.equilibria,
            brute_extreme(&a, &b),
            "round {round}: {a:?} {b:?}"
        );
        check_components(&e, round);
        if matches!(
            game.support_enumeration(&|| false),
            Err(StrategicError::Degenerate { .. })
        ) {
            degenerate += 1;
        }
        continua += e.components.iter().filter(|c| c.len() > 1).count();
        // Every pure equilibrium is extreme.
        for p in game.pure_equilibria(&|| false).unwrap() {
            let mut x = vec![q(0); m];
            let mut y = vec![q(0); n];
            x[p[0]] = q(1);
            y[p[1]] = q(1);
            assert!(e.equilibria.contains(&(x, y)), "round {round}");
        }
    }
    assert!(degenerate > 100 && continua > 50, "{degenerate} {continua}");
}

/// Whether a mixture of the first two rows of `d` (each row `t` the payoff of strategy `t`
/// minus the tested strategy's, per column) is positive on every column: the interval of
/// `λ` with `λ d0 + (1 - λ) d1 > 0` everywhere, computed exactly.
fn interval_dominates(d0: &[i64], d1: &[i64]) -> bool {
    // λ (d0 - d1) > -d1 for each column, λ in [0, 1].
    let (mut lo, mut lo_open) = (q(0), false);
    let (mut hi, mut hi_open) = (q(1), false);
    for (&p, &r) in d0.iter().zip(d1) {
        let slope = p - r;
        if slope == 0 {
            if r <= 0 {
                return false;
            }
            continue;
        }
        let bound = Q::new((-r).into(), slope.into());
        if slope > 0 {
            // λ > bound
            if bound > lo || (bound == lo && !lo_open) {
                lo = bound;
                lo_open = true;
            }
        } else if bound < hi || (bound == hi && !hi_open) {
            hi = bound;
            hi_open = true;
        }
    }
    lo < hi || (lo == hi && !lo_open && !hi_open)
}

#[test]
fn mixed_domination_matches_an_exact_interval_check() {
    let mut rng = Rng(0x0001_0203_0405_0607);
    let mut dominated = 0;
    let mut only_mixed = 0;
    for round in 0..300 {
        let n = 1 + rng.below(5) as usize;
        let (game, a, _) = random_game(&mut rng, 3, n, 6, false);
        let all = game.all_strategies();
        let found = game.mixed_dominated(&all, &|| false).unwrap();
        let pure = game.dominated(true, &all, &|| false).unwrap();
        for s in 0..3 {
            let others: Vec<usize> = (0..3).filter(|&t| t != s).collect();
            let d = |t: usize| (0..n).map(|j| a[t][j] - a[s][j]).collect::<Vec<i64>>();
            let expected = interval_dominates(&d(others[0]), &d(others[1]));
            let got = found[0].iter().find(|(x, _)| *x == s);
            assert_eq!(got.is_some(), expected, "round {round} row {s}: {a:?}");
            if let Some((_, mix)) = got {
                dominated += 1;
                // The witness: a distribution off `s` beating `s` against every column.
                assert!(mix[s].is_zero() && mix.iter().all(|p| !p.is_negative()));
                assert_eq!(mix.iter().sum::<Q>(), Q::one());
                for (j, &own) in a[s].iter().enumerate() {
                    let pay: Q = (0..3).map(|t| &mix[t] * q(a[t][j])).sum();
                    assert!(pay > q(own), "round {round}");
                }
                if !pure[0].iter().any(|(x, _)| *x == s) {
                    only_mixed += 1;
                }
            } else {
                // Pure domination is domination by a mixture.
                assert!(!pure[0].iter().any(|(x, _)| *x == s), "round {round}");
            }
        }
    }
    assert!(dominated > 50 && only_mixed > 5, "{dominated} {only_mixed}");
}

#[test]
fn iterated_weak_elimination_follows_its_order() {
    use cgl::strategic::{Dominance, Dominator};
    let mut rng = Rng(0x3141_5926_5358_9793);
    for round in 0..200 {
        let (m, n) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
        let (game, a, b) = random_game(&mut rng, m, n, 2, false);
        let (steps, survivors) = game
            .iterated_elimination(Dominance::Weak, &|| false)
            .unwrap();
        // Replay the steps by brute force: each removes the first weakly dominated strategy
        // of the first player with one, among the strategies alive then.
        let weakly = |alive: &[Vec<usize>], player: usize, t: usize, s: usize| -> bool {
            let (own, other) = (&alive[player], &alive[1 - player]);
            if !own.contains(&t) || !own.contains(&s) || t == s {
                return false;
            }
            let u = |mine: usize, theirs: usize| {
                if player == 0 {
                    a[mine][theirs]
                } else {
                    b[theirs][mine]
                }
            };
            other.iter().all(|&o| u(t, o) >= u(s, o)) && other.iter().any(|&o| u(t, o) > u(s, o))
        };
        let first = |alive: &[Vec<usize>]| -> Option<(usize, usize)> {
            for player in 0..2 {
                if alive[player].len() < 2 {
                    continue;
                }
                for &s in &alive[player] {
                    if alive[player].iter().any(|&t| weakly(alive, player, t, s)) {
                        return Some((player, s));
                    }
                }
            }
            None
        };
        let mut alive = vec![(0..m).collect::<Vec<_>>(), (0..n).collect()];
        for (player, s, by) in &steps {
            assert_eq!(first(&alive), Some((*player, *s)), "round {round}");
            let Dominator::Pure(t) = by else {
                panic!("round {round}: weak dominance by a mixture")
            };
            assert!(weakly(&alive, *player, *t, *s), "round {round}");
            alive[*player].retain(|x| x != s);
        }
        assert_eq!(first(&alive), None, "round {round}");
        assert_eq!(alive, survivors, "round {round}");
        // Strict elimination never removes a pure equilibrium's strategies.
        let (_, strict) = game
            .iterated_elimination(Dominance::Strict, &|| false)
            .unwrap();
        for p in game.pure_equilibria(&|| false).unwrap() {
            assert!(
                strict[0].contains(&p[0]) && strict[1].contains(&p[1]),
                "round {round}"
            );
        }
    }
}

/// Lemke–Howson with lexicographic pivots ends at an equilibrium from every starting label
/// on degenerate games too (ties everywhere, the all-equal table), each one checked here and
/// an extreme equilibrium of the brute-force list; on a 12×12 game with payoffs in ±100 and
/// the 20×20 all-equal table, where ratio tests tie, it answers instead of refusing.
#[test]
fn lemke_howson_pivots_lexicographically_through_degenerate_games() {
    let mut rng = Rng(0x1e3c_0000_0000_0048);
    for round in 0..300 {
        let (m, n) = (1 + rng.below(4) as usize, 1 + rng.below(4) as usize);
        let (game, a, b) = random_game(&mut rng, m, n, 1, false);
        let lh = game.lemke_howson(&|| false).unwrap();
        assert!(!lh.is_empty(), "round {round}");
        let extreme = brute_extreme(&a, &b);
        for (x, y) in &lh {
            assert!(is_equilibrium(&a, &b, x, y), "round {round}: {a:?} {b:?}");
            assert!(extreme.contains(&(x.clone(), y.clone())), "round {round}");
        }
    }
    for (m, range) in [(12, 100), (20, 0)] {
        let (game, a, b) = random_game(&mut rng, m, m, range, false);
        let lh = game.lemke_howson(&|| false).unwrap();
        assert!(!lh.is_empty());
        assert!(lh.iter().all(|(x, y)| is_equilibrium(&a, &b, x, y)));
    }
}

/// A probability whose numerator or denominator needs more than 64 bits is a value of the
/// language, exact (issue "Strategic II", item 1: fractions widen): what `lemke_howson`
/// prints is what the library computes, digit for digit, and it is an equilibrium.
#[test]
fn a_probability_past_64_bits_is_given_exactly() {
    let mut rng = Rng(0x0b16_0b16_0000_0001);
    let mut wide = 0;
    for _ in 0..4 {
        let (game, a, b) = random_game(&mut rng, 16, 16, 1_000_000, false);
        let rows: Vec<String> = (0..16)
            .map(|i| {
                let cells: Vec<String> = (0..16)
                    .map(|j| format!("({}, {})", a[i][j], b[i][j]))
                    .collect();
                format!("[{}]", cells.join(", "))
            })
            .collect();
        let source = format!(
            "game G {{\n player Row in 0..16\n player Col in 0..16\n table [{}]\n}}\n",
            rows.join(", ")
        );
        let mut session = Session::new(SessionConfig::default());
        let file = session.load_source("big.game", &source).unwrap();
        let value = session.eval_text("lemke_howson(G)", &[file]).unwrap();
        let found = game.lemke_howson(&|| false).unwrap();
        let exact: Vec<String> = found
            .iter()
            .map(|(x, y)| {
                let list = |p: &[cgl::strategic::Q]| {
                    let items: Vec<String> = p.iter().map(ToString::to_string).collect();
                    format!("[{}]", items.join(", "))
                };
                format!("({}, {})", list(x), list(y))
            })
            .collect();
        assert_eq!(session.show(&value), format!("[{}]", exact.join(", ")));
        let past = |q: &cgl::strategic::Q| q.numer().bits() > 63 || q.denom().bits() > 63;
        if found.iter().flat_map(|(x, y)| x.iter().chain(y)).any(past) {
            wide += 1;
            let check = session
                .eval_text(
                    "all(all(strategies(G).0[i] in best_responses(G, e).0 for i in 0..16 if e.0[i] > 0) \
                     and all(strategies(G).1[j] in best_responses(G, e).1 for j in 0..16 if e.1[j] > 0) \
                     and sum(e.0) == 1 and sum(e.1) == 1 for e in lemke_howson(G))",
                    &[file],
                )
                .unwrap();
            assert_eq!(session.show(&check), "true");
        }
    }
    assert!(
        wide > 0,
        "every game's answers fit 64 bits: pick larger payoffs"
    );
}

/// Every equilibrium each solver reports is one, checked exactly by the test's own best
/// responses, on random games whose payoffs sit at the ends of `i64` (a shift to positive
/// payoffs, or a product of two, would overflow 64 bits there): Lemke–Howson from every
/// label, vertex enumeration, and support enumeration where the game is nondegenerate, which
/// then lists the same equilibria as vertex enumeration.
#[test]
fn every_equilibrium_is_checked_exactly_at_the_ends_of_i64() {
    let mut rng = Rng(0x00e9_d50f_1e64);
    let mut nondegenerate = 0;
    for round in 0..60 {
        let (m, n) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        let end = |rng: &mut Rng| {
            let k = rng.below(7) as i64;
            if rng.below(2) == 0 {
                i64::MAX - k
            } else {
                i64::MIN + k
            }
        };
        let mut a = vec![vec![0; n]; m];
        let mut b = vec![vec![0; n]; m];
        let mut cells = Vec::new();
        for i in 0..m {
            for j in 0..n {
                a[i][j] = end(&mut rng);
                b[i][j] = end(&mut rng);
                cells.push(Rational::int(a[i][j]));
                cells.push(Rational::int(b[i][j]));
            }
        }
        let game = Game::new(vec!["Row".into(), "Col".into()], vec![m, n], cells).unwrap();
        let lh = game.lemke_howson(&|| false).unwrap();
        let extreme = game
            .vertex_enumeration(cgl::strategic::MAX_VERTEX_BASES, &|| false)
            .unwrap();
        assert!(
            !lh.is_empty() && !extreme.equilibria.is_empty(),
            "round {round}"
        );
        for (x, y) in lh.iter().chain(&extreme.equilibria) {
            assert!(is_equilibrium(&a, &b, x, y), "round {round}: {a:?} {b:?}");
        }
        if let Ok(all) = game.support_enumeration(&|| false) {
            nondegenerate += 1;
            assert_eq!(all, extreme.equilibria, "round {round}");
        }
    }
    assert!(nondegenerate > 10, "{nondegenerate}");
}
