//! The benchmark suite's answers (benches/workloads.rs) without the timing: at the quick
//! sizes, cgl's answer to each workload's query equals the hand-written baseline's, and the
//! hash-map baseline's (and on W3 and W4 the packed baseline's) equals both.

use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};

// The test uses only part of the baselines' API (the bench harness uses the rest).
#[allow(dead_code)]
#[path = "../benches/baselines/mod.rs"]
mod baselines;

use baselines::suite::{self, Baseline};

fn cgl_answer(workload: &str, size: &str) -> String {
    let query = suite::cgl_query(workload, size).unwrap();
    let mut session = Session::new(SessionConfig {
        graph: GraphConfig {
            max_positions: 50_000_000,
            max_memory: 16 << 30,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    });
    let file = session.load_source(query.file, &query.source).unwrap();
    let value = session.eval_text(&query.expr, &[file]).unwrap();
    suite::cgl_shown(workload, session.show(&value)).unwrap()
}

/// Runs `f` on a thread with a large stack, as the bench children do: cgl's evaluation and
/// the hash-map baselines recurse.
fn big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn check(workload: &'static str) {
    for &size in suite::sizes(workload, true) {
        let (cgl, hand, map) = big_stack(move || {
            (
                cgl_answer(workload, size),
                suite::answer(workload, size, Baseline::Hand).unwrap(),
                suite::answer(workload, size, Baseline::Map).unwrap(),
            )
        });
        assert!(cgl.len() > 2, "{workload} {size}: empty answer {cgl}");
        assert_eq!(
            cgl, hand,
            "{workload} {size}: cgl and the hand-written baseline"
        );
        assert_eq!(
            map, hand,
            "{workload} {size}: the hash-map baseline and the hand-written"
        );
        if ["W3", "W4"].contains(&workload) {
            let packed = suite::answer(workload, size, Baseline::Packed).unwrap();
            assert_eq!(
                packed, hand,
                "{workload} {size}: the packed baseline and the hand-written"
            );
        }
    }
}

#[test]
fn bench_answers_w1_kayles() {
    check("W1");
}

#[test]
fn bench_answers_w2_grundy_game() {
    check("W2");
}

#[test]
fn bench_answers_w3_tictactoe() {
    check("W3");
}

#[test]
fn bench_answers_w4_chomp() {
    check("W4");
}

#[test]
fn bench_answers_w5_wythoff() {
    check("W5");
}

#[test]
fn bench_answers_w7_add_or_take() {
    check("W7");
    // Issue 17: P at 0, N at 1 and 2, D from 3 on.
    assert_eq!(
        suite::answer("W7", "1000", Baseline::Hand).unwrap(),
        "[N, P, N, D, D]"
    );
}

/// W8's second peer is pycgt, a Python package that CI need not have: cgl's answer is
/// checked against the hand-written solver's, and both against published values.
#[test]
fn bench_answers_w8_domineering() {
    for size in ["2x3", "2x4", "3x3", "4x4"] {
        let (cgl, hand) = big_stack(move || {
            (
                cgl_answer("W8", size),
                suite::answer("W8", size, Baseline::Hand).unwrap(),
            )
        });
        assert_eq!(cgl, hand, "W8 {size}: cgl and the hand-written baseline");
    }
    // Winning Ways (2 x 3, 3 x 3) and pycgt's documentation (2 x 4), Left vertical.
    let hand = |size| suite::answer("W8", size, Baseline::Hand).unwrap();
    assert_eq!(hand("2x3"), "{2|-1/2}");
    assert_eq!(hand("2x4"), "Miny(2)");
    assert_eq!(hand("3x3"), "+-1");
    assert_eq!(hand("2x2"), "+-1");
    assert_eq!(hand("4x5"), "1");
}

/// The boards' lines in the `.game` files (the 4 × 4 ones are run only by the full suite) are
/// the baselines' lines of three; the game that takes them as a parameter compiles whole, as
/// the one that reads the constant does.
#[test]
fn bench_answers_tictactoe_lines() {
    for (size, side) in [("3x3", 3), ("4x4", 4), ("4x4-param", 4)] {
        let query = suite::cgl_query("W3", size).unwrap();
        let mut session = Session::new(SessionConfig::default());
        let file = session.load_source(query.file, &query.source).unwrap();
        let value = session.eval_text("sorted(LINES)", &[file]).unwrap();
        let mut lines = baselines::tictactoe::Board::new(side).lines().to_vec();
        lines.sort();
        let expected: Vec<String> = lines.iter().map(baselines::common::list).collect();
        assert_eq!(lines.len(), if side == 3 { 8 } else { 24 });
        assert_eq!(
            session.show(&value),
            baselines::common::list(expected),
            "{size}"
        );
        let game = &session.compiled().games[0];
        assert!(game.rules.iter().all(Option::is_some), "{size}");
        let mut conditions = game.terminal.iter().chain(&game.draw);
        assert!(
            conditions.clone().count() == 2 && conditions.all(Option::is_some),
            "{size}"
        );
    }
}

/// The answers are not trivially equal: they hold known facts.
#[test]
fn bench_answers_hold_known_facts() {
    let kayles = suite::answer("W1", "12", Baseline::Hand).unwrap();
    assert_eq!(kayles, "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]");
    let grundy = suite::answer("W2", "8", Baseline::Hand).unwrap();
    assert_eq!(grundy, "[0, 0, 1, 0, 2, 1, 0, 2]");
    let wythoff = suite::answer("W5", "8", Baseline::Hand).unwrap();
    assert_eq!(
        wythoff,
        "[(0, 0), (1, 2), (2, 1), (3, 5), (4, 7), (5, 3), (7, 4)]"
    );
    let ttt = suite::answer("W3", "3x3", Baseline::Hand).unwrap();
    assert!(
        ttt.starts_with("(5478, D, -1, [D, D, D, D, D, D, D, D, D], "),
        "{ttt}"
    );
    // A 6 x 6 bar holds C(12, 6) - 1 positions (every diagram but the empty one); the first
    // player wins, and the bite at (1, 1) that leaves an L with equal arms is the one P move.
    let chomp = suite::answer("W4", "6x6", Baseline::Hand).unwrap();
    assert!(chomp.starts_with("(923, N, "), "{chomp}");
    let p_moves: Vec<&str> = chomp.matches('P').collect();
    assert_eq!(p_moves.len(), 1, "{chomp}");
}

/// W9's peer is nashpy, which CI need not have: cgl's equilibria (through the language)
/// equal its library's called directly, every one is an equilibrium of the generated game
/// (checked here in floating point on the decimals), and the count is odd (a nondegenerate
/// game).
#[test]
fn bench_answers_w9_bimatrix() {
    for size in ["4", "6"] {
        let cgl = cgl_answer("W9", size);
        let hand = suite::answer("W9", size, Baseline::Hand).unwrap();
        assert_eq!(cgl, hand, "W9 {size}: cgl and its library");
        let n: usize = size.parse().unwrap();
        let (a, b) = baselines::bimatrix::game(n);
        let lines: Vec<&str> = cgl.lines().collect();
        assert_eq!(lines.len() % 2, 1, "W9 {size}: {cgl}");
        for line in lines {
            let (x, y) = line.split_once(" | ").unwrap();
            let parse =
                |t: &str| -> Vec<f64> { t.split(' ').map(|p| p.parse().unwrap()).collect() };
            let (x, y) = (parse(x), parse(y));
            let row: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| a[i][j] as f64 * y[j]).sum())
                .collect();
            let col: Vec<f64> = (0..n)
                .map(|j| (0..n).map(|i| b[i][j] as f64 * x[i]).sum())
                .collect();
            let best_row = row.iter().cloned().fold(f64::MIN, f64::max);
            let best_col = col.iter().cloned().fold(f64::MIN, f64::max);
            for i in 0..n {
                assert!(x[i] == 0.0 || row[i] > best_row - 0.01, "W9 {size}: {line}");
                assert!(y[i] == 0.0 || col[i] > best_col - 0.01, "W9 {size}: {line}");
            }
        }
    }
    // The canonical form of exact fractions.
    assert_eq!(
        baselines::bimatrix::canonical("[([1/3, 2/3], [1, 0]), ([0, 1], [1/2, 1/2])]").unwrap(),
        "0.000000 1.000000 | 0.500000 0.500000\n0.333333 0.666667 | 1.000000 0.000000"
    );
}

