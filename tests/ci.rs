//! `cgl check` as a class's CI runs it, unattended, on files written by students (issue 5): a
//! wrong file fails with a clear reason, a correct file never fails by accident, nothing
//! hangs or crashes, and a machine can read the result.
//!
//! Here: the machine formats (JSON, JUnit XML, GitHub annotations), exit codes, `--timeout`,
//! `--jobs` (same bytes with one worker or many, run after run), and odd files (binary,
//! control characters, a byte-order mark, megabytes, 20,000 games). Files are generated into
//! temp folders rather than committed when they are large, binary or many.

use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use crate::common::{assert_no_crash, cgl, cgl_in, root, temp_dir};

/// `cgl check --format json ARGS...`: the exit code and the parsed document.
fn check_json(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = cgl_in(dir, &all);
    assert_no_crash("check --format json", &stderr);
    assert_eq!(stderr, "", "the JSON format writes nothing to stderr");
    let doc: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"));
    assert_eq!(doc["format"], "cgl-check");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["summary"]["exit_code"], code, "{stdout}");
    (code, doc)
}

fn records<'a>(doc: &'a Value, kind: &str) -> Vec<&'a Value> {
    doc["records"]
        .as_array()
        .expect("records is an array")
        .iter()
        .filter(|r| r["kind"] == kind)
        .collect()
}

/// Byte offset of a 1-based line and (character) column.
fn offset(text: &str, line: u64, column: u64) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line as usize - 1)
        .map(str::len)
        .sum();
    let rest = &text[line_start..];
    line_start
        + rest
            .char_indices()
            .nth(column as usize - 1)
            .map_or(rest.len(), |(i, _)| i)
}

/// `cgl check examples`, in the human format and in JSON, twice each: the same bytes every
/// time (files are checked in parallel, on as many workers as there are cores), and the JSON
/// has a record for every expectation of the examples.
#[test]
fn examples_give_the_same_bytes_every_run_and_json_has_every_expectation() {
    for format in ["human", "json"] {
        let args = ["check", "--format", format, "examples"];
        let first = cgl(&args);
        let second = cgl(&args);
        assert_eq!(
            first, second,
            "cgl check --format {format}: two runs differ"
        );
        if format == "json" {
            json_has_every_expectation(&first.1);
        }
    }
}

fn json_has_every_expectation(stdout: &str) {
    let doc: Value = serde_json::from_str(stdout).expect("stdout is JSON");
    assert_eq!(doc["summary"]["exit_code"], 0);
    let expects = records(&doc, "expect");
    let files = records(&doc, "file");

    // As many records as `expect` statements in examples/, each of a file that passed.
    let mut n_statements = 0;
    let mut folders = vec![root().join("examples")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "game") {
                let text = std::fs::read_to_string(&path).unwrap();
                n_statements += text
                    .lines()
                    .filter(|l| l.trim_start().starts_with("expect "))
                    .count();
            }
        }
    }
    assert!(n_statements >= 150, "{n_statements}");
    assert_eq!(expects.len(), n_statements);
    assert_eq!(doc["summary"]["passed"], n_statements);
    assert_eq!(
        files.len(),
        doc["summary"]["files"].as_u64().unwrap() as usize
    );
    assert!(files.iter().all(|f| f["status"] == "ok"));

    // Each record names its file, line, column and the expression as written there.
    let mut sources = std::collections::BTreeMap::new();
    for record in &expects {
        assert_eq!(record["status"], "pass", "{record}");
        let file = record["file"].as_str().unwrap();
        assert!(
            file.starts_with("examples/") && file.ends_with(".game"),
            "{file}"
        );
        let text = sources
            .entry(file.to_string())
            .or_insert_with(|| std::fs::read_to_string(root().join(file)).unwrap());
        let start = offset(
            text,
            record["line"].as_u64().unwrap(),
            record["column"].as_u64().unwrap(),
        );
        let expression = record["text"].as_str().unwrap();
        assert!(!expression.is_empty());
        assert!(
            text[start..].starts_with(expression),
            "{file}:{}:{}: `{expression}` is not there",
            record["line"],
            record["column"]
        );
        // After `expect`, or after an exercise's grade (`expect 3 points hide "...":`).
        let before = text[..start].trim_end();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let graded = before.ends_with(':') && before[line_start..].starts_with("expect ");
        assert!(before.ends_with("expect") || graded, "{record}");
    }
}

