//! Every numeric operator on integers and rationals at the boundaries of 64 bits, against
//! Python's `fractions.Fraction` as the oracle: the answer is the exact result when it is an
//! integer that fits in 64 bits or a fraction of at most 2^20 bits over 2^20 bits (issue
//! "Strategic II", item 1: fractions widen), `cgl::eval::overflow` otherwise, never a false
//! refusal (see: issue "Reliability III", finding 1, where `x - x` was refused for `x =
//! -9223372036854775808/3`).
//!
//! The test writes a Python script that computes the expected answer of every case, runs
//! `python3`, and compares cgl's answers three ways: the expression at the top level, and
//! inside a move rule compiled and interpreted (`Limits::compiled_rules` off). A rule's
//! operands come from its position, so one compiled rule serves every pair; a position
//! holding a rational is outside the compiled fragment, so for rationals the two rule runs
//! both interpret (the check that they agree still holds).

use std::fmt::Write as _;
use std::process::Command;

use cgl::eval::Limits;
use cgl::session::{Session, SessionConfig};

/// The operands, as `(numerator, denominator)`: the ends of `i64`, the square roots of
/// 2^63 (whose products are at the edge), small numbers, and fractions built from them.
const VALUES: &[(i128, i128)] = &[
    (-9223372036854775808, 1),
    (-9223372036854775807, 1),
    (-3037000500, 1),
    (-7, 1),
    (-3, 1),
    (-2, 1),
    (-1, 1),
    (0, 1),
    (1, 1),
    (2, 1),
    (3, 1),
    (7, 1),
    (3037000500, 1),
    (9223372036854775806, 1),
    (9223372036854775807, 1),
    (-9223372036854775808, 3),
    (-9223372036854775808, 7),
    (-9223372036854775807, 2),
    (-7, 2),
    (-1, 3),
    (1, 3),
    (2, 3),
    (7, 2),
    (1, 3037000500),
    (3037000500, 7),
    (1, 9223372036854775807),
    (-1, 9223372036854775807),
    (9223372036854775807, 2),
    (9223372036854775807, 9223372036854775806),
];

/// The operands of the three-item sums: where a running total overflows and the total fits.
const SUM_VALUES: &[(i128, i128)] = &[
    (-9223372036854775808, 1),
    (-9223372036854775807, 1),
    (-1, 1),
    (1, 1),
    (9223372036854775807, 1),
    (-9223372036854775808, 3),
    (-1, 2),
    (1, 2),
    (1, 3),
    (9223372036854775807, 2),
    (-9223372036854775807, 2),
];

/// Binary operators: a name, the expression in cgl over `x` and `y`.
const BINARY: &[(&str, &str)] = &[
    ("add", "x + y"),
    ("sub", "x - y"),
    ("mul", "x * y"),
    ("truediv", "x / y"),
    ("floordiv", "x div y"),
    ("mod", "x % y"),
    ("pow", "x ** y"),
    ("lt", "if x < y then 1 else 0"),
    ("le", "if x <= y then 1 else 0"),
    ("gt", "if x > y then 1 else 0"),
    ("ge", "if x >= y then 1 else 0"),
    ("eq", "if x == y then 1 else 0"),
    ("ne", "if x != y then 1 else 0"),
    ("min", "min(x, y)"),
    ("max", "max(x, y)"),
    ("sum2", "sum([x, y])"),
];

/// Unary operators, over `x`.
const UNARY: &[(&str, &str)] = &[("neg", "-x"), ("abs", "abs(x)")];

/// The oracle. Each line of input is `op` and its operands (`n/d`); each line of output the
/// answer as cgl prints it, or the code of the error cgl must give.
const ORACLE: &str = r#"
import sys
from fractions import Fraction as F

MIN, MAX = -2**63, 2**63 - 1

BITS = 2**20

