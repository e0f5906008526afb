//! Retrograde analysis: outcomes and remoteness where play can cycle (games declared `loopy`).
//!
//! The depth-first search of `solve.rs` needs a DAG. When it closes a cycle that a `loopy`
//! game declares, it ends with `Unsolved::Cycle` and `impartial.rs` asks here instead: the
//! positions reachable from the root are explored once (each with its options, a forward
//! list), the predecessor lists are built from them, and decisions flow backwards from the
//! ends of play, in order of remoteness, through a queue (linear in positions + moves):
//!
//! - a terminal position is lost (`P`, remoteness 0) under normal play, won (`N`, remoteness
//!   1, as if by one last move) under misère play, and a declared draw stays undecided;
//! - a position with a lost option is won, its remoteness 1 + the least remoteness of its lost
//!   options (the first lost option to be decided, since decisions come in order);
//! - a position all of whose options are won is lost, its remoteness 1 + the greatest of
//!   theirs (the last to be decided), found with a counter of undecided options per position;
//! - whatever is never decided is a draw: neither player can force the end.
//!
//! This is the recurrence of the acyclic search (`lego`) read as a least fixed point, so the
//! two agree wherever both apply; positions whose remoteness is already known are not
//! explored again, their values seed the queue. Results go into the same memo tables. The
//! exploration ([`explore`]) and the merge of seeds and queue ([`next_in_order`]) serve the
//! payoff games' retrograde analysis too (`payoff.rs`).
//!
//! It checks, by the strongly connected components of what it explored, that every cycle is
//! declared by a `loopy` game.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::kind::refuse_scored_end;
use super::rem::{parity, Rem, RemCode};
use super::solve::{MemoTable, Slot};
use super::{cycle, Analyzer};
use crate::diag::{Diag, DiagResult};
use crate::eval::value::Outcome;
use crate::eval::World;
use crate::graph::TermId;
use crate::syntax::ast::Convention;

/// The outcome of `t` under `conv` by retrograde analysis: the parity of its remoteness.
pub(super) fn outcome(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Outcome> {
    Ok(parity(remoteness(an, w, t, conv)?))
}

/// The remoteness of `t` under `conv` by retrograde analysis from `t`.
pub(super) fn remoteness(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
    conv: Convention,
) -> DiagResult<Rem> {
    solve(an, w, t, conv)?;
    match an.memos.remoteness(conv).slot(t.0 as usize) {
        Slot::Done(code) => Ok(code.get()),
        _ => Err(Box::new(Diag::internal(
            "retrograde analysis left its root unsolved",
        ))),
    }
}

/// Not yet decided (a draw if it stays so).
const UNDECIDED: u32 = u32::MAX;
/// Not a local node.
const ABSENT: u32 = u32::MAX;

/// Solves outcome and remoteness under `conv` for `root` and every position reachable from it
/// whose remoteness is not known yet, and records both in the memos.
fn solve(an: &mut Analyzer, w: &mut World<'_>, root: TermId, conv: Convention) -> DiagResult<()> {
    let known = move |an: &Analyzer, t: TermId| match an.memos.remoteness(conv).slot(t.0 as usize) {
        Slot::Done(code) => Some(code),
        _ => None,
    };
    if known(an, root).is_some() {
        return Ok(());
    }

    let Local {
        nodes,
        seed,
        first,
        targets: _,
        pfirst,
        preds,
    } = explore(an, w, root, known)?;
    let n = nodes.len();

    // Decisions: the remoteness (even iff lost), `UNDECIDED` until known.
    let mut rem = vec![UNDECIDED; n];
    let mut undecided: Vec<u32> = (0..n).map(|p| first[p + 1] - first[p]).collect();
    // Seeds in order of remoteness: known positions and the ends of play.
    let mut seeds: Vec<u32> = Vec::new();
    for p in 0..n {
        match seed[p] {
            Some(code) => {
                if let Some(r) = code.get() {
                    rem[p] = u32_of(r)?;
                    seeds.push(len_u32(p)?);
                }
            }
            None if undecided[p] == 0 && !an.graph.info(nodes[p]).draw => {
                refuse_scored_end(an, w, nodes[p])?;
                rem[p] = if conv == Convention::Normal { 0 } else { 1 };
                seeds.push(len_u32(p)?);
            }
            None => {}
        }
    }
    seeds.sort_by_key(|p| rem[*p as usize]);

    // Two queues, each in order of remoteness (the seeds, and what they decide, which is one
    // more than what decided it): always take the smaller front, so decisions come in order.
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let (mut qi, mut si) = (0, 0);
    let mut steps: u32 = 0;
    while let Some(q) = next_in_order(&seeds, &mut si, &queue, &mut qi, |s, d| {
        rem[s as usize] <= rem[d as usize]
    }) {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) {
            an.graph.check_stop(w.stop)?;
        }
        let r = rem[q as usize];
        let next = r
            .checked_add(1)
            .filter(|r| *r < UNDECIDED - 4)
            .ok_or_else(|| Box::new(Diag::internal("a remoteness past what the memo can hold")))?;
        let lost = r.is_multiple_of(2);
        for &p in &preds[pfirst[q as usize] as usize..pfirst[q as usize + 1] as usize] {
            let p = p as usize;
            if rem[p] != UNDECIDED {
                continue;
            }
            if lost {
                // The first lost option decided has the least remoteness.
                rem[p] = next;
                queue.push(p as u32);
            } else {
                undecided[p] -= 1;
                if undecided[p] == 0 {
                    // Every option won, the last decided has the greatest remoteness.
                    rem[p] = next;
                    queue.push(p as u32);
                }
            }
        }
    }

    for p in 0..n {
        if seed[p].is_some() {
            continue;
        }
        let t = nodes[p].0 as usize;
        let (code, o) = match rem[p] {
            UNDECIDED => (RemCode::DRAW, Outcome::D),
            r if r % 2 == 0 => (RemCode(r), Outcome::P),
            r => (RemCode(r), Outcome::N),
        };
        an.memos.remoteness_mut(conv).put(t, Slot::Done(code));
        an.memos.outcome_mut(conv).put(t, Slot::Done(o));
    }
    Ok(())
}

