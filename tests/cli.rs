//! The command line as a user meets it: exit codes, the `N passed, M failed` summary, the
//! output formats of `eval`, the order of `run`'s prints, `--explicit`, `--help`.
//!
//! The .game files used here are in tests/cli/ (`games.game` passes, `failing.game` has one
//! failing expectation, `prints.game` is for `cgl run`); files that must not be committed
//! (generated per test) go to a temp folder. `--help` texts are snapshots in tests/snapshots/;
//! regenerate with `INSTA_UPDATE=always cargo test --release --test integration cli`.

use crate::common::{assert_no_crash, cgl, cgl_in, temp_dir};

const GAMES: &str = "tests/cli/games.game";
const FAILING: &str = "tests/cli/failing.game";
const PRINTS: &str = "tests/cli/prints.game";

/// Evaluates an expression with tests/cli/games.game loaded; asserts success and returns stdout
/// without its final newline.
fn eval(expr: &str) -> String {
    eval_with(&[], expr)
}

fn eval_with(options: &[&str], expr: &str) -> String {
    let mut args = vec!["eval"];
    args.extend_from_slice(options);
    args.extend(["-f", GAMES, "--", expr]);
    let (code, stdout, stderr) = cgl(&args);
    assert_no_crash(expr, &stderr);
    assert_eq!((code, stderr.as_str()), (0, ""), "cgl eval {expr:?}");
    stdout.strip_suffix('\n').unwrap_or(&stdout).to_string()
}

#[test]
fn check_passing_file_exits_0() {
    let (code, stdout, stderr) = cgl(&["check", GAMES]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "ok    tests/cli/games.game (3 passed, 0 failed)\n3 passed, 0 failed\n"
    );
}

#[test]
fn check_failing_file_exits_1() {
    let (code, stdout, stderr) = cgl(&["check", FAILING]);
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().last(), Some("2 passed, 1 failed"));
    assert!(
        stdout.starts_with("FAIL  tests/cli/failing.game"),
        "{stdout}"
    );
    assert!(stderr.contains("cgl::check::failed"), "{stderr}");
    assert!(
        stderr.contains("╭─[tests/cli/failing.game:6:8]"),
        "{stderr}"
    );
    // `check` does not print; that is `run`'s job.
    assert!(!stdout.contains("before the failure"), "{stdout}");
}

#[test]
fn check_sums_over_files_and_folders() {
    let (code, stdout, _) = cgl(&["check", GAMES, PRINTS]);
    assert_eq!(
        (code, stdout.lines().last()),
        (0, Some("4 passed, 0 failed"))
    );
    // A folder: every .game below it, in sorted order; imported files' expects are not counted
    // twice (prints.game imports games.game).
    let (code, stdout, _) = cgl(&["check", "tests/cli"]);
    assert_eq!(code, 1);
    let files: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert_eq!(
        files,
        [
            "tests/cli/failing.game",
            "tests/cli/games.game",
            "tests/cli/prints.game",
            "passed,"
        ]
    );
    assert_eq!(stdout.lines().last(), Some("6 passed, 1 failed"));
}

