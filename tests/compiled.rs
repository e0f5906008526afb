//! Compiled move rules against the interpreter.
//!
//! Random games whose rules lie in the integer fragment (ranges, arithmetic with every
//! operator, `min`/`max`/`abs`/`popcount`/`bits`/`normalize`/`if`, guards, integer, tuple,
//! `split` and `split(list)` targets (the regions of a bit-mask board among them), literals large
//! enough to overflow and divisors that may be 0) are loaded three times: with compiled rules,
//! with the interpreter only (`Limits { compiled_rules: false }`), and with the interpreter
//! and explicit products (the general solver instead of the streaming one). The moves,
//! Grundy values and outcomes of small positions must be the same, and so must every error,
//! to the letter, between the compiled and the interpreted rules. The general solver may
//! report an error deeper in the game where the streaming one, having found a move to a
//! P-position, has no need to look.

use cgl::eval::Limits;
use cgl::graph::GraphConfig;
use cgl::session::{Session, SessionConfig};
use proptest::prelude::*;

/// An integer expression over the variables in scope.
#[derive(Clone, Debug)]
enum E {
    Var(usize),
    Lit(i64),
    Bin(&'static str, Box<E>, Box<E>),
    Neg(Box<E>),
    Call(&'static str, Vec<E>),
    If(Box<E>, &'static str, Box<E>, Box<E>, Box<E>),
}

impl E {
    fn text(&self, vars: &[&str]) -> String {
        match self {
            E::Var(i) => vars[i % vars.len()].to_string(),
            E::Lit(n) if *n < 0 => format!("({n})"),
            E::Lit(n) => n.to_string(),
            E::Bin(op, a, b) => format!("({} {op} {})", a.text(vars), b.text(vars)),
            E::Neg(a) => format!("-{}", a.text(vars)),
            E::Call(f, args) => format!(
                "{f}({})",
                args.iter()
                    .map(|a| a.text(vars))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            E::If(l, cmp, r, t, f) => format!(
                "(if {} {cmp} {} then {} else {})",
                l.text(vars),
                r.text(vars),
                t.text(vars),
                f.text(vars)
            ),
        }
    }
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        4 => (0usize..4).prop_map(E::Var),
        3 => (-2i64..=6).prop_map(E::Lit),
        1 => prop::sample::select(vec![i64::MAX, i64::MIN + 1, 1 << 62, 3_037_000_500])
            .prop_map(E::Lit),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        let op = prop::sample::select(vec!["+", "-", "*", "div", "%", "**", "^", "&", "|"]);
        let cmp = prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]);
        prop_oneof![
            4 => (op, inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| E::Bin(op, Box::new(a), Box::new(b))),
            1 => inner.clone().prop_map(|a| E::Neg(Box::new(a))),
            1 => (prop::sample::select(vec!["min", "max"]), prop::collection::vec(inner.clone(), 2..=3))
                .prop_map(|(f, args)| E::Call(f, args)),
            1 => inner.clone().prop_map(|a| E::Call("abs", vec![a])),
            1 => (prop::sample::select(vec!["popcount", "bits"]), inner.clone())
                .prop_map(|(f, a)| E::Call(f, vec![a])),
            1 => prop::collection::vec(inner.clone(), 2..=3).prop_map(|args| E::Call("normalize", args)),
            1 => (inner.clone(), cmp, inner.clone(), inner.clone(), inner)
                .prop_map(|(l, c, r, t, f)| E::If(Box::new(l), c, Box::new(r), Box::new(t), Box::new(f))),
        ]
    })
}

