//! Dense indexes of list positions (issue 19): the domain of a board's cells is inferred from
//! the compiled rules, and positions in it are found by rank. Every case runs through the
//! graph (`CGL_STORE=off`: the solver of `analysis::parallel` keeps nothing beside it) with
//! dense indexes on and off (`CGL_DENSE=off`) and compares the printed answers; `--stats`
//! says how many positions a dense table found, which shows whether the inference accepted
//! the game. The same answers come from the solver's rank table (the same domain) and from
//! its key table (`CGL_RANK=off`), both on one thread, and `--stats` says how many
//! positions each holds.

use std::process::{Command, Stdio};

use crate::common::{root, temp_dir, wait_with_timeout};

/// How a run finds and solves its positions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The default: the solver's rank table where the domain holds the position, else its
    /// key table.
    On,
    /// The rank table off (`CGL_RANK=off`): the solver's key table.
    Keys,
    /// The solver's stores off (`CGL_STORE=off`): the one-thread search through the graph,
    /// whose dense indexes are on.
    Graph,
    /// The same with dense indexes off (`CGL_DENSE=off`).
    Off,
}

/// What a run printed and what `--stats` counted.
struct Run {
    /// The printed answer.
    answer: String,
    /// Positions found densely in the graph.
    dense: usize,
    /// Positions the solver's rank table holds.
    ranked: usize,
    /// Positions its key table holds.
    keyed: usize,
}

/// Runs `cgl eval --stats` on `expr` after loading `file` in `mode`, on one thread; the
/// solver of `analysis::parallel` answers `reachable`, `outcome` and `remoteness` of a
/// position in its own tables, not in the graph.
fn eval(file: &std::path::Path, expr: &str, mode: Mode) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args([
            "eval",
            "--stats",
            "--threads",
            "1",
            "--max-memory",
            "4096",
            "-f",
        ])
        .arg(file)
        .arg(expr)
        .env("CGL_DENSE", if mode == Mode::Off { "off" } else { "on" })
        .env("CGL_RANK", if mode == Mode::Keys { "off" } else { "on" })
        .env(
            "CGL_STORE",
            if matches!(mode, Mode::Graph | Mode::Off) {
                "off"
            } else {
                "on"
            },
        )
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let (code, out, err) =
        wait_with_timeout(child, std::time::Duration::from_secs(120), "cgl eval");
    assert_eq!(code, 0, "{expr}: {out}{err}");
    let row = |name: &str| {
        err.lines()
            .find(|l| l.trim_start().starts_with(name))
            .map(|l| l.split_whitespace().collect::<Vec<&str>>())
    };
    let number = |w: &str| w.replace(',', "").parse::<usize>().unwrap();
    // `indexed   5,478   5,478 dense, 0 packed, 0 hashed`: the number before `dense`.
    let words = row("indexed").unwrap_or_else(|| panic!("no indexed row in {err}"));
    let at = words.iter().position(|w| w.starts_with("dense")).unwrap();
    // `rank table   5,478   positions solved by rank ...`, `key table   5,478   ...`.
    Run {
        answer: out.trim().to_string(),
        dense: number(words[at - 1]),
        ranked: row("rank table").map_or(0, |words| number(words[2])),
        keyed: row("key table").map_or(0, |words| number(words[2])),
    }
}

/// The answer of `expr` on `file`, the same in every mode; how many positions the graph
/// found densely (the solver's stores off), and how many the rank table holds. The key
/// table holds as many as the rank table, or, where the position is outside the domain, as
/// many as the default run's key table.
fn agree(file: &std::path::Path, expr: &str) -> (String, usize, usize) {
    let on = eval(file, expr, Mode::On);
    let keys = eval(file, expr, Mode::Keys);
    let graph = eval(file, expr, Mode::Graph);
    let off = eval(file, expr, Mode::Off);
    assert_eq!(
        on.answer, off.answer,
        "{expr}: dense indexes changed the answer"
    );
    assert_eq!(
        on.answer, graph.answer,
        "{expr}: the rank table changed the answer"
    );
    assert_eq!(
        on.answer, keys.answer,
        "{expr}: the key table changed the answer"
    );
    assert_eq!(
        keys.keyed,
        on.ranked + on.keyed,
        "{expr}: the key table solved other positions than the rank table"
    );
    assert_eq!(
        keys.ranked, 0,
        "{expr}: CGL_RANK=off still kept a rank table"
    );
    for (run, name) in [(&graph, "CGL_STORE=off"), (&off, "CGL_DENSE=off")] {
        assert_eq!(
            run.ranked + run.keyed,
            0,
            "{expr}: {name} still kept a store"
        );
    }
    assert_eq!(off.dense, 0, "{expr}: CGL_DENSE=off still indexed densely");
    (on.answer, graph.dense, on.ranked)
}

