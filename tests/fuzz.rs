//! A fuzzer that runs on stable Rust (cargo-fuzz needs nightly): proptest generates inputs
//! and each goes through the library the way `cgl check` takes a file (parse, lower, every
//! `print` and `expect`, rendering each diagnostic, the values of failed expectations), with a
//! small position limit and a short deadline. Wrong input is expected to fail; the fuzzer
//! fails only on a panic, an `cgl::internal` diagnostic, or a case that runs far past its
//! deadline (a hang), as starlark-rust's fuzz target does.
//!
//! The crash-finding generators: token soups (random sequences of cgl's tokens, after a
//! valid game half the time), random expressions, mutated examples (tokens and lines of
//! `examples/*.game` deleted, duplicated, swapped or inserted, or a window of lines cut out),
//! deep recursion of odd shapes (each level of a recursive function nested in a random mix of
//! operators, brackets and calls), and long lines (a statement past column 65,536).
//! Boundary integers checks answers too: operations on integers near `i64::MIN` and `MAX`,
//! 2^20, 2^32, 2^62 and the packing cut-offs (arithmetic, `**`, `len`/`count` of ranges,
//! `in`, indexes, slices, `set`, `sum`, `mex`) against an independent 128-bit oracle, at the
//! top level and as rule guards in both engines.
//! Value bombs: values grown by doubling or by sharing their parts, then compared, hashed,
//! printed and played (the limits on values and memory are small there). Deep positions:
//! games whose positions nest one level deeper each move, through lists, sets, positions and
//! compounds in turn, played deep and then compared, ordered, hashed and printed on a
//! small stack.
//!
//! `CGL_FUZZ_CASES` sets the cases per generator (default 32, so `cargo test --release` stays
//! quick) and `CGL_FUZZ_SECONDS` bounds each generator's time (default: none); `.ci/run` runs
//! a longer pass. A failing input is shrunk, printed, and saved under `target/fuzz-crashes/`:
//! add it to `tests/fuzz_corpus/` (every file there is replayed on every test run) and report
//! the bug.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cgl::diag::{render, RenderStyle};
use cgl::eval::{Limits, Stop};
use cgl::graph::GraphConfig;
use cgl::lower::ir::Statement;
use cgl::session::{ExpectResult, Session, SessionConfig};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

use crate::common::root;

/// Evaluation stops after this long; a case may take a little longer (loading is not
/// stopped), but not [`HANG`].
const DEADLINE: Duration = Duration::from_millis(100);

/// A case that takes this long is a hang: something does not watch the deadline. Generous,
/// because the tests share two cores with other builds.
const HANG: Duration = Duration::from_secs(10);

/// Checks a source text as `cgl check` would. `Err` says what went wrong: a panic, an
/// internal error or a hang. Errors in the text itself are fine.
fn check_source(text: &str, explicit: bool) -> Result<(), String> {
    check_source_on(text, explicit, CLI_STACK)
}

/// The stack the CLI gives evaluation (src/main.rs).
const CLI_STACK: usize = 512 << 20;

/// [`check_source`] on a thread with `stack` bytes of stack.
fn check_source_on(text: &str, explicit: bool, stack: usize) -> Result<(), String> {
    let started = Instant::now();
    let owned = text.to_string();
    let result = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || catch_unwind(AssertUnwindSafe(|| check_unguarded(&owned, explicit))))
        .map_err(|e| format!("cannot start a thread: {e}"))?
        .join()
        .unwrap_or_else(Err);
    let elapsed = started.elapsed();
    match result {
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(format!("panic: {message}"))
        }
        Ok(Err(internal)) => Err(internal),
        Ok(Ok(())) if elapsed > HANG => Err(format!(
            "took {elapsed:?}, far past the deadline of {DEADLINE:?}"
        )),
        Ok(Ok(())) => Ok(()),
    }
}

fn check_unguarded(text: &str, explicit: bool) -> Result<(), String> {
    // Small limits on values and the graph's memory too, so that a case that builds a large
    // value fails soon, in little memory.
    let config = SessionConfig {
        graph: GraphConfig {
            max_positions: 2_000,
            max_memory: 64 << 20,
            explicit,
            ..GraphConfig::default()
        },
        limits: Limits {
            max_collection: 1_000_000,
            ..Limits::default()
        },
    };
    let mut session = Session::new(config);
    session.set_stop(Stop::after(DEADLINE));
    let mut diags = Vec::new();
    match session.load_source("fuzz.game", text) {
        Err(load) => diags.extend(load),
        Ok(index) => {
            LOADED.fetch_add(1, Ordering::Relaxed);
            for statement in session.statements(index) {
                match statement {
                    Statement::Print(body) => match session.eval_body(&body) {
                        Ok(value) => drop(session.show(&value)),
                        Err(d) => diags.push(*d),
                    },
                    Statement::Expect(body, _) => {
                        if let ExpectResult::Failed(d) = session.check_expect(&body) {
                            if d.code.phase() == "check" {
                                let _ = session.failed_values(&body);
                            }
                            diags.push(*d);
                        }
                    }
                }
            }
        }
    }
    for d in &diags {
        let rendered = render(d, &session.sources, RenderStyle::Plain);
        if d.code == cgl::diag::Code::Internal {
            return Err(format!("internal error:\n{rendered}"));
        }
    }
    Ok(())
}

/// Cases that loaded (so that their statements ran), to show that a generator reaches past
/// the parser.
static LOADED: AtomicUsize = AtomicUsize::new(0);

