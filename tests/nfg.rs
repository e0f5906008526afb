//! Gambit's `.nfg` files (issue 48, item 5), checked against an encoder written here: random
//! games of one to three players are written by this file in both versions of the format
//! (profiles with the first player's strategy fastest, as Gambit's documentation orders
//! them), and beside them as a `.game` `table` (first player outermost); every profile's
//! payoffs must agree. Then cgl's own writer (`nfg(G)`) read back gives the same game, and
//! mangled files give `cgl::load::nfg` diagnostics, never a crash.

use std::fmt::Write;
use std::path::Path;

use cgl::session::{Session, SessionConfig};

use crate::common::{assert_no_crash, cgl_in, temp_dir, Rng};

/// A random game: strategy counts and, per profile in row-major order (last player fastest),
/// each player's payoff as written (an integer, a fraction or a decimal) and as cgl prints it.
struct Random {
    counts: Vec<usize>,
    /// (as written in the file, as cgl prints it)
    payoffs: Vec<Vec<(String, String)>>,
}

fn random_game(rng: &mut Rng) -> Random {
    let n = 1 + rng.below(3) as usize;
    let counts: Vec<usize> = (0..n).map(|_| 1 + rng.below(4) as usize).collect();
    let profiles: usize = counts.iter().product();
    let payoffs = (0..profiles)
        .map(|_| {
            (0..n)
                .map(|_| {
                    let a = rng.below(41) as i64 - 20;
                    match rng.below(3) {
                        0 => (a.to_string(), a.to_string()),
                        1 => {
                            // a / 4 as a fraction, printed reduced
                            let shown = match (a % 4 == 0, a % 2 == 0) {
                                (true, _) => (a / 4).to_string(),
                                (false, true) => format!("{}/2", a / 2),
                                _ => format!("{a}/4"),
                            };
                            (format!("{a}/4"), shown)
                        }
                        _ => {
                            // a / 10 as a decimal
                            let g = gcd(a.unsigned_abs(), 10) as i64;
                            let shown = if g == 10 {
                                (a / 10).to_string()
                            } else {
                                format!("{}/{}", a / g, 10 / g)
                            };
                            let sign = if a < 0 { "-" } else { "" };
                            let m = a.unsigned_abs();
                            (format!("{sign}{}.{}", m / 10, m % 10), shown)
                        }
                    }
                })
                .collect()
        })
        .collect();
    Random { counts, payoffs }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The row-major index of a profile given first-player-fastest.
fn row_major(counts: &[usize], gambit_index: usize) -> usize {
    let mut rest = gambit_index;
    let mut profile = Vec::new();
    for &c in counts {
        profile.push(rest % c);
        rest /= c;
    }
    profile
        .iter()
        .zip(counts)
        .fold(0, |acc, (&s, &c)| acc * c + s)
}

fn payoff_version(g: &Random) -> String {
    let n = g.counts.len();
    let players: Vec<String> = (1..=n).map(|i| format!("\"P{i}\"")).collect();
    let counts: Vec<String> = g.counts.iter().map(ToString::to_string).collect();
    let mut out = format!(
        "NFG 1 R \"random\" {{ {} }} {{ {} }}\n\"a comment\"\n",
        players.join(" "),
        counts.join(" ")
    );
    for k in 0..g.payoffs.len() {
        for (written, _) in &g.payoffs[row_major(&g.counts, k)] {
            let _ = write!(out, "{written} ");
        }
        out.push('\n');
    }
    out
}

fn outcome_version(g: &Random) -> String {
    let n = g.counts.len();
    let players: Vec<String> = (1..=n).map(|i| format!("\"P{i}\"")).collect();
    let mut out = format!("NFG 1 R \"random\" {{ {} }}\n{{\n", players.join(" "));
    for (i, &c) in g.counts.iter().enumerate() {
        let labels: Vec<String> = (0..c).map(|s| format!("\"s{i}_{s}\"")).collect();
        let _ = writeln!(out, "{{ {} }}", labels.join(" "));
    }
    out.push_str("}\n\n{\n");
    // One outcome per profile, listed in reverse, so that the outcome numbers matter.
    let m = g.payoffs.len();
    for k in (0..m).rev() {
        let cell: Vec<&str> = g.payoffs[row_major(&g.counts, k)]
            .iter()
            .map(|(w, _)| w.as_str())
            .collect();
        let _ = writeln!(out, "{{ \"o{k}\" {} }}", cell.join(", "));
    }
    out.push_str("}\n");
    for k in 0..m {
        let _ = write!(out, "{} ", m - k);
    }
    out.push('\n');
    out
}

/// The game as a `.game` table: first player outermost, strategies 0..count.
fn table_game(name: &str, g: &Random, labels: bool) -> String {
    let mut out = format!("game {name} {{\n");
    for (i, &c) in g.counts.iter().enumerate() {
        let items: Vec<String> = (0..c)
            .map(|s| {
                if labels {
                    format!("\"s{i}_{s}\"")
                } else {
                    format!("\"{}\"", s + 1)
                }
            })
            .collect();
        let _ = writeln!(out, "    player P{} in [{}]", i + 1, items.join(", "));
    }
    fn nest(g: &Random, depth: usize, base: usize, out: &mut String) {
        let n = g.counts.len();
        if depth == n {
            let cell: Vec<&str> = g.payoffs[base]
                .iter()
                .map(|(_, shown)| shown.as_str())
                .collect();
            let _ = write!(out, "({},)", cell.join(", "));
            return;
        }
        out.push('[');
        for s in 0..g.counts[depth] {
            if s > 0 {
                out.push_str(", ");
            }
            nest(g, depth + 1, base * g.counts[depth] + s, out);
        }
        out.push(']');
    }
    out.push_str("    table ");
    nest(g, 0, 0, &mut out);
    out.push_str("\n}\n");
    out
}

fn eval(session: &mut Session, files: &[usize], text: &str) -> String {
    match session.eval_text(text, files) {
        Ok(v) => session.show(&v),
        Err(d) => panic!("{text}: {d:?}"),
    }
}

fn every_payoff(name: &str) -> String {
    format!("[expected_payoff({name}, p) for p in pure_profiles({name})]")
}

const HELPERS: &str = "fn pure_profiles(G) = profiles_of(strategies(G), 0)\n\
fn profiles_of(ss, i) = if i == len(ss) then [()] else [(s,) + rest for s in ss[i], rest in profiles_of(ss, i + 1)]\n";

#[test]
fn random_games_read_from_either_version_have_the_tables_payoffs() {
    let dir = temp_dir("nfg-random");
    let mut rng = Rng(0x6e66_6721);
    for case in 0..60 {
        let g = random_game(&mut rng);
        std::fs::write(dir.join("pay.nfg"), payoff_version(&g)).unwrap();
        std::fs::write(dir.join("out.nfg"), outcome_version(&g)).unwrap();
        let source = format!(
            "import \"pay.nfg\" as Pay\nimport \"out.nfg\" as Out\n{HELPERS}{}{}",
            table_game("Numbered", &g, false),
            table_game("Labelled", &g, true)
        );
        let main = dir.join("main.game");
        std::fs::write(&main, &source).unwrap();
        let mut session = Session::new(SessionConfig::default());
        let file = session
            .load_path(&main)
            .unwrap_or_else(|d| panic!("case {case}: {d:?}\n{source}"));
        let files = [file];
        let want = eval(&mut session, &files, &every_payoff("Numbered"));
        assert_eq!(
            eval(&mut session, &files, &every_payoff("Pay")),
            want,
            "case {case}: payoff version\n{}",
            payoff_version(&g)
        );
        assert_eq!(
            eval(&mut session, &files, &every_payoff("Out")),
            eval(&mut session, &files, &every_payoff("Labelled")),
            "case {case}: outcome version\n{}",
            outcome_version(&g)
        );
        assert_eq!(
            eval(&mut session, &files, "strategies(Pay)"),
            eval(&mut session, &files, "strategies(Numbered)")
        );
        assert_eq!(
            eval(&mut session, &files, "strategies(Out)"),
            eval(&mut session, &files, "strategies(Labelled)")
        );
        let players: Vec<String> = (1..=g.counts.len()).map(|i| format!("\"P{i}\"")).collect();
        assert_eq!(
            eval(&mut session, &files, "players(Pay)"),
            format!("[{}]", players.join(", "))
        );

        // cgl's writer, read back: the same strategies and payoffs.
        let written = match session.eval_text("nfg(Labelled)", &files) {
            Ok(cgl::api::Value::Str(ref text)) => text.to_string(),
            other => panic!("nfg gave {other:?}"),
        };
        std::fs::write(dir.join("back.nfg"), &written).unwrap();
        let again = dir.join("again.game");
        std::fs::write(
            &again,
            "import \"back.nfg\" as Back\nimport \"main.game\"\n",
        )
        .unwrap();
        let file = session
            .load_path(&again)
            .unwrap_or_else(|d| panic!("{d:?}\n{written}"));
        let files = [file];
        assert_eq!(
            eval(&mut session, &files, &every_payoff("Back")),
            eval(&mut session, &files, &every_payoff("Labelled")),
            "{written}"
        );
        assert_eq!(
            eval(&mut session, &files, "strategies(Back)"),
            eval(&mut session, &files, "strategies(Labelled)")
        );
    }
}

#[test]
fn labels_quote_escapes_and_missing_names_are_read_as_gambit_reads_them() {
    let dir = temp_dir("nfg-labels");
    std::fs::write(
        dir.join("g.nfg"),
        "NFG 1 R \"t\" { \"\" \"Col \\\"C\\\"\" }\n{ { \"a\" \"a\" } { \"\" \"say \\\"hi\\\"\" } }\n\n1 2 3 4 5 6 7 8\n",
    )
    .unwrap();
    std::fs::write(dir.join("main.game"), "import \"g.nfg\" as G\n").unwrap();
    let mut session = Session::new(SessionConfig::default());
    let file = session.load_path(&dir.join("main.game")).unwrap();
    // Player 1 has no name, so "Player 1"; its two labels are equal, so "1", "2"; one of
    // Player 2's is empty, so its strategies are numbered too.
    assert_eq!(
        eval(&mut session, &[file], "players(G)"),
        r#"["Player 1", "Col \"C\""]"#
    );
    assert_eq!(
        eval(&mut session, &[file], "strategies(G)"),
        r#"(["1", "2"], ["1", "2"])"#
    );
    assert_eq!(
        eval(&mut session, &[file], "expected_payoff(G, (\"2\", \"1\"))"),
        "(3, 4)"
    );
    // cgl's writer escapes the quotes, and reading it back gives the names again.
    let written = match session.eval_text("nfg(G)", &[file]) {
        Ok(cgl::api::Value::Str(ref text)) => text.to_string(),
        other => panic!("{other:?}"),
    };
    assert!(
        written.starts_with("NFG 1 R \"G\" { \"Player 1\" \"Col \\\"C\\\"\" }\n"),
        "{written}"
    );
}

/// Every prefix of a valid file, and the file with one token dropped or doubled: each is a
/// game or a `cgl::load::nfg` diagnostic with a span, never a crash.
#[test]
fn mangled_files_are_diagnosed_never_crash() {
    let dir = temp_dir("nfg-mangled");
    let good = "NFG 1 R \"Selten\" { \"Player 1\" \"Player 2\" }\n{ { \"1\" \"2\" \"3\" } { \"1\" \"2\" } }\n\"\"\n{ { \"\" 1, 1 } { \"\" 0, 2 } { \"\" 0, 2 } { \"\" 1, 1 } { \"\" 0, 3 } { \"\" 2, 0 } }\n1 2 3 4 5 6\n";
    let words: Vec<&str> = good.split(' ').collect();
    let mut variants: Vec<String> = (0..good.len())
        .step_by(3)
        .filter(|&i| good.is_char_boundary(i))
        .map(|i| good[..i].to_string())
        .collect();
    for i in 0..words.len() {
        let mut dropped = words.clone();
        dropped.remove(i);
        variants.push(dropped.join(" "));
        let mut doubled = words.clone();
        doubled.insert(i, words[i]);
        variants.push(doubled.join(" "));
    }
    variants.push(good.replace("1 2 3 4 5 6", "1 2 3 4 5 7"));
    variants.push(good.replace("2, 0", "2, 0, 5"));
    variants.push(good.replace("0, 3", "0, 1e999"));
    variants.push(good.replace("0, 3", "0, 1/0"));
    variants.push(good.replace("NFG 1", "EFG 2"));
    // A count of strategies far past any table is refused before a label is made.
    variants.push("NFG 1 R \"x\" { \"A\" } { 4000000000 }\n1\n".to_string());
    variants.push("NFG 1 R \"x\" { \"A\" \"B\" } { 1000000 1000000 }\n1 2\n".to_string());
    let mut diagnosed = 0;
    for (i, text) in variants.iter().enumerate() {
        std::fs::write(dir.join("m.nfg"), text).unwrap();
        std::fs::write(
            dir.join("m.game"),
            "import \"m.nfg\" as M\nexpect len(players(M)) >= 1\n",
        )
        .unwrap();
        let (code, _, stderr) = cgl_in(&dir, &["check", "m.game"]);
        assert_no_crash(&format!("variant {i}: {text}"), &stderr);
        match code {
            0 => {}
            2 => {
                assert!(
                    stderr.contains("cgl::load::nfg"),
                    "variant {i}: {text}\n{stderr}"
                );
                assert!(
                    stderr.contains("m.nfg:"),
                    "variant {i} has no place in the file: {stderr}"
                );
                assert!(stderr.contains("help:"), "variant {i}: {stderr}");
                diagnosed += 1;
            }
            other => panic!("variant {i} exited {other}: {text}\n{stderr}"),
        }
    }
    assert!(
        diagnosed > variants.len() / 2,
        "{diagnosed} of {}",
        variants.len()
    );
}

/// `cgl eval --raw` writes the file whole; `-f` a `.nfg` file names its game by the file.
#[test]
fn eval_raw_writes_a_file_that_loads_by_its_name() {
    let dir = temp_dir("nfg-raw");
    let root = crate::common::root();
    let strategic = root.join("examples/strategic.game");
    let (code, out, err) = cgl_in(
        &dir,
        &[
            "eval",
            "--raw",
            "-f",
            strategic.to_str().unwrap(),
            "nfg(Cournot)",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("NFG 1 R \"Cournot\" { \"q1\" \"q2\" }"),
        "{out}"
    );
    assert!(
        !out.contains("\\n"),
        "raw output is the text, not its escapes"
    );
    std::fs::write(dir.join("cournot.nfg"), &out).unwrap();
    let (code, out, err) = cgl_in(&dir, &["eval", "-f", "cournot.nfg", "pure_nash(cournot)"]);
    assert_eq!(
        (code, out.trim()),
        (0, r#"[("2", "4"), ("3", "3"), ("4", "2")]"#),
        "{err}"
    );
    let (code, out, err) = cgl_in(
        Path::new(&dir),
        &[
            "eval",
            "-f",
            "cournot.nfg",
            "-f",
            strategic.to_str().unwrap(),
            "nash(cournot).2 == nash(Cournot).2",
        ],
    );
    assert_eq!((code, out.trim()), (0, "true"), "{err}");
}
