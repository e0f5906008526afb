//! Integers, lengths, counts and indexes at their boundaries (`i64::MIN`/`MAX`, 2^20, 2^32,
//! 2^63, the collection limit, the sizes where the graph packs positions differently): the
//! answer is the mathematical one when it fits, an error when it does not, never a wrap, and
//! the same in the interpreter and in compiled rules.
//!
//! Each rule is run three ways: compiled, interpreted (`Limits::compiled_rules` off) and
//! interpreted with explicit products (the general solver); every answer, errors to the
//! letter for the first two, must agree, and must be the one written here.

use cgl::eval::Limits;
use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};

use crate::common::{assert_no_crash, cgl};

const MAX: i64 = i64::MAX;
const MIN: i64 = i64::MIN;

fn session(compiled_rules: bool, explicit: bool, max_collection: u64) -> Session {
    Session::new(SessionConfig {
        graph: GraphConfig {
            explicit,
            ..GraphConfig::default()
        },
        limits: Limits {
            compiled_rules,
            max_collection,
            ..Limits::default()
        },
    })
}

/// The answers to `queries` in `source`, printed, or the diagnostics in full.
fn answers(
    source: &str,
    queries: &[String],
    compiled_rules: bool,
    explicit: bool,
    max_collection: u64,
) -> Vec<Result<String, String>> {
    let mut s = session(compiled_rules, explicit, max_collection);
    let file = s
        .load_source("b.game", source)
        .unwrap_or_else(|d| panic!("does not load: {d:?}\n{source}"));
    queries
        .iter()
        .map(|q| match s.eval_text(q, &[file]) {
            Ok(v) => Ok(s.show(&v)),
            Err(d) => Err(format!("{d:?}")),
        })
        .collect()
}

/// The diagnostic code of an error answer.
fn code(answer: &Result<String, String>) -> Option<&str> {
    let d = answer.as_ref().err()?;
    d.split("code: \"").nth(1)?.split('"').next()
}

/// Runs `queries` on `source` in both engines (and the general solver), checks that they
/// agree and that every rule of the game compiled; returns the compiled answers.
fn both_engines_with(
    source: &str,
    queries: &[&str],
    max_collection: u64,
) -> Vec<Result<String, String>> {
    let mut s = session(true, false, max_collection);
    s.load_source("b.game", source)
        .unwrap_or_else(|d| panic!("does not load: {d:?}\n{source}"));
    for (i, rule) in s.compiled().games[0].rules.iter().enumerate() {
        assert!(
            rule.is_some(),
            "rule {i} is not compiled, so this tests one engine only:\n{source}"
        );
    }
    same_answers(source, queries, max_collection)
}

/// The answers of the three ways, checked to agree (whether or not the rules compile).
fn same_answers(
    source: &str,
    queries: &[&str],
    max_collection: u64,
) -> Vec<Result<String, String>> {
    let queries: Vec<String> = queries.iter().map(|q| q.to_string()).collect();
    let compiled = answers(source, &queries, true, false, max_collection);
    let interpreted = answers(source, &queries, false, false, max_collection);
    assert_eq!(compiled, interpreted, "the engines differ on\n{source}");
    let general = answers(source, &queries, false, true, max_collection);
    for (i, (a, b)) in compiled.iter().zip(&general).enumerate() {
        match (a, b) {
            (Ok(x), Ok(y)) => assert_eq!(x, y, "query {} on\n{source}", queries[i]),
            _ => assert_eq!(code(a), code(b), "query {} on\n{source}", queries[i]),
        }
    }
    compiled
}

fn both_engines(source: &str, queries: &[&str]) -> Vec<Result<String, String>> {
    both_engines_with(source, queries, Limits::default().max_collection)
}

/// A game on `n` with one rule `move n - 1 if n > 0 and <cond>`: whether the condition holds
/// (or its error) decides the answers.
fn guard_game(cond: &str) -> String {
    format!("game G {{\n    position n\n    move n - 1 if n > 0 and {cond}\n}}\n")
}