/// Runs one generator for `CGL_FUZZ_CASES` cases, or until `CGL_FUZZ_SECONDS` have passed:
/// in rounds of at most 256 cases, each with a fresh random seed, so that the time bound stops
/// it between rounds.
fn fuzz<S: Strategy>(name: &str, strategy: S, to_text: fn(&S::Value) -> (String, bool))
where
    S::Value: std::fmt::Debug,
{
    fuzz_on(name, strategy, to_text, CLI_STACK);
}

/// [`fuzz`], each case checked on a thread with `stack` bytes of stack.
fn fuzz_on<S: Strategy>(
    name: &str,
    strategy: S,
    to_text: fn(&S::Value) -> (String, bool),
    stack: usize,
) where
    S::Value: std::fmt::Debug,
{
    let cases = env_number("CGL_FUZZ_CASES").unwrap_or(32);
    let budget = env_number("CGL_FUZZ_SECONDS").map(|s| Duration::from_secs(u64::from(s)));
    let started = Instant::now();
    let loaded_before = LOADED.load(Ordering::Relaxed);
    let mut ran = 0u32;
    while ran < cases && budget.is_none_or(|b| started.elapsed() <= b) {
        let round = (cases - ran).min(256);
        let mut runner = TestRunner::new(Config {
            cases: round,
            failure_persistence: None,
            max_shrink_iters: 2_000,
            ..Config::default()
        });
        // A stack overflow aborts the whole process before any report: the case in flight is
        // written first, so such a crash leaves its input behind.
        let in_flight = root().join(format!("target/fuzz-crashes/in-flight-{name}.game"));
        let _ = std::fs::create_dir_all(root().join("target/fuzz-crashes"));
        let result = runner.run(&strategy, |input| {
            let (text, explicit) = to_text(&input);
            let _ = std::fs::write(&in_flight, &text);
            check_source_on(&text, explicit, stack).map_err(TestCaseError::fail)
        });
        ran += round;
        match result {
            Ok(()) => {}
            Err(TestError::Fail(reason, input)) => {
                let (text, explicit) = to_text(&input);
                let dir = root().join("target/fuzz-crashes");
                let _ = std::fs::create_dir_all(&dir);
                let file = dir.join(format!("{name}-{:016x}.game", fnv(&text)));
                let _ = std::fs::write(&file, &text);
                panic!(
                    "fuzz {name} found a bug{}: {reason}\nsaved as {}; add it to \
                     tests/fuzz_corpus/\n----- input\n{text}\n-----",
                    if explicit { " (with --explicit)" } else { "" },
                    file.display()
                );
            }
            Err(e) => panic!("fuzz {name}: {e}"),
        }
    }
    // Tests run in parallel, so the count of loaded cases is approximate.
    println!(
        "fuzz {name}: {ran} cases ({} loaded) in {:?}",
        LOADED.load(Ordering::Relaxed) - loaded_before,
        started.elapsed()
    );
}

fn env_number(name: &str) -> Option<u32> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// A stable name for a crashing input.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// cgl's tokens, with a few names and numbers that mean something next to [`PRELUDE`].
const TOKENS: &[&str] = &[
    "game",
    "position",
    "move",
    "for",
    "in",
    "if",
    "then",
    "else",
    "expect",
    "print",
    "show",
    "const",
    "fn",
    "import",
    "start",
    "compound",
    "disjunctive",
    "conjunctive",
    "selective",
    "play",
    "misere",
    "normal",
    "terminal",
    "draw",
    "forall",
    "exists",
    "not",
    "and",
    "or",
    "is",
    "split",
    "left",
    "right",
    "true",
    "false",
    "none",
    "N",
    "P",
    "D",
    "Nim",
    "Take",
    "Pair",
    "G",
    "x",
    "n",
    "k",
    "a",
    "b",
    "h",
    "grundy",
    "outcome",
    "remoteness",
    "mex",
    "lego",
    "len",
    "sum",
    "min",
    "max",
    "moves",
    "winning_moves",
    "line",
    "period",
    "sorted",
    "set",
    "reachable",
    "count",
    "any",
    "all",
    "str",
    "bits",
    "v2",
    "popcount",
    "gcd",
    "abs",
    "0",
    "1",
    "2",
    "3",
    "7",
    "10",
    "100",
    "-1",
    "9223372036854775807",
    "10**12",
    "\"a\"",
    "\"\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ";",
    ".",
    "..",
    "..=",
    "+",
    "-",
    "*",
    "/",
    "div",
    "%",
    "**",
    "^",
    "&",
    "|",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "=",
    ".0",
    ".start",
    "\n",
    "\n",
    "\n",
    "//",
    "/*",
    "*/",
];

/// Valid definitions for token soups to use.
const PRELUDE: &str = "game Nim { position n  move k for k in 0..n }\n\
    game Take(S = {1, 2}) { position n  move n - s for s in S if s <= n }\n\
    game Pair { position (a, b)  move (a - 1, b) for k in 0..1 if a > 0  move split(Nim(a), Nim(b)) for k in 0..1 if b > 1 }\n\
    const G = Nim(3) + Take(4)\n";

#[test]
fn fuzz_token_soups() {
    let strategy = (
        proptest::collection::vec(proptest::sample::select(TOKENS), 0..48),
        any::<bool>(),
        any::<bool>(),
    );
    fuzz("tokens", strategy, |(tokens, prelude, explicit)| {
        let soup = tokens.join(" ");
        let text = if *prelude {
            format!("{PRELUDE}{soup}\n")
        } else {
            soup
        };
        (text, *explicit)
    });
}

