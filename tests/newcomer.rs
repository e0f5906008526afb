//! What a new user trips over (issue 18): the README's commands and sample output are what
//! cgl really does, the documented defaults are the code's, and the messages for habits
//! from other languages.

use cgl::graph::GraphConfig;

use crate::common::{cgl, cgl_in, root, temp_dir};
use crate::spec::blocks;

/// The README's failing example, saved as it says (`wrong.game` in a folder holding
/// `examples/kayles.game`), prints exactly the sample output shown under it: the diagnostic
/// (stderr) and then the summary (stdout).
#[test]
fn readme_failing_example_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let all = blocks(&readme);
    let at = all
        .iter()
        .position(|b| b.info == "game fails")
        .expect("the README has a failing example");
    let source = &all[at].text;
    let sample = all[at + 1..]
        .iter()
        .find(|b| b.text.starts_with("$ cgl check wrong.game"))
        .expect("the README shows the output of `cgl check wrong.game`");
    let dir = temp_dir("readme-wrong");
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::copy(
        root().join("examples/kayles.game"),
        dir.join("examples/kayles.game"),
    )
    .unwrap();
    std::fs::write(dir.join("wrong.game"), source).unwrap();
    let (code, stdout, stderr) = cgl_in(&dir, &["check", "wrong.game"]);
    assert_eq!(code, 1, "{stderr}");
    let printed = format!("$ cgl check wrong.game\n{stderr}{stdout}");
    let trim = |s: &str| {
        s.lines()
            .map(str::trim_end)
            .collect::<Vec<_>>()
            .join("\n")
            .trim_end()
            .to_string()
    };
    assert_eq!(trim(&sample.text), trim(&printed));
    assert!(printed.contains("cgl::check::failed"));
}

/// The README says how to get `cgl` on the PATH, and where the failing example must be saved
/// for its import to resolve.
#[test]
fn readme_says_how_to_run_cgl() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains("cargo install --path ."));
    assert!(readme.contains("./target/release/cgl"));
    assert!(readme.contains("relative to the folder of the file that imports it"));
}

