//! A differential checker of the fast paths: random small games whose answers must be the
//! same in every engine. Each game is a file of list, integer or pair positions whose rules
//! reach the compiled forms (lane programs, fused filters and selects, guard narrowing,
//! hoisted invariant parts, cell tests, range and domain inference, dense and rank tables,
//! the threads), with values that leave the inferred domains, indexes out of range and
//! overflows. Every query (outcome, remoteness, reachable, grundy where it is defined and the
//! moves of every reachable position, of a few starts) runs under `--interpret`, compiled on
//! one thread and on two (the solver of `analysis::parallel` in its rank or key table),
//! `CGL_DENSE=off` on two threads and `CGL_RANK=off` on one (its key table), and through
//! the graph with the solver's stores off (`CGL_STORE=off`, with dense indexes and without);
//! stdout, stderr and the exit code must be the same in all, unless one of them hits a
//! budget.
//!
//! The suite runs a cheap fixed-seed slice and two games of the sweep. `.ci/run` runs the
//! sweep for a bounded time from a seed that changes from run to run
//! (`CGL_DIFF_SECONDS`, `CGL_DIFF_SEED`; see `sweep.rs`); by hand, `CGL_DIFF_GAMES=2000
//! CGL_DIFF_SEED=7 cargo test --release --test integration -- --exact
//! differential::differential_sweep --nocapture`. A game that differs is written to
//! `target/differential/` with the outputs that differ; the sweep also reports how many
//! games went through each of the compiled engine's paths (`CGL_PATHS`).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::common::{root, temp_dir};
use crate::sweep::{run, PathCounts, Rng, Runs, Seeds, BUDGETS};

/// A generated game: its source and the expressions to evaluate.
pub struct Case {
    pub source: String,
    pub queries: Vec<String>,
}

/// Values out of the domains the rules suggest: negative, past a nibble or a byte, and near
/// the ends of `i64`.
const ODD_VALUES: &[&str] = &[
    "-1",
    "-7",
    "16",
    "255",
    "256",
    "1000",
    "4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
];

/// A guard atom of the innermost loop `i`, `v` over a list `b`.
fn list_guard(r: &mut Rng, param: bool) -> String {
    let c = r.below(4);
    let d = r.below(4);
    match r.below(26) {
        0 => format!("v != {c}"),
        1 => format!("v == {c}"),
        2 => format!("i != {c}"),
        3 => format!("i == {c}"),
        4 => format!("v < {c}"),
        5 => format!("{c} != v"),
        6 => format!("(i, v) != ({c}, {d})"),
        7 => format!("(b[i], v) != ({c}, {d})"),
        8 => "b[(i + 1) % len(b)] == 0".to_string(),
        9 => "v != h(b)".to_string(),
        10 => format!("i in [0, {c}]"),
        11 => format!("v in 1..{c}"),
        12 => "count(b[j] > 0 for j in [0, 1]) >= 1".to_string(),
        13 => format!("exists j in [0, {c}]: b[j] == v"),
        14 => "forall j in 0..i: b[j] >= b[i]".to_string(),
        15 if param => "v != k".to_string(),
        15 => "i != len(b) - 1".to_string(),
        16 => format!("not (v == {c} or i == {d})"),
        22..=25 => format!(
            "{} {} {}",
            int_expr(r, 2),
            r.pick(&["==", "!=", "<", "<=", ">", ">="]),
            int_expr(r, 2)
        ),
        17 => "b[i] > g(b)".to_string(),
        18 => format!("sum(x for x in b) != {}", c + d),
        19 => format!("i >= {c} and v <= {d}"),
        20 => format!("v != i and i != {c}"),
        21 => "str(v) != \"2\"".to_string(),
        _ => "(i, v) != (0, 0)".to_string(),
    }
}

