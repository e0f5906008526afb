//! What a cycle of moves is to the analyses: declared by a `loopy` game (then a solver of
//! loopy play answers), or a mistake in the rules, reported with the positions on it and
//! the rules that make its moves. The depth-first search of `solve.rs` and the retrograde
//! solver of `retro.rs` both ask here.

use super::Analyzer;
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::World;
use crate::graph::TermId;

/// The diagnostic for the cycle `path` (its first term again last): the positions on it and
/// the rules that make its moves.
#[cold]
pub(super) fn diagnostic(
    an: &mut Analyzer,
    w: &mut World<'_>,
    path: &[TermId],
) -> DiagResult<Box<Diag>> {
    // A long cycle is named by its first and last positions, the rest counted.
    const SHOWN: usize = 8;
    let mut names: Vec<String> = Vec::new();
    for (i, t) in path.iter().enumerate() {
        if path.len() > 2 * SHOWN && i == SHOWN {
            names.push(format!("… ({} positions more) …", path.len() - 2 * SHOWN));
        }
        if path.len() <= 2 * SHOWN || i < SHOWN || i >= path.len() - SHOWN {
            names.push(an.graph.show(&*w.games, *t));
        }
    }
    let mut diag = Diag::error(
        Code::GraphCycle,
        format!("the moves form a cycle: {}", names.join(" → ")),
    )
    .help(
        "play must end: make every move decrease something (a heap, a count of empty cells, ...); \
         if play may really return to a position, declare the game `loopy`",
    );
    let mut labelled = Vec::new();
    // The rules of the first moves (a long cycle repeats its rules).
    for pair in path.windows(2).take(256) {
        let (from, to) = (pair[0], pair[1]);
        let Some(inst) = an.graph.atom_instance(from) else {
            continue;
        };
        let Some(rule) = an.graph.rule_of_move(w, from, to)? else {
            continue;
        };
        let game_id = w.games.info(inst).game;
        let game = &w.program.games[game_id.0 as usize];
        if let Some(r) = game.rules.get(rule as usize) {
            if !labelled.contains(&(game_id, rule)) {
                labelled.push((game_id, rule));
                let (a, b) = (an.graph.show(&*w.games, from), an.graph.show(&*w.games, to));
                diag = diag.label(r.span, format!("this rule moves {a} to {b}"));
            }
        }
    }
    Ok(Box::new(diag))
}

/// Whether a `loopy` game declares the cycle `path` (its first term again last): every position
/// on it is of a loopy game; or, for a cycle of compounds only, every part that changes along
/// it (a part not common to all of them) is. A compound's cycle in a part of a game that is
/// not loopy keeps the diagnostic.
pub(super) fn declared(an: &Analyzer, w: &World<'_>, path: &[TermId]) -> bool {
    let loopy = |t: TermId| {
        an.graph.atom_instance(t).is_some_and(|inst| {
            let game = w.games.info(inst).game;
            w.program
                .games
                .get(game.0 as usize)
                .is_some_and(|g| g.loopy)
        })
    };
    let atoms_on_path: Vec<TermId> = path
        .iter()
        .copied()
        .filter(|t| an.graph.compound_of(*t).is_none())
        .collect();
    if !atoms_on_path.is_empty() {
        return atoms_on_path.into_iter().all(loopy);
    }
    // Only compounds: their atoms, as sorted multisets.
    let atoms_of = |t: TermId| {
        let mut out = Vec::new();
        let mut stack = vec![t];
        while let Some(c) = stack.pop() {
            match an.graph.compound_of(c) {
                Some((_, parts)) => stack.extend_from_slice(parts),
                None => out.push(c),
            }
        }
        out.sort_unstable();
        out
    };
    let sets: Vec<Vec<TermId>> = path.iter().map(|t| atoms_of(*t)).collect();
    let Some((head, rest)) = sets.split_first() else {
        return false;
    };
    let mut common = head.clone();
    for s in rest {
        common = multiset_meet(&common, s);
    }
    let mut changed = false;
    for s in &sets {
        for t in multiset_minus(s, &common) {
            changed = true;
            if !loopy(t) {
                return false;
            }
        }
    }
    if changed {
        return true;
    }
    // No part changed: the parts that moved went back to themselves in one move (a self-loop).
    let self_loops: Vec<TermId> = common
        .iter()
        .copied()
        .filter(|t| {
            an.graph
                .stored_successors(*t)
                .is_some_and(|s| s.contains(t))
        })
        .collect();
    if self_loops.is_empty() {
        common.into_iter().any(loopy)
    } else {
        self_loops.into_iter().all(loopy)
    }
}

/// The items two sorted lists have in common, with multiplicity.
fn multiset_meet(a: &[TermId], b: &[TermId]) -> Vec<TermId> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// The sorted list `a` without the items of the sorted list `b`, with multiplicity.
fn multiset_minus(a: &[TermId], b: &[TermId]) -> Vec<TermId> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() {
        if j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < b.len() && b[j] < a[i] {
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out
}
