//! Reliability II: deep recursion of any shape, long lines, files that are not regular or too
//! large, write errors, file names with control characters, and `check --confine` for files
//! that students wrote. Each test runs the `cgl` binary (or the library on a small stack) and
//! asserts what the user sees: a diagnostic with its code and a non-zero exit, never a crash.

use std::path::Path;
use std::time::{Duration, Instant};

use cgl::session::{Session, SessionConfig};

use crate::common::{assert_no_crash, cgl_in, temp_dir};

/// The example: 9,990 minus signs in front of the recursive call.
fn minus_chain(n: usize) -> String {
    format!(
        "fn f(n) = if n == 0 then 0 else {}f(n - 1)\nexpect f(100) == 0\n",
        "- ".repeat(n)
    )
}

/// Recursions whose every level nests deeply in a different way, each too deep for the
/// stack (or, `brackets`, for the call-depth limit); each must end in
/// `cgl::eval::recursion`, never in a stack overflow.
fn odd_shapes() -> Vec<(&'static str, String)> {
    let chain = |op: &str, n: usize| op.repeat(n);
    vec![
        ("minus", minus_chain(9_990)),
        (
            "not",
            format!(
                "fn f(n) = if n == 0 then true else {}f(n - 1)\nexpect f(100)\n",
                chain("not ", 9_990)
            ),
        ),
        (
            "sum_left",
            format!(
                "fn f(n) = if n == 0 then 0 else f(n - 1){}\nexpect f(100) == 0\n",
                chain(" + 0", 9_990)
            ),
        ),
        (
            "if_chain",
            format!(
                "fn f(n) = if n == 0 then 0 else {}f(n - 1){}\nexpect f(1000) == 0\n",
                chain("if true then ", 3_000),
                chain(" else 0", 3_000)
            ),
        ),
        (
            "brackets",
            format!(
                "fn f(n) = if n == 0 then 0 else {}f(n - 1){}\nexpect f(2000) == 0\n",
                "len([".repeat(60),
                "]) - 1".repeat(60)
            ),
        ),
        (
            "mutual",
            format!(
                "fn f(n) = if n == 0 then 0 else {}g(n - 1)\n\
                 fn g(n) = if n == 0 then 0 else {}f(n - 1)\n\
                 expect f(1000) == 0\n",
                chain("- ", 5_000),
                chain("- ", 5_000)
            ),
        ),
        (
            "in_rules",
            format!(
                "fn f(n) = if n == 0 then 0 else {}f(n - 1)\n\
                 game G {{ position n  move n - 1 if n > 0 and f(100) == 0 }}\n\
                 expect grundy(G(3)) == 1\n",
                chain("- ", 9_990)
            ),
        ),
        (
            "in_comprehension",
            format!(
                "fn f(n) = if n == 0 then 0 else sum([{}f(n - 1) for _ in 0..1])\n\
                 expect f(100) == 0\n",
                chain("- ", 9_990)
            ),
        ),
    ]
}

