//! Reliability III: hostile inputs. Whatever a file quotes back stays small (a name a megabyte
//! long is cut in every message), and every documented limit holds (`--max-memory` measured
//! as the peak resident memory of a child process per case, `--timeout` as its wall time).

use std::time::{Duration, Instant};

use crate::common::{assert_no_crash, cgl_in, temp_dir};

/// Characters of the long names below.
const LONG: usize = 1_000_000;

/// Each way a file can make a message quote one of its names or tokens, with the name made
/// long: (what, the file's text).
fn long_quotes() -> Vec<(&'static str, String)> {
    let name = format!("x{}", "y".repeat(LONG - 1));
    let game = format!("G{}", "g".repeat(LONG - 1));
    vec![
        ("unknown name", format!("expect {name} == 1\n")),
        (
            "duplicate game",
            format!(
                "game {game} {{ position n  move n - 1 if n > 0 }}\ngame {game} {{ position n }}\n"
            ),
        ),
        (
            "unknown field",
            format!("game G {{ position n  move n - 1 if n > 0 }}\nexpect G(1).{name} == 1\n"),
        ),
        (
            "wrong arity",
            format!("fn {name}(a) = a\nexpect {name}(1, 2) == 1\n"),
        ),
        (
            "an import of a missing file",
            format!("import \"{name}.game\"\nexpect 1 == 1\n"),
        ),
        (
            "failed expectation",
            format!("expect \"{name}\" == \"a\"\n"),
        ),
    ]
}

/// The most bytes a report of one such file may take on stderr (or in a JSON document).
const MOST: usize = 40 << 10;

#[test]
fn long_names_are_cut_in_every_message() {
    let dir = temp_dir("hostile-names");
    for (what, text) in long_quotes() {
        std::fs::write(dir.join("long.game"), &text).unwrap();
        for format in ["human", "json", "junit"] {
            let started = Instant::now();
            let (code, stdout, stderr) = cgl_in(&dir, &["check", "--format", format, "long.game"]);
            assert_no_crash(what, &stderr);
            // 1 for a failed expectation, 2 for a file that could not be checked.
            assert!(code == 1 || code == 2, "{what} ({format}): exit {code}");
            assert!(
                stdout.len() + stderr.len() < MOST,
                "{what} ({format}): {} bytes of stdout, {} of stderr",
                stdout.len(),
                stderr.len()
            );
            let both = format!("{stdout}{stderr}");
            assert!(
                // A name says its length; a value is cut as values are, with `…`.
                both.contains("characters)") || both.contains('…'),
                "{what} ({format}) does not say the name's length:\n{}",
                &both[..both.len().min(2000)]
            );
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{what} ({format}) took {:?}",
                started.elapsed()
            );
        }
    }
}

/// A name as long as a command line allows, in `cgl explain` and `cgl eval`.
#[test]
fn long_arguments_are_cut_too() {
    let dir = temp_dir("hostile-args");
    let long = "q".repeat(100_000);
    for args in [
        vec!["explain", long.as_str()],
        vec!["eval", long.as_str()],
        vec!["check", long.as_str()],
    ] {
        let (code, stdout, stderr) = cgl_in(&dir, &args);
        assert_no_crash(args[0], &stderr);
        assert_ne!(code, 0, "{}", args[0]);
        assert!(
            stdout.len() + stderr.len() < MOST,
            "{}: {} bytes",
            args[0],
            stdout.len() + stderr.len()
        );
    }
}

/// `--max-memory` of the sweep below, in MiB.
const MEMORY: usize = 100;

/// What every case may take at most: the 1.5 times the limit.
const MOST_RESIDENT_KIB: usize = MEMORY * 1024 * 3 / 2;

