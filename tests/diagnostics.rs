//! Diagnostic snapshots: `cgl check` on every `tests/fail/*.game`, one mistake per file (named
//! in the file's first line), rendered as the CLI prints it to a pipe (no colour, 80 columns).
//!
//! Each snapshot (tests/snapshots/integration__diagnostics__fail_files@NAME.game.snap) is in
//! gleam's format: `----- SOURCE CODE`, the file, `----- DIAGNOSTIC`, the whole stderr, then the
//! stdout and the exit code. Regenerate with `INSTA_UPDATE=always cargo test --release --test
//! integration diagnostics` (or `cargo insta test --review`), then read every changed snapshot.
//!
//! A file may add command-line options in a `// args: ...` line. `position_limit.game` and
//! `unbounded_game.game` use `// args: --max-positions 1000`: they are wrong at the default
//! limit too (about 5 seconds and 1 GB to get there), and the small limit keeps the test fast.
//!
//! Helper files that are not test cases (imported by `import_*.game`) live in
//! `tests/fail/helpers/`, which the `fail/*.game` glob does not reach.
//!
//! Every code of the catalogue (`cgl::diag::Code`) must show in some fail file's snapshot, or
//! be listed in `NO_FAIL_FILE` with the reason no file can produce it; and every code has its
//! row in the table of spec/language.md §11.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::Ordering;

use cgl::diag::Code;
use cgl::eval::Stop;
use cgl::session::{Session, SessionConfig};

use crate::common::{assert_no_crash, cgl, cgl_in, root, temp_dir};

/// The codes of the catalogue that no `.game` file given to `cgl check` can produce, each
/// with the reason and the test that produces it instead. Every other code needs a fail file
/// whose snapshot shows it (`every_code_has_a_fail_file_or_a_reason`).
const NO_FAIL_FILE: &[(Code, &str)] = &[
    (
        Code::GradeUnsealable,
        "made by `cgl seal`, not `cgl check` (which checks any exercise); tests/grade.rs \
         `a_sealed_key_holds_no_answer_and_grades_as_the_open_one`",
    ),
    (
        Code::GradeWrong,
        "a sealed exercise's failure in `cgl grade`; tests/grade.rs \
         `a_sealed_key_holds_no_answer_and_grades_as_the_open_one`",
    ),
    (
        Code::GradeBadSealedKey,
        "a sealed key is JSON, not a .game file; tests/grade.rs \
         `a_sealed_key_holds_no_answer_and_grades_as_the_open_one`",
    ),
    (
        Code::CertificateRefused,
        "made by `cgl certify` and `cgl verify`; tests/certify.rs",
    ),
    (
        Code::LoadTooLarge,
        "the smallest limit is 1 MiB, so a fail file would have to be over 1 MiB; \
         tests/reliability.rs checks /dev/zero and a file over the limit",
    ),
    (
        Code::CheckEmptyFile,
        "a warning: the file passes (exit 0), and a fail file must fail; `empty_files_warn`",
    ),
    (
        Code::ReplUnknownCommand,
        "typed at the REPL, not written in a file; tests/repl.rs `repl_mistakes_have_codes`",
    ),
    (
        Code::ReplUsage,
        "typed at the REPL; `repl_mistakes_have_codes`",
    ),
    (
        Code::ReplLet,
        "typed at the REPL; `repl_mistakes_have_codes`",
    ),
    (
        Code::ReplNotPosition,
        "typed at the REPL; `repl_mistakes_have_codes`",
    ),
    (
        Code::ReplTooLarge,
        "typed at the REPL; `repl_mistakes_have_codes`",
    ),
    (
        Code::PlotUsage,
        "given on `cgl plot`'s and `cgl dot`'s command line, not in a file; tests/plot.rs \
         `plot_refusals_are_diagnostics`, `dot_refusals_are_diagnostics`",
    ),
    (
        Code::PlotTooLarge,
        "a cap of `cgl plot` and `cgl dot`; tests/plot.rs `plot_refusals_are_diagnostics`, \
         `dot_refusals_are_diagnostics`",
    ),
    (
        Code::LimitInterrupted,
        "Ctrl-C at the REPL; `a_raised_stop_flag_interrupts` below raises the flag it sets",
    ),
    (
        Code::CheckCrashed,
        "the process checking one of several files died; no file makes a correct cgl do \
         that, so tests/isolation.rs makes it happen (`CGL_TEST_FAULT`, and a SIGKILL)",
    ),
    (
        Code::Internal,
        "a bug in cgl, which no file may produce; src/cli/check/threads.rs \
         `a_panic_is_an_internal_error_for_that_file_only` makes one",
    ),
    (
        Code::ExplainUnknownCode,
        "`cgl explain`'s, not a file's; tests/cli.rs `explain_every_code_and_only_codes`",
    ),
];

