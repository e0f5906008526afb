//! Payoff games (`payoff`): cgl's `score` against independent solvers written here.
//!
//! Random small directed graphs (self-loops and cycles allowed) with a payoff on every node
//! are written as a cgl game `G` whose position `n` moves along the edges of node `n` and
//! whose ends pay `PAY[n]` to the player to move there. The reference value does not use
//! negamax at all: it plays the game out in its two-player form (each node once with Max
//! to move and once with Min), for every pair of positional strategies, and takes
//! `max_σ min_τ` of the payoff of the play (0 for a play that cycles); it also checks that
//! `min_τ max_σ` is the same, so the value is a saddle point and not an artefact of the
//! order. On acyclic graphs a plain recursive negamax is a second reference, and the same
//! game without `loopy` (the depth-first search) must agree. `optimal_moves` and `line` must
//! fit the values, and normal play (every end pays the player to move there -1) must give
//! the outcome of the same game without payoffs.

use cgl::session::{Session, SessionConfig};
use proptest::prelude::*;

use crate::random_graphs::{config, edges, eval, is_acyclic, load, nodes_in, successors};

/// A random payoff game: successors of each node, and each node's payoff if it is an end.
#[derive(Clone, Debug)]
struct Graph {
    succ: Vec<Vec<usize>>,
    pay: Vec<i64>,
}

impl Graph {
    fn source(&self, loopy: bool, payoffs: bool) -> String {
        let edges = edges(&self.succ);
        let pay: Vec<String> = self.pay.iter().map(|p| p.to_string()).collect();
        let pay = format!("[{}]", pay.join(", "));
        format!(
            "const E = {edges}\nconst PAY = {pay}\ngame G {{\n    position n\n    {}\n    {}\n    move m for m in E[n]\n}}\n",
            if loopy { "loopy" } else { "" },
            if payoffs { "payoff PAY[n]" } else { "" },
        )
    }
}

fn graph_strategy(acyclic: bool, max_nodes: usize) -> impl Strategy<Value = Graph> {
    (1usize..=max_nodes).prop_flat_map(move |k| {
        (
            successors(k, acyclic),
            proptest::collection::vec(-3i64..=3, k..=k),
        )
            .prop_map(|(succ, pay)| Graph { succ, pay })
    })
}

/// Every positional strategy of one player: a choice of option per node that has options.
fn strategies(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![0; succ.len()]];
    for (p, s) in succ.iter().enumerate() {
        if s.len() < 2 {
            continue;
        }
        all = all
            .into_iter()
            .flat_map(|choice| {
                (0..s.len()).map(move |c| {
                    let mut next = choice.clone();
                    next[p] = c;
                    next
                })
            })
            .collect();
    }
    all
}

/// The payoff to Max of the play from `start` with Max to move, Max choosing by `max` and
/// Min by `min`: the end's payoff from Max's side, or 0 if the play returns to a state.
fn play(g: &Graph, start: usize, max: &[usize], min: &[usize]) -> i64 {
    let n = g.succ.len();
    let mut seen = vec![false; 2 * n];
    let (mut p, mut max_to_move) = (start, true);
    loop {
        let state = 2 * p + usize::from(!max_to_move);
        if seen[state] {
            return 0;
        }
        seen[state] = true;
        if g.succ[p].is_empty() {
            return if max_to_move { g.pay[p] } else { -g.pay[p] };
        }
        let choice = if max_to_move { max[p] } else { min[p] };
        p = g.succ[p][choice];
        max_to_move = !max_to_move;
    }
}

/// The value of each node for the player to move: `max_σ min_τ` over positional strategies,
/// checked to equal `min_τ max_σ`.
fn brute_force(g: &Graph) -> Vec<i64> {
    let all = strategies(&g.succ);
    let n = g.succ.len();
    let mut lower = vec![i64::MIN; n];
    let mut upper = vec![i64::MAX; n];
    // results[s][t][p]: the play from p with Max by strategy s and Min by t.
    let results: Vec<Vec<Vec<i64>>> = all
        .iter()
        .map(|s| {
            all.iter()
                .map(|t| (0..n).map(|p| play(g, p, s, t)).collect())
                .collect()
        })
        .collect();
    for p in 0..n {
        for row in &results {
            lower[p] = lower[p].max(row.iter().map(|r| r[p]).min().unwrap());
        }
        for t in 0..all.len() {
            upper[p] = upper[p].min(results.iter().map(|row| row[t][p]).max().unwrap());
        }
    }
    assert_eq!(lower, upper, "no saddle point: {g:?}");
    lower
}

