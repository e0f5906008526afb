//! Loop-invariant parts of compiled rules (src/eval/compiled/hoist.rs), computed once a run:
//! the answers, errors included, must be the interpreter's, whether the part is reached or
//! not, fails or not, and whatever the loops and names around it.

use crate::compiled_lists::session;

/// The answers to `queries` with compiled rules, and with the interpreter only; every rule
/// and condition of the game must compile.
fn both(source: &str, queries: &[&str]) -> (Vec<Result<String, String>>, Vec<String>) {
    let mut out = Vec::new();
    for compiled_rules in [true, false] {
        let mut s = session(compiled_rules);
        let file = s
            .load_source("g.game", source)
            .unwrap_or_else(|d| panic!("does not load: {d:?}\n{source}"));
        if compiled_rules {
            let game = &s.compiled().games[0];
            assert!(
                game.rules.iter().all(Option::is_some),
                "a rule was not compiled:\n{source}"
            );
        }
        out.push(
            queries
                .iter()
                .map(|q| match s.eval_text(q, &[file]) {
                    Ok(v) => Ok(s.show(&v)),
                    Err(diags) => Err(format!("{diags:?}")),
                })
                .collect::<Vec<_>>(),
        );
    }
    let interpreted = out.pop().unwrap_or_default();
    let compiled = out.pop().unwrap_or_default();
    let shown = interpreted
        .iter()
        .map(|r| match r {
            Ok(v) => v.clone(),
            Err(e) => format!("error {e}"),
        })
        .collect();
    assert_eq!(compiled, interpreted, "{source}");
    (compiled, shown)
}

/// A hoisted part that fails (`b[9]` on a shorter board) fails only where the rule reaches
/// it: a position with no option (no cell is 5) has no moves, as in the interpreter, and one
/// with an option raises the interpreter's error.
#[test]
fn a_failing_invariant_part_fails_only_where_the_rule_reaches_it() {
    for target in [
        // In the target.
        "set(b, i, count(c == b[9] for c in b))",
        "set(b, i, if exists c in b: c == b[9] then 1 else 0)",
    ] {
        let source = format!(
            "game G {{\n    position b\n    move {target} for i in 0..len(b) if b[i] == 5\n}}\n"
        );
        let (answers, _) = both(
            &source,
            &[
                "moves(G([0, 1, 2]))",
                "moves(G([0, 5, 2]))",
                "moves(G([1; 10]))",
            ],
        );
        assert_eq!(answers[0].as_deref(), Ok("[]"), "{source}");
        assert!(answers[1].is_err(), "{source}: {:?}", answers[1]);
        assert!(answers[2].is_ok(), "{source}: {:?}", answers[2]);
    }
    // In a second guard, after a first that no value passes, or after one that some do.
    let source = "game G {\n    position b\n    \
                  move set(b, i, 1) for i in 0..len(b) if b[i] == 0 if sum(b[c % 4] for c in b) > 0\n}\n";
    let (answers, _) = both(
        source,
        &[
            "moves(G([1, 2, 3]))",
            "moves(G([1, 0, 3]))",
            "moves(G([1, 0, 3, 4]))",
        ],
    );
    assert_eq!(answers[0].as_deref(), Ok("[]"));
    assert!(answers[1].is_err(), "{:?}", answers[1]);
    assert_eq!(answers[2].as_deref(), Ok("[G([1, 1, 3, 4])]"));
}

/// Names: an inner comprehension's variable that shadows the loop's (`count(i == 1 for i in
/// b)` reads no outer variable and is hoisted), and a fold that reads the outer loop's
/// variable inside a nested loop (not the same all through the run: it must not be hoisted,
/// or every option would carry the first value).
#[test]
fn shadowed_names_and_nested_loops_agree_with_the_interpreter() {
    let source = "game G {\n    position b\n    \
                  move set(b, i, count(i == 1 for i in b)) for i in 0..len(b) if b[i] == 0\n    \
                  move set(set(b, i, count(c == i for c in b)), j, sum(c for c in b if c > j)) for i in 0..len(b) for j in 0..len(b) if b[j] == 0 if i != j\n}\n";
    let (_, shown) = both(
        source,
        &[
            "moves(G([0, 1, 0, 2]))",
            "moves(G([1, 1, 0, 0, 2]))",
            "moves(G([2, 2]))",
        ],
    );
    // Worked by hand: counts of 1 (rule 1), and of each `i` with the sums above each `j`.
    assert_eq!(
        shown[0],
        "[G([1, 1, 0, 2]), G([0, 1, 1, 2]), G([2, 1, 0, 2]), G([3, 1, 0, 2]), G([0, 1, 0, 2]), \
         G([3, 1, 1, 2]), G([3, 1, 0, 0]), G([0, 1, 0, 0])]"
    );
}

