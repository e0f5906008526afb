//! Loopy games (`loopy`): retrograde analysis against an independent solver written here.
//!
//! Random small directed graphs (self-loops and cycles allowed; some terminal positions
//! declared draws) are written as a cgl game `G` whose position `n` moves along the edges of
//! node `n`. Outcomes and remoteness, under normal and misère play, single positions and sums
//! of two, must agree with a level-by-level fixed point computed here from the definitions (a
//! position is won at level `k` when an option is lost at level `k - 1`, lost at level `k` when
//! every option is won and the greatest level among them is `k - 1`; never decided is a
//! draw), which shares nothing with cgl's queue and counters. `winning_moves` and `line` must
//! fit those values. On acyclic graphs, the same game without `loopy` (today's depth-first
//! backward induction) must give the same answers.

use cgl::session::Session;
use proptest::prelude::*;

use crate::random_graphs::{config, edges, eval, is_acyclic, load, nodes_in, successors};

/// A random game: successors of each node, and which terminal nodes are draws.
#[derive(Clone, Debug)]
struct Graph {
    succ: Vec<Vec<usize>>,
    draw: Vec<bool>,
}

impl Graph {
    fn source(&self, loopy: bool) -> String {
        let draws: Vec<String> = (0..self.draw.len())
            .filter(|n| self.draw[*n])
            .map(|n| n.to_string())
            .collect();
        format!(
            "const E = {}\nconst DRAWS = {{{}}}\ngame G {{\n    position n\n    {}\n    {}\n    move m for m in E[n]\n}}\n",
            edges(&self.succ),
            draws.join(", "),
            if loopy { "loopy" } else { "" },
            if draws.is_empty() { "" } else { "draw if n in DRAWS" },
        )
    }
}

fn graph_strategy(acyclic: bool, draws: bool) -> impl Strategy<Value = Graph> {
    (1usize..=8).prop_flat_map(move |k| {
        (
            successors(k, acyclic),
            proptest::collection::vec(any::<bool>(), k..=k)
                .prop_map(move |d| d.into_iter().map(|x| x && draws).collect::<Vec<_>>()),
        )
            .prop_map(|(succ, draw)| Graph { succ, draw })
    })
}

/// The independent solver: remoteness by levels (`None`: a draw).
fn levels(succ: &[Vec<usize>], draw: &[bool], misere: bool) -> Vec<Option<u64>> {
    let n = succ.len();
    let mut rem: Vec<Option<u64>> = vec![None; n];
    for p in 0..n {
        if succ[p].is_empty() && !draw[p] {
            rem[p] = Some(u64::from(misere));
        }
    }
    for k in 1..=(2 * n as u64 + 3) {
        let mut decided = Vec::new();
        for p in 0..n {
            if rem[p].is_some() || succ[p].is_empty() {
                continue;
            }
            let opts: Vec<Option<u64>> = succ[p].iter().map(|q| rem[*q]).collect();
            let wins = opts.iter().any(|r| *r == Some(k - 1) && (k - 1) % 2 == 0);
            let all_won = opts.iter().all(|r| matches!(r, Some(r) if r % 2 == 1));
            let max = opts.iter().filter_map(|r| *r).max();
            if wins || (all_won && max == Some(k - 1)) {
                decided.push(p);
            }
        }
        for p in decided {
            rem[p] = Some(k);
        }
    }
    rem
}

fn outcome_of(r: Option<u64>) -> &'static str {
    match r {
        None => "D",
        Some(r) if r % 2 == 0 => "P",
        Some(_) => "N",
    }
}

/// The printed answers of outcome and remoteness (`-1` for a draw) for every node.
fn answers(s: &mut Session, file: usize, k: usize, wrap: &str) -> (String, String) {
    let o = eval(s, file, &format!("[outcome({wrap}(G(n))) for n in 0..{k}]"));
    let r = eval(
        s,
        file,
        &format!(
            "[if outcome({wrap}(G(n))) == D then -1 else remoteness({wrap}(G(n))) for n in 0..{k}]"
        ),
    );
    (o, r)
}

fn expected(rem: &[Option<u64>]) -> (String, String) {
    let o: Vec<&str> = rem.iter().map(|r| outcome_of(*r)).collect();
    let r: Vec<String> = rem
        .iter()
        .map(|r| r.map_or("-1".to_string(), |r| r.to_string()))
        .collect();
    (format!("[{}]", o.join(", ")), format!("[{}]", r.join(", ")))
}