/// A random integer expression of the loop's `i`, `v` and the board `b`, of depth `depth`:
/// it may divide by zero, overflow or index out of range.
fn int_expr(r: &mut Rng, depth: usize) -> String {
    if depth == 0 || r.chance(30) {
        return r
            .pick(&[
                "i",
                "v",
                "b[i]",
                "len(b)",
                "0",
                "1",
                "2",
                "-1",
                "3",
                "b[0]",
                "b[v]",
                "4611686018427387904",
                "-9223372036854775807",
                "h(b)",
                "sum(b)",
                "max(b)",
            ])
            .to_string();
    }
    let a = int_expr(r, depth - 1);
    let b = int_expr(r, depth - 1);
    match r.below(11) {
        0 => format!("({a} + {b})"),
        1 => format!("({a} - {b})"),
        2 => format!("({a} * {b})"),
        3 => format!("({a} div {b})"),
        4 => format!("({a} % {b})"),
        5 => format!("abs({a})"),
        6 => format!("min({a}, {b})"),
        7 => format!("max({a}, {b})"),
        8 => format!("(if {a} < {b} then {a} else {b})"),
        9 => format!("-{a}"),
        _ => format!("count(x > {a} for x in b)"),
    }
}

/// Zero to two guard atoms joined by `and` (sometimes `or`).
fn list_guards(r: &mut Rng, param: bool) -> String {
    match r.below(4) {
        0 => String::new(),
        1 | 2 => format!(" if {}", list_guard(r, param)),
        _ => {
            let join = if r.chance(25) { "or" } else { "and" };
            format!(
                " if ({} {join} {})",
                list_guard(r, param),
                list_guard(r, param)
            )
        }
    }
}

/// A value computed from the board (may be negative, or out of any domain).
fn computed(r: &mut Rng) -> String {
    match r.below(8) {
        0 => "count(x > 0 for x in b) % 3".to_string(),
        1 => "b[(i + 1) % len(b)]".to_string(),
        2 => "sum(b) div 2 - 2".to_string(),
        3 => "-1 - b[i]".to_string(),
        4 => "min(b)".to_string(),
        5 => "max(b[i] - 2, -3)".to_string(),
        6 => "h(b) - 1".to_string(),
        _ => "len([x for x in b if x != 1]) - 2".to_string(),
    }
}

