//! `reachable`: the positions reachable from a term, counted by one depth-first search that
//! keeps only the moves of the positions on its path (the graph stores none of them), and
//! that solves each position's remoteness on its way back up where it can, so that an
//! `outcome` or `remoteness` asked after it needs no second pass over the rules.

use super::kind::any_scored;
use super::rem::{lego_rule, RemCode};
use super::solve::{MemoTable, Slot};
use super::{parallel, Analyzer};
use crate::diag::DiagResult;
use crate::eval::World;
use crate::graph::TermId;
use crate::syntax::ast::Convention;

/// A position on the search's path: its moves are `moves[start..]` of the shared stack of
/// moves while it is on top, and `next` is the first one not followed yet.
struct Frame {
    term: TermId,
    start: usize,
    next: usize,
}

/// The number of distinct positions reachable from `t` by moves, `t` included (a compound
/// counts as one position: its explicit product is explored).
pub fn reachable(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<usize> {
    if let Some(count) = parallel::reachable(an, w, t, conv) {
        return Ok(count);
    }
    let solving = solves_on_the_way(an, w, t);
    // Term ids are dense: a bitset over them, grown as the graph grows.
    let mut seen: Vec<u64> = Vec::new();
    let mut mark = |id: TermId| {
        let (word, bit) = (id.0 as usize / 64, id.0 % 64);
        if seen.len() <= word {
            seen.resize((word + 1).max(2 * seen.len()), 0);
        }
        let new = seen[word] & (1 << bit) == 0;
        seen[word] |= 1 << bit;
        new
    };
    mark(t);
    let mut count = 1;
    let mut moves: Vec<TermId> = Vec::new();
    let mut stack = vec![Frame {
        term: t,
        start: 0,
        next: 0,
    }];
    an.graph.successors_once(w, t, &mut moves)?;
    let mut values = Vec::new();
    while let Some(top) = stack.last_mut() {
        if top.next < moves.len() {
            let next = moves[top.next];
            top.next += 1;
            if mark(next) {
                count += 1;
                let start = moves.len();
                stack.push(Frame {
                    term: next,
                    start,
                    next: start,
                });
                an.graph.successors_once(w, next, &mut moves)?;
            }
            continue;
        }
        let Some(done) = stack.pop() else { break };
        if solving {
            settle(an, done.term, &moves[done.start..], conv, &mut values);
        }
        moves.truncate(done.start);
    }
    Ok(count)
}

/// Whether the search may solve remoteness on its way: positions of impartial, acyclic,
/// win/loss games (a `loopy` game's cycles are retrograde analysis's, a payoff game's
/// positions are scored, a partizan position's race has a side).
fn solves_on_the_way(an: &Analyzer, w: &World<'_>, t: TermId) -> bool {
    !an.graph.info(t).partizan && !any_scored(w) && !w.program.kinds().loopy
}

/// Writes the remoteness of the position `t`, whose moves are `succ`, when each of them has
/// one already (in an acyclic game, every option is finished before the position that
/// reaches it, unless a compound or an earlier failure left it unsolved). Compounds are left
/// to the remoteness search, which decides where a theorem applies.
fn settle(
    an: &mut Analyzer,
    t: TermId,
    succ: &[TermId],
    conv: Convention,
    values: &mut Vec<RemCode>,
) {
    if an.graph.compound_of(t).is_some() {
        return;
    }
    let memo = an.memos.remoteness(conv);
    if let Slot::Done(_) = memo.slot(t.0 as usize) {
        return;
    }
    values.clear();
    for s in succ {
        match memo.slot(s.0 as usize) {
            Slot::Done(v) => values.push(v),
            _ => return,
        }
    }
    if let Ok(code) = RemCode::of(lego_rule(an.graph.info(t), conv, values)) {
        an.memos
            .remoteness_mut(conv)
            .put(t.0 as usize, Slot::Done(code));
    }
}