/// The positions reachable from a root, explored once, with their options and predecessors
/// in arenas: node `i` is `nodes[i]`, its options `targets[first[i]..first[i + 1]]`, its
/// predecessors `preds[pfirst[i]..pfirst[i + 1]]`. A node whose value is known already is a
/// seed (`seed[i]`) and is not explored. Every cycle among them is declared `loopy`.
pub(super) struct Local<S> {
    pub(super) nodes: Vec<TermId>,
    pub(super) seed: Vec<Option<S>>,
    pub(super) first: Vec<u32>,
    pub(super) targets: Vec<u32>,
    pub(super) pfirst: Vec<u32>,
    pub(super) preds: Vec<u32>,
}

impl<S> Local<S> {
    /// The options of node `p`, as node indexes.
    pub(super) fn options(&self, p: usize) -> &[u32] {
        &self.targets[self.first[p] as usize..self.first[p + 1] as usize]
    }

    /// The predecessors of node `p`, as node indexes.
    pub(super) fn preds(&self, p: usize) -> &[u32] {
        &self.preds[self.pfirst[p] as usize..self.pfirst[p + 1] as usize]
    }
}

/// Explores breadth-first from `root` (see [`Local`]); `known` gives a position's value when
/// it is known, which makes it a seed.
pub(super) fn explore<S>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    root: TermId,
    known: impl Fn(&Analyzer, TermId) -> Option<S>,
) -> DiagResult<Local<S>> {
    let mut local: Vec<u32> = Vec::new();
    let mut nodes: Vec<TermId> = vec![root];
    let mut seed: Vec<Option<S>> = vec![None];
    let mut first: Vec<u32> = Vec::new();
    let mut targets: Vec<u32> = Vec::new();
    let mut moves = Vec::new();
    fn index(local: &mut Vec<u32>, t: TermId) -> &mut u32 {
        let i = t.0 as usize;
        if local.len() <= i {
            local.resize((i + 1).max(2 * local.len()), ABSENT);
        }
        &mut local[i]
    }
    *index(&mut local, root) = 0;
    let mut i = 0;
    while i < nodes.len() {
        if i % 4096 == 4095 {
            an.graph.check_stop(w.stop)?;
        }
        first.push(len_u32(targets.len())?);
        if seed[i].is_none() {
            an.graph.successors_into(w, nodes[i], &mut moves)?;
            for &m in &moves {
                let slot = index(&mut local, m);
                if *slot == ABSENT {
                    *slot = len_u32(nodes.len())?;
                    nodes.push(m);
                    seed.push(known(an, m));
                }
                targets.push(*slot);
            }
        }
        i += 1;
    }
    first.push(len_u32(targets.len())?);
    let n = nodes.len();

    check_cycles(an, w, &nodes, &first, &targets)?;

    // Predecessor lists, in one arena.
    let mut pfirst = vec![0u32; n + 1];
    for &t in &targets {
        pfirst[t as usize + 1] += 1;
    }
    for j in 0..n {
        pfirst[j + 1] += pfirst[j];
    }
    let mut fill = pfirst.clone();
    let mut preds = vec![0u32; targets.len()];
    for p in 0..n {
        for &t in &targets[first[p] as usize..first[p + 1] as usize] {
            preds[fill[t as usize] as usize] = len_u32(p)?;
            fill[t as usize] += 1;
        }
    }
    Ok(Local {
        nodes,
        seed,
        first,
        targets,
        pfirst,
        preds,
    })
}