/// One move rule: its target's expressions, its loops' bounds, an optional extra guard.
#[derive(Clone, Debug)]
struct Rule {
    /// 1 expression: a plain target; 2: `split(x, y)` (or a pair for pair positions); 3:
    /// `split(x, y, z)`.
    target: Vec<E>,
    /// Bounds of `for i in lo..hi` (and `for j in ...` when there are two), inclusive or not.
    loops: Vec<(E, E, bool)>,
    guard: Option<(E, &'static str, E)>,
    /// A plain position's target of one expression `x` as the regions of `n - 1` on a board
    /// of width `1 + x % 3`, normalized (2); of two or three, as `split([x, y, ...])` (1) or
    /// `pieces(x, y)`, a call whose body is a `split` (2, 3); else as above.
    list_split: u8,
}

#[derive(Clone, Debug)]
pub(crate) struct Game {
    /// Positions are pairs `(a, b)` rather than one integer `n`.
    pair: bool,
    rules: Vec<Rule>,
}

impl Game {
    pub(crate) fn source(&self) -> String {
        let mut out = String::from("fn pieces(x, y) = split(x, y)\ngame G {\n");
        out.push_str(if self.pair {
            "    position (a, b)\n"
        } else {
            "    position n\n"
        });
        for rule in &self.rules {
            let mut vars: Vec<&str> = if self.pair { vec!["a", "b"] } else { vec!["n"] };
            let mut clauses = Vec::new();
            for (k, (lo, hi, incl)) in rule.loops.iter().enumerate() {
                let name = ["i", "j"][k];
                clauses.push(format!(
                    "for {name} in {}{}{}",
                    lo.text(&vars),
                    if *incl { "..=" } else { ".." },
                    hi.text(&vars)
                ));
                vars.push(name);
            }
            if let Some((l, cmp, r)) = &rule.guard {
                clauses.push(format!("if {} {cmp} {}", l.text(&vars), r.text(&vars)));
            }
            let parts: Vec<String> = rule.target.iter().map(|e| e.text(&vars)).collect();
            // Every part is smaller than the position, so play ends.
            let (target, bound) = if self.pair {
                let (x, y) = (&parts[0], parts.get(1).unwrap_or(&parts[0]));
                (
                    format!("({x}, {y})"),
                    format!(
                        "0 <= {x} and 0 <= {y} and {x} <= a and {y} <= b and {x} + {y} < a + b"
                    ),
                )
            } else if rule.list_split == 2 && parts.len() == 1 {
                let (x, y) = (&parts[0], parts.get(1).unwrap_or(&parts[0]));
                (
                    format!(
                        "split([normalize(r, 1 + {x} % 3, {y} % 4) for r in regions(n - 1, 1 + {x} % 3) if popcount(r) > 1])"
                    ),
                    "n > 0".to_string(),
                )
            } else if parts.len() == 1 {
                (parts[0].clone(), format!("0 <= {0} and {0} < n", parts[0]))
            } else if rule.list_split > 0 {
                let target = if rule.list_split == 1 {
                    format!("split([{}])", parts.join(", "))
                } else {
                    format!("pieces({}, {})", parts[0], parts[1])
                };
                (
                    target,
                    parts
                        .iter()
                        .map(|p| format!("0 <= {p} and {p} < n"))
                        .collect::<Vec<_>>()
                        .join(" and "),
                )
            } else {
                (
                    format!("split({})", parts.join(", ")),
                    parts
                        .iter()
                        .map(|p| format!("0 <= {p} and {p} < n"))
                        .collect::<Vec<_>>()
                        .join(" and "),
                )
            };
            clauses.push(format!("if {bound}"));
            out.push_str(&format!("    move {target} {}\n", clauses.join(" ")));
        }
        out.push_str("}\n");
        out
    }

    fn positions(&self) -> Vec<String> {
        if self.pair {
            (0..4)
                .flat_map(|a| (0..4).map(move |b| format!("G({a}, {b})")))
                .collect()
        } else {
            (0..10).map(|n| format!("G({n})")).collect()
        }
    }
}

fn rule() -> impl Strategy<Value = Rule> {
    let bound = (expr(), expr(), any::<bool>());
    let small = (0i64..3).prop_map(E::Lit);
    let var_bound = (small, (0usize..2).prop_map(E::Var), any::<bool>());
    let loops = prop_oneof![
        3 => prop::collection::vec(var_bound, 1..=2),
        1 => prop::collection::vec(bound, 1..=2),
    ];
    let cmp = prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]);
    (
        prop::collection::vec(expr(), 1..=3),
        loops,
        prop::option::weighted(0.4, (expr(), cmp, expr())),
        0u8..4,
    )
        .prop_map(|(target, loops, guard, list_split)| Rule {
            target,
            loops,
            guard,
            list_split,
        })
}

pub(crate) fn game() -> impl Strategy<Value = Game> {
    (
        prop::bool::weighted(0.3),
        prop::collection::vec(rule(), 1..=3),
    )
        .prop_map(|(pair, rules)| Game { pair, rules })
}