/// Plain recursive negamax, for acyclic graphs.
fn negamax(g: &Graph, p: usize) -> i64 {
    if g.succ[p].is_empty() {
        return g.pay[p];
    }
    g.succ[p].iter().map(|q| -negamax(g, *q)).max().unwrap()
}

fn printed(values: &[i64]) -> String {
    let items: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

fn check_graph(g: &Graph) -> Result<(), TestCaseError> {
    let k = g.succ.len();
    let source = g.source(true, true);
    let want = brute_force(g);
    let (mut s, file) = load(&source);
    let scores = eval(&mut s, file, &format!("[score(G(n)) for n in 0..{k}]"));
    prop_assert_eq!(&scores, &printed(&want), "{}", source);
    if is_acyclic(&g.succ) {
        let rec: Vec<i64> = (0..k).map(|p| negamax(g, p)).collect();
        prop_assert_eq!(&rec, &want, "negamax\n{}", source);
        let (mut plain, pfile) = load(&g.source(false, true));
        let acyclic = eval(&mut plain, pfile, &format!("[score(G(n)) for n in 0..{k}]"));
        prop_assert_eq!(&acyclic, &scores, "without loopy\n{}", source);
    }
    let outcomes = eval(&mut s, file, &format!("[outcome(G(n)) for n in 0..{k}]"));
    let signs: Vec<&str> = want
        .iter()
        .map(|v| match v.signum() {
            1 => "N",
            -1 => "P",
            _ => "D",
        })
        .collect();
    prop_assert_eq!(outcomes, format!("[{}]", signs.join(", ")), "{}", source);
    for n in 0..k {
        let optimal = nodes_in(&eval(&mut s, file, &format!("optimal_moves(G({n}))")));
        let keep: Vec<usize> = g.succ[n]
            .iter()
            .copied()
            .filter(|q| -want[*q] == want[n])
            .collect();
        prop_assert_eq!(&optimal, &keep, "optimal_moves of {}\n{}", n, source);
        let winning = nodes_in(&eval(&mut s, file, &format!("winning_moves(G({n}))")));
        let win: Vec<usize> = g.succ[n].iter().copied().filter(|q| want[*q] < 0).collect();
        prop_assert_eq!(&winning, &win, "winning_moves of {}\n{}", n, source);
        // The line keeps the score at every step; one that ends pays what the score says,
        // from the first player's side; one of score 0 may instead stop at a repetition.
        let line = nodes_in(&eval(&mut s, file, &format!("line(G({n}))")));
        prop_assert_eq!(line[0], n);
        for (i, pair) in line.windows(2).enumerate() {
            prop_assert!(g.succ[pair[0]].contains(&pair[1]), "{:?}\n{}", line, source);
            prop_assert_eq!(
                want[pair[1]],
                -want[pair[0]],
                "step {} of {:?}\n{}",
                i,
                line,
                source
            );
        }
        let last = line[line.len() - 1];
        let repeated = line[..line.len() - 1].contains(&last);
        if repeated {
            prop_assert_eq!(want[n], 0, "{:?}\n{}", line, source);
        } else {
            prop_assert!(g.succ[last].is_empty(), "{:?}\n{}", line, source);
            let sign = if (line.len() - 1).is_multiple_of(2) {
                1
            } else {
                -1
            };
            prop_assert_eq!(sign * g.pay[last], want[n], "{:?}\n{}", line, source);
        }
    }
    // Normal play as a payoff game: every end pays the player to move there -1. The score's
    // sign is the outcome of the same game without payoffs (won, lost, drawn by cycling).
    let normal = Graph {
        succ: g.succ.clone(),
        pay: vec![-1; k],
    };
    let (mut scored, sfile) = load(&normal.source(true, true));
    let (mut plain, pfile) = load(&normal.source(true, false));
    let signs = eval(
        &mut scored,
        sfile,
        &format!(
            "[if score(G(n)) > 0 then N else if score(G(n)) < 0 then P else D for n in 0..{k}]"
        ),
    );
    let outcomes = eval(
        &mut plain,
        pfile,
        &format!("[outcome(G(n)) for n in 0..{k}]"),
    );
    prop_assert_eq!(
        signs,
        outcomes,
        "normal play\n{}",
        normal.source(true, true)
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn loopy_payoff_graphs_agree_with_a_strategy_brute_force(g in graph_strategy(false, 5)) {
        check_graph(&g)?;
    }

    #[test]
    fn acyclic_payoff_graphs_agree_with_negamax(g in graph_strategy(true, 6)) {
        check_graph(&g)?;
    }
}

/// Coins in a line (issue 17): the first player guarantees a lead of 2 with
/// `[3, 9, 1, 2, 7, 4, 8, 6]`; checked against the interval dynamic program.
#[test]
fn coins_in_a_line() {
    let coins = [3i64, 9, 1, 2, 7, 4, 8, 6];
    // best[i][j]: the lead the player to move secures on coins[i..j].
    let n = coins.len();
    let mut best = vec![vec![0i64; n + 1]; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len;
            best[i][j] = (coins[i] - best[i + 1][j]).max(coins[j - 1] - best[i][j - 1]);
        }
    }
    assert_eq!(best[0][n], 2);
    let source = "const C = [3, 9, 1, 2, 7, 4, 8, 6]\n\
                  game Coins { position (i, j, lead)\n payoff lead\n\
                  move (i + 1, j, -(lead + C[i])) if i < j\n\
                  move (i, j - 1, -(lead + C[j - 1])) if i < j }\n";
    let (mut s, file) = load(source);
    let all = eval(
        &mut s,
        file,
        "[score(Coins(i, j, 0)) for i in 0..=8 for j in i..=8]",
    );
    let want: Vec<i64> = (0..=n)
        .flat_map(|i| (i..=n).map(move |j| (i, j)))
        .map(|(i, j)| best[i][j])
        .collect();
    assert_eq!(all, printed(&want));
}

/// The refusals: compounds, mixing with win/loss games, win/loss analyses, missing payoffs.
#[test]
fn what_payoff_games_refuse() {
    let source = "game A { position n\n payoff n if n < 0\n payoff -1 if n == 0\n move n - 1 if n > 0\n move split(n - 1, n - 2) if n == 9 }\n\
                  game B { position n\n move n - 1 if n > 0 }\n\
                  game M { position n\n payoff 1\n move B(n) if n > 0 }\n\
                  game Q { position n\n move A(2) if n > 0 }\n\
                  game Z { position n\n payoff 1 if n == 1\n move n - 1 if n > 0 }\n\
                  game T { position n\n payoff \"x\"\n move n - 1 if n > 0 }\n\
                  game H { position n\n left move A(n)\n right move H(n - 1) if n > 0 }\n";
    let (mut s, file) = load(source);
    assert_eq!(eval(&mut s, file, "score(A(3))"), "1");
    assert_eq!(eval(&mut s, file, "A(3) is N"), "true");
    let refused = [
        ("score(A(1) + A(2))", "cgl::analysis::payoff_compound"),
        ("outcome(A(1) + B(2))", "cgl::analysis::payoff_compound"),
        ("score(A(9))", "cgl::analysis::payoff_compound"),
        ("score(B(3))", "cgl::analysis::not_payoff"),
        ("score(M(3))", "cgl::analysis::payoff_mixed"),
        ("outcome(Q(3))", "cgl::analysis::payoff_mixed"),
        ("remoteness(Q(3))", "cgl::analysis::payoff_mixed"),
        ("grundy(A(3))", "cgl::analysis::payoff_game"),
        ("remoteness(A(3))", "cgl::analysis::payoff_game"),
        ("outcome(misere(A(3)))", "cgl::analysis::payoff_game"),
        ("score(Z(3))", "cgl::eval::no_payoff"),
        ("score(T(3))", "cgl::eval::type"),
        // Partizan play into a payoff game: its positions are scored, not won or lost.
        ("outcome(H(3))", "cgl::analysis::payoff_mixed"),
        ("remoteness(H(3), left)", "cgl::analysis::payoff_mixed"),
        ("winning_moves(H(3), left)", "cgl::analysis::payoff_mixed"),
        ("value(H(3))", "cgl::analysis::payoff_mixed"),
        ("value(A(3))", "cgl::analysis::payoff_game"),
    ];
    for (query, code) in refused {
        assert_eq!(
            eval(&mut s, file, query),
            format!("error {code}"),
            "{query}"
        );
    }
    // Moves and reachability are as for any game.
    assert_eq!(eval(&mut s, file, "moves(A(2))"), "[A(1)]");
    assert_eq!(eval(&mut s, file, "reachable(A(3))"), "4");
    // A payoff game's own moves are both players': a one-sided rule is refused at load.
    let one_sided = "game OneSided { position n\n payoff -1\n left move n - 1 if n > 0 }\n";
    let mut s = Session::new(SessionConfig::default());
    let codes: Vec<&str> = match s.load_source("one_sided.game", one_sided) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|d| d.code.name()).collect(),
    };
    assert_eq!(codes, ["cgl::resolve::payoff_conflict"]);
}

