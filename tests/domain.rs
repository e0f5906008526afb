//! The inference of the box of integer and pair positions (issue 19,
//! `eval::compiled::position_ranges`): on random small games, every position reachable (found
//! by asking `moves` of each, in the interpreter's terms) lies in the box whenever one is
//! inferred; games that count up without a bound infer none; and the answers are the same
//! with the box tables on and off (`CGL_DENSE=off`).

use cgl::eval::compiled::position_ranges;
use cgl::session::{Session, SessionConfig};

use crate::common::{root, temp_dir, wait_with_timeout};

/// An inferred box (an interval per component) and the positions found.
type Explored = (Option<Vec<(i64, i64)>>, Vec<Vec<i64>>);

/// A game, its first position, and the box expected (`None`: none inferred).
type Case<'a> = (&'a str, &'a [i64], Option<&'a [(i64, i64)]>);

/// A tiny deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A random game `G` of integer positions (`pair`: of pairs) with arithmetic moves.
fn random_game(rng: &mut Rng, pair: bool) -> String {
    let mut rules = String::new();
    for _ in 0..1 + rng.below(3) {
        let rule = if pair {
            rng.pick(&[
                "move (a - k, b) for k in 1..=a",
                "move (a, b - k) for k in 1..=b",
                "move (a - k, b - k) for k in 1..=min(a, b)",
                "move (a - 1, b) if a > 0",
                "move (b, a)",
                "move (a - k, b + 1) for k in 1..=a if b < 3",
                "move (a div 2, b) if a > 1",
                "move (a - 2, b - 1) if a >= 2 and b >= 1",
            ])
        } else {
            rng.pick(&[
                "move n - k for k in 1..=n",
                "move n - k for k in 1..=3 if n - k >= -4",
                "move split(i, n - 1 - i) for i in 0..n",
                "move n div 2 if n > 1",
                "move n % 3 if n > 2",
                "move -n if n > 0",
                "move if n > 5 then n - 5 else n - 1 if n > 0",
                "move n + 1 if n < 7",
                "move min(n - 1, 4) if n > 0",
                "move 2 * n - 3 if n > 3 and n < 6",
            ])
        };
        rules.push_str("    ");
        rules.push_str(rule);
        rules.push('\n');
    }
    let position = if pair { "(a, b)" } else { "n" };
    format!("game G {{\n    position {position}\n    loopy\n{rules}}}\n")
}

/// The components of every `G(...)` in `shown`.
fn positions_in(shown: &str) -> Vec<Vec<i64>> {
    shown
        .split("G(")
        .skip(1)
        .map(|rest| {
            let inner = &rest[..rest.find(')').expect("a closing parenthesis")];
            inner
                .split(',')
                .map(|x| {
                    x.trim()
                        .trim_matches(|c| c == '(' || c == ')')
                        .parse::<i64>()
                })
                .map(|x| x.unwrap_or_else(|_| panic!("an integer in {inner}")))
                .collect()
        })
        .collect()
}

/// The box inferred for `source`'s game `G` from `first`, and the positions reachable from
/// it (at most `cap`).
fn infer_and_explore(source: &str, first: &[i64], cap: usize) -> Explored {
    let mut session = Session::new(SessionConfig::default());
    let file = session
        .load_source("g.game", source)
        .expect("the game loads");
    let program = session.program();
    let g = program.games.iter().position(|g| g.name == "G").unwrap();
    let ranges = position_ranges(&session.compiled().games[g], &program.games[g], &[], first);
    let mut seen = vec![first.to_vec()];
    let mut i = 0;
    while i < seen.len() && seen.len() < cap {
        let args: Vec<String> = seen[i].iter().map(|x| x.to_string()).collect();
        let value = session
            .eval_text(&format!("moves(G({}))", args.join(", ")), &[file])
            .unwrap_or_else(|d| panic!("{source}: {d:?}"));
        for p in positions_in(&session.show(&value)) {
            if !seen.contains(&p) {
                seen.push(p);
            }
        }
        i += 1;
    }
    (ranges, seen)
}

#[test]
fn every_reachable_position_is_in_the_inferred_box() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut inferred = 0;
    for case in 0..80 {
        let pair = case % 2 == 1;
        let source = random_game(&mut rng, pair);
        let first: Vec<i64> = if pair {
            vec![rng.below(9) as i64, rng.below(5) as i64]
        } else {
            vec![rng.below(12) as i64]
        };
        let (ranges, seen) = infer_and_explore(&source, &first, 400);
        let Some(ranges) = ranges else { continue };
        inferred += 1;
        for p in &seen {
            for (x, (lo, hi)) in p.iter().zip(&ranges) {
                assert!(
                    lo <= x && x <= hi,
                    "{source}from {first:?}: {p:?} is outside {ranges:?}"
                );
            }
        }
    }
    // The inference is not vacuous.
    assert!(inferred >= 40, "only {inferred} of 80 games inferred a box");
}

#[test]
fn known_games_get_their_exact_box_and_unbounded_ones_none() {
    let cases: &[Case] = &[
        ("game G { position n\n move n - k for k in 1..=n }", &[20], Some(&[(0, 20)])),
        ("game G { position n\n move split(i, n - 1 - i) for i in 0..n }", &[9], Some(&[(0, 9)])),
        ("game G { position n\n move split(i, n - i) for i in 1..n if 2 * i < n }", &[9], Some(&[(1, 9)])),
        ("game G { position n\n move n - k for k in 1..=3 if n - k >= -50 }", &[0], Some(&[(-50, 0)])),
        ("game G { position n\n loopy\n move n + 1 if n < 10 }", &[0], Some(&[(0, 10)])),
        (
            "game G { position (a, b)\n move (a - k, b) for k in 1..=a\n move (a - k, b - k) for k in 1..=min(a, b) }",
            &[40, 70],
            Some(&[(0, 40), (0, 70)]),
        ),
        // Refusals: counting up without a bound, a product, a built-in, a list target.
        ("game G { position n\n loopy\n move n + 1 }", &[0], None),
        ("game G { position n\n loopy\n move n * 2 if n > 0 }", &[1], None),
        ("game G { position n\n move popcount(n) if n > 1 }", &[5], None),
        ("game G { position n\n move [n] if n > 0 }", &[5], None),
    ];
    for (source, first, want) in cases {
        let (got, _) = infer_and_explore(source, first, 1);
        assert_eq!(got.as_deref(), *want, "{source}");
    }
}

/// Runs `cgl eval` with the box tables `on` or off; the output and exit code.
fn eval(file: &std::path::Path, expr: &str, on: bool) -> (i32, String) {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(["eval", "--threads", "1", "-f"])
        .arg(file)
        .arg(expr)
        .env("CGL_DENSE", if on { "on" } else { "off" })
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let (code, out, err) = wait_with_timeout(child, std::time::Duration::from_secs(60), "cgl eval");
    (code, format!("{out}{err}"))
}

#[test]
fn answers_are_the_same_with_box_tables_on_and_off() {
    let mut rng = Rng(12345);
    let dir = temp_dir("domain-onoff");
    for case in 0..8 {
        let pair = case % 2 == 1;
        let source = random_game(&mut rng, pair);
        let file = dir.join(format!("g{case}.game"));
        std::fs::write(&file, &source).unwrap();
        let expr = if pair {
            "[outcome(G(a, b)) for a in 0..6, b in 0..4]"
        } else {
            "[outcome(G(n)) for n in -3..9]"
        };
        assert_eq!(
            eval(&file, expr, true),
            eval(&file, expr, false),
            "{source}"
        );
    }
}