/// Files whose mistake cgl does not report yet. They are asserted as they behave today (exit 0),
/// so that a fix in the engine shows up here; then move the file out of this list.
const NOT_CAUGHT_YET: &[&str] = &[];

#[test]
fn fail_files() {
    insta::glob!("fail/*.game", |path| {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 file name");
        let source = std::fs::read_to_string(path).expect("fail files are UTF-8");
        let first_line = source.lines().next().unwrap_or("");
        assert!(
            first_line.starts_with("// "),
            "{name}: line 1 must be a comment naming the mistake"
        );

        let relative = format!("tests/fail/{name}");
        let extra = extra_args(&source);
        let mut args = vec!["check"];
        args.extend(extra.iter().map(String::as_str));
        args.push(&relative);
        let (code, stdout, stderr) = cgl(&args);
        let stderr = redact_root(&stderr);
        assert_no_crash(name, &stderr);

        if NOT_CAUGHT_YET.contains(&name) {
            assert_eq!(
                code, 0,
                "{name} is now caught: move it out of NOT_CAUGHT_YET\n{stderr}"
            );
        } else {
            let expected = expected_exit_code(&stderr);
            assert_eq!(
                code, expected,
                "{name} must fail with exit code {expected}\nstdout:\n{stdout}\nstderr:\n{stderr}"
            );
            assert_eq!(
                stdout.starts_with("error "),
                expected == 2,
                "{name}: a file that cannot be checked is reported as `error`, one with a \
                 failed expectation as `FAIL`:\n{stdout}"
            );
            assert_failure_summary(name, &stdout);
            assert_every_diagnostic_has_span_and_help(name, &stderr);
        }

        insta::assert_snapshot!(gleam_format(&source, &stderr, &stdout, code));
    });
}

/// A file that is not UTF-8 cannot be shown, so its diagnostic has no snippet; it must still
/// be one clear error, not a crash. Generated here rather than committed as a binary file.
#[test]
fn non_utf8_file() {
    let dir = temp_dir("non-utf8");
    let bytes: &[u8] = b"// Latin-1, not UTF-8: \xe9\nexpect 1 == 1\n";
    std::fs::write(dir.join("latin1.game"), bytes).expect("write the file");
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "latin1.game"]);
    assert_no_crash("latin1.game", &stderr);
    assert_eq!(code, 2);
    assert!(stderr.contains("UTF-8"), "{stderr}");
    assert!(stderr.contains("help:"), "{stderr}");
    let source = String::from_utf8_lossy(bytes);
    insta::assert_snapshot!(gleam_format(&source, &stderr, &stdout, code));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Empty files and files with only comments fail nothing (exit 0), but `check` warns: in a