/// Random expressions from a small grammar of cgl: they parse more often than token soups, so
/// they reach evaluation and the analyses (values of every type meeting every operator and
/// built-in).
fn expression() -> impl Strategy<Value = String> {
    let leaf = proptest::sample::select(
        &[
            "0",
            "1",
            "2",
            "3",
            "5",
            "-1",
            "64",
            "9223372036854775807",
            // Boundaries: the smallest integer, 2^20, 2^32, 2^62, cell cut-offs.
            "-9223372036854775808",
            "1048576",
            "4294967296",
            "4611686018427387904",
            "16",
            "256",
            "true",
            "false",
            "none",
            "\"ab\"",
            "\"\"",
            "N",
            "P",
            "D",
            "k",
            "G",
            "Nim(0)",
            "Nim(3)",
            "Take(4)",
            "Take[{1, 3}](5)",
            "Pair(2, 2)",
            "Pair(0, 3)",
            "[]",
            "{}",
            "(1,)",
            "split()",
            "disjunctive",
            "selective",
            "0..4",
            "[1, 2, 2]",
            "{1, 5}",
            "(1, \"a\")",
        ][..],
    )
    .prop_map(str::to_string);
    leaf.prop_recursive(4, 48, 4, |inner| {
        let binary = proptest::sample::select(
            &[
                "+", "-", "*", "/", "div", "%", "**", "^", "&", "|", "==", "!=", "<", "<=", ">",
                ">=", "and", "or", "in", "not in", "is", "..", "..=",
            ][..],
        );
        let unary = proptest::sample::select(
            &[
                "-",
                "not ",
                "grundy",
                "outcome",
                "remoteness",
                "moves",
                "winning_moves",
                "line",
                "mex",
                "lego",
                "len",
                "sum",
                "min",
                "max",
                "sorted",
                "reversed",
                "set",
                "list",
                "str",
                "bits",
                "v2",
                "popcount",
                "abs",
                "period",
                "misere",
                "normal",
                "split",
                "reachable",
                "count",
                "any",
                "all",
                "enumerate",
                "Nim",
                "Take",
                "Take[{2}]",
            ][..],
        );
        let two = proptest::sample::select(
            &["gcd", "min", "max", "zip", "split", "Pair", "Take[{1, 2}]"][..],
        );
        prop_oneof![
            (inner.clone(), binary, inner.clone()).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (unary, inner.clone()).prop_map(|(f, a)| if f.ends_with(' ') || f == "-" {
                format!("({f}{a})")
            } else {
                format!("{f}({a})")
            }),
            (two, inner.clone(), inner.clone()).prop_map(|(f, a, b)| format!("{f}({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a} for k in {b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{{a} for k in {b}}}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("sum({a} for k in {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(forall k in {b}: {a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(exists k in {b}: {a})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("(if {c} then {a} else {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, i)| format!("{a}[{i}]")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, i, j)| format!("{a}[{i}..{j}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, n)| format!("[{a}; {n}]")),
            inner.clone().prop_map(|a| format!("{a}.0")),
            inner.clone().prop_map(|a| format!("{a}.start")),
        ]
    })
}

#[test]
fn fuzz_expressions() {
    let strategy = (proptest::collection::vec(expression(), 1..4), any::<bool>());
    fuzz("expressions", strategy, |(exprs, explicit)| {
        let mut text = PRELUDE.to_string();
        for (i, e) in exprs.iter().enumerate() {
            let statement = if i % 2 == 0 { "expect" } else { "print" };
            text.push_str(&format!("{statement} {e}\n"));
        }
        (text, *explicit)
    });
}

/// Wrappers that nest an expression one level deeper (prefix, suffix), of every shape the
/// interpreter and the compiled forms recurse through: unary and binary operators on
/// either side, `if`, brackets, lists, calls of built-ins.
const NESTERS: &[(&str, &str)] = &[
    ("- ", ""),
    ("not ", ""),
    ("", " + 0"),
    ("0 + ", ""),
    ("if true then ", " else 0"),
    ("if false then 0 else ", ""),
    ("(", ")"),
    ("[", "][0]"),
    ("abs(", ")"),
    ("len([", "]) - 1"),
    ("min(", ", 0)"),
    ("sum([", " for _ in 0..1])"),
];

/// A recursive function whose every level nests its call in a random mix of [`NESTERS`],
/// used from an `expect`, a `print` or a move rule, at a random depth: the stack guard must
/// turn whatever is too deep into `cgl::eval::recursion` (or another diagnostic), never a
/// stack overflow.
fn deep_recursion() -> impl Strategy<Value = String> {
    let layer = (0..NESTERS.len(), 0usize..4_000);
    (proptest::collection::vec(layer, 1..4), 0u32..3_000, 0u8..4).prop_map(
        |(layers, depth, use_as)| {
            let (mut before, mut after) = (String::new(), String::new());
            for (k, count) in layers {
                let (pre, post) = NESTERS[k];
                // Brackets past the limit are a syntax error at once: keep most in.
                let count = if pre.contains(['(', '[']) {
                    count % 220
                } else {
                    count
                };
                before.push_str(&pre.repeat(count));
                after.insert_str(0, &post.repeat(count));
            }
            let call = |f: &str| format!("{before}{f}(n - 1){after}");
            let mut text = format!("fn f(n) = if n <= 0 then 0 else {}\n", call("f"));
            text.push_str(&match use_as {
                0 => format!("expect f({depth}) == 0\n"),
                1 => format!("print f({depth})\n"),
                2 => format!(
                    "game G {{ position n  move n - 1 if n > 0 and f({depth}) == 0 }}\n\
                     expect grundy(G(2)) == 0\n"
                ),
                _ => format!(
                    "fn g(n) = if n <= 0 then 0 else {}\nexpect g({depth}) == 0\n",
                    call("g").replace("g(n - 1)", "f(n - 1)")
                ),
            });
            text
        },
    )
}

/// On a 16 MiB stack, so that the stack guard trips within a few milliseconds (on the CLI's
/// 512 MiB it takes as long as touching them); loading gets its own 64 MiB segment.
#[test]
fn fuzz_deep_recursion() {
    fuzz_on(
        "deep",
        deep_recursion(),
        |text| (text.clone(), false),
        16 << 20,
    );
}

/// Statements far to the right of long lines (past column 65,536, where miette cannot draw
/// a label), with wide characters and CRLF: every diagnostic must render.
fn long_line() -> impl Strategy<Value = String> {
    (
        expression(),
        0usize..100_000,
        proptest::sample::select(&[" ", "\t", "é", "😀"][..]),
        any::<bool>(),
        0u8..3,
    )
        .prop_map(|(expr, width, pad, crlf, place)| {
            let eol = if crlf { "\r\n" } else { "\n" };
            let padding = pad.repeat(width);
            let mut text = PRELUDE.to_string();
            match place {
                // Padding before the expectation (spaces and tabs only: other characters
                // would be a syntax error there, which is a fine case too).
                0 => text.push_str(&format!("expect {padding}{expr}{eol}")),
                // Inside a string before it, on the same line.
                1 => text.push_str(&format!("const s = \"{padding}\"  expect {expr} == s{eol}")),
                // After it, in a comment: the label is at the start of a long line.
                _ => text.push_str(&format!("expect {expr} // {padding}{eol}")),
            }
            text
        })
}

#[test]
fn fuzz_long_lines() {
    fuzz("long-lines", long_line(), |text| (text.clone(), false));
}

/// Value bombs and shared structure: a function that grows a seed `n` times by one way of
/// building values (doubling it, wrapping it twice, repeating it, printing it twice), then
/// statements that compare, hash, order, print, measure and play on what it built. Most
/// cases hit the collection limit or the deadline; none may crash, hang or report an
/// internal error.
fn bomb() -> impl Strategy<Value = String> {
    let grow = proptest::sample::select(
        &[
            "s + s",
            "s + [len(s)]",
            "(s, s)",
            "[s, s]",
            "{s, [s]}",
            "[s; 2]",
            "[s; 3]",
            "s | {x + len(s) for x in s}",
            "[v for v in s] + [v for v in s]",
            "str(s) + str(s)",
            "reversed(s) + sorted(s)",
            "set(s, 0, s)",
            "[(i, v) for (i, v) in enumerate(s)] + list(s)",
            "list(zip(s, s)) + list(s)",
        ][..],
    );
    let seed = proptest::sample::select(&["[0]", "\"ab\"", "(0,)", "{0}", "[]", "[[0], [1]]"][..]);
    let use_ = proptest::sample::select(
        &[
            "b(A) == b(B)",
            "b(A) != b(B)",
            "b(A) < b(B)",
            "b(A) >= b(B)",
            "len({b(A), b(B), b(A)})",
            "b(A) in [b(B), b(A)]",
            "b(A) in {b(B)}",
            "sorted([b(A), b(B)])",
            "max(b(A), b(B))",
            "len(b(A))",
            "str(b(A))",
            "b(A)",
            "Grow(b(A), B) is P",
            "remoteness(Grow(b(0), A))",
            "Keep(b(A)) is P",
            "[b(A)] + [b(B)]",
            "b(A) + b(B)",
            "count(b(A))",
        ][..],
    );
    let sizes = (0u32..70, 0u32..70);
    (grow, seed, proptest::collection::vec((use_, sizes), 1..5)).prop_map(|(grow, seed, uses)| {
        let mut text = format!(
            "fn grow(s, n) = if n == 0 then s else grow({grow}, n - 1)\n\
             fn b(n) = grow({seed}, n)\n\
             game Grow {{ position (x, n)  move (grow(x, 1), n - 1) if n > 0 }}\n\
             game Keep {{ position x  move x + x if len(x) < 1000000 }}\n"
        );
        for (i, (u, (a, b))) in uses.iter().enumerate() {
            let statement = if i % 2 == 0 { "expect" } else { "print" };
            let u = u.replace('A', &a.to_string()).replace('B', &b.to_string());
            text.push_str(&format!("{statement} {u}\n"));
        }
        text
    })
}

#[test]
fn fuzz_value_bombs() {
    fuzz("bombs", (bomb(), any::<bool>()), |(text, explicit)| {
        (text.clone(), *explicit)
    });
}

/// Deep positions of odd shapes: a game whose every move wraps its data one level deeper, in
/// a random mix of ways (a list, a tuple, a set, the data twice so that it is shared, a
/// position of another game holding it, a compound of alternating kinds around a position
/// it holds), played to a random depth, then statements that intern, compare, order, hash,
/// print and measure the deep positions it reached.
fn deep_position() -> impl Strategy<Value = String> {
    let wrap = proptest::sample::select(
        &[
            "[x]",
            "(x, 0)",
            "(0, x)",
            "{x}",
            "[x, x]",
            "(x, [x])",
            "Wrap(x)",
            "[Wrap(x), Wrap(0)]",
            "(Wrap(x) & Wrap(1)) + Wrap(2)",
            "split(x, x)",
            "[x] + [0]",
            "str(x)",
        ][..],
    );
    let use_ = proptest::sample::select(
        &[
            "Deep(N, S) is P",
            "remoteness(Deep(N, S))",
            "last(line(Deep(N, S)))",
            "len(str(last(line(Deep(N, S)))))",
            "last(line(Deep(N, S))) == last(line(Deep(N, S)))",
            "last(line(Deep(N, S))) < last(line(Deep(M, S)))",
            "sorted([last(line(Deep(N, S))), last(line(Deep(M, S)))])",
            "len({last(line(Deep(N, S))), last(line(Deep(M, S)))})",
            "last(line(Deep(N, S))) in moves(Deep(1, S))",
            "len(reachable(Deep(N, S)))",
            "grundy(Deep(N, S) + Deep(M, S))",
        ][..],
    );
    let seed = proptest::sample::select(&["none", "0", "[]", "Wrap(0)", "\"a\""][..]);
    (
        proptest::collection::vec(wrap, 1..4),
        seed,
        proptest::collection::vec((use_, 0u32..3_000, 0u32..3_000), 1..4),
    )
        .prop_map(|(wraps, seed, uses)| {
            // The wrappers taken in turn, by the move's number.
            let mut body = "x".to_string();
            for (i, w) in wraps.iter().enumerate().rev() {
                body = format!("if n % {k} == {i} then {w} else {body}", k = wraps.len());
            }
            let mut text = format!(
                "game Wrap {{ position x  move 0 if x != 0 }}\n\
                 game Deep {{ position (n, x)  move (n - 1, {body}) if n > 0 }}\n\
                 fn last(xs) = xs[len(xs) - 1]\n"
            );
            for (i, (u, n, m)) in uses.iter().enumerate() {
                let statement = if i % 2 == 0 { "expect" } else { "print" };
                let u = u
                    .replace('N', &n.to_string())
                    .replace('M', &m.to_string())
                    .replace('S', seed);
                text.push_str(&format!("{statement} {u}\n"));
            }
            text
        })
}

/// On a 1 MiB stack, so that a walk of a deep position that recursed natively once per
/// level would overflow it.
#[test]
fn fuzz_deep_positions() {
    fuzz_on(
        "deep-positions",
        deep_position(),
        |text| (text.clone(), false),
        1 << 20,
    );
}

/// A change to a file: indices are taken modulo the number of tokens or lines.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteToken(usize),
    DuplicateToken(usize),
    SwapTokens(usize, usize),
    InsertToken(usize, &'static str),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// Keep only `len` lines from `start`: a small file that runs quickly.
    KeepLines(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteToken),
        any::<usize>().prop_map(Mutation::DuplicateToken),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
        (any::<usize>(), proptest::sample::select(TOKENS))
            .prop_map(|(a, t)| Mutation::InsertToken(a, t)),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Mutation::KeepLines(a, n)),
    ]
}

/// Splits text into tokens that join back to it: runs of word characters, runs of
/// whitespace, and single other characters.
fn tokenize(text: &str) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    for c in text.chars() {
        match tokens.last_mut() {
            Some(last) if class(c) != 2 && last.chars().last().map(class) == Some(class(c)) => {
                last.push(c)
            }
            _ => tokens.push(c.to_string()),
        }
    }
    tokens
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_string();
    for m in mutations {
        let mut tokens = tokenize(&text);
        let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
        let (nt, nl) = (tokens.len().max(1), lines.len().max(1));
        let by_line = match m {
            Mutation::DeleteToken(i) => {
                if !tokens.is_empty() {
                    tokens.remove(i % nt);
                }
                false
            }
            Mutation::DuplicateToken(i) => {
                if let Some(t) = tokens.get(i % nt).cloned() {
                    tokens.insert(i % nt, t);
                }
                false
            }
            Mutation::SwapTokens(a, b) => {
                if !tokens.is_empty() {
                    tokens.swap(a % nt, b % nt);
                }
                false
            }
            Mutation::InsertToken(i, t) => {
                tokens.insert(i % (tokens.len() + 1), format!(" {t} "));
                false
            }
            Mutation::DeleteLine(i) => {
                if !lines.is_empty() {
                    lines.remove(i % nl);
                }
                true
            }
            Mutation::DuplicateLine(i) => {
                if let Some(l) = lines.get(i % nl).cloned() {
                    lines.insert(i % nl, l);
                }
                true
            }
            Mutation::SwapLines(a, b) => {
                if !lines.is_empty() {
                    lines.swap(a % nl, b % nl);
                }
                true
            }
            Mutation::KeepLines(start, len) => {
                let start = start % nl;
                lines = lines.into_iter().skip(start).take(*len).collect();
                true
            }
        };
        text = if by_line {
            lines.concat()
        } else {
            tokens.concat()
        };
    }
    text
}

fn examples() -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/ is there")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("examples are UTF-8"))
        .collect()
}

#[test]
fn fuzz_mutated_examples() {
    use std::sync::OnceLock;
    static EXAMPLES: OnceLock<Vec<String>> = OnceLock::new();
    let n_examples = EXAMPLES.get_or_init(examples).len();
    assert!(n_examples > 0);
    let strategy = (
        0..n_examples,
        // Most cases cut the file down first, so that they run quickly.
        (any::<usize>(), 1usize..40),
        proptest::collection::vec(mutation(), 1..6),
        any::<bool>(),
        proptest::bool::weighted(0.9),
    );
    fuzz(
        "examples",
        strategy,
        |(index, (start, len), mutations, explicit, cut)| {
            let original = &EXAMPLES.get_or_init(examples)[*index];
            let mut all = Vec::new();
            if *cut {
                all.push(Mutation::KeepLines(*start, *len));
            }
            all.extend(mutations.iter().cloned());
            (mutate(original, &all), *explicit)
        },
    );
}

/// Every input that once crashed cgl (or is close to a limit) stays a test.
#[test]
fn fuzz_corpus_replays() {
    let dir = root().join("tests/fuzz_corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fuzz_corpus is there")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the corpus is seeded");
    for file in &files {
        let text = std::fs::read_to_string(file).expect("corpus files are UTF-8");
        for explicit in [false, true] {
            if let Err(e) = check_source(&text, explicit) {
                panic!("{} (explicit: {explicit}): {e}", file.display());
            }
        }
    }
}

/// The definitions that token soups and expressions use load, so that the cases reach
/// evaluation.
#[test]
fn fuzz_prelude_loads() {
    let mut session = Session::new(SessionConfig::default());
    let file = session.load_source("prelude.game", PRELUDE);
    assert!(file.is_ok(), "{:?}", file.err());
    let value = session.eval_text("grundy(G)", &[file.unwrap_or(0)]);
    assert_eq!(value.map(|v| session.show(&v)).ok().as_deref(), Some("2"));
}

#[test]
fn mutations_keep_what_they_do_not_touch() {
    let text = "game Nim { position n }\nexpect 1 == 1\n";
    assert_eq!(tokenize(text).concat(), text);
    assert_eq!(mutate(text, &[]), text);
    assert_eq!(
        mutate(text, &[Mutation::SwapLines(0, 1)]),
        "expect 1 == 1\ngame Nim { position n }\n"
    );
    assert_eq!(
        mutate(text, &[Mutation::DeleteToken(0)]),
        " Nim { position n }\nexpect 1 == 1\n"
    );
    assert_eq!(
        mutate(text, &[Mutation::KeepLines(1, 5)]),
        "expect 1 == 1\n"
    );
}

// ------------------------------------------------------------------ boundary integers

/// Integers where something changes: the ends of `i64`, 2^20 (the dense table), 2^32, 2^62
/// and 2^63, square roots of the ends, the packing cut-offs of cells (16, 256) and pairs
/// (2048); each drawn with a small offset.
const BOUNDARY: &[i64] = &[
    i64::MIN,
    -(1 << 62),
    -(1 << 32),
    -(1 << 20),
    -3_037_000_500,
    -256,
    -64,
    -16,
    -1,
    0,
    1,
    2,
    16,
    63,
    64,
    256,
    2048,
    1 << 20,
    3_037_000_500,
    1 << 32,
    1 << 62,
    i64::MAX,
];

fn boundary_int() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => (proptest::sample::select(BOUNDARY), -2i64..=2).prop_map(|(b, d)| b.saturating_add(d)),
        1 => -3i64..=3,
    ]
}

