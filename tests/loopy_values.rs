//! Loopy Grundy values (Smith): `grundy` of a position of a `loopy` impartial game is a
//! nimber or `inf(K)`. On random small graphs (cycles and self-loops allowed) every value must
//! satisfy Smith's definition, agree with the outcome that an independent level-by-level
//! solver written here finds, and sums of two positions must follow the rules (n + m = n ⊕ m,
//! n + ∞_K = ∞_(K ⊕ n), ∞ + ∞ a draw), their outcome agreeing with the same solver run on the
//! sum's graph, built here as the product of the two.

use std::collections::BTreeSet;

use proptest::prelude::*;

use crate::random_graphs::{config, edges, eval, load, successors};

/// A loopy Grundy value as cgl prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Nimber {
    Finite(u64),
    Infinite(BTreeSet<u64>),
}

fn parse(text: &str) -> Nimber {
    match text.strip_prefix("inf(").and_then(|t| t.strip_suffix(')')) {
        Some(inside) => Nimber::Infinite(
            inside
                .split(", ")
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect(),
        ),
        None => Nimber::Finite(text.parse().unwrap_or_else(|_| panic!("`{text}`"))),
    }
}

/// Outcomes by levels, written from the definitions (normal play, no declared draws): won at
/// level k when an option is lost at level k - 1, lost at level k when every option is won,
/// the greatest at level k - 1; never decided is a draw.
fn outcomes(succ: &[Vec<usize>]) -> Vec<&'static str> {
    let n = succ.len();
    let mut rem: Vec<Option<u64>> = (0..n).map(|p| succ[p].is_empty().then_some(0)).collect();
    for k in 1..=(2 * n as u64 + 3) {
        let decided: Vec<usize> = (0..n)
            .filter(|&p| rem[p].is_none())
            .filter(|&p| {
                let opts: Vec<Option<u64>> = succ[p].iter().map(|&q| rem[q]).collect();
                let wins = opts.iter().any(|r| *r == Some(k - 1) && (k - 1) % 2 == 0);
                let all_won = opts.iter().all(|r| matches!(r, Some(r) if r % 2 == 1));
                wins || (all_won && opts.iter().filter_map(|r| *r).max() == Some(k - 1))
            })
            .collect();
        for p in decided {
            rem[p] = Some(k);
        }
    }
    rem.iter()
        .map(|r| match r {
            None => "D",
            Some(r) if r % 2 == 0 => "P",
            Some(_) => "N",
        })
        .collect()
}

/// The outcome a loopy Grundy value says.
fn outcome_of(v: &Nimber) -> &'static str {
    match v {
        Nimber::Finite(0) => "P",
        Nimber::Finite(_) => "N",
        Nimber::Infinite(k) if k.contains(&0) => "N",
        Nimber::Infinite(_) => "D",
    }
}

/// The disjunctive sum's graph: node (a, b) is a * k + b.
fn product(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let k = succ.len();
    let mut out = vec![Vec::new(); k * k];
    for a in 0..k {
        for b in 0..k {
            let moves = &mut out[a * k + b];
            moves.extend(succ[a].iter().map(|&a2| a2 * k + b));
            moves.extend(succ[b].iter().map(|&b2| a * k + b2));
        }
    }
    out
}

fn check(succ: &[Vec<usize>]) -> Result<(), TestCaseError> {
    let k = succ.len();
    let source = format!(
        "const E = {}\ngame G {{\n    position n\n    loopy\n    move m for m in E[n]\n}}\n",
        edges(succ)
    );
    let (mut s, file) = load(&source);
    let joined = |s: &mut cgl::session::Session, expr: &str| {
        let text = eval(
            s,
            file,
            &format!("join([str({expr}) for n in 0..{}], \";\")", k * k),
        );
        prop_assert!(!text.starts_with("error"), "{}\n{}", text, source);
        Ok(text
            .trim_matches('"')
            .split(';')
            .map(parse)
            .collect::<Vec<_>>())
    };
    let values: Vec<Nimber> = joined(
        &mut s,
        "grundy(G(n % K))".replace('K', &k.to_string()).as_str(),
    )?
    .into_iter()
    .take(k)
    .collect();
    let truth = outcomes(succ);
    for p in 0..k {
        let v = &values[p];
        prop_assert_eq!(outcome_of(v), truth[p], "node {}: {:?}\n{}", p, v, source);
        let opts: Vec<&Nimber> = succ[p].iter().map(|&q| &values[q]).collect();
        let finite: BTreeSet<u64> = opts
            .iter()
            .filter_map(|o| match o {
                Nimber::Finite(g) => Some(*g),
                _ => None,
            })
            .collect();
        match v {
            Nimber::Finite(g) => {
                // Smith's definition: the mex of the finite option values, and every option
                // of greater or infinite value has an option of value g.
                prop_assert!(
                    !finite.contains(g) && (0..*g).all(|j| finite.contains(&j)),
                    "node {}\n{}",
                    p,
                    source
                );
                for &q in &succ[p] {
                    let reverts = match &values[q] {
                        Nimber::Finite(h) if h < g => true,
                        _ => succ[q].iter().any(|&r| values[r] == Nimber::Finite(*g)),
                    };
                    prop_assert!(reverts, "node {} option {}\n{}", p, q, source);
                }
            }
            Nimber::Infinite(set) => prop_assert_eq!(set, &finite, "node {}\n{}", p, source),
        }
    }
    // Sums: node n of the product is G(n / k) + G(n % k).
    let sums = joined(&mut s, &format!("grundy(G(n div {k}) + G(n % {k}))"))?;
    let truth = outcomes(&product(succ));
    for a in 0..k {
        for b in 0..k {
            let sum = &sums[a * k + b];
            prop_assert_eq!(
                outcome_of(sum),
                truth[a * k + b],
                "G({}) + G({}): {:?}\n{}",
                a,
                b,
                sum,
                source
            );
            let rule = match (&values[a], &values[b]) {
                (Nimber::Finite(x), Nimber::Finite(y)) => Some(Nimber::Finite(x ^ y)),
                (Nimber::Finite(x), Nimber::Infinite(set))
                | (Nimber::Infinite(set), Nimber::Finite(x)) => {
                    Some(Nimber::Infinite(set.iter().map(|s| s ^ x).collect()))
                }
                (Nimber::Infinite(_), Nimber::Infinite(_)) => None,
            };
            match rule {
                Some(want) => prop_assert_eq!(sum, &want, "G({}) + G({})\n{}", a, b, source),
                None => prop_assert_eq!(
                    truth[a * k + b],
                    "D",
                    "∞ + ∞ at G({}) + G({})\n{}",
                    a,
                    b,
                    source
                ),
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(200))]
    #[test]
    fn loopy_grundy_values_fit_smith_outcomes_and_sums(succ in (1usize..=8).prop_flat_map(|k| successors(k, false))) {
        check(&succ)?;
    }
}
