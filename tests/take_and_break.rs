//! Take-and-break games by code (`octal("0.77")`, `hex("0.F")`, the prelude's family) against
//! a brute force written here from the digits alone: a heap's value by the mex of its options,
//! a sum's by the mex over the sum's own moves (no XOR assumed), for a dozen codes, through
//! the theorems, the product graph (`--explicit`) and the solver without its stores
//! (`CGL_STORE=off`); outcomes of sums against the same game written as rules; a heap of a
//! million tokens; and every refusal a diagnostic.

use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{cgl, temp_dir};

/// The rule of one take-and-break code: `digits[k]` for taking `k` tokens (1: the whole heap,
/// 2: leaving one heap, 4: two heaps, 8: three heaps).
struct Rule {
    digits: Vec<u32>,
}

impl Rule {
    fn new(code: &str) -> Rule {
        let (whole, frac) = code.split_once('.').expect("a code has a point");
        let mut digits = vec![u32::from_str_radix(whole, 16).unwrap_or(0)];
        digits.extend(frac.chars().map(|c| c.to_digit(16).expect("a hex digit")));
        Rule { digits }
    }

    /// Every option of a heap of `h`, as the heaps (of one token or more) it leaves.
    fn options(&self, h: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for (k, &d) in self.digits.iter().enumerate() {
            // Taking none splits a heap (a whole digit of 4 or 8), never leaves it as it is.
            if k > h || (k == 0 && d & 3 != 0) {
                continue;
            }
            let m = h - k;
            if d & 1 != 0 && m == 0 {
                out.push(vec![]);
            }
            if d & 2 != 0 && m > 0 {
                out.push(vec![m]);
            }
            for a in 1..m {
                for b in 1..m {
                    if d & 4 != 0 && a + b == m && a <= b {
                        out.push(vec![a, b]);
                    }
                    if d & 8 != 0 && a <= b && a + b < m && b <= m - a - b {
                        out.push(vec![a, b, m - a - b]);
                    }
                }
            }
        }
        out
    }
}

fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let seen: std::collections::HashSet<u32> = values.into_iter().collect();
    (0..).find(|v| !seen.contains(v)).unwrap()
}

/// The Grundy value of a sum of heaps (sorted, no empty heap) by the mex over its moves.
fn sum_value(rule: &Rule, heaps: Vec<usize>, memo: &mut HashMap<Vec<usize>, u32>) -> u32 {
    if let Some(&v) = memo.get(&heaps) {
        return v;
    }
    let mut values = Vec::new();
    for i in 0..heaps.len() {
        if i > 0 && heaps[i] == heaps[i - 1] {
            continue;
        }
        for left in rule.options(heaps[i]) {
            let mut next: Vec<usize> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
            next.extend(left);
            next.sort_unstable();
            values.push(sum_value(rule, next, memo));
        }
    }
    let v = mex(values);
    memo.insert(heaps, v);
    v
}

/// Codes: octal games of the tables (Kayles, Dawson's Kayles, Dawson's chess, 0.16, ...) and
/// hexadecimal ones that split heaps in three.
const CODES: &[(&str, &str)] = &[
    ("octal", "0.77"),
    ("octal", "0.07"),
    ("octal", "0.137"),
    ("octal", "0.16"),
    ("octal", "0.6"),
    ("octal", "0.4"),
    ("octal", "0.51"),
    ("octal", "0.15"),
    ("octal", "0.007"),
    ("octal", "0.123"),
    ("octal", "4.07"),
    ("hex", "0.F"),
    ("hex", "0.8"),
    ("hex", "0.3F"),
    ("hex", "C.1"),
];

/// The triples of heaps asked as sums: every one of total at most 14, and a spread to 30.
fn triples() -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for a in 0..=14 {
        for b in a..=14 - a {
            for c in b..=14 - a - b {
                out.push([a, b, c]);
            }
        }
    }
    for a in (0..=30).step_by(7) {
        for b in (a..=30).step_by(5) {
            out.push([a, b, 30 - b / 2]);
        }
    }
    out
}

fn parse_list(out: &str) -> Vec<u32> {
    let inner = out.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(',')
        .map(|x| x.trim().parse().expect("a number"))
        .collect()
}