/// A move rule of a list game; `escapes` is set when its options may leave the cells'
/// domain (negative or large cells), so that the game needs a terminal condition to stop.
fn list_rule(r: &mut Rng, param: bool, escapes: &mut bool, sets_only: bool) -> String {
    let g = list_guards(r, param);
    let op = r.pick(&["==", ">=", "<=", ">"]);
    let keep = r.pick(&["keep", "nonzero", "above1"]);
    let idx = if r.chance(90) {
        "0..len(b)".to_string()
    } else {
        format!("[0, {}]", 1 + r.below(4))
    };
    let which = if sets_only {
        *r.pick_of(&[0, 1, 2, 8, 8, 14, 17, 18, 19])
    } else {
        r.below(23)
    };
    match which {
        14 => {
            *escapes = true;
            let v = r.pick(&["6", "7", "15", "16", "17", "200", "255", "256"]);
            format!("move set(b, i, {v}) for i in {idx} if b[i] == {}", r.below(4))
        }
        0 => format!("move set(b, i, v) for i in {idx}, v in 0..b[i]{g}"),
        1 => format!(
            "move {}(set(b, i, v)) for i in {idx}, v in 0..b[i]{g}",
            r.pick(&["sorted", "reversed", "list"])
        ),
        19 => format!("move set(b, i, v) for (i, w) in enumerate(b), v in 0..w{g}"),
        20 => format!(
            "move [if y == w then min(y, v) else y for y in b] for w in b, v in 0..w{}",
            r.pick(&["", " if v != 1", " if w != v + 2", " if (w, v) != (2, 0)"])
        ),
        // Chomp's shape: the loop around the innermost one binds an index and an item,
        // which the comprehension reads; some guards narrow the inner range for every
        // value, some for some values only (`i > 0 or ...`), some for none.
        21 | 22 => {
            let body = if which == 21 { "min(l, j)" } else { "min(l, w - 1 - j)" };
            let guard = r.pick(&[
                "",
                " if (i, j) != (0, 0)",
                " if j != 1",
                " if i + j > 1",
                " if i > 0 or j % 2 == 0",
                " if j % 3 != 1",
            ]);
            let filtered = format!("[if r {op} i then {body} else l for (r, l) in enumerate(b)]");
            let target = if r.chance(70) {
                format!("{keep}({filtered})")
            } else {
                filtered
            };
            format!("move {target} for (i, w) in enumerate(b), j in 0..w{guard}")
        }
        17 => format!("move set(b, len(b) - 1 - i, v) for i in {idx}, v in 0..b[len(b) - 1 - i]{g}"),
        18 => format!(
            "move set(b, i, v) for i in {idx}, v in 0..b[i] if sum(b[j] for j in [0, {}]) > v{}",
            r.below(3),
            g.replacen(" if ", " and ", 1)
        ),
        2 => format!(
            "move set(b, i, b[i] - v) for i in {idx}, v in 1..={}{}",
            1 + r.below(3),
            if g.is_empty() {
                " if b[i] >= v".to_string()
            } else {
                format!("{g} and b[i] >= v")
            }
        ),
        3 | 4 => format!(
            "move [if j {op} i then min(x, v) else x for (j, x) in enumerate(b)] for i in 0..len(b), v in 0..b[i]{g}"
        ),
        5 => format!(
            "move {keep}([if j {op} i then min(x, v) else x for (j, x) in enumerate(b)]) for i in 0..len(b), v in 0..b[i]{g}"
        ),
        6 => {
            let bound = if r.chance(50) { "max(b)" } else { "max(b + [0])" };
            format!("move [if x > v then v else x for x in b] for v in 0..{bound}{}", {
                let c = r.below(3);
                match r.below(3) {
                    0 => String::new(),
                    1 => format!(" if v != {c}"),
                    _ => format!(" if v >= {c}"),
                }
            })
        }
        7 => {
            *escapes = true;
            let e = computed(r);
            format!("move set(b, i, {e}) for i in {idx} if {e} < b[i]")
        }
        8 => {
            *escapes = true;
            let v = r.pick(ODD_VALUES);
            let c = r.below(4);
            format!("move set(b, i, {v}) for i in {idx} if b[i] == {c}")
        }
        9 => {
            // May overflow: an error where the product does not fit.
            let v = r.pick(&["4611686018427387904", "3074457345618258603", "2", "-1"]);
            *escapes = true;
            format!("move set(b, i, b[i] * {v}) for i in {idx} if b[i] > 0 and width(b) > 0")
        }
        10 => format!(
            "move [x - 1 for x in b if x {} 0] for t in 0..1{}",
            r.pick(&[">", "!="]),
            if r.chance(50) {
                " if exists x in b: x > 0"
            } else {
                ""
            }
        ),
        11 => format!(
            "move [if j == i then x - 1 else x for (j, x) in enumerate(b)] for i in {idx} if b[i] > 0{}",
            if r.chance(40) {
                " and b[i] != g(b) + 1"
            } else {
                ""
            }
        ),
        15 => format!("move split(set(b, i, 0), [b[i] - 1]) for i in {idx} if b[i] > 1{g}"),
        16 => {
            *escapes = true;
            let e = int_expr(r, 2);
            let g = g.replacen(" if ", " and ", 1);
            format!("move set(b, i, {e}) for i in {idx}, v in 0..b[i] if {e} < b[i]{g}")
        }
        _ => format!(
            "move [if x >= v then x - v else x for x in b] for v in 1..={} if exists x in b: x >= v",
            1 + r.below(3)
        ),
    }
}

/// A terminal condition of a list game.
fn list_terminal(r: &mut Rng) -> String {
    match r.below(6) {
        0 => format!("terminal if b[0] == {} and b[1] == 0", r.below(3)),
        1 => format!("terminal if sum(b) == {}", 2 + r.below(4)),
        2 => "terminal if count(x == 1 for x in b) >= 2".to_string(),
        3 => format!("terminal if exists j in [0, 1]: b[j] == {}", 1 + r.below(3)),
        4 => "terminal if len(b) == 1".to_string(),
        _ => format!("terminal if b[len(b) - 1] > {}", r.below(3)),
    }
}