fn session(compiled_rules: bool, explicit: bool) -> Session {
    Session::new(SessionConfig {
        graph: GraphConfig {
            explicit,
            max_positions: 20_000,
            ..GraphConfig::default()
        },
        limits: Limits {
            compiled_rules,
            max_collection: 10_000,
            ..Limits::default()
        },
    })
}

/// Each query's result: the printed value, or every diagnostic in full.
fn answers(compiled_rules: bool, explicit: bool, game: &Game) -> Vec<Result<String, String>> {
    let mut s = session(compiled_rules, explicit);
    let file = s
        .load_source("g.game", &game.source())
        .unwrap_or_else(|d| panic!("does not load: {d:?}\n{}", game.source()));
    if compiled_rules {
        let rules = &s.compiled().games[0].rules;
        assert!(
            rules.iter().all(Option::is_some),
            "a rule of the integer fragment was not compiled:\n{}",
            game.source()
        );
    }
    let mut out = Vec::new();
    for p in game.positions() {
        for query in ["moves", "grundy", "outcome"] {
            let text = format!("{query}({p})");
            out.push(match s.eval_text(&text, &[file]) {
                Ok(v) => Ok(s.show(&v)),
                Err(diags) => Err(format!("{diags:?}")),
            });
        }
    }
    out
}

