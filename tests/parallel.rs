//! The solver of `analysis::parallel`, on one thread and on `--threads N`, gives the answers,
//! the printed output and the diagnostics of the one-thread search through the graph — on
//! the examples, on the benchmark games at small sizes, where its run must stop (errors in
//! rules, cycles, limits, the deadline), and on random games. It takes the positions it can
//! on any number of threads (in its rank table where the game has a dense domain, else in
//! its key table), so the reference is the graph with the solver's stores off
//! (`GraphConfig::stores`, `CGL_STORE=off`), and `cgl run` must print the same, byte for
//! byte.

use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};
use proptest::prelude::*;

use std::process::{Command, Stdio};

use crate::common::{cgl, root, temp_dir, wait_with_timeout};
use crate::random_graphs::config;

/// How a session runs its queries: on `threads` threads, with the solver's stores on
/// (`true`) or every query through the graph.
type Setup = (usize, bool);

/// The reference: one thread, through the graph.
const GRAPH: Setup = (1, false);

/// A session set up so, with `source` loaded.
fn session(setup: Setup, source: &str, max_positions: Option<usize>) -> (Session, usize) {
    let (threads, stores) = setup;
    let mut s = Session::new(SessionConfig {
        graph: GraphConfig {
            threads,
            stores,
            max_positions: max_positions.unwrap_or(GraphConfig::default().max_positions),
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
    });
    let file = match s.load_source("parallel.game", source) {
        Ok(f) => f,
        Err(d) => panic!("does not load: {:?}\n{source}", d[0].message),
    };
    (s, file)
}

/// The printed values of `exprs` in turn (or the error codes) on `threads` threads, and how
/// many positions the session's last run of the solver solved.
fn answers(threads: usize, source: &str, exprs: &[&str], max: Option<usize>) -> (String, usize) {
    answers_in((threads, true), source, exprs, max)
}

/// The same, set up so.
fn answers_in(setup: Setup, source: &str, exprs: &[&str], max: Option<usize>) -> (String, usize) {
    let (mut s, file) = session(setup, source, max);
    let mut out = String::new();
    for e in exprs {
        match s.eval_text(e, &[file]) {
            Ok(v) => out += &s.show(&v),
            Err(d) => {
                for d in d {
                    out += &format!("error {}: {}", d.code.name(), d.message);
                }
            }
        }
        out.push('\n');
    }
    (out, s.analyzer().solved_in_parallel())
}

/// The answers of the graph on 1 and 2 threads with the solver's stores on; the positions
/// the solver's last run on two threads solved.
fn same_on_two_threads(source: &str, exprs: &[&str], max: Option<usize>) -> usize {
    let (graph, none) = answers_in(GRAPH, source, exprs, max);
    assert_eq!(none, 0, "the stores off, the solver kept positions");
    let (one, _) = answers(1, source, exprs, max);
    assert_eq!(one, graph, "one thread: {source}");
    let (two, solved) = answers(2, source, exprs, max);
    assert_eq!(two, graph, "two threads: {source}");
    solved
}

/// Runs `cgl` with `args` and these variables set: (exit code, stdout, stderr).
fn cgl_env(args: &[&str], vars: &[(&str, &str)]) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(args)
        .env_remove("CGL_STORE")
        .env_remove("CGL_RANK")
        .envs(vars.iter().copied())
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    wait_with_timeout(child, std::time::Duration::from_secs(300), "cgl")
}

/// The solver's stores off (`CGL_STORE=off`): every query through the graph.
const STORE_OFF: &[(&str, &str)] = &[("CGL_STORE", "off")];
/// The rank table off (`CGL_RANK=off`): the solver's key table takes a dense game too.
const RANK_OFF: &[(&str, &str)] = &[("CGL_RANK", "off")];