/// A fold of the position alone in a comprehension's body inside a quantifier of a
/// condition: hoisted out of the quantifier's loop, with the same answers.
#[test]
fn invariant_parts_of_conditions_agree_with_the_interpreter() {
    let source = "game G {\n    position b\n    \
                  terminal if exists i in 0..len(b): b[i] == count(c == 0 for c in b)\n    \
                  move set(b, i, b[i] - 1) for i in 0..len(b) if b[i] > 0\n}\n";
    both(
        source,
        &[
            "outcome(G([2, 1, 3]))",
            "remoteness(G([3, 3, 1]))",
            "moves(G([1, 2, 0]))",
        ],
    );
}

/// Tic-tac-toe written another way (other names, `turn` written out in the rule, the guards
/// in another order with a guard that always holds): the same solved game as
/// benches/games/tictactoe.game, 5,478 positions and a draw.
#[test]
fn tic_tac_toe_written_otherwise_solves_the_same() {
    let source = "const ROWS = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]\n\
                  fn owns(g, who) = exists r in ROWS: forall k in r: g[k] == who\n\
                  game Noughts {\n    position g\n    start [0; 9]\n    \
                  terminal if owns(g, 2) or owns(g, 1) or not (0 in g)\n    \
                  draw if not owns(g, 2) and not owns(g, 1)\n    \
                  move set(g, k, if count(x == 2 for x in g) == count(x == 1 for x in g) then 1 else 2) for k in 0..9 if k >= 0 if g[k] == 0\n}\n";
    let (_, shown) = both(
        source,
        &["reachable(Noughts.start)", "outcome(Noughts.start)"],
    );
    assert_eq!(shown, ["5478", "D"]);
}

/// A game's `terminal if` and `draw if` conditions compiled together (one run a position,
/// src/eval/compiled/conds.rs), calls of the same function on the same literal or input
/// arguments sharing one value. A call on other arguments is not shared (`won(b, 2)` is not
/// `won(b, 1)`: every end would be a draw), nor one whose argument is a loop's variable.
#[test]
fn conditions_run_together_share_only_the_same_calls() {
    let lines = "const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]\n\
                 fn won(b, p) = exists l in LINES: forall i in l: b[i] == p\n";
    let rule = "move set(b, i, if count(c == 1 for c in b) == count(c == 2 for c in b) then 1 else 2) for i in 0..9 if b[i] == 0\n";
    for (conds, outcome) in [
        // O's lines only draw, and a full board is lost by O (to move): X wins. Were
        // `won(b, 2)` read as `won(b, 1)`, X's lines would draw.
        (
            "terminal if won(b, 1) or won(b, 2) or not (0 in b)\n    draw if won(b, 2)\n",
            "N",
        ),
        ("terminal if won(b, 1)\n    draw if won(b, 2)\n", "N"),
        (
            "terminal if exists p in 1..3: won(b, p)\n    terminal if not (0 in b)\n    draw if not won(b, 1) and not won(b, 2)\n",
            "D",
        ),
    ] {
        let source =
            format!("{lines}game T {{\n    position b\n    start [0; 9]\n    {conds}    {rule}}}\n");
        let (_, shown) = both(
            &source,
            &[
                "outcome(T.start)",
                "[outcome(m) for m in moves(T.start)]",
                "remoteness(T([1, 1, 0, 2, 2, 0, 0, 0, 0]))",
            ],
        );
        assert_eq!(shown[0], outcome, "{source}");
        assert_eq!(shown[2], "1", "{source}");
        let mut s = crate::compiled_lists::session(true);
        s.load_source("g.game", &source).unwrap();
        assert!(s.compiled().games[0].ends.is_some(), "{source}");
    }
}

/// A call the `terminal if` condition does not reach on a position and the `draw if`
/// condition does, failing there (`b[5]` of a shorter board): the same error as the
/// interpreter's, raised by the draw condition; where both conditions are false nothing fails.
#[test]
fn a_shared_call_fails_where_the_conditions_first_reach_it() {
    let source = "fn bad(b) = b[5] == 1\n\
                  game G {\n    position b\n    \
                  terminal if len(b) < 3 or bad(b)\n    \
                  draw if bad(b)\n    \
                  move set(b, i, 1) for i in 0..len(b) if b[i] == 0\n}\n";
    let (answers, _) = both(
        source,
        &[
            "outcome(G([0, 0]))",
            "outcome(G([1, 1, 1, 1, 1, 1]))",
            "outcome(G([0, 0, 0, 0, 0, 0]))",
        ],
    );
    assert!(answers[0].is_err(), "{answers:?}");
    assert_eq!(answers[1].as_deref(), Ok("D"));
    assert!(answers[2].is_ok(), "{answers:?}");
}