/// A file holding `source`.
fn game_file(name: &str, source: &str) -> std::path::PathBuf {
    let dir = temp_dir(&format!("dense-{name}"));
    let path = dir.join(format!("{name}.game"));
    std::fs::write(&path, source).unwrap();
    path
}

const TICTACTOE: &str = "benches/games/tictactoe.game";

#[test]
fn tictactoe_is_dense_and_its_known_answers_hold() {
    let file = root().join(TICTACTOE);
    let expr = "(reachable(TicTacToe.start), outcome(TicTacToe.start), \
                [outcome(m) for m in moves(TicTacToe.start)], \
                [if q is D then -1 else remoteness(q) for q in moves(moves(TicTacToe.start)[4])])";
    let (answer, dense, ranked) = agree(&file, expr);
    // 5,478 boards (a known count), a draw with perfect play.
    assert!(answer.starts_with("(5478, D, "), "{answer}");
    assert_eq!(dense, 5478, "every board is found by its rank");
    assert_eq!(ranked, 5478, "every board is solved in the rank table");
}

/// The benchmark game written differently: other names, its rule split in two with the
/// order reversed, an extra guard that changes nothing, the mark an `if` of its own.
pub(crate) const RENAMED: &str = "
const ROWS = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
fn line_of(g, who) = exists r in ROWS: forall c in r: g[c] == who
fn xs_turn(g) = count(x == 1 for x in g) == count(x == 2 for x in g)
fn finished(g) = line_of(g, 1) or line_of(g, 2) or not (0 in g)
fn o(g) = if xs_turn(g) then 0 else 2
game Noughts {
    position grid
    start [0, 0, 0, 0, 0, 0, 0, 0, 0]
    draw if not line_of(grid, 2) and not line_of(grid, 1)
    terminal if finished(grid)
    move set(grid, k, o(grid)) for k in 0..9 if grid[k] == 0 if not xs_turn(grid) if len(grid) == 9
    move set(grid, k, 1) for k in 0..9 if grid[k] == 0 if xs_turn(grid)
}
";

#[test]
fn a_game_written_differently_gets_the_same_dense_index() {
    let file = game_file("renamed", RENAMED);
    let (answer, dense, ranked) =
        agree(&file, "(reachable(Noughts.start), outcome(Noughts.start))");
    assert_eq!(answer, "(5478, D)");
    assert_eq!(dense, 5478);
    assert_eq!(ranked, 5478);
}

#[test]
fn both_forms_of_the_four_by_four_benchmark_are_dense() {
    // Late in the game, so that the test is quick: the first position interned decides the
    // domain, here {0, 1, 2} on 16 cells, as from the empty board.
    let board = "[1, 2, 1, 2, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0]";
    let expr = format!("(reachable(TicTacToe({board})), outcome(TicTacToe({board})))");
    let plain = agree(&root().join("benches/games/tictactoe4.game"), &expr);
    let param = agree(&root().join("benches/games/tictactoe4_param.game"), &expr);
    assert_eq!(plain, param);
    let count: usize = plain.0[1..].split(',').next().unwrap().parse().unwrap();
    assert!(count > 100, "{plain:?}");
    assert_eq!(plain.1, count, "every position is found by its rank");
    assert_eq!(plain.2, count, "every position is solved in the rank table");
}

#[test]
fn positions_asked_outside_the_domain_are_found_the_ordinary_way() {
    let file = root().join(TICTACTOE);
    let odd = "TicTacToe([7, 0, 0, 0, 0, 0, 0, 0, 0])";
    let long = "TicTacToe([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])";
    let expr = format!(
        "(reachable(TicTacToe.start), reachable({odd}), outcome({odd}), if {odd} is D then -1 else remoteness({odd}), \
         reachable({long}), outcome({long}), TicTacToe([0, 0, 0, 0, 0, 0, 0, 0, 0]) == TicTacToe.start, \
         reachable(TicTacToe.start))"
    );
    let (answer, dense, ranked) = agree(&file, &expr);
    assert!(answer.starts_with("(5478, "), "{answer}");
    assert!(answer.ends_with(", true, 5478)"), "{answer}");
    // The boards with a 7, or ten cells, are not in the domain: only the 5,478 are ranked
    // (the rank table counted is the last run's, from the start again, after the runs of
    // the other boards, which went to the key table).
    assert_eq!(dense, 5478);
    assert_eq!(ranked, 5478);
}

