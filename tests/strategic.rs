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