/// Inputs that grow without bound, one for each analysis and each value operation: (what,
/// the file, the command and its arguments). Each must end with a limit's diagnostic.
fn growing() -> Vec<(&'static str, String, Vec<&'static str>)> {
    let check = || vec!["check", "grow.game"];
    vec![
        (
            "a list position that doubles",
            "game G { position xs  move xs + xs if len(xs) < 16777216 }\nexpect G([300]) is P\n".into(),
            check(),
        ),
        (
            "a string position that doubles",
            "game S { position s  move s + s if len(s) < 400000000 }\nexpect S(\"ab\") is P\n".into(),
            check(),
        ),
        (
            "a function whose string doubles",
            "fn d(s, k) = if k == 0 then s else d(s + s, k - 1)\nexpect len(d(\"xy\", 40)) == 0\n".into(),
            check(),
        ),
        (
            "a comprehension",
            "expect len([(i, i) for i in 0..40000000]) == 0\n".into(),
            check(),
        ),
        (
            "a repeated list",
            "expect len([(1, 2); 40000000]) == 0\n".into(),
            check(),
        ),
        (
            "a set",
            "expect len({i for i in 0..40000000}) == 0\n".into(),
            check(),
        ),
        (
            "sorted",
            "expect len(sorted([-i for i in 0..40000000])) == 0\n".into(),
            check(),
        ),
        (
            "outcome of a long chain",
            "game C { position n  move n - 1 if n > 0 }\nexpect C(100000000) is P\n".into(),
            check(),
        ),
        (
            "grundy with many moves",
            "game W { position n  move n - k for k in 1..=n }\nexpect grundy(W(100000)) == 0\n".into(),
            check(),
        ),
        (
            "remoteness",
            "game C { position n  move n - 1 if n > 0 }\nexpect remoteness(C(100000000)) == 0\n".into(),
            check(),
        ),
        (
            "a loopy game",
            "game L { position n  loopy  move n + 1  move n - 1 if n > 0 }\nexpect L(1) is D\n".into(),
            check(),
        ),
        (
            "a payoff game",
            "game T { position n  payoff -1  move n - k for k in 1..=3 if k <= n }\nexpect score(T(100000000)) == 0\n".into(),
            check(),
        ),
        (
            "canonical values",
            "expect sum([{k | {0 | -k}} for k in 1..40]) == 0\n".into(),
            check(),
        ),
        (
            "a partizan game's values",
            "game H { position n  left move n - 1 if n > 0  right move n - 2 if n > 1 }\nexpect value(H(100000000)) == 0\n".into(),
            check(),
        ),
        (
            "a strategic game's table",
            "game M { player a in 0..20000  player b in 0..20000  payoff (a * b, -a * b) }\nexpect pure_nash(M) == []\n".into(),
            check(),
        ),
        (
            "a plot of many cells",
            "game C { position n  move n - 1 if n > 0 }\n".into(),
            vec!["plot", "-f", "grow.game", "--max-cells", "100000000", "--x", "a=1..=5000", "--y", "b=1..=5000", "-o", "grow.svg", "a + b"],
        ),
        (
            "a DOT graph of many positions",
            "game C { position n  move n - 1 if n > 0 }\n".into(),
            vec!["dot", "-f", "grow.game", "--max-nodes", "100000000", "C(100000000)"],
        ),
        (
            "printing a long value",
            "print [(i, i) for i in 0..20000000]\n".into(),
            vec!["run", "grow.game"],
        ),
    ]
}

/// Runs `command` of `cgl` on one case (its file `grow.game`) in a child process under `--max-memory` and a timeout;
/// returns its exit code, stderr, peak resident memory (KiB) and wall time.
fn run_limited(
    dir: &std::path::Path,
    text: &str,
    command: &[&str],
) -> (i32, String, usize, Duration) {
    std::fs::write(dir.join("grow.game"), text).unwrap();
    let peak_file = dir.join("peak");
    let _ = std::fs::remove_file(&peak_file);
    let memory = MEMORY.to_string();
    let mut args = vec![command[0], "--max-memory", &memory, "--timeout", "20"];
    args.extend_from_slice(&command[1..]);
    let started = Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(&args)
        .current_dir(dir)
        .env("CGL_PEAK_MEMORY", &peak_file)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let (code, _, stderr) =
        crate::common::wait_with_timeout(child, Duration::from_secs(120), "a growing input");
    let took = started.elapsed();
    let peak = std::fs::read_to_string(&peak_file)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(usize::MAX);
    (code, stderr, peak, took)
}