/// A top-level expression's printed value, or its diagnostic's code.
fn top(expr: &str) -> Result<String, String> {
    let mut s = session(true, false, Limits::default().max_collection);
    match s.eval_text(expr, &[]) {
        Ok(v) => Ok(s.show(&v)),
        Err(d) => Err(d[0].code.to_string()),
    }
}

fn ok(v: &str) -> Result<String, String> {
    Ok(v.to_string())
}

fn err(code: &str) -> Result<String, String> {
    Err(code.to_string())
}

// ------------------------------------------------------------------------- the cases

#[test]
fn the_length_of_a_range_past_i64_max_is_an_error_not_zero() {
    for (exit, out, stderr) in [
        cgl(&["eval", "len(-1..9223372036854775807)"]),
        cgl(&["eval", "count(-1..9223372036854775807)"]),
    ] {
        assert_no_crash("len", &stderr);
        assert_ne!(exit, 0, "{out}");
        assert!(out.trim().is_empty(), "printed {out}");
        assert!(stderr.contains("cgl::eval::overflow"), "{stderr}");
        assert!(
            stderr.contains("this range has 9223372036854775808 numbers"),
            "{stderr}"
        );
    }
    assert_eq!(
        top("len(0..9223372036854775807)"),
        ok("9223372036854775807")
    );
    assert_eq!(
        top("len(-9223372036854775808..-1)"),
        ok("9223372036854775807")
    );
    assert_eq!(
        top("len(-9223372036854775808..0)"),
        err("cgl::eval::overflow")
    );
    assert_eq!(
        top("count(-9223372036854775808..9223372036854775807)"),
        err("cgl::eval::overflow")
    );
    assert_eq!(
        top("len(-9223372036854775808..-9223372036854775803)"),
        ok("5")
    );
    assert_eq!(top("len(5..-9223372036854775808)"), ok("0"));
    assert_eq!(
        top("len(9223372036854775806..=9223372036854775806)"),
        ok("1")
    );
}

#[test]
fn the_length_of_a_range_in_a_rule_is_an_error_in_both_engines() {
    // `len` of a range is not in the compiled fragment: the interpreter runs it either way.
    let answers = same_answers(
        &guard_game("len(-1..9223372036854775807) > 0"),
        &["moves(G(1))", "outcome(G(1))"],
        Limits::default().max_collection,
    );
    for a in &answers {
        assert_eq!(code(a), Some("cgl::eval::overflow"), "{a:?}");
    }
    let answers = same_answers(
        &guard_game("count(0..9223372036854775807) == 9223372036854775807"),
        &["moves(G(1))"],
        Limits::default().max_collection,
    );
    assert_eq!(answers, [ok("[G(0)]")]);
    // A count the compiled fragment runs: of a comprehension over a range.
    let answers = both_engines(
        &guard_game("count(x for x in 9223372036854775806..9223372036854775807 + 0 * n) == 1"),
        &["moves(G(1))"],
    );
    assert_eq!(answers, [ok("[G(0)]")]);
}

#[test]
fn mex_is_right_at_and_past_two_to_the_twenty() {
    assert_eq!(top("mex(0..2000000)"), ok("2000000"));
    assert_eq!(top("mex(0..1048576)"), ok("1048576"));
    assert_eq!(top("mex(list(0..1048577) + [1048578])"), ok("1048577"));
    assert_eq!(top("mex(reversed(0..1048577))"), ok("1048577"));
    assert_eq!(top("mex([9223372036854775807, 0])"), ok("1"));
    assert_eq!(top("mex([4294967296, 4294967295, 0, 1])"), ok("2"));
    assert_eq!(top("mex({})"), ok("0"));
    let (exit, out, stderr) = cgl(&["eval", "mex(0..2000000)"]);
    assert_no_crash("mex", &stderr);
    assert_eq!((exit, out.trim()), (0, "2000000"), "{stderr}");
}