/// A list game with one to three rules.
fn list_game(r: &mut Rng) -> Case {
    let param = r.chance(25);
    let mut escapes = false;
    let sets_only = r.chance(40);
    let rules: Vec<String> = (0..1 + r.below(3))
        .map(|_| list_rule(r, param, &mut escapes, sets_only))
        .collect();
    let mut src = String::new();
    src.push_str("fn h(b) = count(x > 0 for x in b) % 3\n");
    src.push_str("fn g(b) = min(b)\n");
    src.push_str("fn width(b) = len(b)\n");
    src.push_str("fn keep(xs) = [x for x in xs if x > 0]\n");
    src.push_str("fn nonzero(xs) = [x for x in xs if 0 != x]\n");
    src.push_str("fn above1(xs) = [x for x in xs if x >= 1]\n");
    let head = if param {
        format!("game G(k = {})", r.below(3))
    } else {
        "game G".to_string()
    };
    let _ = writeln!(src, "{head} {{\n    position b");
    let misere = r.chance(15);
    if misere {
        src.push_str("    play misere\n");
    }
    if r.chance(15) {
        let _ = writeln!(
            src,
            "    compound {}",
            r.pick(&["conjunctive", "selective"])
        );
    }
    if r.chance(8) {
        // A cell that is not an integer, or a position that is not a list: compiled rules
        // and the solvers hand such positions over.
        let (value, stop) = *r.pick_of(&[
            ("none", "none in b"),
            ("true", "true in b"),
            ("[1]", "[1] in b"),
            ("(0, 1)", "(0, 1) in b"),
        ]);
        let c = r.below(3);
        if r.chance(30) {
            src = src.replace(
                "    position b\n",
                &format!("    position b\n    terminal if not (b == [] or b != [])\n    move sum(b) if len(b) == 2 and b[0] == {c}\n"),
            );
        } else {
            src = src.replace(
                "    position b\n",
                &format!("    position b\n    terminal if {stop}\n    move set(b, i, {value}) for i in 0..len(b) if b[i] == {c}\n"),
            );
        }
    }
    if escapes {
        // Positions out of the domain stop: they are reached, indexed and solved.
        let guard = r.pick(&[
            "exists x in b: x < 0 or x > 5",
            "min(b) < 0 or max(b) > 5",
            "count(x < 0 or x > 5 for x in b) > 0",
        ]);
        let _ = writeln!(src, "    terminal if {guard}");
    }
    if r.chance(40) {
        let _ = writeln!(src, "    {}", list_terminal(r));
    }
    let draws = r.chance(15);
    if draws {
        let _ = writeln!(src, "    draw if b[0] % 2 == 1");
    }
    for rule in &rules {
        let _ = writeln!(src, "    {rule}");
    }
    src.push_str("}\n");
    let starts: Vec<String> = (0..1 + r.below(3))
        .map(|_| {
            let len = if r.chance(10) { 1 } else { 2 + r.below(5) };
            let top = 2 + r.below(4);
            let cells: Vec<String> = (0..len).map(|_| r.below(top).to_string()).collect();
            let variant = if param && r.chance(50) {
                format!("G[k = {}]", r.below(4))
            } else {
                "G".to_string()
            };
            let mut start = format!("{variant}([{}])", cells.join(", "));
            if r.chance(20) {
                // A long board, mostly zeros: lists past a block of lanes, a bit mask, a
                // table of powers.
                let n = *r.pick_of(&[31, 32, 33, 63, 64, 65, 255, 256, 257, 300]);
                let mut board = format!("[0; {n}]");
                for _ in 0..1 + r.below(3) {
                    let at = if r.chance(30) {
                        n - 1 - r.below(3)
                    } else {
                        r.below(n)
                    };
                    board = format!("set({board}, {at}, {})", 1 + r.below(3));
                }
                start = format!("{variant}({board})");
            }
            if r.chance(15) {
                format!("{start} + G([{}])", r.below(3))
            } else {
                start
            }
        })
        .collect();
    finish(src, &starts, !misere && !draws)
}