/// A file that cannot be checked is not a failed expectation: exit code 2, and one failure in
/// the summary.
#[test]
fn check_counts_a_file_that_does_not_load_as_one_failure_and_exits_2() {
    let dir = temp_dir("cli-broken");
    std::fs::write(dir.join("a.game"), "expect 1 == 1\nexpect 2 == 2\n").unwrap();
    std::fs::write(dir.join("b.game"), "expect (1 == 1\n").unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "a.game", "b.game"]);
    assert_eq!(code, 2);
    assert_eq!(
        stdout,
        "ok    a.game (2 passed, 0 failed)\nerror b.game (could not be checked)\n2 passed, 1 failed\n"
    );
    assert!(stderr.contains("cgl::syntax::unbalanced"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_paths_exit_2() {
    let (code, stdout, stderr) = cgl(&["check", "tests/cli/nope.game"]);
    assert_eq!(
        (code, stdout.as_str()),
        (
            2,
            "error tests/cli/nope.game (could not be checked)\n0 passed, 1 failed\n"
        )
    );
    assert_eq!(
        stderr,
        "error: no such file or folder: tests/cli/nope.game\n"
    );

    // A missing path among good ones still fails the run, and the good ones are checked.
    let (code, stdout, _) = cgl(&["check", GAMES, "tests/cli/nope.game"]);
    assert_eq!(
        (code, stdout.lines().last()),
        (2, Some("3 passed, 1 failed"))
    );
    // A failed expectation and a file that cannot be checked: 2 wins.
    let (code, _, _) = cgl(&["check", FAILING, "tests/cli/nope.game"]);
    assert_eq!(code, 2);

    for args in [
        &["run", "tests/cli/nope.game"][..],
        &["eval", "-f", "tests/cli/nope.game", "1"],
    ] {
        let (code, stdout, stderr) = cgl(args);
        assert_no_crash("missing file", &stderr);
        assert_eq!((code, stdout.as_str()), (2, ""), "cgl {args:?}");
        assert!(
            stderr.contains("cannot read `tests/cli/nope.game`"),
            "{stderr}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["check"][..],
        &["frobnicate"],
        &["eval"],
        &["check", "--max-positions", "many", GAMES],
        &["check", "--jobs", "0", GAMES],
        &["check", "--format", "xml", GAMES],
        &["check", "--timeout", "0", GAMES],
        &["check", "--timeout", "-1", GAMES],
        &["check", "--timeout", "soon", GAMES],
        &["eval", "--timeout", "1e300", "1"],
    ] {
        let (code, stdout, stderr) = cgl(args);
        assert_eq!((code, stdout.as_str()), (2, ""), "cgl {args:?}");
        assert!(stderr.starts_with("error:"), "cgl {args:?}: {stderr}");
    }
}

#[test]
fn eval_prints_lists_tuples_and_numbers() {
    assert_eq!(eval("[grundy(Nim(n)) for n in 0..3]"), "[0, 1, 2]");
    assert_eq!(
        eval("period([grundy(Kayles(n)) for n in 0..=300])"),
        "(71, 12)"
    );
    assert_eq!(eval("grundy(Nim(3) + Nim(5))"), "6");
    assert_eq!(eval("-7 div 2"), "-4");
    assert_eq!(eval("-7 / 2"), "-7/2");
    assert_eq!(eval("[]"), "[]");
    assert_eq!(
        eval("(1, \"a\", [true, false], none)"),
        "(1, \"a\", [true, false], none)"
    );
    assert_eq!(eval("(5,)"), "(5,)");
}

/// An expression may start with `-` (clap's `allow_hyphen_values`); `--` still works.
#[test]
fn eval_negative_expression() {
    let (code, stdout, stderr) = cgl(&["eval", "-7 div 2"]);
    assert_eq!((code, stdout.as_str()), (0, "-4\n"), "{stderr}");
    let (code, stdout, _) = cgl(&["eval", "--", "-7 div 2"]);
    assert_eq!((code, stdout.as_str()), (0, "-4\n"));
}

#[test]
fn eval_prints_outcomes() {
    assert_eq!(eval("outcome(Nim(3))"), "N");
    assert_eq!(eval("outcome(Nim(0))"), "P");
    assert_eq!(eval("outcome(Drawn(2))"), "D");
    assert_eq!(eval("outcome(TicTacToe.start)"), "D");
    assert_eq!(eval("[Nim(0) is P, Nim(1) is P]"), "[true, false]");
}

#[test]
fn eval_prints_positions_in_canonical_form() {
    assert_eq!(
        eval("Nim(6) + Nim(20) + Nim(18)"),
        "Nim(6) + Nim(18) + Nim(20)"
    );
    assert_eq!(eval("Nim(3) & Nim(2)"), "Nim(2) & Nim(3)");
    assert_eq!(eval("misere(Nim(2) | Nim(3))"), "misere(Nim(2) | Nim(3))");
    assert_eq!(
        eval("winning_moves(Nim(6) + Nim(30) + Nim(18))"),
        "[Nim(6) + Nim(18) + Nim(20)]"
    );
    assert_eq!(
        eval("moves(Kayles(3))"),
        "[Kayles(2), Kayles(1) + Kayles(1), Kayles(1)]"
    );
    assert_eq!(eval("moves(Nim(0))"), "[]");
    assert_eq!(eval("Nim(2) + Nim(2) == Nim(2) + Nim(2)"), "true");
}

#[test]
fn eval_prints_sets_and_strings() {
    assert_eq!(eval("{3, 1, 2, 1}"), "{1, 2, 3}");
    assert_eq!(eval("{n % 3 for n in 0..10}"), "{0, 1, 2}");
    assert_eq!(eval("\"hello\""), "\"hello\"");
    assert_eq!(eval("str(42) + \"!\""), "\"42!\"");
}

#[test]
fn eval_syntax_error_goes_to_stderr_only() {
    let (code, stdout, stderr) = cgl(&["eval", "1 +"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_no_crash("1 +", &stderr);
    insta::assert_snapshot!(stderr, @r"
    cgl::syntax::unexpected

      × syntax error: expected an expression
       ╭─[<expression>:1:3]
     1 │ 1 +
       ·   ┬
       ·   ╰── the input ends here
       ╰────
      help: see spec/language.md for the syntax of each statement
    ");
}

#[test]
fn eval_runtime_error_goes_to_stderr_only() {
    let (code, stdout, stderr) = cgl(&["eval", "-f", GAMES, "grundy(Nim(3)) / 0"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_no_crash("division", &stderr);
    assert!(stderr.contains("cgl::eval::division_by_zero"), "{stderr}");
    assert!(stderr.contains("╭─[<expression>:1:"), "{stderr}");
}

#[test]
fn run_prints_in_order() {
    let (code, stdout, stderr) = cgl(&["run", PRINTS]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "Grundy values of Nim:\n\
         [0, 1, 2, 3, 4]\n\
         Nim(6) + Nim(18) + Nim(20)\n\
         outcome of TicTacToe: D\n\
         {1, 2, 3}\n"
    );
}

#[test]
fn run_goes_on_after_a_failed_expect_and_exits_1() {
    let (code, stdout, stderr) = cgl(&["run", FAILING]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "before the failure\nafter the failure\n");
    assert!(stderr.contains("cgl::check::failed"), "{stderr}");
}

/// The theorems (XOR, min-remoteness, the selective rule) and the explicit product graph give
/// the same answers on small compounds.
#[test]
fn explicit_gives_the_same_answers() {
    let compounds = [
        "Kayles(5) + Nim(3)",
        "Nim(2) + Nim(2)",
        "Kayles(4) + Kayles(3) + Nim(1)",
        "Nim(3) & Kayles(4)",
        "Nim(2) & Nim(2)",
        "Nim(2) | Nim(3)",
        "Kayles(3) | Nim(3) | Nim(1)",
    ];
    for compound in compounds {
        let expr = if compound.contains('+') {
            format!("(outcome({compound}), grundy({compound}), remoteness({compound}), winning_moves({compound}))")
        } else {
            format!("(outcome({compound}), remoteness({compound}), winning_moves({compound}))")
        };
        assert_eq!(eval(&expr), eval_with(&["--explicit"], &expr), "{compound}");
    }
    assert_eq!(eval("grundy(Kayles(5) + Nim(3))"), "7");
}

#[test]
fn max_memory_is_honoured() {
    // Nim(2000) has 2 million moves: about 8 MB of them.
    let (code, _, stderr) = cgl(&[
        "eval",
        "--max-memory",
        "4",
        "-f",
        GAMES,
        "outcome(Nim(2000))",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::graph::too_much_memory"), "{stderr}");
    assert_eq!(
        eval_with(&["--max-memory", "100"], "outcome(Nim(2000))"),
        "N"
    );
}

#[test]
fn max_positions_is_honoured() {
    let (code, _, stderr) = cgl(&[
        "eval",
        "--max-positions",
        "3",
        "-f",
        GAMES,
        "outcome(Nim(10))",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("cgl::graph::too_many_positions"),
        "{stderr}"
    );
    assert_eq!(
        eval_with(&["--max-positions", "11"], "outcome(Nim(10))"),
        "N"
    );
}

#[test]
fn help_texts() {
    for (name, args) in [
        ("cgl --help", &["--help"][..]),
        ("cgl check --help", &["check", "--help"]),
        ("cgl run --help", &["run", "--help"]),
        ("cgl eval --help", &["eval", "--help"]),
        ("cgl explain --help", &["explain", "--help"]),
        ("cgl plot --help", &["plot", "--help"]),
        ("cgl dot --help", &["dot", "--help"]),
        ("cgl fmt --help", &["fmt", "--help"]),
    ] {
        let (code, stdout, stderr) = cgl(args);
        assert_eq!((code, stderr.as_str()), (0, ""), "{name}");
        insta::with_settings!({ description => name, omit_expression => true }, {
            insta::assert_snapshot!(name.replace(' ', "_").replace("--", ""), stdout);
        });
    }
}

/// `cgl explain CODE` prints the catalogue's explanation of every code and exits 0 (the
/// `cgl::` may be left out); a name that is no code is a diagnostic with the closest code and
/// exit code 2; `cgl explain` alone lists every code.
#[test]
fn explain_every_code_and_only_codes() {
    use cgl::diag::Code;
    let (code, stdout, stderr) = cgl(&["explain", "cgl::graph::cycle"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(
        stdout.starts_with("cgl::graph::cycle: the moves lead from a position back to itself"),
        "{stdout}"
    );
    assert!(stdout.contains("terminal if"), "{stdout}");
    for &c in Code::ALL {
        let (code, stdout, stderr) = cgl(&["explain", c.name()]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{c}");
        assert_eq!(
            stdout,
            format!("{}: {}\n\n{}", c.name(), c.summary(), c.explain()),
            "{c}"
        );
    }
    let (code, short, _) = cgl(&["explain", "eval::overflow"]);
    let (_, full, _) = cgl(&["explain", "cgl::eval::overflow"]);
    assert_eq!((code, short), (0, full));

    let (code, stdout, stderr) = cgl(&["explain", "cgl::graph::cycles"]);
    assert_no_crash("explain", &stderr);
    assert_eq!((code, stdout.as_str()), (2, ""));
    insta::assert_snapshot!(stderr, @r"
    cgl::explain::unknown_code

      × `cgl::graph::cycles` is not a diagnostic code
      help: did you mean `cgl::graph::cycle`?
    ");
    let (code, _, stderr) = cgl(&["explain", "no_such_thing"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`cgl explain` without a code lists them all"),
        "{stderr}"
    );

    let (code, stdout, stderr) = cgl(&["explain"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    for &c in Code::ALL {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(c.name()));
        assert!(
            line.is_some_and(|l| l.ends_with(c.summary())),
            "{c} is listed with its summary:\n{stdout}"
        );
    }
}

/// A row of a `--stats` block: its label, and the rest split on blanks.
type Row = (String, Vec<String>);

/// A `--stats` block: its title and rows.
type Block = (String, Vec<Row>);

/// The `--stats` blocks in `stderr`, in the order printed.
fn stats_blocks(stderr: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    // Whether the lines read since the last title are all rows (a diagnostic ends a block).
    let mut open = false;
    for line in stderr.lines() {
        if let Some(title) = line.strip_prefix("stats  ") {
            blocks.push((title.to_string(), Vec::new()));
            open = true;
        } else if let (true, Some(row), Some(block)) =
            (open, line.strip_prefix("  "), blocks.last_mut())
        {
            // Labels are padded to 15 characters.
            let label = row.get(..15).unwrap_or(row);
            let rest = row[label.len()..]
                .split_whitespace()
                .map(str::to_string)
                .collect();
            block.1.push((label.trim_end().to_string(), rest));
        } else {
            open = false;
        }
    }
    blocks
}

/// A count as `--stats` prints it (`2,001`).
fn count(text: &str) -> usize {
    text.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("not a count: {text}"))
}

#[test]
fn eval_stats_print_a_block_on_stderr() {
    let args = [
        "eval",
        "--stats",
        "-f",
        "examples/kayles.game",
        "grundy(Kayles(30))",
    ];
    let (code, stdout, stderr) = cgl(&args);
    assert_no_crash("eval --stats", &stderr);
    // The value alone on stdout, as without --stats.
    assert_eq!((code, stdout.as_str()), (0, "7\n"), "{stderr}");
    let blocks = stats_blocks(&stderr);
    assert_eq!(blocks.len(), 1, "{stderr}");
    let (title, rows) = &blocks[0];
    assert_eq!(title, "eval grundy(Kayles(30))");
    let labels: Vec<&str> = rows.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        labels,
        [
            "parse + lower",
            "evaluation",
            "compiled",
            "positions",
            "indexed",
            // One row per game instance: how its positions are found.
            "  Kayles",
            "moves stored",
            "memory"
        ],
        "{stderr}"
    );
    for (_, rest) in &rows[..2] {
        assert!(["µs", "ms", "s"].contains(&rest[1].as_str()), "{stderr}");
    }
    assert_eq!(rows[1].1[2..], ["1", "expression"], "{stderr}");
    // Kayles' two rules are compiled; it has no conditions.
    assert_eq!(
        rows[2].1,
        [
            "2",
            "of",
            "2",
            "move",
            "rules,",
            "0",
            "of",
            "0",
            "conditions"
        ],
        "{stderr}"
    );
    let positions = &rows[3].1;
    assert!(count(&positions[0]) > 0, "{stderr}");
    assert_eq!(positions[2..4], ["game", "positions,"], "{stderr}");
    assert_eq!(
        count(&positions[0]),
        count(&positions[1]) + count(&positions[4]),
        "game positions and compounds make up the positions: {stderr}"
    );
    // How the positions are found: Kayles' heaps by a dense table.
    assert_eq!(
        rows[4].1[1..],
        ["31", "dense,", "0", "packed,", "0", "hashed"],
        "{stderr}"
    );
    // Its one game's row: the same, and the bytes a position.
    assert_eq!(
        rows[5].1[1..7],
        ["31", "dense,", "0", "packed,", "0", "hashed;"],
        "{stderr}"
    );
    assert_eq!(rows[5].1[8..], ["B", "a", "position"], "{stderr}");
    let _moves = count(&rows[6].1[0]);
    let memory = &rows[7].1;
    assert!(
        ["B", "KiB", "MiB"].contains(&memory[1].as_str()),
        "{stderr}"
    );
    assert_eq!(memory[3..6], ["B", "a", "position;"], "{stderr}");
    assert!(count(&memory[2]) > 0, "{stderr}");
    assert_eq!(memory[6..8], ["--max-memory", "counts"], "{stderr}");
    // Without --stats, nothing on stderr.
    let (_, _, stderr) = cgl(&["eval", "-f", "examples/kayles.game", "grundy(Kayles(30))"]);
    assert_eq!(stderr, "");
}

/// The figures that do not depend on the clock: every row but the times.
fn sizes(stderr: &str) -> Vec<Block> {
    stats_blocks(stderr)
        .into_iter()
        .map(|(title, rows)| {
            let rows = rows
                .into_iter()
                .filter(|(label, _)| {
                    !["parse + lower", "evaluation", "wall clock"].contains(&label.as_str())
                })
                .collect();
            (title, rows)
        })
        .collect()
}

#[test]
fn check_stats_come_in_file_order_whatever_the_jobs() {
    let files = ["examples/kayles.game", GAMES, FAILING];
    let run = |jobs: &str| {
        let mut args = vec!["check", "--stats", "--jobs", jobs];
        args.extend(files);
        cgl(&args)
    };
    let (code, stdout, stderr) = run("2");
    assert_no_crash("check --stats", &stderr);
    assert_eq!(code, 1, "{stderr}");
    // Stdout is what it is without --stats.
    let mut plain = vec!["check", "--jobs", "2"];
    plain.extend(files);
    assert_eq!(stdout, cgl(&plain).1);
    let blocks = stats_blocks(&stderr);
    let titles: Vec<&str> = blocks.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        titles,
        [files[0], files[1], files[2], "total: 3 files"],
        "{stderr}"
    );
    for (title, rows) in &blocks[..3] {
        // Seven rows, and one per game instance after `indexed`.
        let games = rows.iter().filter(|(l, _)| l.starts_with("  ")).count();
        assert!(games >= 1, "{title}: {stderr}");
        assert_eq!(rows.len(), 7 + games, "{title}: {stderr}");
        assert!(count(&rows[3].1[0]) > 0, "{title}: {stderr}");
    }
    // The failing file ran all three of its expectations.
    assert_eq!(blocks[2].1[1].1[2..], ["3", "expectations"], "{stderr}");
    // Each file's block follows its diagnostics: the failure is printed before its stats.
    let failure = stderr.find("cgl::check::failed").unwrap();
    let block = stderr.find(&format!("stats  {FAILING}")).unwrap();
    assert!(failure < block, "{stderr}");
    let total = &blocks[3].1;
    let labels: Vec<&str> = total.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        labels,
        ["wall clock", "parse + lower", "evaluation", "positions"]
    );
    let summed: usize = blocks[..3].iter().map(|(_, r)| count(&r[3].1[0])).sum();
    assert_eq!(count(&total[3].1[0]), summed, "{stderr}");
    // Apart from the times, the same figures with one job as with two.
    let (_, _, one_job) = run("1");
    let mut expected = sizes(&stderr);
    let total_two = expected.pop();
    let mut found = sizes(&one_job);
    let total_one = found.pop();
    assert_eq!(found, expected);
    assert_eq!(
        total_two.map(|(_, rows)| rows),
        total_one.map(|(_, rows)| rows)
    );
}

#[test]
fn check_stats_in_json_are_part_of_the_file_records() {
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend(extra);
        args.extend([GAMES, "tests/cli/nope.game"]);
        let (code, stdout, stderr) = cgl(&args);
        assert_eq!((code, stderr.as_str()), (2, ""), "{stdout}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is JSON");
        doc["records"]
            .as_array()
            .expect("records")
            .iter()
            .filter(|r| r["kind"] == "file")
            .cloned()
            .collect::<Vec<_>>()
    };
    let files = run(&["--stats"]);
    assert_eq!(files.len(), 2);
    let stats = &files[0]["stats"];
    for key in [
        "parse_lower_us",
        "evaluation_us",
        "evaluated",
        "rules",
        "rules_compiled",
        "conditions",
        "conditions_compiled",
        "positions",
        "game_positions",
        "compounds",
        "moves",
        "memory_bytes",
        "memory_estimate_bytes",
        "bytes_per_position",
        "indexed_dense",
        "indexed_packed",
        "indexed_hashed",
    ] {
        assert!(stats[key].is_u64(), "{key}: {stats}");
    }
    assert_eq!(
        stats["indexed_dense"].as_u64().unwrap()
            + stats["indexed_packed"].as_u64().unwrap()
            + stats["indexed_hashed"].as_u64().unwrap(),
        stats["positions"].as_u64().unwrap()
    );
    assert_eq!(stats["evaluated"], 3);
    let positions = stats["positions"].as_u64().unwrap();
    assert!(positions > 0, "{stats}");
    assert_eq!(
        stats["game_positions"].as_u64().unwrap() + stats["compounds"].as_u64().unwrap(),
        positions
    );
    assert_eq!(
        stats["bytes_per_position"].as_u64().unwrap(),
        stats["memory_bytes"].as_u64().unwrap() / positions
    );
    // One entry a game instance with positions, as the text block's indented rows: the
    // kinds of index add up to its positions, and the games' positions to the graph's.
    let games = stats["games"].as_array().expect("games");
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert!(
        names.contains(&"Nim") && names.contains(&"Drawn"),
        "{stats}"
    );
    let mut summed = 0;
    for game in games {
        let n = |key: &str| {
            game[key]
                .as_u64()
                .unwrap_or_else(|| panic!("{key}: {game}"))
        };
        let positions = n("positions");
        assert!(positions > 0, "{game}");
        assert_eq!(
            n("indexed_dense") + n("indexed_packed") + n("indexed_hashed"),
            positions
        );
        assert_eq!(n("bytes_per_position"), n("bytes") / positions, "{game}");
        summed += positions;
    }
    assert_eq!(summed, stats["game_positions"].as_u64().unwrap(), "{stats}");
    // The same entries as the text block's rows.
    let (_, _, text) = cgl(&["check", "--stats", GAMES]);
    let rows: Vec<(String, u64)> = text
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next().unwrap().to_string();
            let count = words.next().unwrap().replace(',', "").parse().unwrap();
            (name, count)
        })
        .collect();
    let entries: Vec<(String, u64)> = games
        .iter()
        .map(|g| {
            let name = g["name"].as_str().unwrap().to_string();
            (name, g["positions"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(rows, entries, "{text}");
    // A path that is not there was never read: no figures.
    assert!(files[1]["stats"].is_null(), "{}", files[1]);
    // Without --stats, no `stats` field at all.
    for file in run(&[]) {
        assert!(file.get("stats").is_none(), "{file}");
    }
}

#[test]
fn run_stats_count_the_statements() {
    let (code, stdout, stderr) = cgl(&["run", "--stats", PRINTS]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, cgl(&["run", PRINTS]).1);
    let blocks = stats_blocks(&stderr);
    assert_eq!(blocks.len(), 1, "{stderr}");
    assert_eq!(blocks[0].0, PRINTS);
    assert_eq!(blocks[0].1[1].1[3], "statements", "{stderr}");
}