/// `cgl run` of `source` with a `print` of each of `exprs`, on one thread through the graph
/// (`CGL_STORE=off`), on one thread and on two with the solver's stores (the rank table for
/// a dense game), and on one thread with the key table (`CGL_RANK=off`): the same exit code,
/// printed values and rendered diagnostics. Returns that output.
fn same_as_the_graph(name: &str, source: &str, exprs: &[&str], args: &[&str]) -> String {
    let [graph, stores, two, keys, _] = setups(name, source, exprs, args);
    assert_eq!(stores, graph, "{name}: one thread, the stores on");
    assert_eq!(two, graph, "{name}: two threads, the stores on");
    assert_eq!(keys, graph, "{name}: one thread, the key table");
    format!("{}{}", graph.1, graph.2)
}

/// The outputs of `cgl run` of `source` with a `print` of each of `exprs`: through the graph
/// (`CGL_STORE=off`), with the stores on one thread and on two, and with the key table
/// (`CGL_RANK=off`) on one thread and on two.
fn setups(name: &str, source: &str, exprs: &[&str], args: &[&str]) -> [(i32, String, String); 5] {
    let dir = temp_dir(&format!("parallel-{name}"));
    let file = dir.join(format!("{name}.game"));
    let mut text = source.to_string();
    for e in exprs {
        text += &format!("\nprint {e}");
    }
    std::fs::write(&file, text + "\n").unwrap();
    let file = file.to_str().unwrap();
    let run = |threads: &str, vars: &[(&str, &str)]| {
        let mut all = vec!["run", "--threads", threads];
        all.extend_from_slice(args);
        all.push(file);
        cgl_env(&all, vars)
    };
    let outputs = [
        run("1", STORE_OFF),
        run("1", &[]),
        run("2", &[]),
        run("1", RANK_OFF),
        run("2", RANK_OFF),
    ];
    std::fs::remove_dir_all(&dir).unwrap();
    outputs
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The W3 query of spec/performance.md.
fn w3(s: &str) -> String {
    format!(
        "(reachable({s}), outcome({s}), if {s} is D then -1 else remoteness({s}), \
         [outcome(m) for m in moves({s})], \
         [[if q is D then -1 else remoteness(q) for q in moves(m)] for m in moves({s})])"
    )
}

/// The W4 query.
fn w4(s: &str) -> String {
    format!("(reachable({s}), outcome({s}), remoteness({s}), [outcome(m) for m in moves({s})])")
}

#[test]
fn the_examples_check_the_same_on_one_and_two_threads() {
    let one = cgl(&["check", "examples", "--threads", "1"]);
    let two = cgl(&["check", "examples", "--threads", "2"]);
    assert_eq!(one.0, 0, "{}", one.1);
    assert_eq!(one, two);
    let graph = cgl_env(&["check", "examples", "--threads", "1"], STORE_OFF);
    assert_eq!(
        one, graph,
        "the solver's stores changed what the examples print"
    );
}

#[test]
fn tic_tac_toe_is_solved_in_parallel_with_the_answers_of_one_thread() {
    let source = read("benches/games/tictactoe.game");
    let solved = same_on_two_threads(&source, &[&w3("TicTacToe.start")], None);
    assert_eq!(solved, 5_478, "every board of 3x3 tic-tac-toe");
    // The board has a dense domain: one thread solves it in the rank table too.
    let (_, one) = answers(1, &source, &[&w3("TicTacToe.start")], None);
    assert_eq!(one, 5_478);
    same_as_the_graph("ttt", &source, &[&w3("TicTacToe.start")], &[]);
}

#[test]
fn queries_in_another_order_add_to_what_parallel_runs_solved() {
    // The options first (each a parallel run that reuses what the ones before solved), then
    // the root, then its count.
    let source = read("benches/games/tictactoe.game");
    let s = "TicTacToe.start";
    let exprs = [
        format!("[outcome(m) for m in moves({s})]"),
        format!("[[remoteness(q) for q in moves(m) if q is not D] for m in moves({s})]"),
        format!("outcome({s})"),
        format!("reachable({s})"),
        format!("reachable({s})"),
    ];
    let exprs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    assert_eq!(same_on_two_threads(&source, &exprs, None), 5_478);
}

#[test]
fn a_board_whose_lines_are_a_parameter_is_solved_in_parallel() {
    // 3 rows of 4 cells, three in a row, the lines passed as a parameter (a list of rows
    // that each thread rebuilds from plain data).
    let source = "
        const LINES = [[0, 1, 2], [1, 2, 3], [4, 5, 6], [5, 6, 7], [8, 9, 10], [9, 10, 11],
                       [0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11],
                       [0, 5, 10], [1, 6, 11], [2, 5, 8], [3, 6, 9]]
        fn won(b, p, lines) = exists l in lines: forall i in l: b[i] == p
        fn turn(b) = if count(c == 1 for c in b) == count(c == 2 for c in b) then 1 else 2
        game T(lines = LINES) {
            position b
            start [0; 12]
            terminal if won(b, 1, lines) or won(b, 2, lines) or not (0 in b)
            draw if not won(b, 1, lines) and not won(b, 2, lines)
            move set(b, i, turn(b)) for i in 0..12 if b[i] == 0
        }";
    let solved = same_on_two_threads(source, &[&w3("T.start")], None);
    assert!(solved > 100_000, "{solved}");
}

#[test]
fn chomp_is_solved_in_parallel_with_the_answers_of_one_thread() {
    let source = read("benches/games/chomp.game");
    let solved = same_on_two_threads(&source, &[&w4("Chomp([8; 8])")], None);
    // Every staircase inside 8 x 8 but the empty one: C(16, 8) - 1.
    assert_eq!(solved, 12_869);
}

#[test]
fn misere_play_is_solved_in_parallel_too() {
    let source = format!(
        "{}\ngame M {{ position rows  play misere  move trim([if r >= i then min(l, j) else l \
         for (r, l) in enumerate(rows)]) for (i, w) in enumerate(rows), j in 0..w }}",
        read("benches/games/chomp.game")
    );
    let solved = same_on_two_threads(&source, &[&w4("M([7; 7])")], None);
    assert!(solved > 3_000, "{solved}");
}

/// A game of three counters, each taken down by one; the third cell's rule fails (`% 0`)
/// at one position deep down.
const FAILING: &str = "
    game F {
        position b
        move [b[0] - 1, b[1], b[2]] if b[0] > 0
        move [b[0], b[1] - 1, b[2]] if b[1] > 0
        move [b[0], b[1], b[2] - 1] if b[2] > 0
        move [b[0], b[1], b[2] % (b[0] - 3)] if b[0] == 3 and b[1] == 2 and b[2] == 5
    }";

#[test]
fn an_error_in_a_rule_is_the_diagnostic_of_one_thread() {
    let exprs = [
        "reachable(F([15, 15, 15]))",
        "outcome(F([15, 15, 15]))",
        "remoteness(F([15, 15, 15]))",
    ];
    let (one, _) = answers_in(GRAPH, FAILING, &exprs, None);
    assert!(one.contains("error cgl::eval"), "{one}");
    // The runs stop at the error; the positions they solved before it stay known (their
    // rules ran without one, and their values are the one-thread search's).
    same_on_two_threads(FAILING, &exprs, None);
    // Through the command line too: the whole rendered diagnostic and the exit code.
    let dir = std::env::temp_dir().join(format!("cgl-parallel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("failing.game");
    std::fs::write(&file, FAILING).unwrap();
    let file = file.to_str().unwrap();
    // `outcome` streams (it stops at the first winning move); `remoteness` runs the solver.
    for query in ["outcome(F([15, 15, 15]))", "remoteness(F([15, 15, 15]))"] {
        let run = |t: &str, vars: &[(&str, &str)]| {
            cgl_env(&["eval", "-f", file, "--threads", t, query], vars)
        };
        let graph = run("1", STORE_OFF);
        assert_ne!(graph.0, 0);
        assert_eq!(run("1", &[]), graph, "{query}: one thread");
        assert_eq!(run("2", &[]), graph, "{query}: two threads");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cycle_in_a_game_not_declared_loopy_is_the_diagnostic_of_one_thread() {
    let source = "
        game C {
            position b
            move [b[0] - 1, b[1]] if b[0] > 0
            move [b[0], b[1] - 1] if b[1] > 0
            move [15, 15] if b[0] == 1 and b[1] == 1
        }";
    let exprs = [
        "reachable(C([15, 15]))",
        "outcome(C([15, 15]))",
        "remoteness(C([14, 15]))",
    ];
    let (one, _) = answers_in(GRAPH, source, &exprs, None);
    assert!(one.contains("error cgl::graph::cycle"), "{one}");
    same_on_two_threads(source, &exprs, None);
}

#[test]
fn the_position_limit_ends_a_parallel_run_as_it_ends_one_thread() {
    let source = read("benches/games/chomp.game");
    let exprs = [w4("Chomp([8; 8])"), "reachable(Chomp([3; 3]))".to_string()];
    let exprs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    let (one, _) = answers_in(GRAPH, &source, &exprs, Some(5_000));
    assert!(
        one.starts_with("error cgl::graph::too_many_positions"),
        "{one}"
    );
    same_on_two_threads(&source, &exprs, Some(5_000));
    // Just enough for the whole game: the parallel run takes it.
    assert_eq!(
        same_on_two_threads(&source, &exprs[..1], Some(12_900)),
        12_869
    );
}

#[test]
fn the_deadline_stops_a_parallel_run_with_the_diagnostic_of_one_thread() {
    let run = |t: &str| {
        cgl(&[
            "eval",
            "-f",
            "benches/games/tictactoe4.game",
            "--timeout",
            "0.3",
            "--threads",
            t,
            "reachable(TicTacToe.start)",
        ])
    };
    let (one, two) = (run("1"), run("2"));
    assert!(one.2.contains("cgl::limit::timeout"), "{}", one.2);
    assert_eq!(one, two);
    // The rank table takes the board on one thread and two: the graph search stops the same.
    let graph = cgl_env(
        &[
            "eval",
            "-f",
            "benches/games/tictactoe4.game",
            "--timeout",
            "0.3",
            "--threads",
            "1",
            "reachable(TicTacToe.start)",
        ],
        STORE_OFF,
    );
    assert_eq!(one, graph);
}

#[test]
fn queries_in_another_order_print_what_the_graph_prints() {
    let source = read("benches/games/tictactoe.game");
    let s = "TicTacToe.start";
    let exprs = [
        format!("[outcome(m) for m in moves({s})]"),
        format!("[[remoteness(q) for q in moves(m) if q is not D] for m in moves({s})]"),
        format!("outcome({s})"),
        format!("reachable({s})"),
        format!("remoteness(moves({s})[4])"),
        format!("reachable({s})"),
    ];
    let exprs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    same_as_the_graph("order", &source, &exprs, &[]);
}

/// The 3x3 board written differently (tests/dense.rs).
use crate::dense::RENAMED;

#[test]
fn both_forms_of_the_benchmark_and_a_renamed_board_take_the_rank_table() {
    // Late in the 4x4 game, so that the test is quick.
    let board = "TicTacToe([1, 2, 1, 2, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0])";
    let mut printed = Vec::new();
    for file in [
        "benches/games/tictactoe4.game",
        "benches/games/tictactoe4_param.game",
    ] {
        let source = read(file);
        let (_, one) = answers(1, &source, &[&w3(board)], None);
        assert!(one > 100, "{file}: {one} positions in the rank table");
        printed.push((one, same_as_the_graph("four", &source, &[&w3(board)], &[])));
    }
    assert_eq!(printed[0], printed[1]);
    let (_, one) = answers(1, RENAMED, &[&w3("Noughts.start")], None);
    assert_eq!(one, 5_478);
    let renamed = same_as_the_graph("renamed", RENAMED, &[&w3("Noughts.start")], &[]);
    let plain = same_as_the_graph(
        "plain",
        &read("benches/games/tictactoe.game"),
        &[&w3("TicTacToe.start")],
        &[],
    );
    assert_eq!(renamed, plain, "the same game, the same answers");
}

#[test]
fn positions_outside_the_domain_print_what_the_graph_prints() {
    let source = read("benches/games/tictactoe.game");
    let odd = "TicTacToe([7, 0, 0, 0, 0, 0, 0, 0, 0])";
    let long = "TicTacToe([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])";
    let exprs = [
        w3("TicTacToe.start"),
        w3(odd),
        w3(long),
        format!("reachable({odd})"),
        "reachable(TicTacToe.start)".to_string(),
    ];
    let exprs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    same_as_the_graph("outside", &source, &exprs, &[]);
    // The odd board first: it seeds the domain (7 among its values).
    let first: Vec<&str> = vec![exprs[1], exprs[0], exprs[2]];
    same_as_the_graph("outside-first", &source, &first, &[]);
}

/// [`same_as_the_graph`] of a memory limit the key table, which keeps no moves, may stay
/// within where the graph does not: the key table answers the same on one thread and on two,
/// and if it answers, it answers what an unlimited run does.
fn same_as_the_graph_but_the_key_table(
    name: &str,
    source: &str,
    exprs: &[&str],
    args: &[&str],
) -> String {
    let [graph, stores, two, keys, keys_two] = setups(name, source, exprs, args);
    assert_eq!(stores, graph, "{name}: one thread, the stores on");
    assert_eq!(two, graph, "{name}: two threads, the stores on");
    assert_eq!(keys_two, keys, "{name}: the key table, one thread and two");
    if keys.0 == 0 {
        let [unlimited, ..] = setups(&format!("{name}-unlimited"), source, exprs, &[]);
        assert_eq!(keys, unlimited, "{name}: the key table within the limit");
    }
    format!("{}{}", graph.1, graph.2)
}

#[test]
fn the_limits_end_a_rank_table_run_as_they_end_the_graph_search() {
    let source = read("benches/games/tictactoe.game");
    let exprs = [
        w3("TicTacToe.start"),
        "reachable(TicTacToe.start)".to_string(),
    ];
    let exprs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    let few = same_as_the_graph("positions", &source, &exprs, &["--max-positions", "3000"]);
    assert!(few.contains("cgl::graph::too_many_positions"), "{few}");
    let enough = same_as_the_graph("enough", &source, &exprs, &["--max-positions", "6000"]);
    assert!(enough.starts_with("(5478, D"), "{enough}");
    // A mebibyte: the dense index fits, the positions do not (the rank table counts in
    // full, and each position as the graph would count it).
    let small =
        same_as_the_graph_but_the_key_table("memory", &source, &exprs, &["--max-memory", "1"]);
    assert!(small.contains("cgl::graph::too_much_memory"), "{small}");
    let enough = same_as_the_graph("memory-enough", &source, &exprs, &["--max-memory", "4"]);
    assert!(enough.starts_with("(5478, D"), "{enough}");
}

#[test]
fn errors_and_cycles_in_a_dense_game_print_what_the_graph_prints() {
    // Cells that flip back and forth: a cycle, in a game not declared loopy.
    let cycle = "game C { position b  start [0, 0, 0]  move set(b, i, 1 - b[i]) for i in 0..3 }";
    let out = same_as_the_graph(
        "cycle",
        cycle,
        &["reachable(C.start)", "outcome(C.start)"],
        &[],
    );
    assert!(out.contains("cgl::graph::cycle"), "{out}");
    // A guard that divides by zero at one position deep down.
    let failing = "game E { position b  start [0, 0, 0, 0] \
        move set(b, i, 1) for i in 0..4 if b[i] == 0 \
        move set(b, 0, 2) if b[0] == 1 and b[1] == 1 and b[2] == 1 and 1 div (b[3] - 1) == 0 }";
    let exprs = [
        "reachable(E.start)",
        "outcome(E.start)",
        "remoteness(E.start)",
    ];
    let out = same_as_the_graph("failing", failing, &exprs, &[]);
    assert!(out.contains("cgl::eval::division_by_zero"), "{out}");
}

/// A random game of four counters below 16: each rule takes one counter down by an amount
/// of a set, under a guard on the next counter; some ends are declared drawn. Most have
/// thousands of positions, enough for the other threads to start.
fn heap_game() -> impl Strategy<Value = String> {
    let rule = || {
        (
            0..4usize,
            prop::collection::btree_set(1..5i64, 1..3),
            0..3i64,
        )
    };
    (
        // A rule for each counter first (so that the game is large), then a few more.
        (
            prop::collection::vec(rule(), 4),
            prop::collection::vec(rule(), 0..3),
        )
            .prop_map(|(mut each, more)| {
                for (i, r) in each.iter_mut().enumerate() {
                    r.0 = i;
                }
                each.extend(more);
                each
            }),
        0..8i64,
        0..3i64,
        any::<bool>(),
    )
        .prop_map(|(rules, end, draw, misere)| {
            let mut g = String::from("game H {\n    position b\n");
            if misere {
                g += "    play misere\n";
            }
            g += &format!("    terminal if b[0] + b[1] + b[2] + b[3] == {end}\n");
            g += &format!("    draw if b[0] % 3 == {draw}\n");
            for (cell, takes, guard) in rules {
                let takes: Vec<String> = takes.iter().map(i64::to_string).collect();
                let mut target: Vec<String> = (0..4).map(|i| format!("b[{i}]")).collect();
                target[cell] = format!("b[{cell}] - k");
                g += &format!(
                    "    move [{}] for k in [{}] if b[{cell}] >= k and b[{}] >= {guard}\n",
                    target.join(", "),
                    takes.join(", "),
                    (cell + 1) % 4
                );
            }
            g + "}\n"
        })
}

/// A random game on a board of 3 to 6 cells, each rule marking a cell with a greater value
/// (so that the game is acyclic) under a guard on another cell: a dense domain; some ends
/// are declared, some drawn, some games misère.
fn marking_game() -> impl Strategy<Value = (String, usize)> {
    let rule = || (0..3i64, 1..4i64, 1..3usize, 0..4i64);
    (
        3..7usize,
        prop::collection::vec(rule(), 1..4),
        prop::option::of(0..4i64),
        0..4i64,
        any::<bool>(),
    )
        .prop_map(|(k, rules, end, draw, misere)| {
            let mut g = String::from("game M {\n    position b\n");
            if misere {
                g += "    play misere\n";
            }
            if let Some(end) = end {
                g += &format!("    terminal if b[0] == {end} and b[1] > 0\n");
            }
            g += &format!("    draw if b[{}] == {draw}\n", k - 1);
            for (from, up, step, guard) in rules {
                g += &format!(
                    "    move set(b, i, {}) for i in 0..{k} if b[i] == {from} and b[(i + {step}) % {k}] != {guard}\n",
                    from + up
                );
            }
            (g + "}\n", k)
        })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn random_dense_games_print_what_the_graph_prints((game, k) in marking_game()) {
        let start = format!("M({:?})", vec![0; k]);
        same_as_the_graph("marking", &game, &[&w3(&start), &format!("reachable({start})")], &[]);
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn random_games_have_the_same_answers_on_one_and_two_threads(
        game in heap_game(),
        start in prop::collection::vec(8..16i64, 4),
    ) {
        let s = format!("H({start:?})");
        let query = w3(&s);
        let (graph, _) = answers_in(GRAPH, &game, &[&query], None);
        let (one, _) = answers(1, &game, &[&query], None);
        let (two, _) = answers(2, &game, &[&query], None);
        prop_assert_eq!(&one, &graph, "one thread: {}", game);
        prop_assert_eq!(&two, &graph, "two threads: {}", game);
    }
}
