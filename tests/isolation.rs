//! `cgl check` on several files checks each in a child process (issue 15): a file whose
//! process dies — an abort, an exit without its report, a garbled report, a kill by a signal
//! — becomes that file's `cgl::check::crashed` report, every other file is reported, in input
//! order, and the JSON and JUnit documents stay whole. A file past its deadline has its
//! process killed; Ctrl-C (SIGINT) in the parent ends the children too.
//!
//! The faults come from `CGL_TEST_FAULT=KIND:NAME` (spec §10, *Isolation*: for tests only),
//! which makes the process checking the file NAME fail on purpose, and from killing a child
//! from outside with SIGKILL, as the kernel's OOM killer does. In the design before this one
//! (the files on threads of one process), each of these ended the whole run.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{cgl_in, root, temp_dir, wait_with_timeout};

/// A quick expectation that holds, one that fails, and one that runs for minutes in the
/// interpreter without memory (a sum of two squares is never 3 mod 4), unless stopped.
const PASS: &str = "expect 1 + 1 == 2\n";
const FAIL: &str = "fn f(n) = n\nexpect f(1) == 2\n";
const LONG: &str = "expect forall x in 0..40000: forall y in 0..40000: (x * x + y * y) % 4 != 3\n";

/// A folder of files `name → text`.
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = temp_dir(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("written");
    }
    dir
}

/// `cgl check ARGS...` in `dir` with `CGL_TEST_FAULT` set to `fault` (if any).
fn check(dir: &Path, fault: Option<&str>, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgl"));
    command
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env_remove("CGL_PROGRESS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match fault {
        Some(fault) => command.env("CGL_TEST_FAULT", fault),
        None => command.env_remove("CGL_TEST_FAULT"),
    };
    let child = command.spawn().expect("the cgl binary runs");
    wait_with_timeout(
        child,
        Duration::from_secs(120),
        &format!("cgl check {args:?}"),
    )
}