#[test]
fn an_asked_position_first_widens_the_domain() {
    // The first position interned seeds the domain: 7 is one of its values from then on.
    let file = root().join(TICTACTOE);
    let odd = "TicTacToe([7, 0, 0, 0, 0, 0, 0, 0, 0])";
    let expr = format!("(reachable({odd}), outcome({odd}), reachable(TicTacToe.start))");
    let (answer, dense, ranked) = agree(&file, &expr);
    let counts: Vec<usize> = answer[1..answer.len() - 1]
        .split(", ")
        .filter_map(|s| s.parse().ok())
        .collect();
    assert_eq!(counts.len(), 2, "{answer}");
    assert_eq!(counts[1], 5478);
    // The boards with the 7 and the ones without: none shared (the 7 stays).
    assert_eq!(dense, counts[0] + counts[1]);
    // `reachable` counts the positions of a fresh table: the last run's.
    assert_eq!(ranked, counts[1]);
}

/// Games the inference must refuse (no dense index), each with its number of positions
/// known by counting: cells that grow without a bound the rules state (a guard does not
/// bound a value for the inference), a target of another length, a value the inference
/// cannot bound (a count, a recursive function the compiler leaves to the interpreter,
/// a parameter added), a parameter's value above 255.
#[test]
fn games_whose_values_escape_a_domain_are_refused() {
    let cases = [
        (
            "increment",
            "game G { position b  start [0, 0, 0]  move set(b, i, b[i] + 1) for i in 0..3 if b[i] < 2 }",
            "reachable(G.start)",
            "27",
        ),
        (
            "length",
            "game G { position b  start [0]  move [1; len(b) + 1] if len(b) < 4  move set(b, 0, 1) if b[0] == 0 }",
            "reachable(G.start)",
            "5",
        ),
        (
            "count",
            "game G { position b  start [0, 0, 0] \
             move set(b, i, count(c == 0 for c in b)) for i in 0..3 if b[i] == 0 }",
            "reachable(G.start)",
            "16",
        ),
        (
            "recursive",
            "fn f(n) = if n <= 0 then 1 else f(n - 1)\n\
             game G { position b  start [0, 0, 0]  move set(b, i, f(3)) for i in 0..3 if b[i] == 0 }",
            "reachable(G.start)",
            "8",
        ),
        (
            "parameter-added",
            "game G(step = 1) { position b  start [0, 0, 0] \
             move set(b, i, b[i] + step) for i in 0..3 if b[i] < 2 }",
            "reachable(G.start)",
            "27",
        ),
        (
            "large-value",
            "game G(mark = 300) { position b  start [0, 0, 0] \
             move set(b, i, mark) for i in 0..3 if b[i] == 0 }",
            "reachable(G.start)",
            "8",
        ),
    ];
    for (name, source, expr, expected) in cases {
        let file = game_file(name, source);
        let (answer, dense, ranked) = agree(&file, expr);
        assert_eq!(answer, expected, "{name}");
        assert_eq!(dense, 0, "{name}: the inference should refuse this game");
        assert_eq!(ranked, 0, "{name}: no domain, no rank table");
    }
}

/// Games the inference bounds: a value chosen by an `if`, a parameter's value, a cell copied
/// from another, a literal board.
#[test]
fn bounded_values_get_a_dense_index() {
    let cases = [
        (
            "if",
            "game G { position b  start [0, 0, 0] \
             move set(b, i, if i == 1 then 3 else 1) for i in 0..3 if b[i] == 0 }",
            "reachable(G.start)",
            "8",
        ),
        (
            "parameter",
            "game G(mark = 2) { position b  start [0, 0, 0] \
             move set(b, i, mark) for i in 0..3 if b[i] == 0 }",
            "(reachable(G.start), reachable(G[mark = 5]([0, 0, 0])))",
            "(8, 8)",
        ),
        (
            "copy",
            "game G { position b  start [0, 1, 2] \
             move set(b, i, b[j]) for i in 0..3 for j in 0..3 if b[i] < b[j] }",
            "reachable(G.start)",
            "6",
        ),
        (
            "literal",
            "game G { position b  start [0, 1]  move [1, 2] if b[0] == 0  move reversed(b) if b[0] < b[1] }",
            "reachable(G.start)",
            "4",
        ),
    ];
    for (name, source, expr, expected) in cases {
        let file = game_file(name, source);
        let (answer, dense, ranked) = agree(&file, expr);
        assert_eq!(answer, expected, "{name}");
        let last: usize = expected
            .trim_matches(|c| c == '(' || c == ')')
            .rsplit(", ")
            .next()
            .map(|n| n.parse().unwrap())
            .unwrap();
        assert_eq!(
            ranked, last,
            "{name}: the last count's positions are in the rank table"
        );
        let positions: usize = expected
            .trim_matches(|c| c == '(' || c == ')')
            .split(", ")
            .map(|n| n.parse::<usize>().unwrap())
            .sum();
        assert_eq!(
            dense, positions,
            "{name}: every position is found by its rank"
        );
    }
}