/// A board game in the manner of tic-tac-toe: cells filled one by one, lines of a constant
/// (some out of the board, some empty) tested by the terminal and draw conditions.
fn fill_game(r: &mut Rng) -> Case {
    let len = 2 + r.below(8);
    let lines: Vec<String> = (0..1 + r.below(5))
        .map(|_| {
            let items: Vec<String> = (0..r.below(4))
                .map(|_| {
                    if r.chance(6) {
                        r.pick(&["-1", "64", "9"]).to_string()
                    } else {
                        {
                            let past = usize::from(r.chance(10));
                            r.below(len + past).to_string()
                        }
                    }
                })
                .collect();
            format!("[{}]", items.join(", "))
        })
        .collect();
    let mut src = String::new();
    let _ = writeln!(src, "const LINES = [{}]", lines.join(", "));
    let won = match r.below(4) {
        0 | 1 => "exists l in LINES: forall i in l: b[i] == p",
        2 => "exists l in LINES: count(b[i] == p for i in l) == len(l)",
        _ => "exists l in LINES: forall i in l: p == b[i]",
    };
    let _ = writeln!(src, "fn won(b, p) = {won}");
    src.push_str("fn full(b) = not (0 in b)\n");
    src.push_str(
        "fn turn(b) = if count(c == 1 for c in b) == count(c == 2 for c in b) then 1 else 2\n",
    );
    src.push_str("game G {\n    position b\n");
    let over = r.pick(&[
        "won(b, 1) or won(b, 2) or full(b)",
        "won(b, 1) or won(b, 2)",
        "won(b, turn(b))",
        "full(b) or won(b, 3 - turn(b))",
    ]);
    let _ = writeln!(src, "    terminal if {over}");
    let draws = r.chance(50);
    if draws {
        src.push_str("    draw if not won(b, 1) and not won(b, 2)\n");
    }
    let misere = r.chance(15);
    if misere {
        src.push_str("    play misere\n");
    }
    src.push_str("    move set(b, i, turn(b)) for i in 0..len(b) if b[i] == 0\n");
    for _ in 0..r.below(2) {
        let value = r.pick(&[
            "3",
            "16",
            "255",
            "256",
            "-1",
            "9223372036854775807",
            "turn(b) + 2",
            "len(b)",
        ]);
        let guard = r.pick(&[
            "i == 0",
            "i != 1",
            "count(c == 0 for c in b) == 2",
            "b[(i + 1) % len(b)] != 0",
            "(i, b[0]) != (1, 0)",
        ]);
        let _ = writeln!(
            src,
            "    move set(b, i, {value}) for i in 0..len(b) if b[i] == 0 and {guard}"
        );
    }
    src.push_str("}\n");
    let starts: Vec<String> = (0..1 + r.below(2))
        .map(|_| {
            let cells: Vec<String> = (0..len)
                .map(|_| r.pick(&["0", "0", "0", "0", "0", "1", "2"]).to_string())
                .collect();
            format!("G([{}])", cells.join(", "))
        })
        .collect();
    finish(src, &starts, !misere && !draws)
}

/// An integer game (`position n`), with sums of its positions, counted from a base `B`
/// (0, or near an end of `i64`): the rules see `n - B`.
fn int_game(r: &mut Rng) -> Case {
    let base: i64 = match r.below(6) {
        0 => i64::MAX - 40,
        1 => i64::MIN + 6,
        2 => -20,
        _ => 0,
    };
    let b = base.to_string();
    // `n - B`, and `B + e`.
    let m = if base == 0 {
        "n".to_string()
    } else {
        format!("(n - {b})")
    };
    let at = |e: &str| {
        if base == 0 {
            e.to_string()
        } else {
            format!("{b} + {e}")
        }
    };
    let mut src = String::from("game G {\n    position n\n");
    let mut escapes = false;
    for _ in 0..1 + r.below(3) {
        let c = r.below(4);
        let rule = match r.below(11) {
            0 => format!(
                "move n - d for d in 1..={} if {m} >= d and d != {c}",
                1 + r.below(4)
            ),
            1 => format!("move n - d for d in [1, 3, 4] if d <= {m}"),
            2 => format!("move {} if {m} > 1", at(&format!("{m} div 2"))),
            3 => format!(
                "move split({}, n - {} - a) for a in 0..{m} - {} if a <= {m} - {} - a",
                at("a"),
                1 + c % 2,
                c % 2,
                1 + c % 2
            ),
            4 => format!(
                "move k for k in {b}..n if k != n - {} and k % 3 != {c}",
                1 + c
            ),
            5 => {
                escapes = true;
                format!("move {} if {m} == {}", r.pick(ODD_VALUES), 1 + c)
            }
            6 => {
                escapes = true;
                format!(
                    "move n * {} if {m} == {}",
                    r.pick(&["4611686018427387904", "-3", "100"]),
                    2 + c
                )
            }
            7 => format!(
                "move k for k in n - {}..n if k >= {b} and k != n - {c}",
                2 + c
            ),
            8 => {
                format!("move n - d for d in 1..=3 if n - d >= {b} and (d == {c} or {m} % 2 == 0)")
            }
            9 => {
                escapes = true;
                format!("move n + {} if {m} == {c}", 1 + r.below(3))
            }
            _ => format!("move n - d for d in 1..{m} if ({m}, d) != ({}, {c})", 2 + c),
        };
        let _ = writeln!(src, "    {rule}");
    }
    if escapes {
        let _ = writeln!(
            src,
            "    terminal if n < {b} or n > {}",
            base.saturating_add(30)
        );
    }
    if r.chance(30) {
        let _ = writeln!(src, "    terminal if {m} % 5 == {}", r.below(5));
    }
    src.push_str("}\n");
    let starts: Vec<String> = (0..1 + r.below(3))
        .map(|_| {
            if r.chance(30) {
                format!(
                    "G({}) + G({})",
                    at(&r.below(9).to_string()),
                    at(&r.below(9).to_string())
                )
            } else {
                format!("G({})", at(&r.below(14).to_string()))
            }
        })
        .collect();
    finish(src, &starts, true)
}