fn check_graph(g: &Graph) -> Result<(), TestCaseError> {
    let k = g.succ.len();
    let source = g.source(true);
    let (mut s, file) = load(&source);
    for misere in [false, true] {
        let wrap = if misere { "misere" } else { "normal" };
        let rem = levels(&g.succ, &g.draw, misere);
        prop_assert_eq!(
            answers(&mut s, file, k, wrap),
            expected(&rem),
            "{}\n{}",
            wrap,
            source
        );
        for n in 0..k {
            // winning_moves: the options that are lost for the opponent.
            let wm = nodes_in(&eval(
                &mut s,
                file,
                &format!("winning_moves({wrap}(G({n})))"),
            ));
            let want: Vec<usize> = g.succ[n]
                .iter()
                .copied()
                .filter(|q| outcome_of(rem[*q]) == "P")
                .collect();
            prop_assert_eq!(&wm, &want, "winning_moves of {} {}\n{}", wrap, n, source);
            // line: moves along edges; won and lost lines count down the remoteness to an
            // end, drawn ones stay drawn and stop after the first repeated position.
            let line = nodes_in(&eval(&mut s, file, &format!("line({wrap}(G({n})))")));
            prop_assert_eq!(line[0], n);
            for pair in line.windows(2) {
                prop_assert!(g.succ[pair[0]].contains(&pair[1]), "{:?}\n{}", line, source);
            }
            match rem[n] {
                Some(r) => {
                    prop_assert_eq!(
                        line.len() as u64,
                        r + 1 - u64::from(misere),
                        "{:?}\n{}",
                        line,
                        source
                    );
                    for (i, p) in line.iter().enumerate() {
                        prop_assert_eq!(rem[*p], Some(r - i as u64), "{:?}\n{}", line, source);
                    }
                }
                None => {
                    prop_assert!(line.iter().all(|p| rem[*p].is_none()));
                    let last = line[line.len() - 1];
                    let repeated = line[..line.len() - 1].contains(&last);
                    let ends = g.succ[last].is_empty();
                    prop_assert!(repeated || ends, "{:?}\n{}", line, source);
                    let distinct: std::collections::HashSet<_> =
                        line[..line.len() - 1].iter().collect();
                    prop_assert_eq!(distinct.len(), line.len() - 1, "{:?}", line);
                }
            }
        }
    }
    // Sums of two, by the explicit product (no draws: a declared draw is a part's own end).
    if !g.draw.iter().any(|d| *d) {
        let mut succ = vec![Vec::new(); k * k];
        for a in 0..k {
            for b in 0..k {
                succ[a * k + b].extend(g.succ[a].iter().map(|a2| a2 * k + b));
                succ[a * k + b].extend(g.succ[b].iter().map(|b2| a * k + b2));
            }
        }
        let none = vec![false; k * k];
        for misere in [false, true] {
            let wrap = if misere { "misere" } else { "normal" };
            let rem = levels(&succ, &none, misere);
            let o = eval(
                &mut s,
                file,
                &format!("[outcome({wrap}(G(a) + G(b))) for a in 0..{k} for b in 0..{k}]"),
            );
            let r = eval(&mut s, file, &format!("[if outcome({wrap}(G(a) + G(b))) == D then -1 else remoteness({wrap}(G(a) + G(b))) for a in 0..{k} for b in 0..{k}]"));
            prop_assert_eq!((o, r), expected(&rem), "sums, {}\n{}", wrap, source);
        }
    }
    if is_acyclic(&g.succ) {
        let (mut plain, pfile) = load(&g.source(false));
        for wrap in ["normal", "misere"] {
            prop_assert_eq!(
                answers(&mut plain, pfile, k, wrap),
                answers(&mut s, file, k, wrap),
                "acyclic, {}\n{}",
                wrap,
                source
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn loopy_graphs_agree_with_an_independent_retrograde_solver(g in graph_strategy(false, true)) {
        check_graph(&g)?;
    }

    #[test]
    fn loopy_graphs_without_draws_and_their_sums(g in graph_strategy(false, false)) {
        check_graph(&g)?;
    }

    #[test]
    fn acyclic_loopy_graphs_agree_with_backward_induction(g in graph_strategy(true, true)) {
        check_graph(&g)?;
    }
}

/// The add-or-take game of issue 17: take 1 or 2, or add 1 while 0 < n < C.
#[test]
fn add_or_take() {
    let source = "game A(C = 10) {\n position n\n loopy\n move n - k for k in 1..=2 if k <= n\n move n + 1 if 0 < n and n < C\n}\n";
    let (mut s, file) = load(source);
    assert_eq!(
        eval(&mut s, file, "[outcome(A(n)) for n in 0..=10]"),
        "[P, N, N, D, D, D, D, D, D, D, D]"
    );
    assert_eq!(eval(&mut s, file, "remoteness(A(2))"), "1");
    assert_eq!(
        eval(&mut s, file, "remoteness(A(5))"),
        "error cgl::analysis::remoteness_draw"
    );
    assert_eq!(eval(&mut s, file, "grundy(A(5))"), "inf()");
    // Its loopy Grundy values (Smith): 0 is lost; 1 and 2 are won by a move to 0 but are not
    // nimbers (∞ with the option value 0: a player behind in another component can escape
    // upwards for ever, so A(1) + A(1) is a draw); from 3 on neither player can force the end.
    assert_eq!(
        eval(&mut s, file, "[grundy(A(n)) for n in 0..=5]"),
        "[0, inf(0), inf(0), inf(), inf(), inf()]"
    );
    assert_eq!(eval(&mut s, file, "outcome(A(1) + A(1))"), "D");
    // A loopy position of infinite value has no canonical form.
    assert_eq!(
        eval(&mut s, file, "value(A(5))"),
        "error cgl::analysis::grundy_loopy"
    );
    // Without `loopy` the same rules are the mistake a missing guard makes.
    let (mut s, file) = load(&source.replace(" loopy\n", ""));
    assert_eq!(
        eval(&mut s, file, "outcome(A(5))"),
        "error cgl::graph::cycle"
    );
}

/// A cycle in a game that is not declared loopy stays an error, also inside a sum with a
/// loopy game, and also when it is reached through one.
#[test]
fn only_the_declaring_game_may_cycle() {
    let source = "game Lp { position n\n loopy\n move (n + 1) % 3 }\n\
                  game B { position n\n move n - 1 if n > 0\n move n + 1 if n == 1 }\n\
                  game M { position n\n loopy\n move B(2) if n == 0\n move n - 1 if n > 0 }\n";
    let (mut s, file) = load(source);
    assert_eq!(eval(&mut s, file, "outcome(Lp(0))"), "D");
    assert_eq!(
        eval(&mut s, file, "outcome(B(2) + Lp(0))"),
        "error cgl::graph::cycle"
    );
    assert_eq!(
        eval(&mut s, file, "outcome(M(1))"),
        "error cgl::graph::cycle"
    );
    assert_eq!(eval(&mut s, file, "outcome(Lp(0) + Lp(1))"), "D");
    assert_eq!(
        eval(&mut s, file, "line(Lp(0))"),
        "[Lp(0), Lp(1), Lp(2), Lp(0)]"
    );
}

/// The REPL's `:explain` and `:play` go through the same analyses on a loopy game.
#[test]
fn explain_and_play_a_loopy_game() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgl"))
        .arg("repl")
        .current_dir(crate::common::root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = ":load examples/loopy.game\n:explain AddOrTake(4)\n:play AddOrTake(4)\n1\nquit\n:play computer Token(1)\n1\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let (code, stdout, stderr) =
        crate::common::wait_with_timeout(child, std::time::Duration::from_secs(60), "cgl repl");
    crate::common::assert_no_crash("loopy repl", &stderr);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    for needle in [
        "AddOrTake(4) is D: a draw with best play",
        "  1  AddOrTake(3)  D        inf()   -           draws",
        "  2  AddOrTake(2)  N        inf(0)  1",
        "no mex: play can cycle, and the loopy Grundy value is inf(), ∞ with the options' finite values {} (Smith)",
        "(2 options are draws, with no remoteness)",
        "no winning move; drawing moves: 1, 3",
        // The computer keeps the draw: back to 4, not down to the lost 2.
        "you: AddOrTake(3)\ncomputer: AddOrTake(4)",
        "computer: Token(3)",
        "game over after 3 moves at Token(4): you cannot move, so the computer wins.",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
}