/// Whitespace-normalised text of a markdown file.
fn flat(path: &str) -> String {
    std::fs::read_to_string(root().join(path))
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A number with thousands separators, as the docs write it.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `--max-stored-moves`: §10, §12 and `--help` give the default the code uses.
#[test]
fn documented_stored_moves_default_is_the_code_default() {
    let n = GraphConfig::default().max_stored_moves;
    let spec = flat("spec/language.md");
    assert!(
        spec.contains(&format!("`--max-stored-moves N` (default {}", grouped(n))),
        "§10 must give the default {n}"
    );
    assert!(
        spec.contains(&format!(
            "At most `--max-stored-moves` moves ({} million by default)",
            n / 1_000_000
        )),
        "§12 must give the default {n}"
    );
    let (_, help, _) = cgl(&["check", "--help"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = help.find("--max-stored-moves").unwrap();
    assert!(
        help[at..].contains(&format!("[default: {n}]")),
        "--help must give the default {n}"
    );
    // Every mention of a default of `--max-stored-moves` in the docs is this one.
    for doc in ["spec/language.md", "README.md", "spec/tutorial.md"] {
        let text = flat(doc);
        for (i, _) in text.match_indices("--max-stored-moves") {
            let near = &text[i..(i + 60).min(text.len())];
            if let Some(d) = near.find("default ") {
                let figure: String = near[d + 8..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == ',')
                    .collect();
                if !figure.is_empty() {
                    assert_eq!(figure, grouped(n), "{doc}: {near}");
                }
            }
        }
    }
}

/// The memory estimate that `--max-memory` counts is an upper bound of the memory that
/// `--stats` reports (the graph's tables and the analyses' memos), on games with every kind
/// of position: sparse bit masks (whose dense tables by value dwarf their positions), heaps,
/// pairs, triples, boards, boxed lists, strings, compounds and a loopy game, each after
/// every analysis; through the graph, and with the positions the solver of
/// `analysis::parallel` keeps beside it (counted in both).
#[test]
fn memory_estimate_bounds_the_memory_held() {
    use cgl::session::{Session, SessionConfig};
    use cgl::stats::GraphSize;
    const GAMES: &str = r#"
game Cram(W = 5, H = 4) {
    position m
    move m | 2 ** (r * W + c) | 2 ** (r * W + c + 1) for r in 0..H for c in 0..W - 1
        if m & 2 ** (r * W + c) == 0 and m & 2 ** (r * W + c + 1) == 0
    move m | 2 ** (r * W + c) | 2 ** ((r + 1) * W + c) for r in 0..H - 1 for c in 0..W
        if m & 2 ** (r * W + c) == 0 and m & 2 ** ((r + 1) * W + c) == 0
}
game Spread { position n  move n * 2 + 1 if n < 1000000  move n * 3 + 1 if n < 1000000 }
game Nim { position n  move n - k for k in 1..=n }
game Wythoff {
    position (a, b)
    move (a - k, b) for k in 1..=a
    move (a, b - k) for k in 1..=b
    move (a - k, b - k) for k in 1..=min(a, b)
}
game Far { position (a, b)  move (a - 1, b * 2) if a > 0 and b < 100000  move (a, b - 1) if b > 1000 }
game Three { position (a, b, c)  move (a - 1, b, c) if a > 0  move (a, b - 1, c) if b > 0  move (a, b, c - 1) if c > 0 }
fn trim(rows) = [l for l in rows if l > 0]
game Chomp {
    position rows
    move trim([if r >= i then min(l, j) else l for (r, l) in enumerate(rows)])
        for (i, w) in enumerate(rows), j in 0..w if (i, j) != (0, 0)
}
game Big { position xs  move [if j == i then y + 1 else y for (j, y) in enumerate(xs)] for (i, x) in enumerate(xs) if x < 303 }
game Word { position s  move s + "a" if len(s) < 11  move s + "b" if len(s) < 11 }
game Token { position v  loopy  move (v + 1) % 500  move (v + 7) % 500 if v % 3 == 0 }
"#;
    let queries = [
        "Cram(0)",
        "Spread(1)",
        "Nim(1500)",
        "Wythoff(60, 60)",
        "Far(5, 1001)",
        "Three(12, 12, 12)",
        "Chomp([7, 7, 7, 7, 7])",
        "Big([300, 300, 300, 300, 300, 300])",
        "Word(\"\")",
        "Nim(30) + Wythoff(7, 9) + Chomp([3, 3])",
        "Token(0)",
    ];
    for query in queries {
        for analysis in ["outcome", "grundy", "remoteness", "misere_outcome"] {
            // Token(0) is a draw: it has neither a Grundy value nor a remoteness.
            if query.starts_with("Token") && matches!(analysis, "grundy" | "remoteness") {
                continue;
            }
            for stores in [false, true] {
                let mut config = SessionConfig::default();
                config.graph.stores = stores;
                let mut session = Session::new(config);
                let index = session.load_source("games.game", GAMES).unwrap();
                let text = match analysis {
                    "misere_outcome" => format!("outcome(misere({query}))"),
                    _ => format!("{analysis}({query})"),
                };
                session
                    .eval_text(&text, &[index])
                    .unwrap_or_else(|d| panic!("{text}: {:?}", d[0].message));
                let size = GraphSize::of(session.analyzer(), session.instances());
                let explored = size.positions + size.parallel.positions;
                assert!(explored > 10, "{text}: explored nothing");
                if !stores {
                    assert_eq!(size.parallel.positions, 0, "{text}: the stores are off");
                }
                assert!(
                    size.bytes <= size.estimate,
                    "{text}: {} bytes held, but the estimate counts {} (stores {stores}): {size:?}",
                    size.bytes,
                    size.estimate
                );
            }
        }
    }
}

/// With no `--max-positions`, the memory limit alone bounds the positions: a game that never
/// ends stops with `cgl::graph::too_much_memory` at the budget (the estimate counts at least
/// 180 bytes a position), and `--help` says what the defaults follow.
#[test]
fn memory_bounds_the_positions_by_default() {
    let dir = temp_dir("unbounded-default");
    std::fs::write(dir.join("up.game"), "game Up { position n  move n + 1 }\n").unwrap();
    let (code, _, stderr) = cgl_in(
        &dir,
        &[
            "eval",
            "-f",
            "up.game",
            "--max-memory",
            "64",
            "reachable(Up(0))",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("cgl::graph::too_much_memory"), "{stderr}");
    assert!(!stderr.contains("too_many_positions"), "{stderr}");
    // About 64 MiB / 180 bytes positions, not the old default of 5,000,000.
    assert!(stderr.contains("(3"), "{stderr}");
    let (_, help, _) = cgl(&["check", "--help"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("[default: as many as --max-memory allows]"),
        "{help}"
    );
    assert!(
        help.contains("[default: half the memory available when cgl starts"),
        "{help}"
    );
    assert_eq!(
        GraphConfig::default().max_positions,
        cgl::graph::MAX_TERMS,
        "the library's default has no position limit but the index's"
    );
}

/// `cgl repl` in `dir` with `input` on stdin; returns (exit code, stdout, stderr) and the
/// seconds it took.
fn repl_in(dir: &std::path::Path, args: &[&str], input: &str) -> ((i32, String, String), f64) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .arg("repl")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cgl binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output =
        crate::common::wait_with_timeout(child, std::time::Duration::from_secs(120), "cgl repl");
    let _ = writer.join();
    (output, started.elapsed().as_secs_f64())
}

/// Lasker's Nim: take any number from a heap, or split it in two.
const LASKER: &str = "game Lasker {
    position n
    move n - k for k in 1..=n
    move split(a, n - a) for a in 1..=n div 2
}
";

/// `:explain` of a position whose remoteness needs large explicit products (every split
/// of Lasker(2000) is a sum) shows the outcome and the Grundy values at once and says which
/// remoteness it skipped and how to ask for it, instead of running for minutes; and what it
/// shows is right (the Grundy values by the closed form of Lasker's Nim, the session usable
/// after).
#[test]
fn explain_skips_what_is_expensive_and_says_so() {
    let dir = temp_dir("explain-lasker");
    std::fs::write(dir.join("lasker.game"), LASKER).unwrap();
    let ((code, stdout, stderr), seconds) = repl_in(
        &dir,
        &["lasker.game"],
        ":explain Lasker(2000)\nremoteness(Lasker(3) + Lasker(2))\n",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(seconds < 60.0, "took {seconds} s");
    // g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3: g(2000) = 1999, N.
    assert!(
        stdout.contains("Lasker(2000) is N: the player to move wins"),
        "{stdout}"
    );
    assert!(stdout.contains("grundy 1999"), "{stdout}");
    assert!(stdout.contains("not computed"), "{stdout}");
    assert!(stdout.contains("ask for one with `remoteness("), "{stdout}");
    // The option rows: Lasker(1999) (take one) has Grundy value 2000 (1999 = 4*499 + 3).
    let row = stdout
        .lines()
        .find(|l| l.contains(" Lasker(1999) "))
        .unwrap_or_else(|| panic!("no row for Lasker(1999):\n{stdout}"));
    assert!(row.contains(" 2000 "), "{row}");
    assert!(
        stdout.contains("mex {0, 1, ..., 1998, 2000, 2001} = 1999"),
        "{stdout}"
    );
    // After the skipped work the session still answers, as a fresh one does.
    let (_, fresh, _) = cgl_in(
        &dir,
        &[
            "eval",
            "-f",
            "lasker.game",
            "remoteness(Lasker(3) + Lasker(2))",
        ],
    );
    assert_eq!(stdout.lines().last(), fresh.lines().last(), "{stdout}");
}