#[test]
fn every_limit_holds_for_every_analysis_and_value() {
    let dir = temp_dir("hostile-growth");
    let mut over = Vec::new();
    for (what, text, command) in growing() {
        let (code, stderr, peak, took) = run_limited(&dir, &text, &command);
        assert_no_crash(what, &stderr);
        let limited = [
            "cgl::graph::too_much_memory",
            "cgl::graph::too_many_positions",
            "cgl::eval::too_large",
            "cgl::limit::timeout",
            // A strategic game's table is bounded by its profiles (1,000,000).
            "cgl::eval::strategic",
        ]
        .iter()
        .any(|c| stderr.contains(c));
        eprintln!("{what}: exit {code}, peak {} MiB, {took:.1?}", peak / 1024);
        if code != 1 || !limited {
            over.push(format!(
                "{what}: exit {code} without a limit's diagnostic:\n{stderr}"
            ));
        }
        if peak > MOST_RESIDENT_KIB {
            over.push(format!(
                "{what}: peak {} MiB under --max-memory {MEMORY}",
                peak / 1024
            ));
        }
        // The timeout is 20 s: a second past it at most.
        if took > Duration::from_secs(21) {
            over.push(format!("{what}: took {took:?} under --timeout 20"));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

/// A file whose one expectation takes a long while (1.6 × 10⁹ steps).
const SLOW: &str = "expect count(1 for i in 0..40000 for j in 0..40000) == 0\n";

/// Starts `cgl check` on `files` of `dir`, sends it `signal` after a second and a half, and
/// returns its exit code and stdout.
fn interrupted(dir: &std::path::Path, format: &str, files: &[&str], signal: &str) -> (i32, String) {
    let mut args = vec!["check", "--format", format, "--jobs", "1"];
    args.extend_from_slice(files);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_cgl"))
        .args(&args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let pid = child.id().to_string();
    std::thread::sleep(Duration::from_millis(1500));
    let sent = std::process::Command::new("kill")
        .args([signal, &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill {signal} {pid}");
    let (code, stdout, stderr) =
        crate::common::wait_with_timeout(child, Duration::from_secs(30), "an interrupted check");
    assert_no_crash("interrupted check", &stderr);
    (code, stdout)
}

#[test]
fn an_interrupted_check_still_writes_a_whole_document() {
    let dir = temp_dir("hostile-interrupt");
    std::fs::write(dir.join("a_fast.game"), "expect 1 + 1 == 2\n").unwrap();
    std::fs::write(dir.join("b_slow.game"), SLOW).unwrap();
    std::fs::write(dir.join("c_never.game"), "expect 2 + 2 == 4\n").unwrap();
    // One file (checked in process), and three (in child processes, one at a time: the
    // third is never started).
    for files in [
        vec!["b_slow.game"],
        vec!["a_fast.game", "b_slow.game", "c_never.game"],
    ] {
        for signal in ["-INT", "-TERM"] {
            let (code, stdout) = interrupted(&dir, "json", &files, signal);
            assert_eq!(code, 130, "{files:?} {signal}: {stdout}");
            let doc: serde_json::Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{files:?} {signal}: not JSON ({e}):\n{stdout}"));
            let records = doc["records"].as_array().expect("records");
            let stopped: Vec<&str> = records
                .iter()
                .filter(|r| r.to_string().contains("cgl::limit::interrupted"))
                .filter_map(|r| r["file"].as_str())
                .collect();
            assert!(
                stopped.contains(&"b_slow.game"),
                "{files:?} {signal}: {stdout}"
            );
            if files.len() == 3 {
                assert!(stopped.contains(&"c_never.game"), "{stdout}");
                assert!(!stopped.contains(&"a_fast.game"), "{stdout}");
            }
            assert!(doc["summary"].is_object(), "{stdout}");

            let (code, xml) = interrupted(&dir, "junit", &files, signal);
            assert_eq!(code, 130, "{files:?} {signal}: {xml}");
            assert!(xml.trim_end().ends_with("</testsuites>"), "{xml}");
            assert!(xml.contains("cgl::limit::interrupted"), "{xml}");
        }
    }
}
