//! Which expression kinds the compiled fragment takes, found by compiling a probe of each
//! built-in and construct, and listed here: a kind that starts (or stops) compiling fails
//! this test until the list says so, and every kind the list says compiles must appear in the
//! rules the differential generators make (`compiled.rs`, `compiled_lists.rs`), which check
//! compiled rules against the interpreter. Growing the fragment thus grows the generators.

use cgl::lower::builtins::BUILTINS;
use cgl::session::{Session, SessionConfig};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// The built-ins that compile, with the text that shows a generator uses them.
const COMPILED_BUILTINS: &[(&str, &str)] = &[
    ("abs", "abs("),
    ("bits", "bits("),
    ("count", "count("),
    ("enumerate", "enumerate("),
    ("len", "len("),
    ("max", "max("),
    ("min", "min("),
    ("normalize", "normalize("),
    ("popcount", "popcount("),
    ("regions", "regions("),
    ("reversed", "reversed("),
    ("set", "set("),
    ("split", "split("),
    ("sum", "sum("),
];

/// Constructs (beyond the built-ins): each a rule over `position n` (an integer) or
/// `position b` (a list), whether it compiles, and the text a generator's rule shows it by.
const CONSTRUCTS: &[(&str, &str, bool, &str)] = &[
    (
        "arithmetic",
        "move n - 1 for i in 0..1 if n > 0",
        true,
        " - ",
    ),
    (
        "if",
        "move (if n > 2 then n - 1 else 0) for i in 0..n",
        true,
        "(if ",
    ),
    ("guard", "move i for i in 0..n if i % 2 == 0", true, " if "),
    ("tuple target", "move (i, 0) for i in 0..n", true, "(a, b)"),
    (
        "split of parts",
        "move split(i, n - 1 - i) for i in 0..n",
        true,
        "split(",
    ),
    (
        "split of a list",
        "move split([i, n - 1 - i]) for i in 0..n",
        true,
        "split([",
    ),
    (
        "split of a comprehension",
        "move split([x for x in [i, n - 1 - i] if x > 0]) for i in 0..n",
        true,
        "split([",
    ),
    (
        "call whose body is a split",
        "move pieces(i, n - 1 - i) for i in 0..n",
        true,
        "pieces(",
    ),
    (
        "comprehension",
        "move [x + 1 for x in b if x > 0] for i in 0..1",
        true,
        " for ",
    ),
    (
        "exists",
        "move set(b, i, 0) for i in 0..len(b) if exists x in b: x > 1",
        true,
        "exists ",
    ),
    (
        "forall",
        "move set(b, i, 0) for i in 0..len(b) if forall x in b: x > 1",
        true,
        "forall ",
    ),
    (
        "index",
        "move set(b, i, b[i] - 1) for i in 0..len(b) if b[i] > 0",
        true,
        "b[",
    ),
    (
        "in",
        "move set(b, i, 0) for i in 0..len(b) if not (1 in b)",
        true,
        "not (",
    ),
    (
        "user function",
        "move half(n) for i in 0..1 if n > 0",
        true,
        "total(",
    ),
    (
        "recursion",
        "move down(n) for i in 0..1 if n > 0",
        false,
        "",
    ),
    (
        "string",
        "move n - 1 for i in 0..1 if str(n) != \"\" and n > 0",
        false,
        "",
    ),
    (
        "a string indexed",
        "move n - 1 for i in 0..1 if \"xy\"[i] == \"x\" and n > 0",
        false,
        "",
    ),
    (
        "set literal",
        "move n - 1 for i in 0..1 if n in {1, 2, 3}",
        false,
        "",
    ),
];

const FUNCTIONS: &str = "fn half(x) = x div 2\nfn pieces(x, y) = split(x, y)\nfn down(x) = if x < 2 then 0 else down(x - 1)\n";

/// Whether `rule` compiles in a game over `position n` (`list` false) or `position b`.
fn compiles(rule: &str, list: bool) -> Option<bool> {
    let position = if list { "b" } else { "n" };
    let source = format!("{FUNCTIONS}game G {{\n    position {position}\n    {rule}\n}}\n");
    let mut s = Session::new(SessionConfig::default());
    s.load_source("probe.game", &source).ok()?;
    Some(s.compiled().games[0].rules.iter().all(Option::is_some))
}

/// Whether built-in `name` compiles in some call: with integer or list arguments, one to
/// three of them, its value used as an integer, a list or a target.
fn builtin_compiles(name: &str) -> bool {
    let int_args = ["n", "n, 2", "n, 2, 1"];
    let list_args = ["b", "b, 1", "b, 1, 2", "[x for x in b]", "b, b"];
    let int_uses = ["{c}", "0 * {c}", "len({c})", "sum({c})"];
    let list_uses = [
        "[0 * {c}]",
        "set(b, 0, {c})",
        "{c}",
        "[len({c})]",
        "[x for (k, x) in {c}]",
    ];
    let guard = " for i in 0..1 if n > 0 and false";
    let lguard = " for i in 0..1 if len(b) > 0 and false";
    int_args.iter().any(|a| {
        int_uses.iter().any(|u| {
            let call = format!("{name}({a})");
            compiles(&format!("move {}{guard}", u.replace("{c}", &call)), false) == Some(true)
        })
    }) || list_args.iter().any(|a| {
        list_uses.iter().any(|u| {
            let call = format!("{name}({a})");
            compiles(&format!("move {}{lguard}", u.replace("{c}", &call)), true) == Some(true)
        })
    })
}

/// Rules from both differential generators, a few hundred of each.
fn generated() -> String {
    let mut out = String::new();
    let mut runner = TestRunner::deterministic();
    let strategy = crate::compiled::game();
    for _ in 0..400 {
        let game = strategy.new_tree(&mut runner).expect("a game").current();
        out.push_str(&game.source());
    }
    for seed in 1..400u64 {
        let mut g = crate::compiled_lists::Gen {
            state: seed * 0x9E37_79B9_7F4A_7C15,
            depth: 0,
            names: 0,
        };
        out.push_str(&g.game());
    }
    out
}

#[test]
fn the_compiled_built_ins_are_the_listed_ones() {
    let mut names: Vec<&str> = BUILTINS.iter().map(|(n, ..)| *n).collect();
    names.sort_unstable();
    names.dedup();
    let found: Vec<&str> = names.into_iter().filter(|n| builtin_compiles(n)).collect();
    let listed: Vec<&str> = COMPILED_BUILTINS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        found, listed,
        "built-ins that compile (left) against the list here (right)"
    );
}

#[test]
fn the_constructs_compile_as_listed() {
    for (kind, rule, expected, _) in CONSTRUCTS {
        let list = rule.contains('b');
        assert_eq!(compiles(rule, list), Some(*expected), "{kind}: {rule}");
    }
}

#[test]
fn the_differential_generators_make_every_compiled_kind() {
    let text = generated();
    let markers = COMPILED_BUILTINS
        .iter()
        .map(|(n, m)| (*n, *m))
        .chain(CONSTRUCTS.iter().filter(|c| c.2).map(|c| (c.0, c.3)));
    for (kind, marker) in markers {
        assert!(
            text.contains(marker),
            "no rule of the differential generators uses {kind} ({marker:?}): extend them"
        );
    }
}