/// `cgl check` with these arguments and dense indexes on or off: (exit code, stdout, stderr).
fn check(args: &[&str], on: bool) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .arg("check")
        .args(args)
        .env("CGL_DENSE", if on { "on" } else { "off" })
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    wait_with_timeout(child, std::time::Duration::from_secs(300), "cgl check")
}

#[test]
fn examples_print_the_same_with_dense_indexes_off() {
    // The examples hold boards of every kind (tic-tac-toe, Hex, Toads and Frogs, ...).
    let on = check(&["examples"], true);
    assert_eq!(on.0, 0, "{}{}", on.1, on.2);
    assert_eq!(
        on,
        check(&["examples"], false),
        "examples: dense on (left) and off differ"
    );
}

/// The `--stats` row of the game instance `name` of `expr` on `file` (one thread).
fn game_row(file: &std::path::Path, expr: &str, name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(["eval", "--stats", "--threads", "1", "-f"])
        .arg(file)
        .arg(expr)
        .current_dir(root())
        .output()
        .expect("the cgl binary runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    err.lines()
        .find(|l| l.trim_start().starts_with(name))
        .unwrap_or_else(|| panic!("no row of {name} in {err}"))
        .to_string()
}

/// Chomp written otherwise: other names, the map's branches the other way round under the
/// negated condition, a filter of its own, a guard that changes nothing.
const CHOMP_RENAMED: &str = "
fn keep(xs) = [v for v in xs if 0 < v]
game Bites {
    position heights
    move keep([if not (k < a) then min(b, h) else h for (k, h) in enumerate(heights)])
        for (a, top) in enumerate(heights), b in 0..top if a + b > 0 if len(heights) >= 0
}
";

/// Rules that can break the order: one row grows by one.
const UNSORTED: &str = "
game Grow {
    position rows
    move [if r == i then l + 1 else l for (r, l) in enumerate(rows)]
        for (i, w) in enumerate(rows) if w < 3
}
";

#[test]
fn chomp_is_ranked_as_sorted_lists_and_its_answers_agree() {
    let file = root().join("benches/games/chomp.game");
    let expr = "(reachable(Chomp([5; 5])), outcome(Chomp([5; 5])), remoteness(Chomp([5; 5])), \
                [outcome(m) for m in moves(Chomp([5; 5]))])";
    let (answer, dense, _) = agree(&file, expr);
    // C(10, 5) = 252 boards, the non-increasing lists of at most 5 rows of 1 to 5 squares
    // (less the empty one, which no move makes); the first player wins any rectangle.
    assert!(answer.starts_with("(251, N, "), "{answer}");
    assert_eq!(dense, 251, "every board is found by its rank");
    let row = game_row(&file, "outcome(Chomp([4; 4]))", "Chomp");
    assert!(row.contains("dense (sorted)"), "{row}");
    // A board asked that is not sorted is found the ordinary way, with the same answer.
    let (odd, _, _) = agree(&file, "outcome(Chomp([2, 3]))");
    assert_eq!(odd, "N");
}

#[test]
fn chomp_written_differently_is_ranked_alike() {
    let file = game_file("bites", CHOMP_RENAMED);
    let (answer, dense, _) = agree(&file, "(reachable(Bites([5; 5])), outcome(Bites([5; 5])))");
    assert_eq!(answer, "(251, N)");
    assert_eq!(dense, 251);
    let row = game_row(&file, "outcome(Bites([4; 4]))", "Bites");
    assert!(row.contains("dense (sorted)"), "{row}");
}

#[test]
fn rules_that_can_break_the_order_get_no_sorted_ranks() {
    let file = game_file("grow", UNSORTED);
    let (answer, _, _) = agree(&file, "reachable(Grow([2, 1, 1]))");
    let row = game_row(&file, "reachable(Grow([2, 1, 1]))", "Grow");
    assert!(!row.contains("(sorted)"), "{row}");
    // Every list of three cells from 1 to 3 with the first at least 2: 2 * 9.
    assert_eq!(answer, "18");
}