/// A game of triples `(a, b, c)`, a move taking from one field or moving between them.
fn triple_game(r: &mut Rng) -> Case {
    let mut src = String::from("game G {\n    position (a, b, c)\n");
    for _ in 0..1 + r.below(3) {
        let k = r.below(3);
        let rule = match r.below(6) {
            0 => format!("move (a - j, b, c) for j in 1..=a if j != {k}"),
            1 => "move (a, b - j, c + j - 1) for j in 1..=b if c + j - 1 <= 3".to_string(),
            2 => format!("move (a, b, j) for j in 0..c if j == {k} or b == j"),
            3 => "move (b, a, c - 1) if c > 0 and a != b".to_string(),
            4 => format!("move (a - 1, b, c) if a > 0 and (b, c) != ({k}, {k})"),
            _ => "move split((a - 1, 0, 0), (0, b, c)) if a > 0 and b + c > 0".to_string(),
        };
        let _ = writeln!(src, "    {rule}");
    }
    src.push_str("}\n");
    let starts: Vec<String> = (0..1 + r.below(2))
        .map(|_| format!("G({}, {}, {})", r.below(5), r.below(5), r.below(4)))
        .collect();
    finish(src, &starts, true)
}

/// A list game whose rules read parameters of several kinds (integers, lists, sets, tuples,
/// rationals, strings): a compiled rule reads what it can and hands the rest over.
fn param_game(r: &mut Rng) -> Case {
    let k = r.pick(&[
        "0",
        "1",
        "2",
        "-1",
        "1/2",
        "true",
        "\"a\"",
        "none",
        "9223372036854775807",
    ]);
    let s = r.pick(&[
        "[1, 2]", "{1, 3}", "(1, 2)", "[]", "[2, 2]", "[1, 1/2]", "[3]", "1..3",
    ]);
    let mut src = String::new();
    let _ = writeln!(src, "game G(k = {k}, s = {s}) {{\n    position b");
    for _ in 0..1 + r.below(3) {
        let rule = match r.below(5) {
            0 => "move set(b, i, b[i] - d) for i in 0..len(b), d in s if d <= b[i] and d > 0",
            1 => "move set(b, i, v) for i in 0..len(b), v in 0..b[i] if v != k",
            2 => "move [if j == i then x - 1 else x for (j, x) in enumerate(b)] for i in 0..len(b) if b[i] > 0 and i not in s",
            3 => "move set(b, i, 0) for i in 0..len(b) if b[i] > 0 and (k == 1 or b[i] in s)",
            _ => "move [x for x in b if x > 0 and x != k] for t in 0..1 if exists x in b: x == k",
        };
        let _ = writeln!(src, "    {rule}");
    }
    src.push_str("}\n");
    let starts: Vec<String> = (0..1 + r.below(2))
        .map(|_| {
            let len = 2 + r.below(4);
            let cells: Vec<String> = (0..len).map(|_| r.below(4).to_string()).collect();
            let variant = match r.below(4) {
                0 => format!("G[k = {}]", r.below(3)),
                1 => "G[s = [1]]".to_string(),
                _ => "G".to_string(),
            };
            format!("{variant}([{}])", cells.join(", "))
        })
        .collect();
    finish(src, &starts, true)
}

