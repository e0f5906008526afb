//! The progress line (issue 18): drawn on stderr while a query runs longer than a second, on
//! a terminal or where `CGL_PROGRESS=always` forces it; erased before any output, so what is
//! printed is the same with or without it; never drawn on a pipe otherwise. The line's text
//! and timing are unit-tested in src/progress.rs.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{assert_no_crash, root, wait_with_timeout};

/// A query that explores positions for well over a second (about 5 s of processor time, 2.5 s
/// on two threads; 11×11 now takes about half a second on two threads, before the line is
/// due). Its answer is C(24, 12) - 1: the boards that fit in 12×12, but the empty one.
const LONG: &str = "reachable(Chomp([12; 12]))";
const ANSWER: &str = "2704155\n";

/// Runs cgl with `args`, `CGL_PROGRESS` set to `mode` (or unset), stdin `input`.
fn run(mode: Option<&str>, args: &[&str], input: &str) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgl"));
    command
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match mode {
        Some(mode) => command.env("CGL_PROGRESS", mode),
        None => command.env_remove("CGL_PROGRESS"),
    };
    let mut child = command.spawn().expect("the cgl binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    wait_with_timeout(child, Duration::from_secs(120), "cgl")
}

/// A progress line as drawn: back to the start of the line, the text, clear to its end.
fn assert_drawn_and_erased(err: &str) {
    let first = err
        .find("\rcgl: ")
        .unwrap_or_else(|| panic!("no line: {err:?}"));
    let line = &err[first + 1..];
    let line = &line[..line.find('\x1b').unwrap_or(line.len())];
    assert!(
        line.contains(" positions, ") && line.contains("/s, ") && line.contains(" MiB, "),
        "{line:?}"
    );
    assert!(err.ends_with("\r\x1b[K"), "not erased at the end: {err:?}");
}

#[test]
fn eval_draws_the_line_only_when_asked_or_on_a_terminal() {
    let args = ["eval", "-f", "examples/chomp.game", LONG];
    let (code, out, err) = run(Some("always"), &args, "");
    assert_eq!((code, out.as_str()), (0, ANSWER), "{err}");
    assert_drawn_and_erased(&err);
    // On a pipe, by default: nothing at all.
    let (code, out, err) = run(None, &args, "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, ANSWER, ""));
    // `--no-progress` wins over the variable.
    let mut quiet = args.to_vec();
    quiet.push("--no-progress");
    let (code, out, err) = run(Some("always"), &quiet, "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, ANSWER, ""));
}

#[test]
fn check_and_the_repl_draw_it_too() {
    let dir = crate::common::temp_dir("progress-check");
    let file = dir.join("long.game");
    let chomp = std::fs::read_to_string(root().join("examples/chomp.game")).expect("chomp");
    std::fs::write(&file, format!("{chomp}\nexpect {LONG} == 2704155\n")).expect("written");
    let path = file.to_string_lossy().to_string();
    let (code, out, err) = run(Some("always"), &["check", "--jobs", "2", &path], "");
    assert_no_crash("check", &err);
    assert_eq!(code, 0, "{out}{err}");
    assert_drawn_and_erased(&err);
    assert!(err.contains("\rcgl: 0 of 1 files, "), "{err:?}");
    let (_, plain, _) = run(None, &["check", "--jobs", "2", &path], "");
    assert_eq!(out, plain, "the output differs with the line");

    let input = format!("{LONG}\n");
    let repl = ["repl", "examples/chomp.game"];
    let (code, out, err) = run(Some("always"), &repl, &input);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with(ANSWER), "{out}");
    assert_drawn_and_erased(&err);
    let (_, plain, _) = run(None, &repl, &input);
    assert_eq!(out, plain, "the output differs with the line");
}

#[test]
fn check_of_several_files_draws_what_its_child_processes_report() {
    // Each file is checked in a child process, which sends its progress on its stderr: the
    // line counts the positions the children explore.
    let dir = crate::common::temp_dir("progress-children");
    let chomp = std::fs::read_to_string(root().join("examples/chomp.game")).expect("chomp");
    for name in ["a.game", "b.game"] {
        let text = format!("{chomp}\nexpect {LONG} == 2704155\n");
        std::fs::write(dir.join(name), text).expect("written");
    }
    let path = dir.to_string_lossy().to_string();
    let (code, out, err) = run(Some("always"), &["check", "--jobs", "2", &path], "");
    assert_no_crash("check", &err);
    assert_eq!(code, 0, "{out}{err}");
    assert_drawn_and_erased(&err);
    let explored: Vec<u64> = err
        .split('\r')
        .filter_map(|l| l.strip_prefix("cgl: "))
        .filter_map(|l| l.split_once(" files, ")?.1.split_once(" positions"))
        .filter_map(|(n, _)| n.replace(',', "").parse().ok())
        .collect();
    assert!(
        explored.iter().any(|&n| n > 0),
        "no positions counted: {err:?}"
    );
    assert!(err.contains(" of 2 files, "), "{err:?}");
    let (_, plain, _) = run(None, &["check", "--jobs", "2", &path], "");
    assert_eq!(out, plain, "the output differs with the line");
}

/// On a real terminal (a pty made by `script`, as in tests/pictures.rs), with no variable:
/// the line appears, and is erased before the answer is printed.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_gets_the_line_by_default() {
    let cgl = env!("CARGO_BIN_EXE_cgl");
    let child = Command::new("script")
        .args(["-q", "-e", "-c"])
        .arg(format!("{cgl} eval -f examples/chomp.game '{LONG}'"))
        .arg("/dev/null")
        .current_dir(root())
        .env("TERM", "xterm")
        .env_remove("CGL_PROGRESS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs");
    let (code, out, err) = wait_with_timeout(child, Duration::from_secs(120), "script cgl eval");
    assert_no_crash("eval on a pty", &err);
    assert_eq!(code, 0, "{out:?}\n{err}");
    // Stdout and stderr share the pty: the line, erased, then the answer ("\r\n" on a pty).
    assert!(out.contains("\rcgl: "), "no line on a terminal: {out:?}");
    assert!(out.ends_with("\r\x1b[K2704155\r\n"), "{out:?}");
}