/// Runs `cgl eval` with `args` and `CGL_STORE` as given; the answer's list of numbers.
fn eval_list(store_off: bool, args: &[&str], expr: &str) -> Vec<u32> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cgl"));
    cmd.arg("eval").args(args).arg(expr);
    if store_off {
        cmd.env("CGL_STORE", "off");
    }
    let out = cmd.output().expect("cgl runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{expr}: {stderr}");
    parse_list(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn heaps_and_sums_are_the_brute_forces_values() {
    let triples = triples();
    let listed = triples
        .iter()
        .map(|[a, b, c]| format!("({a}, {b}, {c})"))
        .collect::<Vec<_>>()
        .join(", ");
    for &(family, code) in CODES {
        let rule = Rule::new(code);
        let mut memo = HashMap::new();
        let single: Vec<u32> = (0..=30)
            .map(|h| sum_value(&rule, if h == 0 { vec![] } else { vec![h] }, &mut memo))
            .collect();
        // A sum's value by the brute force over its own moves where the sum is small, by the
        // XOR of the single heaps' (the brute force's, checked against the same moves below)
        // past it.
        let want: Vec<u32> = triples
            .iter()
            .map(|t| {
                if t.iter().sum::<usize>() <= 14 {
                    let mut heaps: Vec<usize> = t.iter().copied().filter(|&h| h > 0).collect();
                    heaps.sort_unstable();
                    sum_value(&rule, heaps, &mut memo)
                } else {
                    t.iter().fold(0, |x, &h| x ^ single[h])
                }
            })
            .collect();
        let g = format!("{family}(\"{code}\")");
        let heaps = format!("[grundy({g}(n)) for n in 0..=30]");
        let sums = format!("[grundy({g}(t[0]) + {g}(t[1]) + {g}(t[2])) for t in [{listed}]]");
        for (store_off, args) in [
            (false, &[][..]),
            (false, &["--explicit"][..]),
            (true, &[][..]),
        ] {
            let engine = format!("{args:?}, CGL_STORE=off: {store_off}");
            assert_eq!(
                eval_list(store_off, args, &heaps),
                single,
                "{g} heaps ({engine})"
            );
            // The product graph of a sum of three heaps of 30 is large: it is asked of the
            // small sums only.
            let asked = if args.is_empty() {
                sums.clone()
            } else {
                let small: Vec<String> = triples
                    .iter()
                    .filter(|t| t.iter().sum::<usize>() <= 14)
                    .map(|[a, b, c]| format!("({a}, {b}, {c})"))
                    .collect();
                format!(
                    "[grundy({g}(t[0]) + {g}(t[1]) + {g}(t[2])) for t in [{}]]",
                    small.join(", ")
                )
            };
            let got = eval_list(store_off, args, &asked);
            assert_eq!(got, want[..got.len()], "{g} sums ({engine})");
        }
    }
}

/// Heaps by code beside the games of `octal.rs` written as rules, for mixed sums.
const BY_CODE: &str = "
const K = octal(\"0.77\")
const DC = octal(\".137\")
";

#[test]
fn outcomes_and_moves_agree_with_the_rules() {
    let dir = temp_dir("take-and-break");
    let file = dir.join("rules.game");
    std::fs::write(&file, format!("{}{BY_CODE}", crate::octal::RULES)).unwrap();
    let file = file.display().to_string();
    for expr in [
        // Normal play: every sum of a heap by code and a heap by rules.
        "all(outcome(K(a) + DawsonChess(b)) == outcome(Kayles(a) + DC(b)) for a in 0..25 for b in 0..25)",
        // Misère play searches the heap's own options.
        "all(outcome(misere(K(a) + K(b))) == outcome(misere(Kayles(a) + Kayles(b))) for a in 0..9 for b in 0..9)",
        "all(misere_outcome(\"0.77\", [a, b]) == outcome(misere(K(a) + K(b))) for a in 0..9 for b in 0..9)",
        // The moves of a heap are the rules' moves, as numbers of tokens.
        "all(len(moves(K(n))) == len(moves(Kayles(n))) for n in 0..40)",
        // The same code read either way is one game; its period is the proved one.
        "octal(\".77\") == octal(\"0.77\") and hex(\"0.77\") == K and period(K) == (71, 12)",
        "period(octal(\"0.07\")) == (53, 34)",
        // A winning move from a sum of heaps reaches a P-position.
        "all(outcome(m) == P for m in winning_moves(K(10) + K(7) + K(4)))",
    ] {
        let (status, out, err) = cgl(&["eval", "-f", &file, expr]);
        assert_eq!((status, out.trim()), (0, "true"), "{expr}: {err}");
    }
}

/// A heap of a million tokens is answered from the proved period, at once.
#[test]
fn a_million_token_heap_is_read_off_its_period() {
    let started = Instant::now();
    // Kayles: G(n + 12) = G(n) from n = 71, so G(10^6) = G(71 + (10^6 - 71) % 12) = G(76).
    let (status, out, err) = cgl(&[
        "eval",
        "grundy(octal(\"0.77\")(1000000)) == octal_values(\"0.77\", 76)[76] \
         and outcome(octal(\"0.77\")(1000000) + octal(\"0.77\")(999999) + octal(\"0.07\")(4000000)) \
         == outcome(octal(\"0.77\")(76) + octal(\"0.77\")(75) + octal(\"0.07\")(53 + (4000000 - 53) % 34))",
    ]);
    assert_eq!((status, out.trim()), (0, "true"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn refusals_are_diagnostics() {
    for (expr, code, args) in [
        ("octal(\"0.8\")", "cgl::eval::octal_code", &[][..]),
        ("octal(\"077\")", "cgl::eval::octal_code", &[]),
        ("hex(7)", "cgl::eval::type", &[]),
        ("octal(\"0.77\")(5000000)", "cgl::eval::too_large", &[]),
        ("octal(\"0.77\")(-1)", "cgl::eval::too_large", &[]),
        ("octal(\"0.77\")(\"a\")", "cgl::eval::type", &[]),
        ("octal(\"0.77\")(1, 2)", "cgl::eval::type", &[]),
        ("grundy(hex(\"0.8\")(3000))", "cgl::eval::too_large", &[]),
        ("octal_moves(\"0.77\", -2)", "cgl::eval::too_large", &[]),
        (
            "moves(octal(\"0.77\")(4000000))",
            "cgl::eval::too_large",
            &["--max-items", "1000"],
        ),
        (
            "grundy(octal(\"0.16\")(4000000))",
            "cgl::limit::timeout",
            &["--timeout", "0.3"],
        ),
        // Millions of options, each a split in three: the deadline stops the list.
        (
            "len(octal_moves(\"0.F\", 20000))",
            "cgl::limit::timeout",
            &["--timeout", "0.5"],
        ),
        // Misère play searches a heap's eight million options: the deadline stops it too.
        (
            "outcome(misere(octal(\"0.77\")(4194304)))",
            "cgl::limit::timeout",
            &["--timeout", "0.5"],
        ),
        // The code is set by `octal`/`hex` only, checked and normalised there.
        (
            "octal(\"0.77\")[code = \".77\"]",
            "cgl::eval::unknown_param",
            &[],
        ),
        ("octal(\"0.77\").start", "cgl::eval::no_start", &[]),
    ] {
        let mut argv = vec!["eval"];
        argv.extend_from_slice(args);
        argv.push(expr);
        let started = Instant::now();
        let (status, _, err) = cgl(&argv);
        assert_eq!(status, 1, "{expr}: {err}");
        assert!(err.contains(code) && err.contains("help"), "{expr}: {err}");
        // The prelude's game is no name a user can write: diagnostics name the game by code.
        assert!(!err.contains("TakeAndBreak"), "{expr}: {err}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{expr}: {:?}",
            started.elapsed()
        );
    }
    let (status, _, err) = cgl(&["eval", "outcome(octal(\"0.77\"))"]);
    assert_eq!(status, 1);
    assert!(
        err.contains("`octal(\"0.77\")(...)`") && !err.contains("TakeAndBreak"),
        "{err}"
    );
    // Every digit prints in hexadecimal, the one before the point too.
    let (_, out, err) = cgl(&["eval", "hex(\"c.1\")"]);
    assert_eq!(out.trim(), "hex(\"C.1\")", "{err}");
}