/// A pair game (`position (a, b)`).
fn pair_game(r: &mut Rng) -> Case {
    let mut src = String::from("game G {\n    position (a, b)\n");
    let mut escapes = false;
    for _ in 0..1 + r.below(3) {
        let c = r.below(4);
        let rule = match r.below(7) {
            0 => format!("move (a - k, b) for k in 1..=a if k != {c}"),
            1 => format!("move (a, b - k) for k in 1..=b if (a, k) != ({c}, 1)"),
            2 => "move (a - k, b - k) for k in 1..=min(a, b)".to_string(),
            3 => "move (b, a - 1) if a > b".to_string(),
            4 => format!("move (a - 1, j) for j in 0..b if j == {c} or a == j"),
            5 => {
                escapes = true;
                format!("move (a - 1, {}) if a > 0 and b == {c}", r.pick(ODD_VALUES))
            }
            _ => format!("move (i, b) for i in 0..a if i != b - {c}"),
        };
        let _ = writeln!(src, "    {rule}");
    }
    if escapes {
        src.push_str("    terminal if b < 0 or b > 30\n");
    }
    if r.chance(25) {
        src.push_str("    terminal if a == b and a > 2\n");
    }
    src.push_str("}\n");
    let starts: Vec<String> = (0..1 + r.below(3))
        .map(|_| format!("G({}, {})", r.below(7), r.below(7)))
        .collect();
    finish(src, &starts, true)
}

/// The queries: every start's outcome, remoteness and reachable count first (so that the
/// solvers of the roots run), then every reachable position's row; and the same rows with
/// `reachable` asked first.
fn finish(mut src: String, starts: &[String], grundy: bool) -> Case {
    src.push_str("fn closure(s) = grown(s, s | {q for p in s for q in moves(p)})\n");
    src.push_str("fn grown(s, t) = if len(t) == len(s) then s else closure(t)\n");
    src.push_str("fn rem(p) = if outcome(p) == D then none else remoteness(p)\n");
    if grundy {
        src.push_str("fn row(p) = (p, outcome(p), rem(p), grundy(p), moves(p))\n");
    } else {
        src.push_str("fn row(p) = (p, outcome(p), rem(p), moves(p))\n");
    }
    let list = starts.join(", ");
    let queries = vec![
        format!("([(outcome(s), rem(s)) for s in [{list}]], [reachable(s) for s in [{list}]], [row(p) for p in closure({{{list}}})])"),
        format!("([reachable(s) for s in [{list}]], [row(p) for p in closure({{{list}}})])"),
        // The other convention, the lines of play and the winning moves, remoteness first.
        format!("([(rem(misere(s)), outcome(misere(s)), reachable(misere(s))) for s in [{list}]], [(rem(s), winning_moves(s), line(s)) for s in [{list}]])"),
    ];
    Case {
        source: src,
        queries,
    }
}

/// The game of seed `seed`.
pub fn case(seed: u64) -> Case {
    let mut r = Rng::new(seed);
    match r.below(13) {
        0 | 1 => int_game(&mut r),
        2 => pair_game(&mut r),
        3 | 4 => fill_game(&mut r),
        5 => triple_game(&mut r),
        6 => param_game(&mut r),
        _ => list_game(&mut r),
    }
}

/// An engine: a name, the options and the environment.
type Engine = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

/// The engines compared, the interpreter first.
const ENGINES: &[Engine] = &[
    ("interpret", &["--interpret", "--threads", "1"], &[]),
    ("threads1", &["--threads", "1"], &[]),
    ("threads2", &["--threads", "2"], &[]),
    ("dense_off", &["--threads", "2"], &[("CGL_DENSE", "off")]),
    ("rank_off", &["--threads", "1"], &[("CGL_RANK", "off")]),
    ("graph", &["--threads", "1"], &[("CGL_STORE", "off")]),
    (
        "graph_dense_off",
        &["--threads", "1"],
        &[("CGL_STORE", "off"), ("CGL_DENSE", "off")],
    ),
];

/// What a sweep saw.
#[derive(Default, Debug)]
pub struct Tally {
    pub games: usize,
    pub runs: usize,
    pub errors: usize,
    /// How many runs of the interpreter ended in each diagnostic.
    pub codes: std::collections::BTreeMap<String, usize>,
    pub positions: usize,
    pub differing: Vec<u64>,
    /// The compiled paths the games went through.
    pub paths: PathCounts,
}