#[test]
fn a_power_that_fits_is_the_answer_in_both_engines() {
    for (expr, want) in [
        ("1 ** 9223372036854775807", ok("1")),
        ("0 ** 9223372036854775807", ok("0")),
        ("(-1) ** 9223372036854775807", ok("-1")),
        ("(-1) ** 9223372036854775806", ok("1")),
        ("0 ** 0", ok("1")),
        ("(-2) ** 63", ok("-9223372036854775808")),
        ("2 ** 62", ok("4611686018427387904")),
        ("2 ** 63", err("cgl::eval::overflow")),
        ("2 ** 4294967296", err("cgl::eval::overflow")),
        ("(-9223372036854775808) ** 1", ok("-9223372036854775808")),
        ("3 ** -1", err("cgl::eval::negative_power")),
    ] {
        assert_eq!(top(expr), want, "{expr}");
    }
    let (exit, out, stderr) = cgl(&["eval", "1 ** 9223372036854775807"]);
    assert_eq!((exit, out.trim()), (0, "1"), "{stderr}");
    // In rules, compiled now that `**` is in the integer fragment, and interpreted.
    let game = "game G {\n    position n\n    \
                move n - 1 ** 9223372036854775807 if n > 0\n    \
                move n - 2 * (-1) ** (9223372036854775804 + 2 * (n % 2)) if n > 1\n    \
                move n + 0 ** 9223372036854775807 - 3 if n > 2\n    \
                move n - 2 ** (n + 61) if n > 3\n}\n";
    let answers = both_engines(game, &["moves(G(3))", "grundy(G(3))", "moves(G(4))"]);
    assert_eq!(answers[0], ok("[G(2), G(1), G(0)]"));
    assert_eq!(answers[1], ok("3"));
    assert_eq!(code(&answers[2]), Some("cgl::eval::overflow"));
}

// ------------------------------------------------------------------ the rest of the class

#[test]
fn division_and_modulo_at_the_extremes() {
    let min = "(-9223372036854775807 - 1)";
    for (expr, want) in [
        (format!("{min} % -1"), ok("0")),
        (format!("{min} % 1"), ok("0")),
        (format!("{min} div -1"), err("cgl::eval::overflow")),
        (format!("{min} div 1"), ok("-9223372036854775808")),
        (format!("{min} / -1"), err("cgl::eval::overflow")),
        (format!("{min} / 1"), ok("-9223372036854775808")),
        (format!("{min} / 3"), ok("-9223372036854775808/3")),
        // Fractions widen past 64 bits; integers do not.
        (format!("1 / {min}"), ok("-1/9223372036854775808")),
        (format!("-1 / {min}"), ok("1/9223372036854775808")),
        (format!("2 / {min}"), ok("-1/4611686018427387904")),
        (format!("{min} / 0"), err("cgl::eval::division_by_zero")),
        (format!("{min} % 3"), ok("1")),
        (format!("{min} div 3"), ok("-3074457345618258603")),
        ("9223372036854775807 % -2".to_string(), ok("-1")),
        (
            "9223372036854775807 div -2".to_string(),
            ok("-4611686018427387904"),
        ),
        (format!("{min} % 0"), err("cgl::eval::division_by_zero")),
    ] {
        assert_eq!(top(&expr), want, "{expr}");
    }
    let answers = both_engines(
        &guard_game(&format!("{min} % -n == 0 and {min} div -n != 0")),
        &["moves(G(1))", "moves(G(3))", "moves(G(4))"],
    );
    assert_eq!(code(&answers[0]), Some("cgl::eval::overflow"));
    // -2^63 % -3 is -2; -2^63 % -4 is 0 and -2^63 / -4 is 2^61. (Not `moves(G(2))`: its
    // option G(1) is interned, which runs G(1)'s rule, which overflows.)
    assert_eq!(answers[1], ok("[]"));
    assert_eq!(answers[2], ok("[G(3)]"));
}

#[test]
fn a_sum_fails_only_when_its_total_does_not_fit() {
    assert_eq!(
        top("sum([9223372036854775807, 1, -1])"),
        ok("9223372036854775807")
    );
    assert_eq!(
        top("sum([-9223372036854775807, -1, -1, 1])"),
        ok("-9223372036854775808")
    );
    assert_eq!(
        top("sum([9223372036854775807, 1])"),
        err("cgl::eval::overflow")
    );
    let answers = both_engines(
        &guard_game(
            "sum([9223372036854775807, n, -n]) > 0 and sum(x for x in [9223372036854775807, n, -n]) > 0",
        ),
        &["moves(G(2))"],
    );
    assert_eq!(answers, [ok("[G(1)]")]);
    let answers = both_engines(
        &guard_game("sum(x * 4611686018427387904 for x in 0..n) > 0"),
        &["moves(G(1))", "moves(G(2))", "moves(G(3))"],
    );
    assert_eq!(answers[0], ok("[]"));
    assert_eq!(answers[1], ok("[G(1)]"));
    assert_eq!(code(&answers[2]), Some("cgl::eval::overflow"));
}