/// The JSON document of a run, checked for its shape: the file records' names and statuses.
fn json_files(stdout: &str) -> (Value, Vec<(String, String)>) {
    let doc: Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}"));
    let files = doc["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter(|r| r["kind"] == "file")
        .map(|r| {
            (
                r["file"].as_str().unwrap_or_default().to_string(),
                r["status"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    (doc, files)
}

/// The diagnostics of file `name` in a JSON document.
fn diagnostics_of<'a>(doc: &'a Value, name: &str) -> &'a Vec<Value> {
    doc["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|r| r["kind"] == "file" && r["file"] == name)
        .unwrap_or_else(|| panic!("no record of {name}"))["diagnostics"]
        .as_array()
        .expect("diagnostics")
}

fn abc() -> [(&'static str, &'static str); 3] {
    [("a.game", PASS), ("b.game", PASS), ("c.game", FAIL)]
}

#[test]
fn a_file_whose_process_dies_loses_only_its_own_report() {
    let dir = folder("iso-faults", &abc());
    let cases = [
        (
            "abort",
            "its process was killed by signal 6 (SIGABRT)",
            "test fault: aborting",
        ),
        (
            "exit",
            "its process exited with status 3 without its report",
            "test fault: exiting with status 3",
        ),
        (
            "garble",
            "its process wrote a report that cannot be read",
            "it wrote nothing on stderr",
        ),
        (
            "noise",
            "its process was killed by signal 6 (SIGABRT)",
            "(after 4992 more):",
        ),
    ];
    for (kind, how, words) in cases {
        let fault = format!("{kind}:b.game");
        // Human: every file's line, in order, and the crash as a diagnostic on stderr.
        let (code, out, err) = check(&dir, Some(&fault), &[".", "--jobs", "2"]);
        assert_eq!(code, 2, "{kind}: {out}{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "ok    ./a.game (1 passed, 0 failed)",
                "error ./b.game (could not be checked)",
                "FAIL  ./c.game (0 passed, 1 failed)",
                "1 passed, 2 failed",
            ],
            "{kind}: {err}"
        );
        assert!(err.contains("cgl::check::crashed"), "{kind}: {err}");
        // (The headline is wrapped at 80 columns; the JSON below has it whole.)
        assert!(
            err.contains("× checking this file crashed: its process"),
            "{kind}: {err}"
        );
        assert!(err.contains(words), "{kind}: {err}");
        assert!(
            err.contains("cgl::check::failed"),
            "c's failure is reported: {err}"
        );
        // The stderr quoted is bounded: 8 lines of at most 160 characters.
        assert!(err.len() < 6_000, "{kind}: {} bytes of stderr", err.len());

        // JSON: one whole document, b's record says how its process ended.
        let (code, out, err) = check(&dir, Some(&fault), &[".", "--format", "json"]);
        assert_eq!((code, err.as_str()), (2, ""), "{kind}");
        let (doc, files) = json_files(&out);
        let expected = [
            ("./a.game", "ok"),
            ("./b.game", "error"),
            ("./c.game", "fail"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(f, s)| (f.to_string(), s.to_string()))
            .collect();
        assert_eq!(files, expected, "{kind}");
        let diags = diagnostics_of(&doc, "./b.game");
        assert_eq!(diags.len(), 1, "{kind}: {diags:?}");
        assert_eq!(diags[0]["code"], "cgl::check::crashed", "{kind}");
        let message = diags[0]["message"].as_str().unwrap_or_default();
        assert!(message.contains(how), "{kind}: {message}");
        let summary = &doc["summary"];
        assert_eq!(
            (
                &summary["files"],
                &summary["passed"],
                &summary["not_checked"]
            ),
            (&Value::from(3), &Value::from(1), &Value::from(1)),
            "{kind}: {summary}"
        );

        // JUnit: well-formed, b an error.
        let (code, out, _) = check(&dir, Some(&fault), &[".", "--format", "junit"]);
        assert_eq!(code, 2);
        let xml = roxmltree::Document::parse(&out)
            .unwrap_or_else(|e| panic!("{kind}: JUnit is not XML ({e}):\n{out}"));
        let suites: Vec<_> = xml
            .descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .map(|n| n.attribute("name").unwrap_or_default().to_string())
            .collect();
        assert_eq!(suites, ["./a.game", "./b.game", "./c.game"], "{kind}");
        assert!(out.contains("cgl::check::crashed"), "{kind}: {out}");
    }
}

#[test]
fn a_file_alone_is_checked_in_process() {
    // With one file there is no child: the fault, read only by a child, does nothing.
    let dir = folder("iso-alone", &[("b.game", PASS)]);
    let (code, out, err) = check(&dir, Some("abort:b.game"), &["b.game"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "ok    b.game (1 passed, 0 failed)\n1 passed, 0 failed\n",
            ""
        )
    );
}

/// The pids of the children of `pid` (every thread's), with their command lines.
fn children_of(pid: u32) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return found;
    };
    for task in tasks.flatten() {
        let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for child in list
            .split_whitespace()
            .filter_map(|c| c.parse::<u32>().ok())
        {
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
            found.push((child, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    found
}

/// Waits until `pid` has `n` children whose command lines hold `needle`, and returns them.
fn wait_for_children(pid: u32, n: usize, needle: &str) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let found: Vec<u32> = children_of(pid)
            .into_iter()
            .filter(|(_, cmd)| cmd.contains("check-child") && cmd.contains(needle))
            .map(|(p, _)| p)
            .collect();
        if found.len() >= n {
            return found;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no child process checking {needle} (found {:?})",
            children_of(pid)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether a process is gone (or a zombie left for a parent that is gone itself).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
    }
}

fn wait_gone(pid: u32, what: &str) {
    let started = Instant::now();
    while !gone(pid) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what}: process {pid} still runs"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn send(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill {signal} {pid}");
}

/// Kills a `cgl check` left running by a failed test (its children end with it).
struct KillOnDrop(u32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if !gone(self.0) {
            let _ = Command::new("kill")
                .args(["-KILL", &self.0.to_string()])
                .status();
        }
    }
}

fn spawn_check(dir: &Path, args: &[&str], progress: Option<&str>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgl"));
    command
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env_remove("CGL_TEST_FAULT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match progress {
        Some(mode) => command.env("CGL_PROGRESS", mode),
        None => command.env_remove("CGL_PROGRESS"),
    };
    command.spawn().expect("the cgl binary runs")
}

#[cfg(target_os = "linux")]
#[test]
fn a_child_killed_from_outside_is_reported_and_the_others_are_not_lost() {
    // As the OOM killer does: SIGKILL, no chance to write anything.
    let dir = folder(
        "iso-sigkill",
        &[("a.game", PASS), ("b_long.game", LONG), ("c.game", FAIL)],
    );
    let child = spawn_check(&dir, &[".", "--format", "json", "--jobs", "3"], None);
    let pid = child.id();
    let _guard = KillOnDrop(pid);
    let long = wait_for_children(pid, 1, "b_long.game");
    send("-KILL", long[0]);
    let (code, out, err) = wait_with_timeout(child, Duration::from_secs(120), "check");
    assert_eq!((code, err.as_str()), (2, ""), "{out}");
    let (doc, files) = json_files(&out);
    let statuses: Vec<&str> = files.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(statuses, ["ok", "error", "fail"], "{out}");
    let diags = diagnostics_of(&doc, "./b_long.game");
    assert_eq!(diags[0]["code"], "cgl::check::crashed");
    let message = diags[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with("killed by signal 9 (SIGKILL)"),
        "{message}"
    );
    let help = diags[0]["help"].as_str().unwrap_or_default();
    assert!(help.contains("too much memory"), "{help}");
}

#[test]
fn a_file_past_its_deadline_has_its_process_killed() {
    // `hang` watches no deadline at all, as a part of cgl with a bug would not.
    let dir = folder("iso-hang", &abc());
    let started = Instant::now();
    let (code, out, err) = check(
        &dir,
        Some("hang:b.game"),
        &[".", "--timeout", "0.5", "--format", "json"],
    );
    let took = started.elapsed();
    assert_eq!((code, err.as_str()), (2, ""), "{out}");
    let (doc, files) = json_files(&out);
    let statuses: Vec<&str> = files.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(statuses, ["ok", "error", "fail"], "{out}");
    let diags = diagnostics_of(&doc, "./b.game");
    assert_eq!(diags[0]["code"], "cgl::limit::timeout");
    let note = diags[0]["notes"][0].as_str().unwrap_or_default();
    assert!(
        note.starts_with("cgl stopped the process checking this file after 2.5s"),
        "{note}"
    );
    // Killed 2 seconds after its deadline, not left to run: a hung child closes its pipes
    // only when it dies (its stdin stays open while cgl check runs), and cgl check writes
    // its report only once they are closed, so a report at all means the process is gone.
    assert!(took < Duration::from_secs(60), "{took:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_in_the_parent_ends_the_children() {
    let dir = folder("iso-ctrl-c", &[("a.game", LONG), ("b.game", LONG)]);
    // Without the progress line cgl dies of the signal; with it, its handler erases the line
    // and exits 130. Either way its children end with it.
    for progress in [None, Some("always")] {
        let child = spawn_check(&dir, &[".", "--jobs", "2"], progress);
        let pid = child.id();
        let guard = KillOnDrop(pid);
        let children = wait_for_children(pid, 2, ".game");
        send("-INT", pid);
        let (code, _, err) = wait_with_timeout(child, Duration::from_secs(30), "check");
        assert!(
            code == 130 || code == -1,
            "{progress:?}: exit {code}: {err}"
        );
        for child in children {
            wait_gone(child, "a child after Ctrl-C");
        }
        drop(guard);
    }
}

#[test]
fn reports_from_children_are_the_reports_in_process() {
    // Each example checked alone (in process) gives the very records the folder run (one
    // child per file) gives, in the folder's order, with any number of jobs.
    let examples = root().join("examples");
    let mut names: Vec<String> = std::fs::read_dir(&examples)
        .expect("examples")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".game"))
        .collect();
    names.sort();
    let mut alone = Vec::new();
    for name in &names {
        let (_, out, _) = cgl_in(&examples, &["check", "--format", "json", name]);
        let records: Vec<String> = out
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("],\"summary\""))
            .map(|l| l.trim_end_matches(',').to_string())
            .collect();
        alone.extend(records);
    }
    for jobs in ["1", "3"] {
        let mut args = vec!["check", "--format", "json", "--jobs", jobs];
        args.extend(names.iter().map(String::as_str));
        let (code, out, err) = cgl_in(&examples, &args);
        assert_eq!((code, err.as_str()), (0, ""));
        let records: Vec<String> = out
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("],\"summary\""))
            .map(|l| l.trim_end_matches(',').to_string())
            .collect();
        assert_eq!(records, alone, "--jobs {jobs}");
    }
}