/// Checks the games of seeds `seeds` in every engine, in a sweep that ends at `until` if
/// it has an end; a game that differs is written, with its outputs, into `keep` if given
/// (else the sweep panics at it). Once a query's run in one engine reaches a budget, the
/// engines after it do not run it: none of its answers would be compared (an engine may meet
/// a budget where another does not), and such runs were most of a sweep's time.
pub fn sweep(
    seeds: impl Iterator<Item = u64>,
    until: Option<Instant>,
    keep: Option<&Path>,
) -> Tally {
    // Sweeps run at once in one process: each its own folder.
    static SWEEPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SWEEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp_dir(&format!("differential-{n}"));
    let mut tally = Tally::default();
    for seed in seeds {
        let case = case(seed);
        let file = dir.join(format!("g{seed}.game"));
        std::fs::write(&file, &case.source).expect("write a game");
        if let Some(dump) = std::env::var_os("CGL_DIFF_DUMP") {
            let dump = Path::new(&dump);
            std::fs::create_dir_all(dump).expect("create the dump folder");
            let queries = case.queries.join("\n");
            std::fs::write(dump.join(format!("g{seed}.game")), &case.source).expect("dump");
            std::fs::write(dump.join(format!("g{seed}.q")), queries).expect("dump");
        }
        tally.games += 1;
        let mut report = String::new();
        let mut runs = Runs::new(until);
        for query in &case.queries {
            let mut outs = Vec::new();
            for (_, args, env) in ENGINES {
                let out = run(&file, query, args, env, &mut runs);
                let budget = BUDGETS.iter().any(|b| out.2.contains(b));
                outs.push(out);
                if budget {
                    break;
                }
            }
            tally.runs += outs.len();
            let budget = outs.iter().any(|o| BUDGETS.iter().any(|b| o.2.contains(b)));
            if outs[0].0 != 0 {
                tally.errors += 1;
                let code = outs[0]
                    .2
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
                *tally.codes.entry(code).or_default() += 1;
            } else {
                tally.positions += outs[0].1.matches("(G").count();
            }
            for (i, out) in outs.iter().enumerate().skip(1) {
                if !budget && out != &outs[0] {
                    let _ = writeln!(
                        report,
                        "query {query}\n--- {} ---\n{:?}\n--- {} ---\n{:?}\n",
                        ENGINES[0].0, outs[0], ENGINES[i].0, out
                    );
                }
            }
            for out in &outs {
                crate::common::assert_no_crash(&case.source, &out.2);
            }
        }
        tally.paths.count(&runs.reached);
        if !report.is_empty() {
            tally.differing.push(seed);
            if let Some(keep) = keep {
                std::fs::create_dir_all(keep).expect("create the folder of differences");
                std::fs::write(keep.join(format!("g{seed}.game")), &case.source)
                    .expect("write a game");
                std::fs::write(keep.join(format!("g{seed}.txt")), &report).expect("write a report");
            } else {
                panic!("seed {seed}: the engines differ\n{}\n{report}", case.source);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    tally
}

/// A cheap fixed slice of the sweep.
#[test]
fn random_games_agree_in_every_engine() {
    // A list game solved by rank, one solved on two threads, a board of lines, one that
    // overflows.
    let tally = sweep([2, 4, 22, 23].into_iter(), None, None);
    assert!(tally.differing.is_empty(), "{tally:?}");
}

/// The sweep: `CGL_DIFF_GAMES` games from seed `CGL_DIFF_SEED`, or as many as start within
/// `CGL_DIFF_SECONDS` (from a seed of the clock's unless one is given), as `.ci/run` runs
/// it; in the suite, two games. It prints its start first, then what it saw, the paths its
/// games went through and the command that checks the same games again; each game that
/// differs is written to `target/differential/` and named with the command that replays it.
#[test]
fn differential_sweep() {
    let seeds = Seeds::from_env(
        "differential::differential_sweep",
        ["CGL_DIFF_SEED", "CGL_DIFF_GAMES", "CGL_DIFF_SECONDS"],
        1000,
        2,
    );
    println!("{}", seeds.banner());
    let keep = root().join("target/differential");
    let tally = sweep(seeds.iter(), seeds.until, Some(&keep));
    let summary = format!(
        "{} games, {} runs, {} of them errors in the interpreter, {} positions, {} differ",
        tally.games,
        tally.runs,
        tally.errors,
        tally.positions,
        tally.differing.len()
    );
    let out = seeds.report(
        &summary,
        tally.games,
        &tally.paths,
        &tally.differing,
        |seed| keep.join(format!("g{seed}.txt")),
    );
    print!("{out}");
    assert!(
        tally.differing.is_empty(),
        "{} games differ; see {}",
        tally.differing.len(),
        keep.display()
    );
}
