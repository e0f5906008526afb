//! The REPL as a script or a student drives it through piped standard input (issue 4): a
//! transcript of a short session, games played against the computer, and a flood of garbage
//! that must never crash it or end it early.
//!
//! The transcript is a snapshot in tests/snapshots/; regenerate with
//! `INSTA_UPDATE=always cargo test --release --test integration repl` and review the diff.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cgl::session::{Session, SessionConfig};

use crate::common::{assert_no_crash, root, wait_with_timeout};

/// How long to wait for one line of output before calling it a hang (generous: two cores are
/// shared with other builds).
const LINE_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `cgl repl ARGS` in the repository folder with `input` on stdin; returns (exit code,
/// stdout, stderr).
fn repl(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .arg("repl")
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // Write on a thread: a large input must not block while the pipes fill up.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = wait_with_timeout(child, Duration::from_secs(300), "cgl repl");
    let _ = writer.join();
    output
}

#[test]
fn transcript_of_a_session() {
    let input = "\
:load examples/kayles.game
grundy(Kayles(10))
:explain Kayles(4)
:table grundy(Kayles(n)) for n in 0..40
game Toy {
    position n
    move n - k for k in 1..=2 if k <= n }
[grundy(Toy(n)) for n in 0..8]
fn double(n) = Toy(n) + Toy(n)
const SIZE = 3
print grundy(double(SIZE)) == 0
import \"examples/nim.game\"
grundy(Nim(3) + Toy(2))
grundy(Kayle(3))
let x = Kayles(3) + Toy(4)
winning_moves(x)
let x = x + Toy(1)
x
expect grundy(x) == 3 ^ 1 ^ 1
:type x
:games
:grid outcome(Toy(a) + Kayles(b)) for a in 0..4, b in 0..4
:play Kayles(2) + Kayles(2)
1
undo
2
:quit
print \"not reached\"
";
    let (code, stdout, stderr) = repl(&[], input.as_bytes());
    assert_no_crash("transcript", &stderr);
    // The typing mistake is reported and the exit code says so; the session went on.
    assert_eq!(code, 1, "{stderr}");
    assert!(!stdout.contains("not reached"), "{stdout}");
    insta::assert_snapshot!("repl_transcript_stdout", stdout);
    insta::assert_snapshot!("repl_transcript_stderr", stderr);
}

#[test]
fn files_on_the_command_line_and_reload() {
    let dir = crate::common::temp_dir("repl-reload");
    let file = dir.join("g.game");
    let write = |text: &str| std::fs::write(&file, text).unwrap();
    write("game G { position n  move n - 1 for k in 0..1 if n > 0 }\n");
    let path = file.to_str().unwrap();
    let mut d = Driver::start(&[path]);
    assert_eq!(d.line(), format!("loaded {path}: G"));
    for (entry, answer) in [
        (
            "game H { position n  move n - 1 for k in 0..1 if n > 0 }",
            "defined game H",
        ),
        ("let a = G(5)", "a = G(5)"),
        ("let b = H(1)", "b = H(1)"),
        ("grundy(a)", "1"),
    ] {
        d.send(entry);
        assert_eq!(d.line(), answer, "{entry}");
    }
    // The file changes: `:reload` reads it again and replays what was typed.
    write("game G { position n  move n - 2 for k in 0..1 if n > 1 }\n");
    d.send(":reload");
    assert_eq!(d.line(), "reloaded 1 file; kept H, a, b; dropped nothing");
    d.send("grundy(a)");
    assert_eq!(d.line(), "0");
    // The file breaks: its error is shown, and what needs G is dropped.
    write("game G {\n");
    d.send(":reload");
    assert_eq!(d.line(), "reloaded 1 file; kept H, b; dropped a");
    assert!(d.stderr_shows("cgl::syntax::unbalanced"), "{}", d.stderr());
    assert!(d.stderr_shows("dropped `a`"), "{}", d.stderr());
    d.send("b");
    assert_eq!(d.line(), "H(1)");
    // Fixed, and loaded by name again: that reloads everything.
    write("game G { position n  move n - 3 for k in 0..1 if n > 2 }\n");
    d.send(&format!(":load {path}"));
    assert_eq!(d.line(), "reloaded 1 file; kept H, b; dropped nothing");
    d.send("grundy(G(3))");
    assert_eq!(d.line(), "1");
    d.send(":stats");
    assert_eq!(d.line(), "stats  this session");
    assert!(d.line().starts_with("  positions "));
    d.send(":quit");
    // The broken file was an error, so a piped session exits with 1.
    assert_eq!(d.wait(), 1);
}

#[test]
fn time_and_stats_report_positions() {
    let (code, stdout, stderr) = repl(
        &["examples/kayles.game"],
        b":time grundy(Kayles(30))\n:time grundy(Kayles(30))\n:stats\n",
    );
    assert_eq!(code, 0, "{stderr}");
    let explored: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split("positions explored: ").nth(1))
        .collect();
    assert_eq!(explored.len(), 2, "{stdout}");
    assert!(!explored[0].starts_with("0 "), "{stdout}");
    // The second time, everything is known already.
    assert!(explored[1].starts_with("0 "), "{stdout}");
    // `:stats`: the graph's figures, and the time of the entry before it.
    let stats: Vec<&str> = stdout
        .lines()
        .skip_while(|l| *l != "stats  this session")
        .collect();
    // Seven rows and the title, with one row for Kayles after `indexed`.
    assert_eq!(stats.len(), 8, "{stdout}");
    assert!(
        stats.iter().any(|l| l.starts_with("    Kayles")),
        "{stdout}"
    );
    let row = |label: &str| {
        stats
            .iter()
            .find_map(|l| l.strip_prefix(&format!("  {label}")))
            .unwrap_or_else(|| panic!("no {label} row: {stdout}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    let number = |text: &str| -> usize { text.replace(',', "").parse().unwrap() };
    let positions = row("positions");
    assert!(number(positions[0]) > 0, "{stdout}");
    assert_eq!(
        number(positions[0]),
        number(positions[1]) + number(positions[4]),
        "game positions and compounds make up the positions: {stdout}"
    );
    assert!(row("memory")[3..6] == ["B", "a", "position;"], "{stdout}");
    assert!(
        row("last entry").ends_with(&[":time", "grundy(Kayles(30))"]),
        "{stdout}"
    );
    assert_eq!(row("names bound"), ["2"], "{stdout}");
}

#[test]
fn help_and_completion_topics() {
    let (code, stdout, stderr) = repl(&[], b":help\n:help table\n:help let\n:help nonsense\n");
    assert_eq!((code, stderr.as_str()), (0, ""));
    for needle in [
        ":explain P",
        ":grid EXPR for a in A..B, b in C..D",
        "Ctrl-C",
        "let NAME",
    ] {
        assert!(stdout.contains(needle), "{needle}: {stdout}");
    }
    assert!(stdout.contains("no help on `nonsense`"), "{stdout}");
}

/// Each mistake that only the REPL can make has its code (tests/diagnostics.rs lists these
/// codes as ones no fail file can produce), the session goes on after each, and a piped
/// session with a failed entry exits 1.
#[test]
fn repl_mistakes_have_codes() {
    let entries: &[(&str, &str)] = &[
        (":nonsense", "cgl::repl::unknown_command"),
        (":explain", "cgl::repl::usage"),
        ("let 3 = 4", "cgl::repl::let"),
        (":explain 1", "cgl::repl::not_position"),
        (":play none", "cgl::repl::not_position"),
        (":table n for n in 0..1000000000", "cgl::repl::too_large"),
    ];
    for (entry, code) in entries {
        let input = format!("{entry}\n1 + 1\n");
        let (status, stdout, stderr) = repl(&[], input.as_bytes());
        assert_eq!(status, 1, "{entry}: {stderr}");
        let first = stderr
            .lines()
            .find(|l| l.starts_with("cgl::"))
            .unwrap_or("");
        assert_eq!(first, *code, "{entry}: {stderr}");
        assert!(stderr.contains("help:"), "{entry}: {stderr}");
        assert!(
            stdout.ends_with("2\n"),
            "{entry}: the session goes on: {stdout}"
        );
    }
}

// ------------------------------------------------------------------ playing the computer

/// A small deterministic random generator (xorshift), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A running `cgl repl` read line by line.
struct Driver {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    seen: Vec<String>,
}

impl Driver {
    fn start(args: &[&str]) -> Driver {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
            .arg("repl")
            .args(args)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the cgl binary runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let mut err = child.stderr.take().expect("stderr");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let collected = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = collected.lock() {
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        Driver {
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("cgl reads its input");
        stdin.flush().expect("flush");
    }

    /// What cgl wrote on stderr so far.
    fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Waits (a while) until stderr shows `needle`; stderr arrives on its own pipe, so it may
    /// lag behind stdout.
    fn stderr_shows(&self, needle: &str) -> bool {
        for _ in 0..600 {
            if self.stderr().contains(needle) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    fn line(&mut self) -> String {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                self.seen.push(line.clone());
                line
            }
            Err(e) => {
                let why = match e {
                    RecvTimeoutError::Timeout => format!("no output for {LINE_TIMEOUT:?}"),
                    RecvTimeoutError::Disconnected => "cgl ended early".to_string(),
                };
                panic!(
                    "{why}; stdout so far:\n{}\nstderr:\n{}",
                    self.seen.join("\n"),
                    self.stderr()
                )
            }
        }
    }

    /// Closes stdin and waits for the exit code.
    fn wait(&mut self) -> i32 {
        drop(self.stdin.take());
        for _ in 0..6000 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code().unwrap_or(-1);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("cgl did not exit");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const PLAY_FILES: &[&str] = &[
    "examples/kayles.game",
    "examples/nim.game",
    "examples/wythoff.game",
    "examples/subtraction.game",
    "examples/lego.game",
];

/// The same games in this process, to check the computer's play.
struct Judge {
    session: Session,
    files: Vec<usize>,
}

impl Judge {
    fn new() -> Judge {
        let mut session = Session::new(SessionConfig::default());
        let files = PLAY_FILES
            .iter()
            .map(|f| session.load_path(&root().join(f)).expect("example loads"))
            .collect();
        Judge { session, files }
    }

    fn eval(&mut self, expr: &str) -> Option<String> {
        let value = self.session.eval_text(expr, &self.files).ok()?;
        Some(self.session.show(&value))
    }

    fn remoteness(&mut self, position: &str) -> Option<u64> {
        self.eval(&format!("remoteness({position})"))?.parse().ok()
    }

    fn outcome(&mut self, position: &str) -> Option<String> {
        self.eval(&format!("outcome({position})"))
    }
}

/// How the test's user plays.
#[derive(Clone, Copy, Debug)]
enum User {
    /// Any option, at random.
    Random,
    /// The option of greatest remoteness: the longest resistance.
    Delaying,
}

/// Plays one game from `start` (a P position: the user, who moves first, loses against good
/// play) and checks that the computer wins, each of its moves hurrying to a P position of
/// remoteness one less, so that the game lasts at most the start's remoteness, and exactly
/// that against a delaying user.
fn play_one(driver: &mut Driver, judge: &mut Judge, rng: &mut Rng, start: &str, user: User) {
    let misere = start.starts_with("misere(");
    let start_remoteness = judge.remoteness(start).expect("start has a remoteness");
    driver.send(&format!(":play {start}"));
    while !driver.line().starts_with("playing ") {}
    let mut here = start.to_string();
    loop {
        let line = driver.line();
        if let Some(rest) = line.strip_prefix("your move from ") {
            let count: usize = rest
                .rsplit_once(" (")
                .and_then(|(_, n)| n.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("option count in {line:?}"));
            let options: Vec<String> = (0..count)
                .map(|_| {
                    let l = driver.line();
                    l.split_once(". ").expect("numbered option").1.to_string()
                })
                .collect();
            let choice = match user {
                User::Random => rng.below(count),
                User::Delaying => {
                    let mut best = (0, 0);
                    for (i, o) in options.iter().enumerate() {
                        let r = judge.remoteness(o).unwrap_or(0);
                        if r > best.1 {
                            best = (i, r);
                        }
                    }
                    best.0
                }
            };
            driver.send(&(choice + 1).to_string());
        } else if let Some(position) = line.strip_prefix("you: ") {
            here = position.to_string();
        } else if let Some(position) = line.strip_prefix("computer: ") {
            // From the user's position (N, remoteness r) the computer hurries to a P position
            // of remoteness r - 1.
            let before = judge.remoteness(&here).expect("remoteness before");
            if let Some(after) = judge.remoteness(position) {
                assert_eq!(
                    (judge.outcome(position).as_deref(), after),
                    (Some("P"), before - 1),
                    "computer moved {here} -> {position} from {start}"
                );
            }
            here = position.to_string();
        } else if let Some(rest) = line.strip_prefix("game over after ") {
            let moves: u64 = rest.split(' ').next().unwrap().parse().unwrap();
            assert!(
                line.ends_with("so the computer wins."),
                "{start} ({user:?}): {line}"
            );
            // Under misère play the terminal position counts 1 in the remoteness.
            let longest = start_remoteness - u64::from(misere);
            match user {
                User::Random => assert!(moves <= longest, "{start}: {line}"),
                User::Delaying => assert_eq!(moves, longest, "{start}: {line}"),
            }
            return;
        } else if !line.starts_with("Choose an option") {
            panic!("unexpected line while playing {start}: {line:?}");
        }
    }
}

#[test]
fn the_computer_wins_lost_positions_in_the_fewest_moves() {
    let mut judge = Judge::new();
    let candidates = [
        "Kayles(3) + Kayles(3)",
        "Kayles(1) + Kayles(4)",
        "Kayles(2) + Kayles(5) + Kayles(7)",
        "Kayles(4) + Kayles(5) + Kayles(6)",
        "Nim(1) + Nim(2) + Nim(3)",
        "Nim(3) + Nim(5) + Nim(6)",
        "Nim(4) + Nim(4)",
        "misere(Nim(1) + Nim(2) + Nim(3))",
        "misere(Nim(2) + Nim(2))",
        "misere(Nim(1) + Nim(1) + Nim(1))",
        "Wythoff(3, 5)",
        "Wythoff(4, 7)",
        "Subtraction(8)",
        "Subtraction[S = {2, 4, 7}](11)",
        "Subtraction(4) + Subtraction(8)",
        "Nim(2) & Nim(4)",
        "Nim(2) | Nim(2)",
        "Lego(3, 3)",
        "Lego[mode = conjunctive](4, 3)",
        "Lego[mode = selective](3, 3)",
    ];
    let mut starts = Vec::new();
    for c in candidates {
        if judge.outcome(c).as_deref() == Some("P") && judge.remoteness(c).is_some_and(|r| r >= 2) {
            starts.push(c);
        }
    }
    assert!(
        starts.len() >= 12,
        "too few P positions among the candidates: {starts:?}"
    );
    let mut driver = Driver::start(PLAY_FILES);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for start in &starts {
        play_one(&mut driver, &mut judge, &mut rng, start, User::Delaying);
        for _ in 0..3 {
            play_one(&mut driver, &mut judge, &mut rng, start, User::Random);
        }
    }
    driver.send(":quit");
    assert_eq!(driver.wait(), 0, "{}", driver.stderr());
}

#[test]
fn the_computer_delays_when_it_cannot_win() {
    // From an N position with the computer to move second, the user can win; when the user
    // plays well, the computer makes the game as long as it can: the start's remoteness.
    let mut judge = Judge::new();
    let mut driver = Driver::start(PLAY_FILES);
    for start in ["Kayles(5)", "Nim(3) + Nim(5)", "Wythoff(2, 5)"] {
        let total = judge.remoteness(start).unwrap();
        driver.send(&format!(":play {start}"));
        while !driver.line().starts_with("playing ") {}
        loop {
            let line = driver.line();
            if let Some(rest) = line.strip_prefix("your move from ") {
                let count: usize = rest
                    .rsplit_once(" (")
                    .and_then(|(_, n)| n.split(' ').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap();
                // The winning option of least remoteness, as `line` plays.
                let mut best: Option<(usize, u64)> = None;
                for i in 0..count {
                    let l = driver.line();
                    let o = l.split_once(". ").unwrap().1.to_string();
                    if judge.outcome(&o).as_deref() == Some("P") {
                        let r = judge.remoteness(&o).unwrap_or(0);
                        if best.is_none_or(|(_, b)| r < b) {
                            best = Some((i, r));
                        }
                    }
                }
                driver.send(&(best.expect("a winning move").0 + 1).to_string());
            } else if let Some(rest) = line.strip_prefix("game over after ") {
                let moves: u64 = rest.split(' ').next().unwrap().parse().unwrap();
                assert!(line.ends_with("so you win."), "{line}");
                assert_eq!(moves, total, "{start}: {line}");
                break;
            }
        }
    }
    driver.send(":quit");
}

// ------------------------------------------------------------------ garbage

#[test]
fn garbage_never_crashes_or_ends_the_session() {
    let pieces: &[&str] = &[
        "grundy(Kayles(7))",
        "(((",
        ")))",
        "]]",
        "{",
        "[1, 2,",
        "game",
        "game G {",
        "game Q { position n move n - 1 for k in 0..1 if n > 0 }",
        "fn f(x) = f(x)",
        "f(3)",
        "const C = C",
        "C",
        "let",
        "let y",
        "let y = ",
        "let y = y",
        "let z = 1 / 0",
        "expect",
        "expect 1 == 2",
        "print",
        "import",
        "import \"\"",
        "import \"examples\"",
        ":",
        "::",
        ":nonsense",
        ":help ::",
        ":load",
        ":load /",
        ":load examples",
        ":table",
        ":table for",
        ":table n for n in 0..10**18",
        ":table n for n in 0..99999999999999",
        ":grid a*b for a in 0..10**12, b in 0..10**12",
        ":grid a for a in 0..3, b in 0..10**12",
        ":table [n; 10**9] for n in 0..2",
        "[0; 10**12]",
        "list(0..10**15)",
        "2 ** 64",
        "9223372036854775807 + 1",
        ":explain",
        ":explain 1",
        ":explain Q(3)",
        ":play",
        ":play Nim(2) + Nim(1)",
        ":play computer Q(2)",
        "1",
        "2",
        "undo",
        "hint",
        "quit",
        ":type",
        ":type none",
        ":time",
        ":stats now",
        ":reload",
        "/*",
        "*/",
        "\"",
        "\\",
        "x.0.1.2",
        "Kayles[",
        "Kayles[S = 1](2)",
        "misere(3)",
        "split()",
        "moves(split())",
        "",
        "   ",
    ];
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut input: Vec<u8> = b":load examples/kayles.game\nimport \"examples/nim.game\"\n".to_vec();
    for _ in 0..600 {
        match rng.below(10) {
            0 => {
                // Binary junk, including bytes that are not UTF-8.
                let n = rng.below(40);
                input.extend(
                    (0..n)
                        .map(|_| (rng.next() % 256) as u8)
                        .filter(|b| *b != b'\n'),
                );
            }
            1 => {
                // Several pieces on one line.
                for _ in 0..3 {
                    input.extend_from_slice(pieces[rng.below(pieces.len())].as_bytes());
                    input.push(b' ');
                }
            }
            _ => input.extend_from_slice(pieces[rng.below(pieces.len())].as_bytes()),
        }
        input.push(b'\n');
    }
    // Whatever state the garbage left (an open bracket, a game being played), this ends it,
    // and the session is still there to answer.
    input.extend_from_slice(b"\n\nquit\n\n\n\"ali\" + \"ve\"\n");
    let (code, stdout, stderr) = repl(&[], &input);
    assert_no_crash("garbage", &stderr);
    assert!(code == 0 || code == 1, "exit code {code}\n{stderr}");
    assert!(
        stdout.ends_with("\"alive\"\n"),
        "{}",
        &stdout[stdout.len().saturating_sub(2000)..]
    );

    // `:quit` ends the session at once, whatever follows.
    let mut input = b"((\n:quit\n\"not\" + \"reached\"\n".to_vec();
    input.extend((0..2000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    let (code, stdout, stderr) = repl(&[], &input);
    assert_no_crash("quit", &stderr);
    assert_eq!(code, 1, "the unfinished `((` is reported: {stderr}");
    assert!(!stdout.contains("notreached"), "{stdout}");
}

/// `:table` lays the values out in a grid only when the `n`s are consecutive, which is
/// checked without saturating: at the top of the integers a repeated value is no run.
#[test]
fn table_runs_at_the_top_of_the_integers() {
    let (code, out, err) = repl(
        &[],
        b":table 0 for x in [9223372036854775806, 9223372036854775807, 9223372036854775807]\n\
          :table 1 for x in [9223372036854775805, 9223372036854775806, 9223372036854775807]\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    let (repeated, run) = out
        .split_once("1 for x in")
        .unwrap_or_else(|| panic!("two tables:\n{out}"));
    assert!(!repeated.contains("| +0"), "not a run, but a grid:\n{out}");
    assert!(
        repeated.contains("9223372036854775807  0"),
        "one row per value:\n{out}"
    );
    assert!(run.contains("9223372036854775805 |  1  1  1"), "{out}");
}

/// `:explain` of a strategic game prints its table with best responses starred, its
/// equilibria with the method, and the value; `:table G for PLAYER` one player's payoffs.
#[test]
fn strategic_games_are_explained() {
    let input =
        b":explain BoS\n:explain RPS\n:table BoS for Col\n:table Prisoners\n:table BoS for Zed\n:explain Entry\n";
    let (_, stdout, stderr) = repl(&["examples/strategic.game"], input);
    assert_no_crash("strategic", &stderr);
    for expected in [
        "  Opera       2*, 1*   0, 0",
        "  Football    0, 0     1*, 2*",
        "equilibria (support enumeration, all of them): 3",
        "  ([2/3, 1/3], [1/3, 2/3])",
        "not zero-sum: no value",
        "zero-sum: value 0 for Row, optimal strategies ([1/3, 1/3, 1/3], [1/3, 1/3, 1/3])",
        "Col's payoffs in BoS",
        "A's payoffs in Prisoners",
        "extreme equilibria (vertex enumeration, all of them): 3",
        "  the game is degenerate; components of the equilibria: 2 (an isolated equilibrium, a continuum of 2 extreme equilibria)",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in\n{stdout}"
        );
    }
    assert!(
        stderr.contains("cgl::repl::usage") && stderr.contains("its players are Row, Col"),
        "{stderr}"
    );
}

/// `:explain` of a payoff game's position shows each option's score and marks the optimal
/// ones; `:play` plays for the score (the computer follows `line`) and says what the end pays.
#[test]
fn payoff_games_at_the_prompt() {
    let input = ":explain CoinsInALine(0, 8, 0)\n:explain Notes(5)\n:explain Ring(3)\n\
                 :play computer CoinsInALine[c = [1, 5, 2]](0, 3, 0)\nhint\n1\n";
    let (code, stdout, stderr) = repl(&["examples/payoff.game"], input.as_bytes());
    assert_eq!(code, 0, "{stderr}");
    for expected in [
        "CoinsInALine(0, 8, 0) is N: the player to move can come out ahead by 2",
        "  1  CoinsInALine(1, 8, -3)  2\n",
        "  2  CoinsInALine(0, 7, -6)  -2     optimal\n",
        "score = max { -score(option) } = 2; optimal move: 2 (each leaves the opponent -2)",
        "no options: Notes(5) is terminal; its payoff 3 goes to the player to move",
        "  1  Ring(0)  -3     optimal\n  2  Ring(5)  2\n",
        // Either end loses the computer 2; ties go to the first option, taking the 1.
        "computer: CoinsInALine[c = [1, 5, 2]](1, 3, -1)",
        "hint: optimal moves: 1 (they secure you 2)",
        "its payoff to you (who cannot move) is 2, so you come out ahead.",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in\n{stdout}");
    }
}

/// `:explain` of a partizan position shows each player's options with their values and
/// classes, the canonical form with its stops and temperature; `:play` asks for a side and
/// the computer, playing the other, wins a game it can win.
#[test]
fn partizan_explain_and_play() {
    let input = "\
game Cutcake {
    position (w, h)
    left move split((i, h), (w - i, h)) for i in 1..w
    right move split((w, j), (w, h - j)) for j in 1..h }
game Stalk {
    position s
    left move [s[j] for j in 0..i] for i in 0..len(s) if s[i] == 1
    right move [s[j] for j in 0..i] for i in 0..len(s) if s[i] == 0 }
:explain Cutcake(3, 2)
:explain Stalk([1, 0]) + Cutcake(1, 2)
:play Cutcake(2, 3)
sideways
left
1
:play computer Cutcake(3, 1)
right
";
    let (code, stdout, stderr) = repl(&[], input.as_bytes());
    assert_no_crash("partizan", &stderr);
    assert_eq!((code, stderr.as_str()), (0, ""));
    for shown in [
        "Cutcake(3, 2) is P: the player to move loses",
        "  value 0 (canonical form)",
        "Left: 1 option; Left loses moving first",
        "  1  Cutcake(1, 2) + Cutcake(2, 2)  -1     R",
        "  1  Cutcake(3, 1) + Cutcake(3, 1)  4      L",
        "Cutcake(1, 2) + Stalk([1, 0]) is R: Right wins whoever starts",
        "  value -1/2 (canonical form)",
        "type `left` or `right`",
        // Cutcake(2, 3) = -1: Left, moving first, cuts and Right wins.
        "you: Cutcake(1, 3) + Cutcake(1, 3)",
        "so the computer wins.",
        // Cutcake(3, 1) = 2: the computer plays Left and moves to Cutcake(2, 1), where
        // Right has no move.
        "computer: Cutcake(2, 1)",
        "you play Right, the computer Left.",
        "game over after 1 move at Cutcake(2, 1): you (Right) cannot move (normal play: who \
         cannot move loses), so the computer wins.",
    ] {
        assert!(stdout.contains(shown), "missing {shown:?} in\n{stdout}");
    }
}

/// `:table` reports an arithmetic period only on enough values (three periods and ten values
/// after the preperiod, as `saltus_period`): six odd numbers are no evidence, a dozen are;
/// Lasker's Nim over 0..100 has its saltus 4.
#[test]
fn table_reports_a_saltus_only_on_enough_values() {
    let input = b":table 2 * n + 1 for n in 0..6\n:table 2 * n + 1 for n in 0..12\n\
                  :load examples/lasker.game\n:table grundy(Lasker(n)) for n in 0..100\n";
    let (code, out, err) = repl(&[], input);
    assert_no_crash("table", &err);
    assert_eq!(code, 0, "{err}");
    let reports: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("no period") || l.contains("period "))
        .collect();
    assert_eq!(reports.len(), 3, "{out}");
    assert!(
        reports[0].starts_with("no period in these 6 values"),
        "{out}"
    );
    assert!(
        reports[1].starts_with("arithmetic period 1 with saltus 2 ")
            && reports[1].ends_with("seen in 12 values"),
        "{out}"
    );
    assert!(
        reports[2].starts_with("arithmetic period 4 with saltus 4 ")
            && reports[2].contains("(preperiod 1)"),
        "{out}"
    );
}

/// `:table` of a take-and-break game by code gives its heaps a row per proved period and the
/// proof, from the session's first entry (the prelude comes with it).
#[test]
fn table_of_a_code_reports_the_proved_period() {
    let input = b":table octal(\"0.77\")\n:table hex(\"0.F\")\n:table octal(\"0.16\")\n";
    let (code, out, err) = repl(&[], input);
    assert_no_crash("table", &err);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("grundy(octal(\"0.77\")(n)) for n in 0..168:"),
        "{out}"
    );
    // Twelve columns, the period's row from 72 on: 4 1 2 8 1 4 7 2 1 8 2 7 (Winning Ways).
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("72 |"))
        .unwrap_or_default();
    let cells: Vec<&str> = row
        .split('|')
        .nth(1)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(
        cells,
        ["4", "1", "2", "8", "1", "4", "7", "2", "1", "8", "2", "7"],
        "{out}"
    );
    assert!(out.contains("period 12, from n = 71 (preperiod 71), proved by the periodicity theorem from the values to heap 167"), "{out}");
    assert!(out.contains("no period proved: the periodicity theorem does not speak of codes that split a heap in three"), "{out}");
    assert!(
        out.contains("no period proved to heap 65536; octal_period(\"0.16\", most) looks further"),
        "{out}"
    );
}
