//! A fuzzer that runs on stable Rust (cargo-fuzz needs nightly): proptest generates inputs
//! and each goes through the library the way `cgl check` takes a file (parse, lower, every
//! `print` and `expect`, rendering each diagnostic, the values of failed expectations), with a
//! small position limit and a short deadline. Wrong input is expected to fail; the fuzzer
//! fails only on a panic, an `cgl::internal` diagnostic, or a case that runs far past its
//! deadline (a hang), as starlark-rust's fuzz target does.
//!
//! Two generators: token soups (random sequences of cgl's tokens, after a valid game half
//! the time) and mutated examples (tokens and lines of `examples/*.game` deleted, duplicated,
//! swapped or inserted, or a window of lines cut out).
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
use cgl::eval::Stop;
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
    let started = Instant::now();
    // On a thread with the stack the CLI gives evaluation (a test thread's 2 MiB are too
    // little for the nesting limits of spec §12).
    let owned = text.to_string();
    let result = std::thread::Builder::new()
        .stack_size(512 << 20)
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
    let config = SessionConfig {
        graph: GraphConfig {
            max_positions: 2_000,
            explicit,
            ..GraphConfig::default()
        },
        ..SessionConfig::default()
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
                    Statement::Expect(body) => {
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
            check_source(&text, explicit).map_err(TestCaseError::fail)
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
                "+", "-", "*", "/", "%", "**", "^", "&", "|", "==", "!=", "<", "<=", ">", ">=",
                "and", "or", "in", "not in", "is", "..", "..=",
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