/// class's CI, an empty file is more likely a hand-in gone wrong than a finished exercise.
/// `run` prints nothing for them. A file with games but no `expect` (a library that others
/// import) gets no warning.
#[test]
fn empty_files_warn() {
    let dir = temp_dir("empty");
    for (name, text) in [
        ("empty.game", ""),
        ("blank.game", "\n\n   \n"),
        (
            "comments.game",
            "// nothing here yet\n/* not even\n   a game */\n",
        ),
    ] {
        std::fs::write(dir.join(name), text).expect("write the file");
        let (code, stdout, stderr) = cgl_in(&dir, &["check", name]);
        assert_no_crash(name, &stderr);
        assert_eq!(code, 0, "{name}");
        assert_eq!(
            stdout,
            format!("ok    {name} (0 passed, 0 failed)\n0 passed, 0 failed\n"),
            "{name}"
        );
        assert!(
            stderr.contains("cgl::check::empty_file"),
            "{name}: {stderr}"
        );
        if name == "comments.game" {
            insta::assert_snapshot!(stderr, @r"
            cgl::check::empty_file

              ⚠ comments.game has nothing to check
              help: the file defines nothing and expects nothing; is it the file you meant
                    to hand in?
            ");
        }
        let (code, stdout, stderr) = cgl_in(&dir, &["run", name]);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (0, "", ""),
            "cgl run {name}"
        );
    }
    std::fs::write(
        dir.join("library.game"),
        "game Nim { position n  move k for k in 0..n }\n",
    )
    .expect("write the file");
    let (code, _, stderr) = cgl_in(&dir, &["check", "library.game"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file that does not exist is named on the command line: no source, so no snippet.
#[test]
fn missing_file() {
    let (code, stdout, stderr) = cgl(&["check", "tests/fail/does_not_exist.game"]);
    assert_no_crash("missing file", &stderr);
    assert_eq!(code, 2);
    assert_eq!(
        stdout,
        "error tests/fail/does_not_exist.game (could not be checked)\n0 passed, 1 failed\n"
    );
    insta::assert_snapshot!(stderr, @"error: no such file or folder: tests/fail/does_not_exist.game");
}

/// The whole folder, helpers and import cycle included, is checked without a crash or a hang,
/// and every file in it is counted.
#[test]
fn whole_fail_folder() {
    let (code, stdout, stderr) = cgl(&["check", "--max-positions", "1000", "tests/fail"]);
    assert_no_crash("tests/fail", &stderr);
    assert_eq!(code, 2);
    let n_files = count_game_files(&root().join("tests/fail"));
    let n_reported = stdout.lines().filter(|l| l.contains("tests/fail")).count();
    assert_eq!(n_reported, n_files, "one line per file:\n{stdout}");
    let summary = stdout.lines().last().unwrap_or("");
    assert!(
        summary.ends_with(" failed") && summary.contains(" passed, "),
        "{summary}"
    );
}

fn count_game_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .expect("read a test folder")
        .flatten()
        .map(|entry| entry.path())
        .map(|path| {
            if path.is_dir() {
                count_game_files(&path)
            } else {
                usize::from(path.extension().is_some_and(|e| e == "game"))
            }
        })
        .sum()
}

/// The exit code a fail file must give, from the phase of its first diagnostic: a file with a
/// syntax, loading or name error cannot be checked (2); any other mistake shows up as a
/// failed expectation (1).
fn expected_exit_code(stderr: &str) -> i32 {
    // The first error's code: a warning (drawn `⚠`, after its code line) decides nothing.
    let lines: Vec<&str> = stderr.lines().collect();
    let first_code = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with("cgl::"))
        .find(|(i, _)| {
            let headline = lines[i + 1..].iter().find(|l| !l.trim().is_empty());
            !headline.is_some_and(|l| l.trim_start().starts_with('⚠'))
        })
        .map_or("", |(_, line)| *line);
    let cannot_check = ["cgl::syntax::", "cgl::load::", "cgl::resolve::"]
        .iter()
        .any(|phase| first_code.starts_with(phase));
    if cannot_check {
        2
    } else {
        1
    }
}

/// Options from a `// args: ...` line of the file.
pub fn extra_args(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| line.strip_prefix("// args:"))
        .flat_map(|args| args.split_whitespace().map(str::to_string))
        .collect()
}