/// A score that cannot be negated in 64 bits (its numerator is -2^63) is an overflow only
/// where the negation is the answer, in the acyclic and the loopy solver alike: here the
/// mover's best option leaves the opponent -(2^63 - 1), so the score is 2^63 - 1 whatever
/// the other option's -2^63/3. See: issue "Reliability III", finding 1 (siblings).
#[test]
fn a_score_that_cannot_be_negated_is_refused_only_where_it_is_the_answer() {
    let ends = "payoff if n == 1 then -9223372036854775808 / 3 else -9223372036854775807\n";
    let source = format!(
        "game T {{ position n\n {ends} move k for k in 1..=2 if n == 0 }}\n\
         game L {{ position n\n loopy\n {ends} move k for k in 1..=3 if n == 0\n move 0 if n == 3 }}\n\
         game Only {{ position n\n {ends} move 1 if n == 0 }}\n"
    );
    let (mut s, file) = load(&source);
    for (query, want) in [
        ("score(T(0))", "9223372036854775807"),
        ("optimal_moves(T(0))", "[T(2)]"),
        ("score(L(0))", "9223372036854775807"),
        ("score(L(3))", "-9223372036854775807"),
        ("score(L(1))", "-9223372036854775808/3"),
        ("score(Only(0))", "error cgl::eval::overflow"),
    ] {
        assert_eq!(eval(&mut s, file, query), want, "{query}");
    }
}

