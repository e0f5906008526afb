//! A help line that says what is valid must be right about it (see: issue "Reliability III",
//! finding 2: `v2(-4)` said "use 0 or a positive number", and `v2(0)` is an error too).
//!
//! Built-ins and operators that take integers are called with each integer of a pool in one
//! argument. Every refusal (a type, domain or index error, a negative power) must have a
//! help line listed in [`CLAIMS`] with the arguments that it says are valid, and each of
//! those must then be accepted. A new or changed help line fails the test until it is
//! listed; a listed claim that is false fails it too.

use cgl::session::{Session, SessionConfig};

/// The integers tried in each argument.
const POOL: &[&str] = &[
    "-9223372036854775808",
    "-4",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "63",
    "64",
    "1025",
    "9223372036854775807",
];

/// Calls with one integer argument left open, `{}`.
const TEMPLATES: &[&str] = &[
    "popcount({})",
    "bits({})",
    "v2({})",
    "abs({})",
    "gcd({}, 0)",
    "*({})",
    "2 ** ({})",
    "(1 / 2) ** ({})",
    "regions({}, 3)",
    "regions(5, {})",
    "normalize({}, 3)",
    "normalize(5, {})",
    "normalize(5, 3, {})",
    "set([1, 2], {}, 0)",
    "[1, 2][{}]",
    "(1, 2)[{}]",
    "\"ab\"[{}]",
    "[1, 2][{}..2]",
    "[1, 2][0..{}]",
    "\"ab\"[{}..2]",
    "mex([{}])",
    "lego([{}])",
    "grid([0, 0], {}, \".\")",
    "grid([{}], 1, \".X\")",
    "left_options(*({}))",
];

/// The refusals of the sweep: a template, the help line of its diagnostic, and the
/// arguments that the help line says are valid (each must be accepted).
const CLAIMS: &[(&str, &str, &[&str])] = &[
    ("popcount({})", "use 0 or a positive number", &["0", "1"]),
    ("bits({})", "use 0 or a positive number", &["0", "1"]),
    (
        "v2({})",
        "v2(n) is the exponent of 2 in n, for n >= 1: `v2(12) == 2`",
        &["1", "12"],
    ),
    (
        "v2({})",
        "every power of two divides 0; v2(n) needs n >= 1: `v2(12) == 2`",
        &["1", "12"],
    ),
    ("*({})", "nimbers are *0 to *1024", &["0", "1024"]),
    (
        "left_options(*({}))",
        "nimbers are *0 to *1024",
        &["0", "1024"],
    ),
    (
        "2 ** ({})",
        "`**` takes an exponent of 0 or more; for a reciprocal, divide: `1 / x ** n`",
        &["0", "1"],
    ),
    (
        "(1 / 2) ** ({})",
        "`**` takes an exponent of 0 or more; for a reciprocal, divide: `1 / x ** n`",
        &["0", "1"],
    ),
    (
        "regions({}, 3)",
        "give a mask of 0 or more: bit r * w + c is the cell in row r, column c",
        &["0", "5"],
    ),
    (
        "normalize({}, 3)",
        "give a mask of 0 or more: bit r * w + c is the cell in row r, column c",
        &["0", "5"],
    ),
    (
        "regions(5, {})",
        "a board is a bit mask of at most 63 cells",
        &["1", "63"],
    ),
    (
        "normalize(5, {})",
        "a board is a bit mask of at most 63 cells",
        &["1", "63"],
    ),
    (
        "normalize(5, 3, {})",
        "0: none, 1: left to right, 2: top to bottom, 3: both",
        &["0", "1", "2", "3"],
    ),
    (
        "set([1, 2], {}, 0)",
        "indices run from 0 to len - 1",
        &["0", "1"],
    ),
    ("[1, 2][{}]", "indices run from 0 to len - 1", &["0", "1"]),
    ("(1, 2)[{}]", "indices run from 0 to len - 1", &["0", "1"]),
    ("\"ab\"[{}]", "indices run from 0 to len - 1", &["0", "1"]),
    (
        "[1, 2][{}..2]",
        "indices run from 0 to len - 1; a slice `a..b` needs 0 <= a and b <= len",
        &["0", "1", "2"],
    ),
    (
        "[1, 2][0..{}]",
        "indices run from 0 to len - 1; a slice `a..b` needs 0 <= a and b <= len",
        &["0", "1", "2"],
    ),
    (
        "\"ab\"[{}..2]",
        "indices run from 0 to len - 1; a slice `a..b` needs 0 <= a and b <= len",
        &["0", "1", "2"],
    ),
    ("mex([{}])", "remove the negative numbers", &["0", "1"]),
    ("lego([{}])", "remove the negative numbers", &["0", "1"]),
    (
        "grid([0, 0], {}, \".\")",
        "the width is the number of cells in a row: 1 or more",
        &["1", "2"],
    ),
    (
        "grid([0, 0], {}, \".\")",
        "the number of cells must be a multiple of the width",
        &["1", "2"],
    ),
    (
        "grid([{}], 1, \".X\")",
        "give a symbol for every value a cell can hold, the one for 0 first",
        &["0", "1"],
    ),
];

/// The diagnostic codes of a refusal whose help may say what is valid.
const REFUSALS: &[&str] = &[
    "cgl::eval::type",
    "cgl::eval::domain",
    "cgl::eval::index",
    "cgl::eval::negative_power",
];

/// `Ok(value)`, or the first diagnostic's code and help.
fn eval(s: &mut Session, text: &str) -> Result<String, (String, String)> {
    match s.eval_text(text, &[]) {
        Ok(v) => Ok(s.show(&v)),
        Err(d) => Err((d[0].code.to_string(), d[0].help.clone().unwrap_or_default())),
    }
}

#[test]
fn every_help_that_names_valid_arguments_is_right() {
    let mut s = Session::new(SessionConfig::default());
    let mut problems = Vec::new();
    let mut met = vec![false; CLAIMS.len()];
    for template in TEMPLATES {
        for arg in POOL {
            let call = template.replace("{}", arg);
            let Err((code, help)) = eval(&mut s, &call) else {
                continue;
            };
            if !REFUSALS.contains(&code.as_str()) {
                continue;
            }
            match CLAIMS
                .iter()
                .position(|(t, h, _)| t == template && *h == help)
            {
                Some(i) => met[i] = true,
                None => problems.push(format!(
                    "`{call}` is refused ({code}) with the help {help:?}: add it to CLAIMS with \
                     the arguments it says are valid"
                )),
            }
        }
    }
    for ((template, help, valid), met) in CLAIMS.iter().zip(&met) {
        if !*met {
            problems.push(format!(
                "no call of `{template}` is refused with {help:?}: remove the claim"
            ));
        }
        for arg in *valid {
            let call = template.replace("{}", arg);
            if let Err((code, refused)) = eval(&mut s, &call) {
                problems.push(format!(
                    "the help {help:?} of `{template}` says {arg} is valid, but `{call}` is \
                     refused ({code}: {refused:?})"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The siblings found on the way: `sorted` said "sort numbers with numbers" and refused
/// integers with rationals, which are numbers; `2 ** -1` said "cgl has only integers".
#[test]
fn numbers_sort_together() {
    let mut s = Session::new(SessionConfig::default());
    assert_eq!(
        eval(&mut s, "sorted([1, 1/2, -3, 7/3])"),
        Ok("[-3, 1/2, 1, 7/3]".to_string())
    );
    assert_eq!(
        eval(&mut s, "sorted([1, \"a\"])").map_err(|(code, _)| code),
        Err("cgl::eval::type".to_string())
    );
}