/// One boundary case: an operation on boundary integers, whose answer [`oracle`] knows.
#[derive(Clone, Debug)]
enum Boundary {
    /// `a op b` for an arithmetic operator.
    Bin(&'static str, i64, i64),
    Neg(i64),
    Abs(i64),
    /// `len(a..b)` or `len(a..=b)` (or `count`).
    Len(&'static str, i64, i64, bool),
    /// `x in a..b`.
    In(i64, i64, i64),
    /// `[0, 1, ..][i]` of a list of `n` items.
    Index(usize, i64),
    /// `[0, 1, ..][a..b]`.
    Slice(usize, i64, i64),
    /// `set([0, 1, ..], i, 7)`.
    SetAt(usize, i64),
    /// `sum([..])`.
    Sum(Vec<i64>),
    /// `mex([..])`.
    Mex(Vec<i64>),
}

fn boundary_case() -> impl Strategy<Value = Boundary> {
    let op = proptest::sample::select(&["+", "-", "*", "/", "div", "%", "**", "^", "&", "|"][..]);
    let int = boundary_int;
    prop_oneof![
        4 => (op, int(), int()).prop_map(|(op, a, b)| Boundary::Bin(op, a, b)),
        1 => (int(), 0i64..70).prop_map(|(a, b)| Boundary::Bin("**", a, b)),
        1 => int().prop_map(Boundary::Neg),
        1 => int().prop_map(Boundary::Abs),
        2 => (proptest::sample::select(&["len", "count"][..]), int(), int(), any::<bool>())
            .prop_map(|(f, a, b, incl)| Boundary::Len(f, a, b, incl)),
        1 => (int(), int(), int()).prop_map(|(x, a, b)| Boundary::In(x, a, b)),
        1 => (0usize..4, int()).prop_map(|(n, i)| Boundary::Index(n, i)),
        1 => (0usize..4, int(), int()).prop_map(|(n, a, b)| Boundary::Slice(n, a, b)),
        1 => (0usize..4, int()).prop_map(|(n, i)| Boundary::SetAt(n, i)),
        1 => proptest::collection::vec(int(), 0..5).prop_map(Boundary::Sum),
        1 => proptest::collection::vec(prop_oneof![int(), 0i64..6], 0..6).prop_map(Boundary::Mex),
    ]
}

/// The items `0, 1, .., n - 1` as cgl writes them.
fn items(n: usize) -> String {
    format!(
        "[{}]",
        (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
    )
}

fn ints_text(xs: &[i64]) -> String {
    format!(
        "[{}]",
        xs.iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

impl Boundary {
    /// The expression, as cgl source (negative integers in brackets).
    fn text(&self) -> String {
        let n = |x: &i64| format!("({x})");
        match self {
            Boundary::Bin(op, a, b) => format!("{} {op} {}", n(a), n(b)),
            Boundary::Neg(a) => format!("-{}", n(a)),
            Boundary::Abs(a) => format!("abs({a})"),
            Boundary::Len(f, a, b, incl) => {
                format!("{f}({}{}{})", n(a), if *incl { "..=" } else { ".." }, n(b))
            }
            Boundary::In(x, a, b) => format!("{} in {}..{}", n(x), n(a), n(b)),
            Boundary::Index(len, i) => format!("{}[{i}]", items(*len)),
            Boundary::Slice(len, a, b) => format!("{}[{}..{}]", items(*len), n(a), n(b)),
            Boundary::SetAt(len, i) => format!("set({}, {i}, 7)", items(*len)),
            Boundary::Sum(xs) => format!("sum({})", ints_text(xs)),
            Boundary::Mex(xs) => format!("mex({})", ints_text(xs)),
        }
    }
}

/// What cgl must answer, computed independently in 128 bits: the printed value, or the
/// diagnostic's code.
fn oracle(case: &Boundary) -> Result<String, &'static str> {
    const OVERFLOW: &str = "cgl::eval::overflow";
    const INDEX: &str = "cgl::eval::index";
    let fits = |v: i128| {
        i64::try_from(v)
            .map(|v| v.to_string())
            .map_err(|_| OVERFLOW)
    };
    let list = |xs: std::ops::Range<i128>| {
        format!(
            "[{}]",
            xs.map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
        )
    };
    match case {
        Boundary::Bin(op, a, b) => {
            let (x, y) = (i128::from(*a), i128::from(*b));
            match *op {
                "+" => fits(x + y),
                "-" => fits(x - y),
                "*" => fits(x * y),
                "/" | "div" | "%" if y == 0 => Err("cgl::eval::division_by_zero"),
                // Exact division: the reduced fraction, sign on top.
                "/" => {
                    let (mut n, mut d) = (x, y);
                    let (mut a, mut b) = (n.unsigned_abs(), d.unsigned_abs());
                    while b != 0 {
                        (a, b) = (b, a % b);
                    }
                    let g = a as i128;
                    (n, d) = (n / g, d / g);
                    if d < 0 {
                        (n, d) = (-n, -d);
                    }
                    // An integer must fit in 64 bits; a fraction widens (issue 48).
                    match (d, i64::try_from(n)) {
                        (1, Ok(n)) => Ok(n.to_string()),
                        (1, Err(_)) => Err("cgl::eval::overflow"),
                        _ => Ok(format!("{n}/{d}")),
                    }
                }
                "div" | "%" => {
                    let q = (x - x.rem_euclid(y)) / y;
                    // Euclid's quotient is the floor for y > 0; for y < 0 the floor is one
                    // less when the division is inexact.
                    let q = if y < 0 && x.rem_euclid(y) != 0 {
                        q - 1
                    } else {
                        q
                    };
                    if *op == "div" {
                        fits(q)
                    } else {
                        fits(x - q * y)
                    }
                }
                "**" if y < 0 => Err("cgl::eval::negative_power"),
                "**" => match x {
                    0 => Ok(i64::from(y == 0).to_string()),
                    1 => Ok("1".to_string()),
                    -1 => Ok(if y % 2 == 0 { "1" } else { "-1" }.to_string()),
                    // |x| >= 2: x^64 is at least 2^64; below, repeated multiplication
                    // stays within 128 bits while the magnitude is at most 2^64.
                    _ if y >= 64 => Err(OVERFLOW),
                    _ => {
                        let mut v: i128 = 1;
                        for _ in 0..y {
                            v *= x;
                            if v.abs() > 1 << 64 {
                                return Err(OVERFLOW);
                            }
                        }
                        fits(v)
                    }
                },
                "^" => Ok((a ^ b).to_string()),
                "&" => Ok((a & b).to_string()),
                _ => Ok((a | b).to_string()),
            }
        }
        Boundary::Neg(a) => fits(-i128::from(*a)),
        Boundary::Abs(a) => fits(i128::from(*a).abs()),
        Boundary::Len(_, a, b, incl) => {
            let hi = i128::from(*b) + i128::from(*incl);
            if hi > i128::from(i64::MAX) {
                return Err(OVERFLOW);
            }
            fits((hi - i128::from(*a)).max(0))
        }
        Boundary::In(x, a, b) => Ok((a <= x && x < b).to_string()),
        Boundary::Index(len, i) => match usize::try_from(*i) {
            Ok(i) if i < *len => Ok(i.to_string()),
            _ => Err(INDEX),
        },
        Boundary::Slice(len, a, b) => {
            let (lo, hi) = (i128::from(*a), i128::from(*b).max(i128::from(*a)));
            if lo < 0 || hi > *len as i128 {
                Err(INDEX)
            } else {
                Ok(list(lo..hi))
            }
        }
        Boundary::SetAt(len, i) => match usize::try_from(*i) {
            Ok(i) if i < *len => {
                let xs: Vec<String> = (0..*len)
                    .map(|k| {
                        if k == i {
                            "7".to_string()
                        } else {
                            k.to_string()
                        }
                    })
                    .collect();
                Ok(format!("[{}]", xs.join(", ")))
            }
            _ => Err(INDEX),
        },
        Boundary::Sum(xs) => fits(xs.iter().map(|x| i128::from(*x)).sum()),
        Boundary::Mex(xs) => {
            if xs.iter().any(|x| *x < 0) {
                return Err("cgl::eval::type");
            }
            Ok((0..).find(|v| !xs.contains(v)).unwrap_or(0).to_string())
        }
    }
}

/// What cgl answers: the value printed, or the first diagnostic's code; at the top level,
/// and as a move rule's guard in compiled and interpreted rules.
fn boundary_answers(case: &Boundary) -> Vec<(String, Result<String, String>)> {
    let expr = case.text();
    let mut out = Vec::new();
    for compiled_rules in [true, false] {
        let mut s = Session::new(SessionConfig {
            limits: cgl::eval::Limits {
                compiled_rules,
                ..cgl::eval::Limits::default()
            },
            ..SessionConfig::default()
        });
        s.set_stop(Stop::after(Duration::from_secs(5)));
        let answer = s
            .eval_text(&expr, &[])
            .map(|v| s.show(&v))
            .map_err(|d| d[0].code.to_string());
        if compiled_rules {
            out.push(("top level".to_string(), answer.clone()));
        }
        // In a rule: the guard compares with the expected value (any value, when an error
        // is expected), so the move is there exactly when cgl agrees.
        let want = oracle(case).unwrap_or_else(|_| "0".to_string());
        // A fraction past 64 bits (2^63 over or under) has no literal: compare its text.
        let literal = want.split('/').all(|part| part.parse::<i64>().is_ok());
        let guard = if literal {
            format!("({expr}) == {want}")
        } else {
            format!("str({expr}) == \"{want}\"")
        };
        let source =
            format!("game G {{\n    position n\n    move n - 1 if n > 0 and {guard}\n}}\n");
        let rule = match s.load_source("b.game", &source) {
            Ok(file) => s
                .eval_text("moves(G(1))", &[file])
                .map(|v| s.show(&v))
                .map_err(|d| d[0].code.to_string()),
            Err(d) => Err(format!("does not load: {}", d[0].code)),
        };
        let engine = if compiled_rules {
            "compiled"
        } else {
            "interpreted"
        };
        out.push((format!("{engine} rule"), rule));
    }
    out
}

/// Checks one case against the oracle. In a rule, a value shows as the move `[G(0)]`.
fn check_boundary(case: &Boundary) -> Result<(), String> {
    let want = oracle(case);
    for (place, got) in boundary_answers(case) {
        let expected = match (&want, place.as_str()) {
            (Ok(v), "top level") => Ok(v.clone()),
            (Ok(_), _) => Ok("[G(0)]".to_string()),
            (Err(code), _) => Err(code.to_string()),
        };
        if got != expected {
            return Err(format!(
                "`{}` ({place}): cgl says {got:?}, but it is {expected:?}",
                case.text()
            ));
        }
    }
    Ok(())
}

/// Boundary integers in arithmetic, powers, ranges, `len`/`count`, indexes, slices, `set`,
/// `sum` and `mex`, checked against an independent 128-bit oracle, at the top level and in
/// both engines' rules. Its cases are cheap, so it takes a tenth of `CGL_FUZZ_SECONDS`.
#[test]
fn fuzz_boundary_integers() {
    let cases = env_number("CGL_FUZZ_CASES").unwrap_or(64);
    let budget = env_number("CGL_FUZZ_SECONDS").map(|s| Duration::from_secs(u64::from(s) / 10));
    let started = Instant::now();
    let mut ran = 0u32;
    while ran < cases && budget.is_none_or(|b| started.elapsed() <= b) {
        let round = (cases - ran).min(256);
        let mut runner = TestRunner::new(Config {
            cases: round,
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(&boundary_case(), |case| {
            check_boundary(&case).map_err(TestCaseError::fail)
        });
        ran += round;
        if let Err(e) = result {
            panic!("fuzz boundaries: {e}");
        }
    }
    println!("fuzz boundaries: {ran} cases in {:?}", started.elapsed());
}

/// The oracle itself, on cases whose answers are known by heart.
#[test]
fn the_boundary_oracle_knows_the_issue_cases() {
    let max = i64::MAX;
    assert_eq!(oracle(&Boundary::Bin("**", 1, max)), Ok("1".to_string()));
    assert_eq!(oracle(&Boundary::Bin("**", -1, max)), Ok("-1".to_string()));
    assert_eq!(oracle(&Boundary::Bin("**", 0, max)), Ok("0".to_string()));
    assert_eq!(
        oracle(&Boundary::Bin("**", -2, 63)),
        Ok(i64::MIN.to_string())
    );
    assert_eq!(
        oracle(&Boundary::Bin("**", 2, 63)),
        Err("cgl::eval::overflow")
    );
    assert_eq!(
        oracle(&Boundary::Bin("%", i64::MIN, -1)),
        Ok("0".to_string())
    );
    assert_eq!(oracle(&Boundary::Bin("div", -7, 2)), Ok("-4".to_string()));
    assert_eq!(oracle(&Boundary::Bin("/", -7, 2)), Ok("-7/2".to_string()));
    assert_eq!(oracle(&Boundary::Bin("/", 6, -3)), Ok("-2".to_string()));
    // A fraction past 64 bits is a value (issue 48); an integer past them is not.
    assert_eq!(
        oracle(&Boundary::Bin("/", -1, i64::MIN)),
        Ok("1/9223372036854775808".to_string())
    );
    assert_eq!(
        oracle(&Boundary::Bin("/", i64::MIN, -1)),
        Err("cgl::eval::overflow")
    );
    // ... and a rule's guard compares it by its text, which has no literal.
    check_boundary(&Boundary::Bin("/", -1, i64::MIN)).unwrap();
    assert_eq!(oracle(&Boundary::Bin("%", -7, 2)), Ok("1".to_string()));
    assert_eq!(oracle(&Boundary::Bin("%", 7, -2)), Ok("-1".to_string()));
    assert_eq!(
        oracle(&Boundary::Len("len", -1, max, false)),
        Err("cgl::eval::overflow")
    );
    assert_eq!(
        oracle(&Boundary::Len("len", 0, max, false)),
        Ok(max.to_string())
    );
    assert_eq!(
        oracle(&Boundary::Mex(vec![1 << 20, 0])),
        Ok("1".to_string())
    );
    assert!(check_boundary(&Boundary::Bin("**", 1, max)).is_ok());
}