#[test]
fn json_reports_values_of_failures_and_files_that_cannot_be_checked() {
    let dir = temp_dir("json-failures");
    std::fs::write(
        dir.join("a.game"),
        "game Nim { position n  move k for k in 0..n }\n\
         expect grundy(Nim(3) + Nim(5)) == 7\n\
         expect Nim(3) is P\n\
         expect 1 / 0 == 1\n\
         expect 1 + 1\n\
         expect Nim(0) is P\n",
    )
    .unwrap();
    std::fs::write(dir.join("b.game"), "expect (1 == 1\n").unwrap();
    let (code, doc) = check_json(&dir, &["a.game", "b.game", "nope.game"]);
    assert_eq!(code, 2);

    let expects = records(&doc, "expect");
    let statuses: Vec<&str> = expects
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["fail", "fail", "fail", "fail", "pass"]);

    let sum = expects[0];
    assert_eq!(
        (&sum["line"], &sum["column"], &sum["text"]),
        (
            &Value::from(2),
            &Value::from(8),
            &Value::from("grundy(Nim(3) + Nim(5)) == 7")
        )
    );
    assert_eq!(sum["code"], "cgl::check::failed");
    assert_eq!(sum["message"], "expectation failed");
    assert_eq!(
        (
            &sum["value"],
            &sum["operator"],
            &sum["actual"],
            &sum["expected"]
        ),
        (
            &Value::from("false"),
            &Value::from("=="),
            &Value::from("6"),
            &Value::from("7")
        )
    );
    let diagnostic = &sum["diagnostic"];
    assert_eq!(diagnostic["line"], 2);
    assert!(diagnostic["rendered"]
        .as_str()
        .unwrap()
        .contains("╭─[a.game:2:8]"));
    assert_eq!(diagnostic["labels"][0]["message"], "this is 6");

    // `is`: the actual value is the outcome the position has.
    let is = expects[1];
    assert_eq!(
        (&is["operator"], &is["actual"], &is["expected"]),
        (&Value::from("is"), &Value::from("N"), &Value::from("P"))
    );
    // An error has a code and a message, and no values.
    assert_eq!(expects[2]["code"], "cgl::eval::division_by_zero");
    assert!(expects[2].get("actual").is_none());
    // Not a boolean: the value is what it was.
    assert_eq!(expects[3]["code"], "cgl::check::not_boolean");
    assert_eq!(expects[3]["value"], "2");

    let files = records(&doc, "file");
    let statuses: Vec<(&str, &str)> = files
        .iter()
        .map(|r| (r["file"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        [
            ("a.game", "fail"),
            ("b.game", "error"),
            ("nope.game", "error")
        ]
    );
    assert_eq!(
        files[1]["diagnostics"][0]["code"],
        "cgl::syntax::unbalanced"
    );
    assert_eq!(files[1]["diagnostics"][0]["line"], 1);
    assert_eq!(files[2]["diagnostics"][0]["code"], "cgl::load::unreadable");
    assert_eq!(
        doc["summary"],
        serde_json::json!({"files": 3, "passed": 1, "failed": 4, "skipped": 0,
                           "not_checked": 2, "exit_code": 2})
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts of one JUnit element: (tests, failures, errors, skipped).
fn junit_counts(node: roxmltree::Node) -> (usize, usize, usize, usize) {
    let attr = |name: &str| node.attribute(name).unwrap().parse::<usize>().unwrap();
    (
        attr("tests"),
        attr("failures"),
        attr("errors"),
        attr("skipped"),
    )
}

#[test]
fn junit_is_well_formed_with_the_right_counts() {
    let (code, stdout, stderr) = cgl(&[
        "check",
        "--format",
        "junit",
        "--max-positions",
        "1000",
        "tests/cli",
        "tests/fail",
    ]);
    assert_no_crash("junit", &stderr);
    assert_eq!((code, stderr.as_str()), (2, ""));
    let doc = roxmltree::Document::parse(&stdout)
        .unwrap_or_else(|e| panic!("not well-formed XML ({e}):\n{stdout}"));
    let root_node = doc.root_element();
    assert_eq!(root_node.tag_name().name(), "testsuites");

    let mut sums = (0, 0, 0, 0);
    let suites: Vec<_> = root_node.children().filter(|n| n.is_element()).collect();
    for suite in &suites {
        assert_eq!(suite.tag_name().name(), "testsuite");
        // Test cases, then (for a file with warnings) one `<system-err>`.
        let mut cases: Vec<_> = suite.children().filter(|n| n.is_element()).collect();
        if cases
            .last()
            .is_some_and(|n| n.tag_name().name() == "system-err")
        {
            cases.pop();
        }
        let count = |tag: &str| {
            cases
                .iter()
                .filter(|c| c.children().any(|x| x.tag_name().name() == tag))
                .count()
        };
        let counted = (
            cases.len(),
            count("failure"),
            count("error"),
            count("skipped"),
        );
        assert_eq!(
            junit_counts(*suite),
            counted,
            "{:?}",
            suite.attribute("name")
        );
        sums.0 += counted.0;
        sums.1 += counted.1;
        sums.2 += counted.2;
        sums.3 += counted.3;
        for case in &cases {
            assert_eq!(case.tag_name().name(), "testcase");
            assert_eq!(case.attribute("classname"), suite.attribute("name"));
        }
    }
    assert_eq!(junit_counts(root_node), sums);

    // One suite per file; the numbers agree with the human format.
    let (_, human, _) = cgl(&[
        "check",
        "--max-positions",
        "1000",
        "tests/cli",
        "tests/fail",
    ]);
    let lines: Vec<&str> = human.lines().collect();
    assert_eq!(suites.len(), lines.len() - 1);
    let not_checked = lines.iter().filter(|l| l.starts_with("error ")).count();
    assert_eq!(sums.2, not_checked);
    let summary = format!(
        "{} passed, {} failed",
        sums.0 - sums.1 - sums.2 - sums.3,
        sums.1 + sums.2 + sums.3
    );
    assert_eq!(lines.last(), Some(&summary.as_str()));

    // A failure carries the rendered diagnostic; an error the reason the file was not checked.
    let failure = doc
        .descendants()
        .find(|n| n.tag_name().name() == "failure")
        .unwrap();
    assert!(failure.attribute("type").unwrap().starts_with("cgl::"));
    assert!(failure.text().unwrap().contains("╭─["));
    let error = doc
        .descendants()
        .find(|n| n.tag_name().name() == "error")
        .unwrap();
    assert!(error.attribute("message").is_some());
}

#[test]
fn github_annotations_point_at_the_problems() {
    let dir = temp_dir("github");
    std::fs::write(dir.join("a.game"), "expect 1 == 1\nexpect 2 + 2 == 5\n").unwrap();
    std::fs::write(dir.join("b.game"), "expect 1 ==\n").unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--format", "github", "a.game", "b.game"]);
    assert_eq!(code, 2);
    // The human format is all there, for the log; the annotations are extra lines.
    assert!(stderr.contains("cgl::check::failed"), "{stderr}");
    let annotations: Vec<&str> = stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), 2, "{stdout}");
    assert!(
        annotations[0].starts_with(
            "::error file=a.game,line=2,col=8,endLine=2,endColumn=13,title=cgl%3A%3Acheck%3A%3Afailed::`expect 2 + 2 == 5`: expectation failed%0A"
        ),
        "{}",
        annotations[0]
    );
    assert!(
        annotations[0].contains("this is 4%0Athis is 5"),
        "{}",
        annotations[0]
    );
    assert!(
        annotations[1].starts_with("::error file=b.game,line=1,col="),
        "{}",
        annotations[1]
    );
    assert!(!annotations.iter().any(|a| a.contains('\n')));
    let plain: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("::")).collect();
    assert_eq!(
        plain,
        [
            "FAIL  a.game (1 passed, 1 failed)",
            "error b.game (could not be checked)",
            "1 passed, 2 failed"
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Failures and files that cannot be checked come out the same way every run too, in every
/// format.
#[test]
fn failures_give_the_same_bytes_every_run() {
    for format in ["human", "json", "junit", "github"] {
        let args = [
            "check",
            "--format",
            format,
            "--max-positions",
            "1000",
            "tests/fail",
            "tests/cli",
        ];
        let first = cgl(&args);
        let second = cgl(&args);
        assert_eq!(
            first, second,
            "cgl check --format {format}: two runs differ"
        );
    }
}

/// A class's exercise set: 500 small files (a few milliseconds of work each: the Queen game
/// has hundreds of positions), mostly right, some with a wrong expectation, some that do not
/// parse. Checked with one worker and with two, the output is the same bytes; the
/// times are printed (`cargo test --release ci::five_hundred -- --nocapture`), not asserted,
/// because the machine may be busy.
#[test]
fn five_hundred_files_give_the_same_output_with_one_job_or_two() {
    let dir = temp_dir("exercises");
    for i in 0..500 {
        let student = dir.join(format!("student{:03}", i / 5));
        std::fs::create_dir_all(&student).unwrap();
        let k = 2 + i % 4;
        let mut text = format!(
            "// exercise {i}\n\
             game Take{k} {{\n    position n\n    move n - j for j in 1..=min(n, {k})\n}}\n\
             game Kayles {{\n    position n\n    \
             move split(a, n - 1 - a) for a in 0..n\n    \
             move split(a, n - 2 - a) for a in 0..n - 1\n}}\n\
             game Queen {{\n    position (a, b)\n    move (a - j, b) for j in 1..=a\n    \
             move (a, b - j) for j in 1..=b\n    \
             move (a - j, b - j) for j in 1..=min(a, b)\n}}\n\
             expect forall n in 0..60: grundy(Take{k}(n)) == n % {}\n\
             expect grundy(Kayles({})) == grundy(Kayles({}))\n\
             expect Queen({}, 25) is N\n",
            k + 1,
            20 + i % 30,
            20 + i % 30,
            20 + i % 10,
        );
        if i % 7 == 3 {
            text.push_str(&format!("expect Take{k}({}) is N\n", k + 1));
        }
        if i % 50 == 17 {
            text.push_str("expect (Take2(1) is N\n");
        }
        std::fs::write(student.join(format!("exercise{}.game", i % 5)), text).unwrap();
    }
    let mut runs = Vec::new();
    for jobs in ["1", "2"] {
        let started = Instant::now();
        let result = cgl_in(&dir, &["check", "--jobs", jobs, "."]);
        let elapsed = started.elapsed();
        assert_no_crash("exercises", &result.2);
        println!("500 files with --jobs {jobs}: {elapsed:?}");
        runs.push((result, elapsed));
    }
    let ((code, stdout, stderr), one) = &runs[0];
    let (two_result, two) = &runs[1];
    assert_eq!(&(*code, stdout.clone(), stderr.clone()), two_result);
    println!(
        "speed-up with 2 jobs: {:.2}x",
        one.as_secs_f64() / two.as_secs_f64()
    );
    assert_eq!(*code, 2);
    assert_eq!(stdout.lines().count(), 501);
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("error ")).count(),
        10
    );
    // 71 files have a wrong expectation; 2 of them (17 and 367) do not parse either.
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("FAIL ")).count(),
        69
    );
    assert_eq!(stdout.lines().last(), Some("1470 passed, 79 failed"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn timeout_stops_a_file_and_the_others_go_on() {
    let dir = temp_dir("timeout");
    let slow = "game Wythoff {\n    position (a, b)\n    move (a - k, b) for k in 1..=a\n    \
                move (a, b - k) for k in 1..=b\n    move (a - k, b - k) for k in 1..=min(a, b)\n}\n\
                expect Wythoff(1, 2) is P\n\
                expect grundy(Wythoff(3000, 3000)) > 0\n\
                expect Wythoff(2, 1) is P\n";
    std::fs::write(dir.join("slow.game"), slow).unwrap();
    std::fs::write(
        dir.join("loop.game"),
        "expect forall a in 0..40000000, b in 0..40000000: a + b >= 0\n",
    )
    .unwrap();
    std::fs::write(dir.join("quick.game"), "expect 1 + 1 == 2\n").unwrap();

    let started = Instant::now();
    let (code, doc) = check_json(
        &dir,
        &["--timeout", "0.3", "loop.game", "quick.game", "slow.game"],
    );
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    assert_eq!(code, 1);
    let statuses: Vec<(&str, &str)> = records(&doc, "expect")
        .iter()
        .map(|r| {
            (
                r["status"].as_str().unwrap(),
                r["code"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("fail", "cgl::limit::timeout"),
            ("pass", ""),
            ("pass", ""),
            ("fail", "cgl::limit::timeout"),
            ("skipped", "cgl::limit::timeout"),
        ]
    );
    assert_eq!(doc["summary"]["skipped"], 1);

    // The human format says which expectations were not run; the summary counts them.
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--timeout", "0.3", "slow.game"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "FAIL  slow.game (1 passed, 2 failed)\n1 passed, 2 failed\n"
    );
    assert!(stderr.contains("× took longer than 300ms"), "{stderr}");
    assert!(
        stderr.contains("note: 1 more expectation in slow.game was not checked"),
        "{stderr}"
    );

    // `run` and `eval` honour it too.
    let (code, _, stderr) = cgl_in(&dir, &["run", "--timeout", "0.3", "loop.game"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("cgl::limit::timeout"), "{stderr}");
    let (code, _, stderr) = cgl_in(
        &dir,
        &[
            "eval",
            "--timeout",
            "0.3",
            "-f",
            "slow.game",
            "outcome(Wythoff(3000, 3000))",
        ],
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("cgl::limit::timeout"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checks one generated file; returns (exit code, stdout, stderr).
fn check_generated(dir: &Path, name: &str, bytes: &[u8]) -> (i32, String, String) {
    std::fs::write(dir.join(name), bytes).unwrap();
    let result = cgl_in(dir, &["check", name]);
    assert_no_crash(name, &result.2);
    result
}

#[test]
fn binary_files_and_control_characters_are_refused_without_echoing_them() {
    let dir = temp_dir("binary");
    let mut binary: Vec<u8> = (0u8..=255).collect();
    binary.extend_from_slice(b"expect 1 == 1\n");
    let (code, stdout, stderr) = check_generated(&dir, "picture.game", &binary);
    assert_eq!(code, 2);
    assert_eq!(
        stdout,
        "error picture.game (could not be checked)\n0 passed, 1 failed\n"
    );
    // Not UTF-8 is found first here; a file that is UTF-8 but holds NUL bytes is binary too.
    assert!(stderr.contains("cgl::load::unreadable"), "{stderr}");
    let (code, _, stderr) = check_generated(&dir, "nul.game", b"expect 1 == 1\0\0\0\n");
    assert_eq!(code, 2);
    insta::assert_snapshot!(stderr, @r"
    cgl::load::binary

      × `nul.game` is a binary file, not text (a NUL byte at line 1, column 14)
      help: cgl reads .game files as UTF-8 text; check that this is the file you
            meant
    ");

    // An escape sequence in a file would reach the terminal if a diagnostic quoted it.
    let (code, _, stderr) = check_generated(
        &dir,
        "escape.game",
        b"expect 1 == 1\nexpect \"\x1b[2J\" == \"\"\n",
    );
    assert_eq!(code, 2);
    assert!(!stderr.contains('\x1b'));
    insta::assert_snapshot!(stderr, @r"
    cgl::load::binary

      × `escape.game` contains the control character U+001B at line 2, column 9
      help: remove it: a .game file may hold printable characters, tabs and line
            breaks only
    ");
    // So is a bidirectional override, which makes code display in another order.
    let (code, _, stderr) = check_generated(
        &dir,
        "bidi.game",
        "expect \"\u{202e}ab\" == \"\"\n".as_bytes(),
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("bidirectional control character U+202E at line 1,"),
        "{stderr}"
    );
    // Imported, it is reported at the import.
    std::fs::write(
        dir.join("importer.game"),
        "import \"escape.game\"\nexpect 1 == 1\n",
    )
    .unwrap();
    let (code, _, stderr) = cgl_in(&dir, &["check", "importer.game"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("imported here"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Windows editors save UTF-8 with a byte-order mark and CRLF line ends; tabs indent. None of
/// that makes a correct file fail.
#[test]
fn byte_order_mark_crlf_and_tabs_are_fine() {
    let dir = temp_dir("bom");
    let text = "\u{feff}// saved by Notepad\r\ngame Nim {\r\n\tposition n\r\n\tmove k for k in 0..n\r\n}\r\n\
                expect grundy(Nim(3)) == 3\r\nexpect Nim(0) is P\r\n";
    let (code, stdout, stderr) = check_generated(&dir, "notepad.game", text.as_bytes());
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout.lines().last(), Some("2 passed, 0 failed"));
    // Positions in diagnostics count from after the mark.
    let wrong = "\u{feff}expect 1 == 2\n";
    let (code, doc) = {
        std::fs::write(dir.join("wrong.game"), wrong).unwrap();
        check_json(&dir, &["wrong.game"])
    };
    assert_eq!(code, 1);
    assert_eq!(records(&doc, "expect")[0]["column"], 8);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Megabytes of source: a 6 MB file of constants and a 3 MB string literal are read, parsed
/// and checked in seconds, and an error at its very end is still found and shown.
#[test]
fn huge_files_are_checked_quickly() {
    let dir = temp_dir("huge");
    let mut text = String::from("// 100,000 constants\n");
    for i in 0..100_000 {
        text.push_str(&format!(
            "const C{i} = {i} + 1 // a comment to make the line longer\n"
        ));
    }
    text.push_str("expect C99999 == 100000\n");
    text.push_str(&format!(
        "expect len(\"{}\") == 3000000\n",
        "a".repeat(3_000_000)
    ));
    assert!(text.len() > 8_000_000);
    let started = Instant::now();
    let (code, stdout, stderr) = check_generated(&dir, "huge.game", text.as_bytes());
    assert_eq!((code, stderr.as_str()), (0, ""), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("2 passed, 0 failed"));
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());

    text.push_str("expect C5 == C6\n");
    let (code, _, stderr) = check_generated(&dir, "huge.game", text.as_bytes());
    assert_eq!(code, 1);
    assert!(stderr.contains("╭─[huge.game:100004:8]"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn twenty_thousand_games_in_one_file() {
    let dir = temp_dir("many-games");
    let games = |n: usize| {
        let mut text = String::new();
        for i in 0..n {
            let k = i % 5 + 1;
            text.push_str(&format!(
                "game Take{i} {{\n    position n\n    move n - j for j in 1..=min(n, {k})\n}}\n\
                 expect grundy(Take{i}(7)) == 7 % {}\n",
                k + 1
            ));
        }
        text.push_str(&format!("expect Take{}(6) is P\n", n - 1));
        text
    };
    let timed = |name: &str, n: usize| {
        let started = Instant::now();
        let (code, stdout, stderr) = check_generated(&dir, name, games(n).as_bytes());
        let elapsed = started.elapsed();
        assert_eq!((code, stderr.as_str()), (0, ""));
        let summary = format!("{} passed, 0 failed", n + 1);
        assert_eq!(stdout.lines().last(), Some(summary.as_str()));
        elapsed
    };
    let small = timed("few.game", 2_000);
    let large = timed("many.game", 20_000);
    println!("2,000 games: {small:?}, 20,000 games: {large:?}");
    // About 1.5 s for 20,000. Linear work grows 10× from 2,000 to 20,000 games, quadratic
    // 100×: the ratio tells them apart whatever the machine's load (a wall-clock bound alone
    // failed on a loaded machine). Finding each expectation's line by scanning the file from
    // its start took 8 s for 10,000; summing every game's memo table at each new one, and
    // asking every game whether it is loopy at each query, 6.4 s for 20,000 (46×).
    assert!(
        large.as_secs_f64() < 20.0 * small.as_secs_f64() + 0.5,
        "{small:?} for 2,000 games, {large:?} for 20,000"
    );
    assert!(large.as_secs() < 60, "{large:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder without .game files is an error, not a pass: CI pointed at the wrong folder must
/// not pass by checking nothing.
#[test]
fn a_folder_without_game_files_cannot_be_checked() {
    let dir = temp_dir("no-game-files");
    std::fs::create_dir_all(dir.join("submissions/alice")).unwrap();
    std::fs::write(dir.join("submissions/alice/notes.txt"), "expect 1 == 1\n").unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "submissions"]);
    assert_eq!(code, 2);
    assert_eq!(
        stdout,
        "error submissions (could not be checked)\n0 passed, 1 failed\n"
    );
    assert_eq!(stderr, "error: no .game files in the folder submissions\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder that links back to itself is listed once, not until the path gets too long.
#[cfg(unix)]
#[test]
fn folders_that_link_to_themselves() {
    let dir = temp_dir("symlink-loop");
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("a/x.game"), "expect 1 == 1\n").unwrap();
    std::os::unix::fs::symlink("..", dir.join("a/up")).unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "a"]);
    assert_no_crash("symlink loop", &stderr);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().last(),
        Some("1 passed, 0 failed"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Operators chained without brackets (`not not ... true`, `1 + 1 + ...`) and nested keyword
/// forms (`if ... else if ...`) deepen the expression tree as brackets do; a statement deeper
/// than the limit is refused with `cgl::syntax::too_deep` before anything recurses over it, so
/// such a file cannot overflow the stack and take the other files of the run with it.
#[test]
fn deep_operator_chains_are_refused() {
    let dir = temp_dir("deep-operators");
    std::fs::write(
        dir.join("nots.game"),
        format!("expect {}true\n", "not ".repeat(1_000_000)),
    )
    .unwrap();
    std::fs::write(
        dir.join("ifs.game"),
        format!("expect {}false\n", "if true then true else ".repeat(30_000)),
    )
    .unwrap();
    std::fs::write(dir.join("ok.game"), "expect 1 == 1\n").unwrap();
    let started = Instant::now();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "ifs.game", "nots.game", "ok.game"]);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_no_crash("deep operators", &stderr);
    assert_eq!(
        stderr.matches("cgl::syntax::too_deep").count(),
        2,
        "{stderr}"
    );
    assert_eq!(
        stdout,
        "error ifs.game (could not be checked)\nerror nots.game (could not be checked)\nok    ok.game (1 passed, 0 failed)\n1 passed, 2 failed\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Building a large list (`[0; n]`) is work the deadline sees: `len([0; 10000000])` under a
/// 50 ms deadline ends as a timeout, not as a wrong answer.
#[test]
fn large_lists_respect_the_deadline() {
    let dir = temp_dir("large-list");
    std::fs::write(dir.join("list.game"), "expect len([0; 10000000]) == 1\n").unwrap();
    let (code, _, stderr) = cgl_in(&dir, &["check", "--timeout", "0.05", "list.game"]);
    assert_no_crash("large list", &stderr);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::limit::timeout"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A budget too large to add to the clock never runs out (and does not panic).
#[test]
fn stop_after_a_huge_budget_never_fires() {
    let stop = cgl::eval::Stop::after(std::time::Duration::MAX);
    assert!(stop.check().is_ok());
}

/// The JSON and JUnit writers, byte for byte, on files that exercise every record and element:
/// a passing file, a failed comparison (values in JSON), a multi-line expectation, text that
/// needs escaping (quotes, an apostrophe, `<`, `&`, a tab, non-ASCII), a warning (an empty
/// file), a syntax error, a missing import, a path that does not exist, and expectations
/// skipped after a timeout. The snapshots pin the output schema: a change of writer (or of
/// library) must leave them as they are.
#[test]
fn machine_formats_byte_for_byte() {
    let dir = temp_dir("formats-bytes");
    let files: &[(&str, &str)] = &[
        (
            "pass.game",
            "game Nim {\n    position n\n    move k for k in 0..n\n}\n\nexpect Nim(3) is N\nexpect grundy(Nim(2) + Nim(2)) == 0\n",
        ),
        (
            "fail.game",
            "game Nim {\n    position n\n    move k for k in 0..n\n}\n\nexpect grundy(Nim(3) + Nim(5)) == 7\nexpect [grundy(Nim(n))\n    for n in 0..3] == [0, 1, 3]\nexpect Nim(1) is N\n",
        ),
        (
            "escapes.game",
            "// it's <text> & \"quotes\"\nexpect \"it's <a & b>\" == \"say \\\"hi\\\"\\there, é →\"\nexpect 1 / 0 == 0\n",
        ),
        ("empty.game", "// nothing yet\n"),
        ("syntax.game", "expect (1 + 2 == 3\n"),
        ("import.game", "import \"missing.game\"\n\nexpect 1 == 1\n"),
        (
            "slow.game",
            "game W {\n    position (a, b)\n    move (a - k, b) for k in 1..=a\n    move (a, b - k) for k in 1..=b\n    move (a - k, b - k) for k in 1..=min(a, b)\n}\n\nexpect W(1, 2) is P\nexpect grundy(W(3000, 3000)) > 0\nexpect W(2, 1) is P\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write a file");
    }
    let mut names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    names.insert(5, "nope.game");
    for format in ["json", "junit"] {
        let mut args = vec![
            "check",
            "--format",
            format,
            "--jobs",
            "1",
            "--timeout",
            "0.3",
        ];
        args.extend(&names);
        let (code, stdout, stderr) = cgl_in(&dir, &args);
        assert_no_crash(format, &stderr);
        assert_eq!((code, stderr.as_str()), (2, ""), "{format}");
        insta::with_settings!({ description => format!("cgl check --format {format}"), omit_expression => true }, {
            insta::assert_snapshot!(format!("machine_formats_{format}"), stdout);
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
}