/// The check behind the table's "not installed": an import that works, a module that does
/// not exist, and an interpreter that does not exist.
#[test]
fn bench_python_peer_check_tells_installed_from_missing() {
    use baselines::common::imports;
    assert!(imports("python3", "import sys"));
    assert!(!imports("python3", "import cgl_no_such_module"));
    assert!(!imports("cgl-no-such-python", "import sys"));
}

/// The yardstick's summary lines of the quick sizes, as `limit` printed them (issue 49:
/// `../shared/bench/limit`, built outside the repository): cgl's answers, read the way the
/// bench harness compares them, must give the same fields. When the yardstick is built
/// (`$CGL_YARDSTICK`, or its README's /tmp build), its lines are taken from it instead.
#[test]
fn bench_answers_match_the_yardstick() {
    use baselines::yardstick;
    let known = [
        ("W1", "300", "kayles N=299 sum=1155 max=8 digest=177441 lastexc=70"),
        ("W2", "500", "grundy N=500 sum=1941 max=16 digest=529425 zeros=27"),
        (
            "W3",
            "3x3",
            "ttt board=3x3 k=3 positions=5478 win=2836 lose=1574 tie=1068 start=tie/9 remsum=4036/1512/3893",
        ),
        ("W4", "6x6", "chomp R=6 C=6 positions=923 P=48 cellsP=610 start=N"),
        ("W5", "100", "wythoff N=100 P=77 sumP=6202 beatty=ok"),
    ];
    for (workload, size, line) in known {
        let line = match yardstick::binary() {
            Some(binary) => {
                let out = std::process::Command::new(binary)
                    .args(yardstick::args(workload, size).unwrap())
                    .output()
                    .unwrap();
                String::from_utf8(out.stdout).unwrap().trim().to_string()
            }
            None => line.to_string(),
        };
        let ours = big_stack(move || cgl_answer(workload, size));
        assert_eq!(
            yardstick::view(workload, &ours).unwrap(),
            yardstick::reduce(workload, &line),
            "{workload} {size}: cgl and the yardstick"
        );
    }
}