/// A payoff game that cycles without `loopy` keeps the cycle diagnostic; with it, infinite
/// play scores 0.
#[test]
fn cycles_need_loopy() {
    let source =
        "game C { position n\n payoff 5\n move (n + 1) % 3 if n < 3\n move 3 if n == 2 }\n";
    let (mut s, file) = load(source);
    assert_eq!(eval(&mut s, file, "score(C(0))"), "error cgl::graph::cycle");
    let (mut s, file) = load(&source.replace("payoff 5", "loopy\n payoff 5"));
    // 2 may end at 3 (paying its mover 5 there, so -5 for 2's mover): 2 goes round instead.
    assert_eq!(
        eval(&mut s, file, "[score(C(n)) for n in 0..4]"),
        "[0, 0, 0, 5]"
    );
    assert_eq!(eval(&mut s, file, "line(C(0))"), "[C(0), C(1), C(2), C(0)]");
}

/// The games of a file, each with the byte range of its body (after its `{`, to its `}`).
fn game_bodies(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("\ngame ") {
        let start = at + found + "\ngame ".len();
        let name: String = text[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // The body opens at the header line's last `{` (a default may hold a set `{1, 2}`).
        let line_end = start + text[start..].find('\n').unwrap();
        let open = start + text[start..line_end].rfind('{').unwrap();
        let close = open + text[open..].find("\n}").unwrap();
        out.push((name, open + 1..close));
        at = close;
    }
    out
}

/// Positions `Name(args)` written in a file with literal arguments only.
fn literal_positions(text: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let pattern = format!("{name}(");
    for (i, _) in text.match_indices(&pattern) {
        let before = text[..i].chars().last().unwrap_or(' ');
        if before.is_ascii_alphanumeric() || before == '_' {
            continue;
        }
        let args: String = text[i + pattern.len()..]
            .chars()
            .take_while(|c| *c != ')')
            .collect();
        if !args.is_empty()
            && args
                .chars()
                .all(|c| c.is_ascii_digit() || " ,-[]".contains(c))
        {
            let position = format!("{name}({args})");
            if !out.contains(&position) {
                out.push(position);
            }
        }
    }
    out
}

/// Normal play is the payoff game whose every end pays the player to move there -1: the
/// examples' games re-declared so (those without draws, misère play, compounds and partizan
/// rules, which a payoff game refuses) give every position written in the examples the same outcome, and
/// a score of the right sign.
#[test]
fn normal_play_is_a_payoff_game_on_the_examples() {
    let mut compared = 0;
    let mut games = 0;
    let dir = crate::common::root().join("examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .collect();
    files.sort();
    let scratch = std::env::temp_dir().join(format!("cgl_payoff_examples_{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for path in &files {
        std::fs::copy(path, scratch.join(path.file_name().unwrap())).unwrap();
    }
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("payoff") {
            continue;
        }
        let eligible: Vec<(String, std::ops::Range<usize>)> = game_bodies(&text)
            .into_iter()
            .filter(|(_, body)| {
                let b = &text[body.clone()];
                ![
                    "split",
                    "draw if",
                    "play misere",
                    "compound",
                    "left move",
                    "right move",
                ]
                .iter()
                .any(|w| b.contains(w))
            })
            .collect();
        if eligible.is_empty() {
            continue;
        }
        let mut scored = text.clone();
        for (_, body) in eligible.iter().rev() {
            scored.insert_str(body.start, "\n    payoff -1");
        }
        let mut plain = Session::new(SessionConfig::default());
        let pfile = plain.load_path(&path).unwrap();
        // The re-declared file among copies of the others, so that its imports resolve.
        let copy = scratch.join(path.file_name().unwrap());
        std::fs::write(&copy, &scored).unwrap();
        let mut redeclared = Session::new(SessionConfig::default());
        let sfile = redeclared
            .load_path(&copy)
            .unwrap_or_else(|d| panic!("{path:?} re-declared does not load: {}", d[0].message));
        std::fs::write(&copy, &text).unwrap();
        for (name, _) in &eligible {
            games += 1;
            let mut positions = literal_positions(&text, name);
            positions.extend((0..=12).map(|n| format!("{name}({n})")));
            positions.extend((0..25).map(|n| format!("{name}({}, {})", n / 5, n % 5)));
            for position in positions {
                let outcome = eval(&mut plain, pfile, &format!("outcome({position})"));
                if outcome.starts_with("error") {
                    continue;
                }
                let score = eval(&mut redeclared, sfile, &format!("score({position})"));
                if score == "error cgl::analysis::payoff_mixed" {
                    continue;
                }
                let sign = match score.parse::<i64>() {
                    Ok(v) if v > 0 => "N",
                    Ok(v) if v < 0 => "P",
                    Ok(_) => "D",
                    Err(_) => panic!("score({position}) in {path:?}: {score}"),
                };
                assert_eq!(sign, outcome, "{position} in {path:?}");
                let again = eval(&mut redeclared, sfile, &format!("outcome({position})"));
                assert_eq!(again, outcome, "{position} in {path:?}");
                compared += 1;
            }
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    assert!(games >= 15, "only {games} games re-declared");
    assert!(compared >= 100, "only {compared} positions compared");
}