/// Only the diagnostic's code: the general solver may meet a different failing position
/// first than the streaming one does.
fn codes(answers: &[Result<String, String>]) -> Vec<Result<String, String>> {
    answers
        .iter()
        .map(|a| match a {
            Ok(v) => Ok(v.clone()),
            Err(d) => Err(d
                .split("code: \"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or("")
                .to_string()),
        })
        .collect()
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(128)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Compiled and interpreted rules give the same moves, values and errors.
    #[test]
    fn compiled_rules_agree_with_the_interpreter(game in game()) {
        let compiled = answers(true, false, &game);
        let interpreted = answers(false, false, &game);
        prop_assert_eq!(&compiled, &interpreted, "\n{}", game.source());
        // The general solver solves every option; the streaming one stops solving a
        // position's options once one leads to P, so it may answer an outcome where the
        // general one meets an error further down. The general solver interns every sum that
        // a split makes, so it may run out of positions where the streaming one does not.
        // Where a game has positions with different errors, the two solvers, which visit
        // positions in different orders (the streaming one goes down the first option before
        // it generates the next; the general one interns all of a position's options first),
        // may meet different ones first: each must then be an error that the other solver
        // also reports for some query. Everywhere else they agree.
        let streamed = codes(&compiled);
        let general = codes(&answers(false, true, &game));
        let raised = |answers: &[Result<String, String>], code: &String| {
            answers.iter().any(|a| a.as_ref().err() == Some(code))
        };
        for (i, (stream, general_answer)) in streamed.iter().zip(&general).enumerate() {
            let outcome_query = i % 3 == 2;
            let pruned = outcome_query && stream.is_ok() && general_answer.is_err();
            let fewer_positions = stream.is_ok()
                && general_answer.as_ref().err().is_some_and(|c| c == "cgl::graph::too_many_positions");
            let other_error_first = match (stream, general_answer) {
                (Err(a), Err(b)) => raised(&general, a) && raised(&streamed, b),
                _ => false,
            };
            let general = general_answer;
            if !pruned && !fewer_positions && !other_error_first {
                prop_assert_eq!(stream, general, "query {}\n{}", i, game.source());
            }
        }
    }
}

/// A rule that overflows after some options were emitted: the compiled rule hands over to the
/// interpreter, which reports the overflow where it happens, with nothing visited twice.
#[test]
fn an_overflow_midway_is_reported_as_the_interpreter_reports_it() {
    let source =
        "game G {\n    position n\n    move split(i, 4611686018427387904 * (i + 1)) for i in 0..n\n}\n";
    let run = |compiled_rules| {
        let mut s = session(compiled_rules, false);
        let file = s
            .load_source("g.game", source)
            .unwrap_or_else(|d| panic!("{d:?}"));
        assert!(s.compiled().games[0].rules[0].is_some());
        let moves = s.eval_text("moves(G(3))", &[file]);
        let err = moves.map(|v| s.show(&v)).unwrap_err();
        format!("{err:?}")
    };
    let compiled = run(true);
    assert!(compiled.contains("cgl::eval::overflow"), "{compiled}");
    assert_eq!(compiled, run(false));
}

/// No game is special: Kayles renamed, with its rules in the other order, its variable
/// renamed and a guard that changes nothing, compiles the same way and gives the same values
/// (the benchmark suite times the plain form; this one takes the same paths).
#[test]
fn a_game_written_differently_takes_the_same_paths() {
    let plain = "game Kayles {\n    position n\n    move split(i, n - 1 - i) for i in 0..n\n    \
                 move split(i, n - 2 - i) for i in 0..n - 1\n}\n";
    let other = "game Pins {\n    position row\n    \
                 move split(k, row - k - 2) for k in 0..row - 1 if k >= 0\n    \
                 move split(row - 1 - k, k) for k in 0..row\n}\n";
    let values = |source: &str, name: &str| {
        let mut s = session(true, false);
        let file = s
            .load_source("g.game", source)
            .unwrap_or_else(|d| panic!("{d:?}"));
        assert!(s.compiled().games[0].rules.iter().all(Option::is_some));
        let v = s
            .eval_text(&format!("[grundy({name}(n)) for n in 0..300]"), &[file])
            .unwrap_or_else(|d| panic!("{d:?}"));
        s.show(&v)
    };
    assert_eq!(values(plain, "Kayles"), values(other, "Pins"));
}

/// Grundy values past 64 and past 256: the streaming solver gathers a block's option values
/// one way while every known value is below 64, another below 256, a third beyond. A heap
/// game whose values grow with the heap (Lasker's Nim: take any number, or split a heap in
/// two) crosses both bounds, and must agree at every heap with its interpreted rules (whose
/// options come one at a time, not in blocks).
#[test]
fn grundy_values_past_64_and_256_agree_with_the_general_solver() {
    let source = "game Lasker {\n    position n\n    move k for k in 0..n\n    \
                  move split(a, n - a) for a in 1..n if 2 * a <= n\n}\n";
    let values = |compiled_rules: bool, explicit: bool| {
        let mut s = session(compiled_rules, explicit);
        let file = s
            .load_source("g.game", source)
            .unwrap_or_else(|d| panic!("{d:?}"));
        let v = s
            .eval_text("[grundy(Lasker(n)) for n in 0..330]", &[file])
            .unwrap_or_else(|d| panic!("{d:?}"));
        s.show(&v)
    };
    let fast = values(true, false);
    assert!(fast.contains("329"), "the values do not pass 256: {fast}");
    assert_eq!(fast, values(false, false));
}

/// Heap splits whose parts are affine in the loop's variable, which the compiled rules hand
/// to the streaming solver whole (`Emitted::Affine`: one pass over the table of values),
/// against a brute force written here: parts running up and down, in either order, three
/// parts, parts below 0 (positions off the table, which go the general way), a guard the
/// range is cut by, and queries from the bottom (every part solved) and from the top and in
/// reverse (parts not solved yet when first scanned).
#[test]
fn affine_heap_splits_agree_with_a_brute_force() {
    type Parts = fn(i64) -> Vec<Vec<i64>>;
    let games: [(&str, &str, Parts); 5] = [
        (
            "K",
            "move split(i, n - 1 - i) for i in 0..n\n move split(i, n - 2 - i) for i in 0..n - 1",
            |n| {
                let one = (0..n).map(|i| vec![i, n - 1 - i]);
                one.chain((0..n - 1).map(|i| vec![i, n - 2 - i])).collect()
            },
        ),
        ("Rev", "move split(n - 1 - i, i) for i in 0..n", |n| {
            (0..n).map(|i| vec![n - 1 - i, i]).collect()
        }),
        ("Shift", "move split(i - 3, n - 1 - i) for i in 0..n", |n| {
            (0..n).map(|i| vec![i - 3, n - 1 - i]).collect()
        }),
        (
            "Three",
            "move split(i, 2 * i, n - 1 - 3 * i) for i in 0..n if 3 * i < n",
            |n| {
                (0..n)
                    .filter(|i| 3 * i < n)
                    .map(|i| vec![i, 2 * i, n - 1 - 3 * i])
                    .collect()
            },
        ),
        (
            "G",
            "move split(i, n - i) for i in 1..n if 2 * i < n",
            |n| {
                (1..n)
                    .filter(|i| 2 * i < n)
                    .map(|i| vec![i, n - i])
                    .collect()
            },
        ),
    ];
    const N: i64 = 160;
    for (name, rules, parts) in games {
        // Brute force: Grundy values by the definition, a heap below 1 having no move.
        let mut g: std::collections::HashMap<i64, u64> = std::collections::HashMap::new();
        for n in -3..=N {
            let options: std::collections::BTreeSet<u64> = parts(n)
                .iter()
                .map(|ps| ps.iter().map(|p| g[p]).fold(0, |a, b| a ^ b))
                .collect();
            g.insert(n, (0..).find(|v| !options.contains(v)).unwrap());
        }
        let want: Vec<String> = (0..=N).map(|n| g[&n].to_string()).collect();
        let want = format!("[{}]", want.join(", "));
        let source = format!("game {name} {{\n position n\n {rules}\n}}\n");
        for query in [
            format!("[grundy({name}(n)) for n in 0..={N}]"),
            format!("reversed([grundy({name}(n)) for n in reversed(list(0..={N}))])"),
        ] {
            let mut session = session(true, false);
            let file = session.load_source("affine.game", &source).unwrap();
            // From the top first: its parts are solved as the scan finds them missing.
            let top = session
                .eval_text(&format!("grundy({name}({N}))"), &[file])
                .unwrap();
            assert_eq!(session.show(&top), g[&N].to_string(), "{name}({N})");
            let got = session.eval_text(&query, &[file]).unwrap();
            assert_eq!(session.show(&got), want, "{name}: {query}");
        }
    }
}

/// Games on pairs whose moves are affine rays (Wythoff's), whose outcomes the streaming
/// solver reads from its table of pair outcomes along the ray (`Emitted::Affine`), against a
/// brute force written here; `Skew`'s rays leave the table (negative parts), where the
/// options go the general way.
#[test]
fn affine_pair_rays_agree_with_a_brute_force() {
    type Options = fn(i64, i64) -> Vec<(i64, i64)>;
    let games: [(&str, &str, Options); 2] = [
        (
            "Wyt",
            "move (a - k, b) for k in 1..=a\n move (a, b - k) for k in 1..=b\n move (a - k, b - k) for k in 1..=min(a, b)",
            |a, b| {
                let rows = (1..=a).map(move |k| (a - k, b));
                let cols = (1..=b).map(move |k| (a, b - k));
                let diag = (1..=a.min(b)).map(move |k| (a - k, b - k));
                rows.chain(cols).chain(diag).collect()
            },
        ),
        (
            "Skew",
            "move (a - k, b - 3 * k) for k in 1..=a\n move (a, b - k) for k in 1..=b",
            |a, b| {
                let skew = (1..=a).map(move |k| (a - k, b - 3 * k));
                skew.chain((1..=b).map(move |k| (a, b - k))).collect()
            },
        ),
    ];
    const N: i64 = 40;
    for (name, rules, options) in games {
        fn p(
            a: i64,
            b: i64,
            options: Options,
            memo: &mut std::collections::HashMap<(i64, i64), bool>,
        ) -> bool {
            if let Some(&v) = memo.get(&(a, b)) {
                return v;
            }
            let v = !options(a, b)
                .into_iter()
                .any(|(x, y)| p(x, y, options, memo));
            memo.insert((a, b), v);
            v
        }
        let mut memo = std::collections::HashMap::new();
        let mut want = Vec::new();
        for a in 0..N {
            for b in 0..N {
                if p(a, b, options, &mut memo) {
                    want.push(format!("({a}, {b})"));
                }
            }
        }
        let want = format!("[{}]", want.join(", "));
        let source = format!("game {name} {{\n position (a, b)\n {rules}\n}}\n");
        let top = if p(N - 1, N - 1, options, &mut memo) {
            "P"
        } else {
            "N"
        };
        let mut session = session(true, false);
        let file = session.load_source("rays.game", &source).unwrap();
        let got = session
            .eval_text(&format!("outcome({name}({}, {}))", N - 1, N - 1), &[file])
            .unwrap();
        assert_eq!(session.show(&got), top, "{name} from the top");
        let query = format!("[(a, b) for a in 0..{N}, b in 0..{N} if {name}(a, b) is P]");
        let got = session.eval_text(&query, &[file]).unwrap();
        assert_eq!(session.show(&got), want, "{name}");
    }
}