/// The snapshot text: gleam's `----- SOURCE CODE` / `----- DIAGNOSTIC`, plus stdout and the
/// exit code.
fn gleam_format(source: &str, stderr: &str, stdout: &str, code: i32) -> String {
    format!(
        "----- SOURCE CODE\n{}\n\n----- DIAGNOSTIC\n{}\n\n----- STDOUT\n{}\n\n----- EXIT CODE\n{code}\n",
        source.trim_end(),
        stderr.trim_end(),
        stdout.trim_end(),
    )
}

/// Imports are shown with absolute paths; replace the checkout's folder with `<root>` so that
/// snapshots do not depend on where the repository lives. The message line is wrapped at 80
/// columns, so its wrapping depends on the folder's length too: where a path was replaced,
/// the wrapped headline (`×` line and its `│` continuations) is joined into one line.
fn redact_root(stderr: &str) -> String {
    let root = root();
    let mut roots = vec![root.display().to_string()];
    if let Ok(canonical) = std::fs::canonicalize(&root) {
        roots.push(canonical.display().to_string());
    }
    let mut text = stderr.to_string();
    let mut replaced = false;
    for r in &roots {
        if text.contains(r.as_str()) {
            text = text.replace(r.as_str(), "<root>");
            replaced = true;
        }
    }
    if !replaced {
        return text;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut in_headline = false;
    for line in text.lines() {
        if in_headline {
            if let Some(rest) = line.strip_prefix("  │ ") {
                if let Some(last) = lines.last_mut() {
                    last.push(' ');
                    last.push_str(rest.trim());
                }
                continue;
            }
        }
        in_headline = line.starts_with("  × ");
        lines.push(line.to_string());
    }
    lines.join("\n") + "\n"
}

/// Stdout ends with `N passed, M failed` and M is at least 1.
fn assert_failure_summary(name: &str, stdout: &str) {
    let summary = stdout.lines().last().unwrap_or("");
    let failed = summary
        .strip_suffix(" failed")
        .and_then(|s| s.split(", ").nth(1))
        .and_then(|n| n.parse::<usize>().ok());
    assert!(
        summary.contains(" passed, ") && failed.is_some_and(|n| n >= 1),
        "{name}: the last line of stdout must be `N passed, M failed` with M >= 1, not {summary:?}"
    );
}

/// Every diagnostic (a block that starts with its `cgl::...` code at column 0) points into the
/// source with a `╭─[file:line:col]` snippet and says how to fix the mistake.
fn assert_every_diagnostic_has_span_and_help(name: &str, stderr: &str) {
    let mut blocks: Vec<String> = Vec::new();
    for line in stderr.lines() {
        if line.starts_with("cgl::") {
            blocks.push(String::new());
        }
        if let Some(block) = blocks.last_mut() {
            block.push_str(line);
            block.push('\n');
        }
    }
    assert!(
        !blocks.is_empty(),
        "{name}: no diagnostic with a `cgl::` code in stderr:\n{stderr}"
    );
    for block in &blocks {
        assert!(
            block.contains("╭─["),
            "{name}: a diagnostic without a source snippet:\n{block}"
        );
        assert!(
            block.contains("help:"),
            "{name}: a diagnostic without help:\n{block}"
        );
    }
}

/// The codes shown in the committed fail-file snapshots (lines starting with `cgl::`).
fn codes_in_fail_snapshots() -> BTreeSet<String> {
    let dir = root().join("tests/snapshots");
    let mut codes = BTreeSet::new();
    for entry in std::fs::read_dir(&dir)
        .expect("read tests/snapshots")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("integration__diagnostics__fail_files@") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("snapshots are UTF-8");
        for line in text.lines().filter(|l| l.starts_with("cgl::")) {
            codes.insert(line.trim().to_string());
        }
    }
    codes
}