/// Every cycle among the explored positions must be declared by a `loopy` game: a strongly
/// connected component that is not gets the diagnostic of a cycle in it.
fn check_cycles(
    an: &mut Analyzer,
    w: &mut World<'_>,
    nodes: &[TermId],
    first: &[u32],
    targets: &[u32],
) -> DiagResult<()> {
    let options = |p: usize| &targets[first[p] as usize..first[p + 1] as usize];
    let mut graph = DiGraph::<(), ()>::with_capacity(nodes.len(), targets.len());
    for _ in nodes {
        graph.add_node(());
    }
    for p in 0..nodes.len() {
        for &q in options(p) {
            graph.add_edge(NodeIndex::new(p), NodeIndex::new(q as usize), ());
        }
    }
    an.graph.check_stop(w.stop)?;
    for scc in tarjan_scc(&graph) {
        let cyclic = scc.len() > 1 || options(scc[0].index()).contains(&(scc[0].index() as u32));
        if !cyclic {
            continue;
        }
        let members: Vec<TermId> = scc.iter().map(|i| nodes[i.index()]).collect();
        if cycle::declared(an, w, &members) {
            continue;
        }
        // A shortest cycle through the first member, by breadth-first search inside the
        // component, for the diagnostic.
        let inside: std::collections::HashSet<usize> = scc.iter().map(|i| i.index()).collect();
        let start = scc[0].index();
        let mut parent: std::collections::HashMap<usize, usize> = Default::default();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closing = None;
        'search: while let Some(p) = queue.pop_front() {
            for &q in options(p) {
                let q = q as usize;
                if q == start {
                    closing = Some(p);
                    break 'search;
                }
                if inside.contains(&q) && !parent.contains_key(&q) {
                    parent.insert(q, p);
                    queue.push_back(q);
                }
            }
        }
        let mut chain = Vec::new();
        let mut at = closing.unwrap_or(start);
        while at != start {
            chain.push(at);
            at = parent.get(&at).copied().unwrap_or(start);
        }
        chain.reverse();
        let path: Vec<TermId> = std::iter::once(start)
            .chain(chain)
            .chain(std::iter::once(start))
            .map(|p| nodes[p])
            .collect();
        return Err(cycle::diagnostic(an, w, &path)?);
    }
    Ok(())
}

/// The next position to settle when two lists, each in order of settling, are merged: the
/// next of `seeds` (positions decided before the queue started) when `first(seed, queued)`
/// says it comes first or the queue is empty, else the next of `queue`; `None` when both
/// are used up.
pub(super) fn next_in_order<T: Copy>(
    seeds: &[T],
    si: &mut usize,
    queue: &[T],
    qi: &mut usize,
    first: impl Fn(T, T) -> bool,
) -> Option<T> {
    match (seeds.get(*si), queue.get(*qi)) {
        (Some(&s), Some(&d)) if first(s, d) => {
            *si += 1;
            Some(s)
        }
        (_, Some(&d)) => {
            *qi += 1;
            Some(d)
        }
        (Some(&s), None) => {
            *si += 1;
            Some(s)
        }
        (None, None) => None,
    }
}

fn len_u32(n: usize) -> DiagResult<u32> {
    u32::try_from(n).map_err(|_| Box::new(Diag::internal("more positions than term ids")))
}

fn u32_of(r: u64) -> DiagResult<u32> {
    u32::try_from(r).map_err(|_| Box::new(Diag::internal("a remoteness past 32 bits")))
}