#[test]
fn the_smallest_integer_can_be_written() {
    assert_eq!(top("-9223372036854775808"), ok("-9223372036854775808"));
    assert_eq!(
        top("-9223372036854775808 == -9223372036854775807 - 1"),
        ok("true")
    );
    assert_eq!(
        top("[-9_223_372_036_854_775_808]"),
        ok("[-9223372036854775808]")
    );
    assert_eq!(top("- -9223372036854775808"), err("cgl::eval::overflow"));
    // `**` binds tighter than `-`: the literal alone is its operand, and too large.
    assert_eq!(
        top("-9223372036854775808 ** 1"),
        err("cgl::syntax::int_overflow")
    );
    assert_eq!(
        top("-(9223372036854775808)"),
        err("cgl::syntax::int_overflow")
    );
    assert_eq!(top("9223372036854775808"), err("cgl::syntax::int_overflow"));
    assert_eq!(top("abs(-9223372036854775808)"), err("cgl::eval::overflow"));
    assert_eq!(
        top("-9223372036854775808..-9223372036854775806"),
        ok("-9223372036854775808..-9223372036854775806")
    );
}

#[test]
fn ranges_at_the_ends_of_the_integers() {
    assert_eq!(
        top("[x for x in 9223372036854775805..9223372036854775807]"),
        ok("[9223372036854775805, 9223372036854775806]")
    );
    assert_eq!(
        top("list(-9223372036854775808..-9223372036854775806)"),
        ok("[-9223372036854775808, -9223372036854775807]")
    );
    assert_eq!(
        top("9223372036854775806 in 0..9223372036854775807"),
        ok("true")
    );
    assert_eq!(
        top("9223372036854775807 in 0..9223372036854775807"),
        ok("false")
    );
    // The end of `..=` is kept exclusive, so an inclusive range to the largest integer is an
    // overflow (spec §5).
    assert_eq!(top("0..=9223372036854775807"), err("cgl::eval::overflow"));
    assert_eq!(
        top("list(-9223372036854775808..9223372036854775807)"),
        err("cgl::eval::too_large")
    );
    // In a rule: the innermost loop runs in blocks, its guards cut the range first.
    let game = "game G {\n    position n\n    \
                move i - 9223372036854775800 for i in 9223372036854775800..9223372036854775807 \
                if i - 9223372036854775800 < n\n    \
                move j + 9223372036854775807 + 1 for j in -9223372036854775807 - 1..=-9223372036854775807 - 1 + n \
                if j + 9223372036854775807 + 1 < n and j < -9223372036854775000\n    \
                move n - 1 for k in 9223372036854775806..=9223372036854775805 + n div 100 if n > 0\n}\n";
    let answers = both_engines(game, &["moves(G(3))", "grundy(G(5))", "moves(G(250))"]);
    assert_eq!(answers[0], ok("[G(0), G(1), G(2)]"));
    assert_eq!(answers[1], ok("5"));
    assert_eq!(code(&answers[2]), Some("cgl::eval::overflow"));
}

#[test]
fn the_collection_limit_is_exact_in_both_engines() {
    // A small limit, so the boundary is cheap to reach.
    let game = "game G {\n    position n\n    \
                move n - 1 if n > 0 and count(x for x in 0..n * 250) > 0\n    \
                move n - 2 if n > 1 and len([0; n * 250]) > 0\n}\n";
    let answers = both_engines_with(game, &["moves(G(4))", "moves(G(5))"], 1000);
    assert_eq!(answers[0], ok("[G(3), G(2)]"));
    assert_eq!(code(&answers[1]), Some("cgl::eval::too_large"));
    let game =
        "game G {\n    position n\n    move n - 1 for i in 0..n * 500 if n > 0 and i == 0\n}\n";
    let answers = both_engines_with(game, &["moves(G(2))", "moves(G(3))"], 1000);
    assert_eq!(answers[0], ok("[G(1)]"));
    assert_eq!(code(&answers[1]), Some("cgl::eval::too_large"));
}

