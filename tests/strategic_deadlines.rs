//! Every strategic-form analysis honours `--timeout` (and so Ctrl-C, which sets the same
//! flag the deadline is checked with) and bounded memory: for each, a game within the size
//! caps whose analysis runs long (the times measured on the development machine are in the
//! comments) is stopped with `cgl::limit::timeout` and a non-zero exit well before the work
//! would end; the library's loops are checked directly with a deadline as their `stop`.

use std::time::{Duration, Instant};

use cgl::num::Rational;
use cgl::strategic::{Dominance, Game, StrategicError, MAX_TABLEAU_CELLS};

use crate::common::{assert_no_crash, cgl, temp_dir};

const GAMES: &str = r#"
game Rnd(m = 10, n = 10) {
    player Row in 0..m
    player Col in 0..n
    payoff ((Row * Row * 7919 + Col * 104729 + Row * Col * 31) % 1000003, (Col * Col * 6007 + Row * 99991 + Row * Col * 17) % 1000033)
}
game Zs(m = 10, n = 10) {
    player Row in 0..m
    player Col in 0..n
    payoff ((Row * Row * 7919 + Col * 104729 + Row * Col * 31) % 1000003 - 500000, 500000 - (Row * Row * 7919 + Col * 104729 + Row * Col * 31) % 1000003)
}
// Every profile is Pareto optimal: what one player gains the other loses.
game Trade(m = 10, n = 10) {
    player Row in 0..m
    player Col in 0..n
    payoff (Row * n + Col, 0 - Row * n - Col)
}
game Column(m = 10) {
    player Row in 0..m
    player Col in [0]
    payoff ((Row * 7919) % 1000003, 0)
}
"#;

/// How long a run with `--timeout 1` may take in all: the deadline, the start, the table's
/// building and the diagnostic, on a loaded machine.
const QUICK: Duration = Duration::from_secs(6);

#[test]
fn strategic_analyses_stop_at_the_deadline() {
    let dir = temp_dir("strategic-deadlines");
    let file = dir.join("games.game");
    std::fs::write(&file, GAMES).unwrap();
    let file = file.to_str().unwrap().to_string();
    // (expression, what it takes without a deadline)
    let cases = [
        ("equilibria(Rnd)", "12 s"),
        ("vertex_enumeration(Rnd[m = 30, n = 30])", "over 20 s"),
        ("equilibrium_components(Rnd[m = 30, n = 30])", "over 20 s"),
        ("minimax_value(Zs[m = 300, n = 300])", "over 60 s"),
        ("mixed_dominated(Rnd[m = 300, n = 300])", "over 60 s"),
        (
            "iterated_elimination(Rnd[m = 300, n = 300], \"mixed\")",
            "over 60 s",
        ),
        ("lemke_howson(Rnd[m = 200, n = 200])", "minutes"),
        ("nash(Rnd[m = 200, n = 200])", "minutes"),
        ("pareto_optimal(Trade[m = 300, n = 300])", "over 60 s"),
        // 199,999 other strategies against one column: the simplex tableau of each
        // dominating-mixture program would have 4·10^10 entries unless turned.
        ("mixed_dominated(Column[m = 200000])", "hours"),
    ];
    for (expr, untimed) in cases {
        let started = Instant::now();
        let (code, out, err) = cgl(&["eval", "--timeout", "1", "-f", &file, expr]);
        let took = started.elapsed();
        assert_no_crash(expr, &err);
        assert_eq!(code, 1, "{expr}: {err}");
        assert!(err.contains("cgl::limit::timeout"), "{expr}: {err}");
        assert_eq!(out, "", "{expr}");
        assert!(
            took < QUICK,
            "{expr} (untimed: {untimed}) took {took:?} with --timeout 1"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A two-player game from the row player's and the column player's payoff functions.
fn game(m: usize, n: usize, pay: impl Fn(usize, usize) -> (i64, i64)) -> Game {
    let mut payoffs = Vec::with_capacity(m * n * 2);
    for i in 0..m {
        for j in 0..n {
            let (a, b) = pay(i, j);
            payoffs.push(Rational::int(a));
            payoffs.push(Rational::int(b));
        }
    }
    Game::new(vec!["Row".into(), "Col".into()], vec![m, n], payoffs).unwrap()
}

/// A `stop` that says yes once `limit` has passed.
fn deadline(limit: Duration) -> impl Fn() -> bool {
    let end = Instant::now() + limit;
    move || Instant::now() >= end
}

/// The dominance checks by a pure strategy (which had no `stop` before): on a 1000×1000
/// game where every strategy of the row player nearly dominates every lower one (better in
/// every column but the last), each check runs through the columns. Untimed, these take
/// 14 s (strict), 65 s (weak), 7 s and 54 s (iterated).
#[test]
fn pure_dominance_stops_at_the_deadline() {
    let near = game(1000, 1000, |i, j| {
        let i = i as i64;
        (if j < 999 { i } else { -i }, 0)
    });
    let all = near.all_strategies();
    type Run<'a> = Box<dyn Fn(&dyn Fn() -> bool) -> Result<(), StrategicError> + 'a>;
    let runs: Vec<(&str, Run)> = vec![
        (
            "strict",
            Box::new(|stop| near.dominated(true, &all, stop).map(drop)),
        ),
        (
            "weak",
            Box::new(|stop| near.dominated(false, &all, stop).map(drop)),
        ),
        (
            "iterated strict",
            Box::new(|stop| near.iterated_elimination(Dominance::Strict, stop).map(drop)),
        ),
        (
            "iterated weak",
            Box::new(|stop| near.iterated_elimination(Dominance::Weak, stop).map(drop)),
        ),
    ];
    for (what, run) in runs {
        let started = Instant::now();
        let got = run(&deadline(Duration::from_millis(300)));
        assert_eq!(got, Err(StrategicError::Stopped), "{what}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{what} took {:?}",
            started.elapsed()
        );
    }
}

/// Tableaux past [`MAX_TABLEAU_CELLS`]: Lemke–Howson of a 1×1,000,000 game is refused at
/// once (its tableaux would have 10^12 entries), and a 200,000×1 zero-sum game, whose
/// simplex tableau would have 4·10^10, is solved as its column player sees it: the value is
/// the greatest payoff, and the row player plays it.
#[test]
fn tableaux_are_bounded() {
    let wide = game(1, 1_000_000, |_, j| (j as i64 % 7, 0));
    let started = Instant::now();
    match wide.lemke_howson(&|| false) {
        Err(StrategicError::TableauTooLarge(cells)) => assert!(cells > MAX_TABLEAU_CELLS),
        other => panic!("Lemke–Howson of a 1×1000000 game: {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    let pay = |i: usize| ((i as i64 * 7919) % 100_003) - 50_000;
    let tall = game(200_000, 1, |i, _| (pay(i), -pay(i)));
    let solution = tall.solve_zero_sum(&|| false).unwrap();
    let best = (0..200_000).map(pay).max().unwrap();
    assert_eq!(solution.value, cgl::strategic::q(Rational::int(best)));
    let played: Vec<usize> = (0..200_000)
        .filter(|&i| solution.row[i] != cgl::strategic::q(Rational::int(0)))
        .collect();
    assert!(played.iter().all(|&i| pay(i) == best), "{played:?}");
    assert_eq!(solution.column, vec![cgl::strategic::q(Rational::int(1))]);
}
