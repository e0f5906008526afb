//! Strings index and slice as lists do, by Unicode scalar value (as `len` counts), and
//! `chars(s)` lists their characters (see: issue "Reliability III", finding 4). Rules over
//! strings are outside the compiled fragment, so they run in the interpreter either way;
//! both engines must still give the same answers, errors to the letter.

use cgl::eval::Limits;
use cgl::session::{Session, SessionConfig};

/// Blue-red Hackenbush on a stalk, written as a string from the ground up: a player cuts
/// one of their own edges, and everything above it falls.
const STALK: &str = "game Stalk {\n    position s\n\
                     left move s[0..i] for i in 0..len(s) if s[i] == \"B\"\n\
                     right move s[0..i] for i in 0..len(s) if s[i] == \"R\"\n}\n\
                     game Strip {\n    position s\n\
                     move s[0..i] + s[i + 1..len(s)] for (i, c) in enumerate(chars(s)) if c == \"x\"\n}\n";

fn answers(compiled_rules: bool, queries: &[&str]) -> Vec<Result<String, String>> {
    let mut s = Session::new(SessionConfig {
        limits: Limits {
            compiled_rules,
            ..Limits::default()
        },
        ..SessionConfig::default()
    });
    let file = s.load_source("strings.game", STALK).unwrap();
    queries
        .iter()
        .map(|q| match s.eval_text(q, &[file]) {
            Ok(v) => Ok(s.show(&v)),
            Err(d) => Err(format!("{d:?}")),
        })
        .collect()
}

fn both_engines(queries: &[&str]) -> Vec<Result<String, String>> {
    let compiled = answers(true, queries);
    assert_eq!(compiled, answers(false, queries), "the engines differ");
    compiled
}

/// The code of an error answer.
fn code(answer: &Result<String, String>) -> &str {
    let d = answer.as_ref().err().map_or("", String::as_str);
    d.split("code: \"")
        .nth(1)
        .and_then(|c| c.split('"').next())
        .unwrap_or("")
}

#[test]
fn strings_index_and_slice_like_lists() {
    let queries = [
        "\"BRB\"[1]",
        "\"BRB\"[0..2]",
        "\"BRB\"[2..2]",
        "chars(\"BRB\")",
        "chars(\"\")",
        "[\"BRB\"[i] for i in 0..len(\"BRB\")] == chars(\"BRB\")",
        "\"héllo\"[1]",
        "\"héllo\"[1..3]",
        "chars(\"né\")",
        "len(\"héllo\")",
        "\"BRB\"[3]",
        "\"BRB\"[-1]",
        "\"BRB\"[0..4]",
        "\"\"[0]",
        "chars(12)",
        "[c for c in \"ab\"]",
        "\"abc\"[1 / 2]",
    ];
    let got = both_engines(&queries);
    let ok = |v: &str| Ok(v.to_string());
    assert_eq!(got[0], ok("\"R\""));
    assert_eq!(got[1], ok("\"BR\""));
    assert_eq!(got[2], ok("\"\""));
    assert_eq!(got[3], ok("[\"B\", \"R\", \"B\"]"));
    assert_eq!(got[4], ok("[]"));
    assert_eq!(got[5], ok("true"));
    assert_eq!(got[6], ok("\"é\""));
    assert_eq!(got[7], ok("\"él\""));
    assert_eq!(got[8], ok("[\"n\", \"é\"]"));
    assert_eq!(got[9], ok("5"));
    for (i, want) in [
        (10, "cgl::eval::index"),
        (11, "cgl::eval::index"),
        (12, "cgl::eval::index"),
        (13, "cgl::eval::index"),
        (14, "cgl::eval::type"),
        (15, "cgl::eval::type"),
        (16, "cgl::eval::type"),
    ] {
        assert_eq!(code(&got[i]), want, "{}: {:?}", queries[i], got[i]);
    }
    // The same diagnostic as a list's, counting characters.
    let err = got[10].as_ref().unwrap_err();
    assert!(
        err.contains("index 3 is out of range") && err.contains("the string has 3 characters"),
        "{err}"
    );
    let list = &answers(false, &["[1, 2, 3][3]"])[0];
    assert!(
        list.as_ref()
            .unwrap_err()
            .contains("index 3 is out of range"),
        "{list:?}"
    );
    assert!(
        got[15].as_ref().unwrap_err().contains("chars(s)"),
        "{:?}",
        got[15]
    );
}

#[test]
fn games_on_strings_agree_in_both_engines() {
    let got = both_engines(&[
        "[value(Stalk(s)) for s in [\"\", \"B\", \"R\", \"BR\", \"BRR\", \"BB\", \"RB\", \"BRBB\"]]",
        "moves(Strip(\"axbx\"))",
        "grundy(Strip(\"xxxx\"))",
        "outcome(Stalk(\"BR\") + Stalk(\"RB\"))",
    ]);
    assert_eq!(
        got,
        [
            Ok("[0, 1, -1, 1/2, 1/4, 2, -1/2, 7/8]".to_string()),
            Ok("[Strip(\"abx\"), Strip(\"axb\")]".to_string()),
            Ok("0".to_string()),
            Ok("P".to_string()),
        ]
    );
}