#[test]
fn indexes_and_slices_at_the_ends_of_the_integers() {
    for (expr, want) in [
        ("[1, 2, 3][9223372036854775807]", err("cgl::eval::index")),
        (
            "[1, 2, 3][-9223372036854775807 - 1]",
            err("cgl::eval::index"),
        ),
        ("[1, 2, 3][4294967296]", err("cgl::eval::index")),
        ("[1, 2, 3][-1]", err("cgl::eval::index")),
        ("(1, 2, 3)[2]", ok("3")),
        (
            "set([1, 2, 3], 9223372036854775807, 0)",
            err("cgl::eval::index"),
        ),
        ("set([1, 2, 3], -1, 0)", err("cgl::eval::index")),
        ("set([1, 2, 3], 4294967298, 0)", err("cgl::eval::index")),
        ("[1, 2, 3][0..9223372036854775807]", err("cgl::eval::index")),
        (
            "[1, 2, 3][-9223372036854775807 - 1..2]",
            err("cgl::eval::index"),
        ),
        ("[1, 2, 3][1..3]", ok("[2, 3]")),
        ("[1, 2, 3][3..3]", ok("[]")),
        (
            "\"abc\"[9223372036854775806..9223372036854775807]",
            err("cgl::eval::index"),
        ),
        ("\"abc\"[1..3]", ok("\"bc\"")),
    ] {
        assert_eq!(top(expr), want, "{expr}");
    }
    let game = "game G {\n    position b\n    \
                move set(b, i, 0) for i in 0..len(b) if b[i] > 0 and b[i + 9223372036854775806 * (b[0] div 9)] >= 0\n}\n";
    let answers = both_engines(game, &["moves(G([1, 2]))", "moves(G([9, 2]))"]);
    assert_eq!(answers[0], ok("[G([0, 2]), G([1, 0])]"));
    assert_eq!(code(&answers[1]), Some("cgl::eval::index"));
    let game = "game G {\n    position b\n    \
                move set(b, len(b) - 1 + 4294967296 * b[0], 0) if b[len(b) - 1] > 0\n}\n";
    let answers = both_engines(game, &["moves(G([0, 2]))", "moves(G([1, 2]))"]);
    assert_eq!(answers[0], ok("[G([0, 0])]"));
    assert_eq!(code(&answers[1]), Some("cgl::eval::index"));
}

// --------------------------------------------------------------- the graph's packed positions

/// A chain `n -> n - 1` down to `low`, started `k` above it: remoteness `k`, outcome P when
/// `k` is even, Grundy value `k % 2`.
fn chain_answers(low: i64, k: i64) {
    let game = format!("game G {{\n    position n\n    move n - 1 if n > {low}\n}}\n");
    let start = low + k;
    let answers = both_engines(
        &game,
        &[
            &format!("remoteness(G({start}))"),
            &format!("grundy(G({start}))"),
            &format!("reachable(G({start}))"),
            &format!("G({start}) == G({low} + {k})"),
        ],
    );
    assert_eq!(
        answers,
        [
            Ok(k.to_string()),
            Ok((k % 2).to_string()),
            Ok((k + 1).to_string()),
            ok("true")
        ],
        "the chain from {start} down to {low}"
    );
}

#[test]
fn integer_positions_across_the_dense_table_and_the_ends() {
    // The dense table holds 0..2^20; around its ends, and at the ends of the integers.
    chain_answers(-3, 6);
    chain_answers((1 << 20) - 3, 6);
    chain_answers((1 << 32) - 3, 6);
    chain_answers(MAX - 6, 6);
    chain_answers(MIN, 5);
}