/// The issue's rule: every code has a fail file in tests/fail/ whose snapshot shows it, or
/// is listed in `NO_FAIL_FILE` with the reason none can exist. A listed code that a fail file
/// now produces must leave the list, so that the list says only what is true.
#[test]
fn every_code_has_a_fail_file_or_a_reason() {
    let produced = codes_in_fail_snapshots();
    for code in &produced {
        assert!(
            Code::from_name(code).is_some(),
            "a fail-file snapshot shows `{code}`, which is not in src/diag/codes/"
        );
    }
    let mut missing = Vec::new();
    for &code in Code::ALL {
        let listed = NO_FAIL_FILE.iter().find(|(c, _)| *c == code);
        match (produced.contains(code.name()), listed) {
            (true, Some(_)) => panic!("{code} has a fail file now: remove it from NO_FAIL_FILE"),
            (false, None) => missing.push(code.name()),
            _ => {}
        }
    }
    assert!(
        missing.is_empty(),
        "no fail file in tests/fail/ produces these codes: {missing:?}\nadd one per code \
         (then `INSTA_UPDATE=always cargo test --release --test integration diagnostics` and \
         review the new snapshot), or list the code in NO_FAIL_FILE with the reason none can"
    );
    for (code, reason) in NO_FAIL_FILE {
        assert!(!reason.is_empty(), "{code}: say why no file can produce it");
        let times = NO_FAIL_FILE.iter().filter(|(c, _)| c == code).count();
        assert_eq!(times, 1, "{code} is listed twice");
    }
}

/// spec/language.md §11 has one table row per code, `| `CODE` | summary |`, with the
/// catalogue's summary, and no row for a code the catalogue does not have.
#[test]
fn every_code_is_in_the_spec() {
    let spec = std::fs::read_to_string(root().join("spec/language.md")).expect("read the spec");
    let rows: Vec<(&str, &str)> = spec
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("| `cgl::")?;
            let (name, rest) = rest.split_once("` | ")?;
            let summary = rest.strip_suffix(" |")?;
            Some((&line[3..3 + "cgl::".len() + name.len()], summary))
        })
        .collect();
    for (name, _) in &rows {
        assert!(
            Code::from_name(name).is_some(),
            "spec/language.md has a row for `{name}`, which is not in src/diag/codes/"
        );
    }
    let mut missing = Vec::new();
    for &code in Code::ALL {
        let row = format!("| `{}` | {} |", code.name(), code.summary());
        match rows.iter().filter(|(n, _)| *n == code.name()).count() {
            0 => missing.push(row),
            1 => assert!(
                rows.contains(&(code.name(), code.summary())),
                "spec/language.md §11: the row of {code} must read\n{row}"
            ),
            _ => panic!("spec/language.md has two rows for {code}"),
        }
    }
    assert!(
        missing.is_empty(),
        "add these rows to the table of spec/language.md §11:\n{}",
        missing.join("\n")
    );
}

/// Ctrl-C in the REPL raises the session's stop flag; the computation running then ends with
/// `cgl::limit::interrupted`, and once the flag is lowered the session answers again.
#[test]
fn a_raised_stop_flag_interrupts() {
    let mut session = Session::new(SessionConfig::default());
    let file = session
        .load_source(
            "wythoff.game",
            "game W { position (a, b)  move (a - k, b) for k in 1..=a  \
             move (a, b - k) for k in 1..=b }",
        )
        .expect("the game loads");
    let stop = Stop::new();
    session.set_stop(stop.clone());
    stop.flag().store(true, Ordering::SeqCst);
    let diags = session
        .eval_text("grundy(W(300, 300))", &[file])
        .expect_err("a raised flag stops the analysis");
    assert_eq!(diags[0].code, Code::LimitInterrupted, "{diags:?}");
    stop.reset();
    let value = session.eval_text("grundy(W(3, 5))", &[file]);
    assert_eq!(value.map(|v| session.show(&v)).ok().as_deref(), Some("6"));
}
