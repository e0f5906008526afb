//! `octal_values` and `octal_period` (examples/octal.game) against the same games written as
//! rules, which cgl solves with its general engine, to heap 20,000: Kayles (0.77), Dawson's
//! Kayles (0.07), Dawson's chess (0.137) and 0.16; the bounds on codes and heaps; and misère
//! quotients of the same games as rules.

use crate::common::{cgl, temp_dir};

/// The four games as rules, each named by its code.
pub const RULES: &str = "
// 0.77: take one or two pins, leaving 0, 1 or 2 rows.
game Kayles {
    position n
    move split(i, n - 1 - i) for i in 0..n
    move split(i, n - 2 - i) for i in 0..n - 1
}
// 0.07: take two, leaving 0, 1 or 2 rows.
game DawsonKayles {
    position n
    move split(i, n - 2 - i) for i in 0..n - 1
}
// 0.137: take one leaving none; two leaving none or one; three leaving 0, 1 or 2.
game DawsonChess {
    position n
    move 0 if n == 1
    move n - 2 if n >= 2
    move split(i, n - 3 - i) for i in 0..n - 2
}
// 0.16: take one leaving none; two leaving one or two heaps.
game Sixteen {
    position n
    move 0 if n == 1
    move n - 2 if n > 2
    move split(a, n - 2 - a) for a in 1..n - 2
}
";

#[test]
fn octal_values_are_the_rules_values_to_20000() {
    let dir = temp_dir("octal");
    let file = dir.join("rules.game");
    std::fs::write(&file, RULES).unwrap();
    let file = file.display().to_string();
    for (game, code) in [
        ("Kayles", "0.77"),
        ("DawsonKayles", "0.07"),
        ("DawsonChess", "0.137"),
        ("Sixteen", "0.16"),
    ] {
        let expr =
            format!("[grundy({game}(n)) for n in 0..=20000] == octal_values(\"{code}\", 20000)");
        let (status, out, err) = cgl(&["eval", "-f", &file, &expr]);
        assert_eq!(status, 0, "{game}: {err}");
        assert_eq!(out.trim(), "true", "{game} ({code}) differs from its rules");
    }
}

#[test]
fn codes_and_heaps_are_bounded_with_diagnostics() {
    for (expr, code) in [
        ("octal_values(\"077\", 3)", "cgl::eval::octal_code"),
        ("octal_values(\"1.7\", 3)", "cgl::eval::octal_code"),
        ("octal_values(\"0.7z\", 3)", "cgl::eval::octal_code"),
        ("octal_values(7, 3)", "cgl::eval::type"),
        ("octal_values(\"0.77\", -1)", "cgl::eval::too_large"),
        ("octal_values(\"0.77\", 100000000)", "cgl::eval::too_large"),
        ("octal_values(\"0.F\", 5000)", "cgl::eval::too_large"),
        ("octal_period(\"0.77\", 100)", "cgl::eval::no_period"),
        ("octal_period(\"0.F\")", "cgl::eval::domain"),
        (
            "octal_period(\"0.77\", 1000000000000)",
            "cgl::eval::too_large",
        ),
    ] {
        let (status, _, err) = cgl(&["eval", expr]);
        assert_eq!(status, 1, "{expr}: {err}");
        assert!(err.contains(code) && err.contains("help"), "{expr}: {err}");
    }
    // A deadline stops a long sequence.
    let (status, _, err) = cgl(&[
        "eval",
        "--timeout",
        "0.5",
        "len(octal_values(\"0.16\", 4000000))",
    ]);
    assert_eq!(status, 1);
    assert!(err.contains("cgl::limit::timeout"), "{err}");
}

/// The misère quotient of a heap game of the file is the code's, and its refusals are
/// diagnostics: a move that leaves no sum of heaps, heaps past the bound, memory, time.
#[test]
fn misere_quotients_of_rules_and_their_bounds() {
    let dir = temp_dir("misere");
    let file = dir.join("rules.game");
    let rules = format!(
        "{RULES}
game Chomp {{
    position rows
    move [] if rows != []
}}
game Grow {{
    position n
    move n + 1 if n < 3
}}"
    );
    std::fs::write(&file, rules).unwrap();
    let file = file.display().to_string();
    for (game, code) in [
        ("Kayles", "0.77"),
        ("DawsonKayles", "0.07"),
        ("DawsonChess", "0.137"),
    ] {
        let expr = format!("misere_quotient({game}, 11) == misere_quotient(\"{code}\", 11)");
        let (status, out, err) = cgl(&["eval", "-f", &file, &expr]);
        assert_eq!((status, out.trim()), (0, "true"), "{game}: {err}");
    }
    for (expr, code, args) in [
        ("misere_quotient(Chomp, 2)", "cgl::eval::domain", &[][..]),
        ("misere_quotient(Grow, 2)", "cgl::eval::domain", &[]),
        (
            "misere_quotient(\"0.77\", 256)",
            "cgl::eval::too_large",
            &[],
        ),
        (
            "misere_outcome(\"0.77\", [3, -1])",
            "cgl::eval::too_large",
            &[],
        ),
        ("misere_quotient(\"077\", 3)", "cgl::eval::octal_code", &[]),
        (
            "misere_quotient(\"0.07\", 30)",
            "cgl::eval::too_large",
            &["--max-memory", "1"],
        ),
        (
            "misere_quotient(\"0.07\", 36)",
            "cgl::limit::timeout",
            &["--timeout", "0.5"],
        ),
    ] {
        let mut argv = vec!["eval", "-f", &file];
        argv.extend_from_slice(args);
        argv.push(expr);
        let (status, _, err) = cgl(&argv);
        assert_eq!(status, 1, "{expr}: {err}");
        assert!(err.contains(code) && err.contains("help"), "{expr}: {err}");
    }
}