def show(x):
    if x.denominator == 1 and not MIN <= x.numerator <= MAX:
        return "cgl::eval::overflow"
    if max(abs(x.numerator).bit_length(), x.denominator.bit_length()) > BITS:
        return "cgl::eval::overflow"
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"

def is_int(x):
    return x.denominator == 1

def power(x, y):
    if not is_int(y):
        return "cgl::eval::type"
    if y < 0:
        return "cgl::eval::negative_power"
    # Beyond the power 63, only 0, 1 and -1 have an integer power that fits.
    if is_int(x) and y >= 64 and x not in (0, 1, -1):
        return "cgl::eval::overflow"
    # A part of b bits has a power of (b - 1) * y + 1 bits at least: past the limit.
    b = max(abs(x.numerator).bit_length(), x.denominator.bit_length())
    if not is_int(x) and (b - 1) * y + 1 > BITS:
        return "cgl::eval::overflow"
    if x in (1, -1):
        return show(x ** (int(y) % 2))
    return show(x ** int(y))

def answer(op, args):
    x = args[0]
    y = args[1] if len(args) > 1 else None
    if op == "add": return show(x + y)
    if op == "sub": return show(x - y)
    if op == "mul": return show(x * y)
    if op == "truediv": return "cgl::eval::division_by_zero" if y == 0 else show(x / y)
    if op in ("floordiv", "mod"):
        if not (is_int(x) and is_int(y)): return "cgl::eval::type"
        if y == 0: return "cgl::eval::division_by_zero"
        return show(x // y if op == "floordiv" else x % y)
    if op == "pow": return power(x, y)
    if op == "lt": return str(int(x < y))
    if op == "le": return str(int(x <= y))
    if op == "gt": return str(int(x > y))
    if op == "ge": return str(int(x >= y))
    if op == "eq": return str(int(x == y))
    if op == "ne": return str(int(x != y))
    if op == "min": return show(min(x, y))
    if op == "max": return show(max(x, y))
    if op in ("sum2", "sum3"): return show(sum(args, F(0)))
    if op == "neg": return show(-x)
    if op == "abs": return show(abs(x))
    raise ValueError(op)

for line in sys.stdin:
    op, *args = line.split()
    print(answer(op, [F(a) for a in args]))
"#;

/// A case: the operator's name, its cgl expression over `x`, `y`, `z`, and its operands.
struct Case {
    op: &'static str,
    expr: &'static str,
    args: Vec<(i128, i128)>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for &(op, expr) in BINARY {
        for &x in VALUES {
            for &y in VALUES {
                out.push(Case {
                    op,
                    expr,
                    args: vec![x, y],
                });
            }
        }
    }
    for &(op, expr) in UNARY {
        for &x in VALUES {
            out.push(Case {
                op,
                expr,
                args: vec![x],
            });
        }
    }
    for &x in SUM_VALUES {
        for &y in SUM_VALUES {
            for &z in SUM_VALUES {
                out.push(Case {
                    op: "sum3",
                    expr: "sum([x, y, z])",
                    args: vec![x, y, z],
                });
            }
        }
    }
    out
}

/// The oracle's answer to every case, in order.
fn oracle(cases: &[Case]) -> Vec<String> {
    let mut input = String::new();
    for case in cases {
        input.push_str(case.op);
        for (n, d) in &case.args {
            write!(input, " {n}/{d}").unwrap();
        }
        input.push('\n');
    }
    let dir = crate::common::temp_dir("rational-oracle");
    let (script, data) = (dir.join("oracle.py"), dir.join("cases.txt"));
    std::fs::write(&script, ORACLE).unwrap();
    std::fs::write(&data, input).unwrap();
    let out = Command::new("python3")
        .arg(&script)
        .stdin(std::fs::File::open(&data).unwrap())
        .output()
        .expect("python3 runs (it is the oracle of this test)");
    assert!(
        out.status.success(),
        "the oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answers.len(), cases.len(), "one answer per case");
    answers
}

/// An operand as a cgl expression (`-9223372036854775808` is a literal).
fn literal((n, d): (i128, i128)) -> String {
    if d == 1 {
        format!("({n})")
    } else {
        format!("(({n}) / {d})")
    }
}

/// The game of a case's operator: its operands and result in the position, one move rule
/// that computes it when the flag is 0.
fn game_of(name: &str, expr: &str) -> String {
    format!(
        "game {name} {{\n    position (f, x, y, z, r)\n    move (1, x, y, z, {expr}) if f == 0\n}}\n"
    )
}

fn source() -> String {
    BINARY
        .iter()
        .chain(UNARY)
        .chain(&[("sum3", "sum([x, y, z])")])
        .map(|(op, expr)| game_of(&format!("Op_{op}"), expr))
        .collect()
}

fn session(compiled_rules: bool) -> (Session, usize) {
    let mut s = Session::new(SessionConfig {
        limits: Limits {
            compiled_rules,
            ..Limits::default()
        },
        ..SessionConfig::default()
    });
    let file = s
        .load_source("ops.game", &source())
        .unwrap_or_else(|d| panic!("does not load: {d:?}"));
    (s, file)
}

/// The value printed, or the code of the first diagnostic.
fn eval(s: &mut Session, file: usize, text: &str) -> String {
    match s.eval_text(text, &[file]) {
        Ok(v) => s.show(&v),
        Err(d) => d[0].code.to_string(),
    }
}

/// `expr` with its variables `x`, `y`, `z` (letters standing alone) replaced by the operands.
fn substitute(expr: &str, args: &[(i128, i128)]) -> String {
    let chars: Vec<char> = expr.chars().collect();
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        let alone = !word(i.checked_sub(1).and_then(|j| chars.get(j))) && !word(chars.get(i + 1));
        match "xyz".find(*c).filter(|_| alone) {
            Some(k) => out.push_str(&literal(args[k])),
            None => out.push(*c),
        }
    }
    out
}

/// A rule's answer: the result in the one option's position, or the error's code.
fn rule_answer(s: &mut Session, file: usize, case: &Case) -> String {
    let mut operands: Vec<String> = case.args.iter().map(|a| literal(*a)).collect();
    operands.resize(3, "0".to_string());
    let query = format!("moves(Op_{}(0, {}, 0))", case.op, operands.join(", "));
    let shown = eval(s, file, &query);
    match shown.strip_suffix(")]") {
        // `[Op_add(1, x, y, z, r)]`: the result is the last field.
        Some(front) => front.rsplit(", ").next().unwrap_or_default().to_string(),
        None => shown,
    }
}

#[test]
fn numeric_operators_agree_with_python_fractions_in_both_engines() {
    let cases = cases();
    let want = oracle(&cases);
    let (mut compiled, file) = session(true);
    // Every rule compiles (but `/`'s, outside the fragment: its rule is interpreted both
    // ways), so integer operands run in the compiled engine.
    let names = BINARY
        .iter()
        .chain(UNARY)
        .map(|(op, _)| *op)
        .chain(["sum3"]);
    let not_compiled: Vec<&str> = names
        .zip(&compiled.compiled().games)
        .filter(|(_, game)| !game.rules.iter().all(Option::is_some))
        .map(|(op, _)| op)
        .collect();
    assert_eq!(not_compiled, ["truediv"], "rules not compiled");
    let (mut interpreted, _) = session(false);
    let mut wrong = Vec::new();
    for (case, want) in cases.iter().zip(&want) {
        let top = substitute(case.expr, &case.args);
        let answers = [
            ("top level", eval(&mut interpreted, file, &top)),
            ("compiled rule", rule_answer(&mut compiled, file, case)),
            (
                "interpreted rule",
                rule_answer(&mut interpreted, file, case),
            ),
        ];
        for (way, got) in answers {
            if got != *want {
                wrong.push(format!("{top} ({way}): cgl {got}, Python {want}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} answers differ from Python's, e.g.:\n{}",
        wrong.len(),
        3 * cases.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}