#[test]
fn pair_positions_across_the_dense_pair_table() {
    // Dense pairs have both items in 0..2048; a step in either item, from either side of it.
    for (a, b) in [(2046, 2046), (2046, 0), (0, 2046), (-2, 5), (MAX - 3, 2046)] {
        let game = format!(
            "game G {{\n    position (a, b)\n    move (a - 1, b) if a > {a}\n    \
             move (a, b - 1) if b > {b}\n}}\n"
        );
        // From (a + 3, b + 3): each item is a chain of 3, so the Grundy value is 1 ^ 1.
        let start = format!("G({}, {})", a + 3, b + 3);
        let answers = both_engines(
            &game,
            &[
                &format!("grundy({start})"),
                &format!("remoteness({start})"),
                &format!("reachable({start})"),
            ],
        );
        assert_eq!(
            answers,
            [ok("0"), ok("6"), ok("16")],
            "pairs near ({a}, {b})"
        );
    }
}

#[test]
fn list_positions_across_nibbles_and_cells() {
    // Lists of at most 16 cells below 16 are packed four bits a cell, of at most 256 cells
    // from 0 to 255 a byte a cell, the rest boxed: cells and lengths on either side of each.
    for (len, high) in [
        (16, 16),
        (16, 15),
        (17, 15),
        (256, 255),
        (256, 256),
        (257, 3),
        (3, 256),
    ] {
        let game = "game G {\n    position b\n    \
                    move set(b, i, b[i] - 1) for i in [0, len(b) - 1] if b[i] > H - 2\n}\n"
            .replace('H', &high.to_string());
        let start = format!("G([{high}] + [1; {}] + [{high}])", len - 2);
        let answers = both_engines(
            &game,
            &[
                &format!("grundy({start})"),
                &format!("remoteness({start})"),
                &format!("reachable({start})"),
            ],
        );
        // Two cells, each a chain of 2: Grundy 0, four moves, nine positions.
        assert_eq!(
            answers,
            [ok("0"), ok("4"), ok("9")],
            "{len} cells up to {high}"
        );
    }
}

#[test]
fn tuple_positions_with_extreme_items() {
    // Tuples of at most four integers have a packed key; longer ones are boxed (or cells).
    let names = ["a", "b", "c", "d", "e"];
    let fixed = [MIN, MAX, -1, 255];
    for width in 2..=5 {
        let fields = names[..width].join(", ");
        let mut target = vec!["a - 1".to_string()];
        target.extend(names[1..width].iter().map(|n| n.to_string()));
        let game = format!(
            "game G {{\n    position ({fields})\n    move ({}) if a > {}\n}}\n",
            target.join(", "),
            MAX - 4
        );
        let mut start = vec![MAX.to_string()];
        start.extend(fixed[..width - 1].iter().map(|v| v.to_string()));
        let start = format!("G({})", start.join(", "));
        let answers = both_engines(
            &game,
            &[
                &format!("remoteness({start})"),
                &format!("reachable({start})"),
                &format!("outcome({start})"),
            ],
        );
        assert_eq!(answers, [ok("4"), ok("5"), ok("P")], "tuples of {width}");
    }
}

#[test]
fn board_lines_below_and_at_64_cells() {
    // A family of lines whose cells are all below 64 is tested as bit masks; one that names
    // cell 64 is tested cell by cell. Three cells can be filled; the game ends when the line
    // is full (or nothing can move). The one winning move fills the cell off the line.
    for (line, off) in [
        ("[0, 63]", 64),
        ("[0, 64]", 63),
        ("[63, 0]", 64),
        ("[64, 0]", 63),
    ] {
        let game = format!(
            "const LINES = [{line}]\n\
             game G {{\n    position b\n    \
             move set(b, i, 1) for i in [0, 63, 64] if b[i] == 0\n    \
             terminal if exists l in LINES: forall k in l: b[k] == 1\n}}\n"
        );
        let answers = both_engines(
            &game,
            &[
                "outcome(G([0; 65]))",
                &format!("winning_moves(G([0; 65])) == [G(set([0; 65], {off}, 1))]"),
                "reachable(G([0; 65]))",
            ],
        );
        assert_eq!(answers, [ok("N"), ok("true"), ok("8")], "line {line}");
    }
}