#[test]
fn deep_recursion_of_odd_shapes_is_a_diagnostic_in_check_run_and_eval() {
    let dir = temp_dir("odd-shapes");
    for (name, text) in odd_shapes() {
        let file = format!("{name}.game");
        std::fs::write(dir.join(&file), &text).unwrap();
        let (code, stdout, stderr) = cgl_in(&dir, &["check", &file]);
        assert_no_crash(name, &stderr);
        assert!(
            code == 1 && stderr.contains("cgl::eval::recursion"),
            "{name}: exit {code}\n{stdout}\n{stderr}"
        );
        let (code, _, stderr) = cgl_in(&dir, &["run", &file]);
        assert_no_crash(name, &stderr);
        assert_eq!(code, 1, "{name}: run\n{stderr}");
    }
    // The example, in all three commands: a diagnostic, exit 1.
    let (code, _, stderr) = cgl_in(&dir, &["check", "minus.game"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the stack ran out inside this call of `f`"),
        "{stderr}"
    );
    let (code, _, stderr) = cgl_in(&dir, &["run", "minus.game"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::eval::recursion"), "{stderr}");
    let (code, _, stderr) = cgl_in(&dir, &["eval", "-f", "minus.game", "f(100)"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::eval::recursion"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the stack runs out depends on the machine; the diagnostic points at the recursive
/// call, so it is the same bytes from run to run and for any `--jobs`.
#[test]
fn running_out_of_stack_is_reported_the_same_way_every_time() {
    let dir = temp_dir("stack-same");
    std::fs::write(dir.join("minus.game"), minus_chain(9_990)).unwrap();
    let first = cgl_in(&dir, &["check", "minus.game"]);
    let second = cgl_in(&dir, &["check", "--jobs", "2", "minus.game"]);
    assert_eq!(first, second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder with the crashing example among others: every file is reported, and the JSON
/// document is whole.
#[test]
fn a_deep_file_in_a_folder_loses_no_other_report() {
    let dir = temp_dir("stack-folder");
    std::fs::write(dir.join("a.game"), "expect 1 == 1\n").unwrap();
    std::fs::write(dir.join("b.game"), minus_chain(9_990)).unwrap();
    std::fs::write(dir.join("c.game"), "expect 2 == 2\n").unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--format", "json", "."]);
    assert_eq!(code, 1, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one whole JSON document");
    let files: Vec<(&str, &str)> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "file")
        .map(|r| (r["file"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        files,
        [("./a.game", "ok"), ("./b.game", "fail"), ("./c.game", "ok")]
    );
    assert_eq!(doc["summary"]["exit_code"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The library on a thread with the default 2 MiB stack: deep recursion used to overflow it
/// (the process aborted at a call depth of about 700); now the stack guard stops it.
#[test]
fn deep_recursion_on_a_small_stack_is_an_error_not_an_abort() {
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut s = Session::new(SessionConfig::default());
            let file = s
                .load_source(
                    "f.game",
                    "fn f(n) = if n == 0 then 0 else 1 + f(n - 1)\n\
                     fn g(n) = if n == 0 then 0 else - - - - - - - - - - - - - - - - g(n - 1)",
                )
                .unwrap();
            let mut codes = Vec::new();
            for expr in ["f(1999)", "g(1999)", "f(10)"] {
                codes.push(match s.eval_text(expr, &[file]) {
                    Ok(v) => s.show(&v),
                    Err(d) => d[0].code.to_string(),
                });
            }
            codes
        })
        .unwrap();
    let codes = worker.join().expect("no stack overflow");
    assert_eq!(
        codes,
        ["cgl::eval::recursion", "cgl::eval::recursion", "10"],
        "the guard stops deep recursion and leaves the session usable"
    );
}

/// Parsing, lowering and compiling statements as deeply nested as the syntax allows (10,000
/// chained operators, 200 brackets) on the default 2 MiB stack: they load; evaluating them
/// gives their value or, where the stack is too small, `cgl::eval::recursion`.
#[test]
fn the_deepest_statements_load_on_a_small_stack() {
    let text = format!(
        "const a = {}1\nconst b = {}true\nconst c = 0{}\nconst d = {}0{}\n\
         fn f(n) = {}n\ngame G {{ position n  move {}n - 1 if n > 0 }}\n",
        "- - ".repeat(4_999),
        "not not ".repeat(4_999),
        " + 0".repeat(9_999),
        "(".repeat(199),
        ")".repeat(199),
        "- - ".repeat(4_999),
        "- - ".repeat(4_999),
    );
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut s = Session::new(SessionConfig::default());
            let file = s.load_source("deep.game", &text).map_err(|d| d[0].code)?;
            let mut shown = Vec::new();
            for expr in [
                "a",
                "b",
                "c",
                "d",
                "f(1)",
                "grundy(G(2))",
                &"- ".repeat(9_999),
            ] {
                let expr = if expr.starts_with('-') {
                    format!("{expr}1")
                } else {
                    expr.to_string()
                };
                shown.push(match s.eval_text(&expr, &[file]) {
                    Ok(v) => s.show(&v),
                    Err(d) => d[0].code.to_string(),
                });
            }
            drop(s);
            Ok::<_, cgl::diag::Code>(shown)
        })
        .unwrap();
    let shown = worker
        .join()
        .expect("no stack overflow")
        .expect("the file loads");
    let want = ["1", "true", "0", "0", "1", "0", "-1"];
    for (got, want) in shown.iter().zip(want) {
        assert!(got == want || got == "cgl::eval::recursion", "{shown:?}");
    }
    assert_eq!(shown[3], "0", "200 brackets evaluate on a small stack");
}

/// Failed expectations whose labels are far to the right (past column 65,536, where miette
/// cannot draw) render, cut around the label, with the true line and column in the header.
#[test]
fn long_lines_render_cut_around_the_label() {
    let dir = temp_dir("long-lines");
    let cases = [
        // The case: a failed expectation starting past column 65,536.
        (
            "far.game",
            format!("expect {}1 == 2\n", " ".repeat(70_000)),
            1,
            "far.game:1:70008",
        ),
        // A name error at column 100,002 of a long list, on the second line, CRLF.
        (
            "name.game",
            format!("// a list\r\nconst xs = [{}x]\r\n", "1, ".repeat(33_330)),
            2,
            "name.game:2:100003",
        ),
        // Wide characters before the label: columns count characters.
        (
            "wide.game",
            format!(
                "const s = \"{}\"\nexpect {}len(s) == 0\n",
                "é".repeat(80_000),
                " ".repeat(66_000)
            ),
            1,
            "wide.game:2:66008",
        ),
        // Two labels far apart on one line: the window follows the first.
        (
            "apart.game",
            format!(
                "expect 1 {}== {}2\n",
                " ".repeat(70_000),
                " ".repeat(70_000)
            ),
            1,
            "apart.game:1:8",
        ),
    ];
    for (name, text, want, place) in &cases {
        std::fs::write(dir.join(name), text).unwrap();
        let (code, stdout, stderr) = cgl_in(&dir, &["check", name]);
        assert_no_crash(name, &stderr);
        assert_eq!(code, *want, "{name}\n{stdout}\n{stderr}");
        assert!(stderr.contains(&format!("[{place}]")), "{name}:\n{stderr}");
        assert!(stderr.contains('…'), "{name}: the line is cut\n{stderr}");
        let longest = stderr.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(longest < 400, "{name}: a line of {longest} characters");
        // JSON carries the rendered diagnostic too.
        let (_, json, stderr) = cgl_in(&dir, &["check", "--format", "json", name]);
        assert_no_crash(name, &stderr);
        serde_json::from_str::<serde_json::Value>(&json).expect("whole JSON");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

/// Devices and named pipes are refused before they are opened, and say why; a folder with a
/// pipe in it is checked to the end.
#[cfg(unix)]
#[test]
fn only_regular_files_are_read() {
    let dir = temp_dir("not-regular");
    mkfifo(&dir.join("pipe.game"));
    std::fs::create_dir(dir.join("class")).unwrap();
    mkfifo(&dir.join("class/b_pipe.game"));
    std::fs::write(dir.join("class/a.game"), "expect 1 == 1\n").unwrap();
    std::fs::write(dir.join("class/c.game"), "expect 2 == 2\n").unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.game")).unwrap();
    std::fs::write(dir.join("imports_zero.game"), "import \"zero.game\"\n").unwrap();
    std::fs::write(dir.join("imports_pipe.game"), "import \"pipe.game\"\n").unwrap();
    std::fs::write(dir.join("imports_dev.game"), "import \"/dev/zero\"\n").unwrap();
    let started = Instant::now();
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["check", "/dev/zero"],
            2,
            "is not a regular file: it is a device",
        ),
        (
            &["check", "pipe.game"],
            2,
            "is not a regular file: it is a named pipe",
        ),
        (&["check", "zero.game"], 2, "it is a device"),
        (&["check", "imports_zero.game"], 2, "it is a device"),
        (&["check", "imports_pipe.game"], 2, "it is a named pipe"),
        (&["check", "imports_dev.game"], 2, "cgl::load::not_game"),
        (&["run", "pipe.game"], 2, "it is a named pipe"),
        (&["eval", "-f", "/dev/zero", "1"], 2, "it is a device"),
        (
            &["check", "class"],
            2,
            "class/b_pipe.game` is not a regular file",
        ),
    ];
    for (args, want, says) in cases {
        let (code, stdout, stderr) = cgl_in(&dir, args);
        assert_no_crash(&format!("{args:?}"), &stderr);
        assert_eq!(code, *want, "{args:?}\n{stdout}\n{stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        if args[1] == "class" {
            assert!(stdout.contains("ok    class/a.game"), "{stdout}");
            assert!(stdout.contains("ok    class/c.game"), "{stdout}");
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "nothing blocks"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file over `--max-file-size` is refused, named or imported, before it is read whole.
#[test]
fn files_over_the_size_limit_are_refused() {
    let dir = temp_dir("too-large");
    // 1.5 MiB of comment lines: a valid file, over a limit of 1 MiB.
    let big = "// padding padding padding padding padding padding padding padding\n".repeat(24_000)
        + "expect 1 == 1\n";
    std::fs::write(dir.join("big.game"), &big).unwrap();
    std::fs::write(dir.join("uses_big.game"), "import \"big.game\"\n").unwrap();
    let (code, _, stderr) = cgl_in(&dir, &["check", "big.game"]);
    assert_eq!(code, 0, "under the default limit of 16 MiB: {stderr}");
    for file in ["big.game", "uses_big.game"] {
        let (code, _, stderr) = cgl_in(&dir, &["check", "--max-file-size", "1", file]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("cgl::load::too_large"), "{stderr}");
        assert!(
            stderr.contains("is larger than the limit of 1 MiB (it has 1.5 MiB)"),
            "{stderr}"
        );
        assert!(
            !stderr.contains("padding"),
            "nothing of it is quoted: {stderr}"
        );
    }
    let (_, _, stderr) = cgl_in(&dir, &["check", "--max-file-size", "1", "uses_big.game"]);
    assert!(stderr.contains("imported here"), "{stderr}");
    let (code, _, stderr) = cgl_in(
        &dir,
        &["eval", "--max-file-size", "1", "-f", "big.game", "1"],
    );
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = cgl_in(&dir, &["check", "--max-file-size", "0", "big.game"]);
    assert_eq!(code, 2, "a usage error: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `import` of a file that is not a .game file is refused before it is read, so that
/// nothing of it is quoted.
#[test]
fn imports_of_other_files_quote_nothing() {
    let dir = temp_dir("not-game");
    std::fs::write(dir.join("secret.txt"), "TOP-SECRET: the answers\n").unwrap();
    for (file, import) in [
        ("etc.game", "/etc/passwd"),
        ("txt.game", "secret.txt"),
        ("none.game", "secret"),
        ("folder.game", "."),
    ] {
        std::fs::write(
            dir.join(file),
            format!("import \"{import}\"\nexpect 1 == 1\n"),
        )
        .unwrap();
        let (code, _, stderr) = cgl_in(&dir, &["check", file]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("cgl::load::not_game"), "{stderr}");
        assert!(
            !stderr.contains("TOP-SECRET") && !stderr.contains("root:"),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cgl eval 1 > /dev/full` and the other commands fail when their output cannot be
/// written.
#[cfg(target_os = "linux")]
#[test]
fn write_errors_fail_with_a_message() {
    let dir = temp_dir("dev-full");
    std::fs::write(dir.join("a.game"), "print 1\nexpect 1 == 1\n").unwrap();
    let runs: &[&[&str]] = &[
        &["eval", "1"],
        &["run", "a.game"],
        &["check", "a.game"],
        &["check", "--format", "junit", "a.game"],
        &["check", "--format", "json", "a.game"],
        &["check", "--format", "github", "a.game"],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cgl"))
            .args(*args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .stdout(full)
            .output()
            .expect("cgl runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// File names with control characters (an escape sequence, a newline) are shown escaped,
/// so that they cannot drive the terminal or forge a line of the report.
#[cfg(unix)]
#[test]
fn control_characters_in_file_names_are_escaped() {
    let dir = temp_dir("ctl-names");
    std::fs::create_dir(dir.join("class")).unwrap();
    let names = ["red\u{1b}[31m.game", "two\nok    lines.game", "tab\t.game"];
    for name in names {
        std::fs::write(dir.join("class").join(name), "expect 1 == 2\n").unwrap();
    }
    for format in ["human", "github", "junit", "json"] {
        let (code, stdout, stderr) = cgl_in(&dir, &["check", "--format", format, "class"]);
        assert_eq!(code, 1, "{stderr}");
        for text in [&stdout, &stderr] {
            assert!(!text.contains('\u{1b}'), "{format}: a raw escape\n{text}");
            assert!(!text.contains("two\nok"), "{format}: a raw newline\n{text}");
        }
        if format == "human" {
            assert!(stdout.contains("class/red\\u{1b}[31m.game"), "{stdout}");
            assert!(stdout.contains("class/two\\nok    lines.game"), "{stdout}");
            assert!(stderr.contains("class/tab\\t.game"), "{stderr}");
        }
    }
    // A file named on the command line, not found: its name is escaped too.
    let (code, stdout, _) = cgl_in(&dir, &["check", "no\u{1b}such.game"]);
    assert_eq!(code, 2);
    assert!(stdout.contains("no\\u{1b}such.game"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The class's folder for the `--confine` tests: students' files inside `class/`, a secret
/// beside it that no way out may reach.
#[cfg(unix)]
fn confined_class(dir: &Path) {
    use std::os::unix::fs::symlink;
    let class = dir.join("class");
    std::fs::create_dir_all(class.join("lib")).unwrap();
    std::fs::write(
        dir.join("secret.game"),
        "// TOP-SECRET answers\nconst answer = 42\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("outside")).unwrap();
    std::fs::write(
        dir.join("outside/x.game"),
        "// TOP-SECRET too\nexpect 1 == 2\n",
    )
    .unwrap();
    std::fs::write(class.join("lib/moves.game"), "const k = 3\n").unwrap();
    std::fs::write(
        class.join("good.game"),
        "import \"lib/moves.game\"\nexpect k == 3\n",
    )
    .unwrap();
    let secret = dir.join("secret.game");
    let ways_out = [
        ("dotdot.game", "import \"../secret.game\"".to_string()),
        (
            "deep_dotdot.game",
            "import \"lib/../../secret.game\"".to_string(),
        ),
        (
            "inside_dotdot.game",
            "import \"lib/../good.game\"".to_string(),
        ),
        ("absolute.game", format!("import \"{}\"", secret.display())),
        ("via_link.game", "import \"link.game\"".to_string()),
        ("via_dir_link.game", "import \"dirlink/x.game\"".to_string()),
        ("second_hand.game", "import \"lib/leaks.game\"".to_string()),
    ];
    for (name, import) in ways_out {
        std::fs::write(class.join(name), format!("{import}\nexpect answer == 42\n")).unwrap();
    }
    std::fs::write(
        class.join("lib/leaks.game"),
        "import \"../../secret.game\"\n",
    )
    .unwrap();
    symlink(&secret, class.join("link.game")).unwrap();
    symlink(dir.join("outside"), class.join("dirlink")).unwrap();
}

/// Every way out of the confined folder is refused with `cgl::load::confined`, and nothing
/// outside it is read or quoted; the students' other files are checked as usual.
#[cfg(unix)]
#[test]
fn confine_refuses_every_way_out() {
    let dir = temp_dir("confine");
    confined_class(&dir);
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "--confine", "class", "class"]);
    assert_no_crash("confine", &stderr);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(!stderr.contains("TOP-SECRET") && !stdout.contains("TOP-SECRET"));
    assert!(!stderr.contains("answer = 42"), "{stderr}");
    for refused in [
        "class/absolute.game",
        "class/deep_dotdot.game",
        "class/dirlink",
        "class/dotdot.game",
        "class/inside_dotdot.game",
        "class/lib/leaks.game",
        "class/link.game",
        "class/second_hand.game",
        "class/via_dir_link.game",
        "class/via_link.game",
    ] {
        assert!(
            stdout.contains(&format!("error {refused} (could not be checked)")),
            "{refused}:\n{stdout}"
        );
    }
    assert!(stdout.contains("ok    class/good.game"), "{stdout}");
    assert!(stdout.contains("ok    class/lib/moves.game"), "{stdout}");
    assert_eq!(
        stderr.matches("cgl::load::confined").count(),
        10,
        "each way out is one refusal:\n{stderr}"
    );
    // The same files without --confine: the imports reach the secret (this is what the flag
    // prevents).
    let (_, _, stderr) = cgl_in(&dir, &["check", "class/dotdot.game"]);
    assert!(!stderr.contains("cgl::load::confined"), "{stderr}");
    // A file named on the command line outside the folder is refused too.
    let (code, _, stderr) = cgl_in(&dir, &["check", "--confine", "class", "secret.game"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cgl::load::confined"), "{stderr}");
    // The folder must exist.
    let (code, _, stderr) = cgl_in(&dir, &["check", "--confine", "nowhere", "class"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--confine nowhere"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under `--confine`, files are at most 1 MiB unless `--max-file-size` says otherwise.
#[test]
fn confine_limits_file_size_by_default() {
    let dir = temp_dir("confine-size");
    let big = "// padding padding padding padding padding padding padding padding\n".repeat(24_000)
        + "expect 1 == 1\n";
    std::fs::write(dir.join("big.game"), &big).unwrap();
    let (code, _, stderr) = cgl_in(&dir, &["check", "--confine", ".", "big.game"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("cgl::load::too_large"), "{stderr}");
    let (code, _, stderr) = cgl_in(
        &dir,
        &[
            "check",
            "--confine",
            ".",
            "--max-file-size",
            "2",
            "big.game",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under `--confine`, a file that would run forever stops after the default 10 seconds,
/// with no `--timeout` given.
#[test]
fn confine_limits_time_by_default() {
    let dir = temp_dir("confine-time");
    std::fs::write(
        dir.join("forever.game"),
        "expect forall i in 0..40000000, j in 0..40000000: i + j >= 0\n",
    )
    .unwrap();
    let started = Instant::now();
    let (code, _, stderr) = cgl_in(&dir, &["check", "--confine", ".", "forever.game"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::limit::timeout"), "{stderr}");
    assert!(stderr.contains("took longer than 10s"), "{stderr}");
    assert!(started.elapsed() >= Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lowering a file of many statements checks the deadline as it goes: a stop raised before
/// lowering starts ends it (with the stop's diagnostic alone) in a file of 5,000 statements,
/// and a file of fewer statements than one step lowers whole.
#[test]
fn lowering_checks_the_deadline() {
    use cgl::diag::{Code, Diag, FileId};
    let text: String = (0..5000).map(|i| format!("const C{i} = {i}\n")).collect();
    let parsed = cgl::syntax::parse_file(FileId(0), &text).unwrap();
    let mut program = cgl::lower::ir::Program::default();
    let mut checks = 0;
    let result = cgl::lower::lower_file(&mut program, &parsed, &[], &mut || {
        checks += 1;
        Err(Box::new(Diag::error(Code::LimitTimeout, "took too long")))
    });
    let errors = result.expect_err("the stop ends lowering");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, Code::LimitTimeout);
    assert_eq!(checks, 1);
    assert!(program.consts.is_empty(), "nothing half-lowered is kept");
    let small = cgl::syntax::parse_file(FileId(0), "const A = 1\nexpect A == 1\n").unwrap();
    let lowered = cgl::lower::lower_file(&mut program, &small, &[], &mut || {
        Err(Box::new(Diag::error(Code::LimitTimeout, "took too long")))
    });
    assert!(lowered.is_ok());
}
