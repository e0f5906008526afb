//! One iterative depth-first search that solves any bottom-up recurrence over the graph.
//! Its stack lives on the heap, so a game a million moves deep does not overflow; a term met
//! again while it is still on the stack closes a cycle, which becomes a diagnostic.
//!
//! Each analysis keeps its memo in a `MemoTable`; the remoteness one (`RemMemo`) holds a slot
//! (unknown, active, draw or a remoteness) in one `u32`. Outside the streaming path, `outcome`
//! first runs the remoteness search limited to positions (it gives up at the first compound it
//! would expand) and reads the outcome off the parity, so a later `remoteness` is already
//! known. A cycle that a `loopy` game declares hands `outcome` and `remoteness` to `retro.rs`.

use super::retro::LOOPY_CYCLE;
use super::Analyzer;
use crate::diag::{Code, Diag, DiagResult};
use crate::eval::World;
use crate::graph::TermId;

/// A memo entry of an analysis.
#[derive(Clone, Copy, Debug, Default)]
pub enum Slot<V> {
    /// Not computed.
    #[default]
    Unknown,
    /// On the search stack now.
    Active,
    /// Computed.
    Done(V),
}

/// A memo table: a slot per term id, `Unknown` past its end.
pub(crate) trait MemoTable<V> {
    /// The slot of term `i`.
    fn slot(&self, i: usize) -> Slot<V>;
    /// Sets the slot of term `i`, growing the table.
    fn put(&mut self, i: usize, value: Slot<V>);
}

impl<V: Copy> MemoTable<V> for Vec<Slot<V>> {
    fn slot(&self, i: usize) -> Slot<V> {
        self.get(i).copied().unwrap_or(Slot::Unknown)
    }

    fn put(&mut self, i: usize, value: Slot<V>) {
        if self.len() <= i {
            self.resize(i + 1, Slot::Unknown);
        }
        self[i] = value;
    }
}

/// A recurrence: a term's value from the values of the terms it depends on.
pub(crate) trait Analysis: Copy {
    /// The value computed per term.
    type V: Copy;
    /// How its memo is kept.
    type Memo: MemoTable<Self::V>;
    /// The memo table in the graph.
    fn memo(self, an: &mut Analyzer) -> &mut Self::Memo;
    /// The terms whose values this term's value needs, into `out` (empty on entry).
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> DiagResult<()>;
    /// The term's value from theirs (in the order of `deps`).
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        deps: &[TermId],
        values: &[Self::V],
    ) -> DiagResult<Self::V>;
}

fn get<A: Analysis>(a: A, an: &mut Analyzer, t: TermId) -> Slot<A::V> {
    a.memo(an).slot(t.0 as usize)
}

fn set<A: Analysis>(a: A, an: &mut Analyzer, t: TermId, value: Slot<A::V>) {
    a.memo(an).put(t.0 as usize, value);
}

struct Frame {
    term: TermId,
    deps: Vec<TermId>,
    next: usize,
}

/// Solves `a` at `root`, and at every term below it that it needs.
pub(crate) fn solve<A: Analysis>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    a: A,
    root: TermId,
) -> DiagResult<A::V> {
    if let Slot::Done(v) = get(a, an, root) {
        return Ok(v);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut spare: Vec<Vec<TermId>> = Vec::new();
    let result = run(an, w, a, root, &mut stack, &mut spare);
    if result.is_err() {
        // Leave the memo as if this search never ran, so the session can go on.
        for frame in &stack {
            set(a, an, frame.term, Slot::Unknown);
        }
    }
    result
}

fn run<A: Analysis>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    a: A,
    root: TermId,
    stack: &mut Vec<Frame>,
    spare: &mut Vec<Vec<TermId>>,
) -> DiagResult<A::V> {
    push(an, w, a, root, stack, spare)?;
    let mut values = Vec::new();
    let mut steps: u32 = 0;
    while let Some(top) = stack.last_mut() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) {
            an.graph.check_stop(w.stop)?;
        }
        if top.next < top.deps.len() {
            let dep = top.deps[top.next];
            top.next += 1;
            match get(a, an, dep) {
                Slot::Done(_) => {}
                Slot::Active => return Err(cycle(an, w, stack, dep)?),
                Slot::Unknown => push(an, w, a, dep, stack, spare)?,
            }
            continue;
        }
        let Some(frame) = stack.pop() else { break };
        values.clear();
        for dep in &frame.deps {
            match get(a, an, *dep) {
                Slot::Done(v) => values.push(v),
                _ => {
                    return Err(Box::new(Diag::internal(
                        "a dependency was not solved before its user",
                    )))
                }
            }
        }
        match a.combine(an, w, frame.term, &frame.deps, &values) {
            Ok(v) => {
                set(a, an, frame.term, Slot::Done(v));
                spare.push(frame.deps);
            }
            Err(e) => {
                stack.push(frame);
                return Err(e);
            }
        }
    }
    match get(a, an, root) {
        Slot::Done(v) => Ok(v),
        _ => Err(Box::new(Diag::internal(
            "the search ended without a value for its root",
        ))),
    }
}

fn push<A: Analysis>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    a: A,
    t: TermId,
    stack: &mut Vec<Frame>,
    spare: &mut Vec<Vec<TermId>>,
) -> DiagResult<()> {
    set(a, an, t, Slot::Active);
    stack.push(Frame {
        term: t,
        deps: Vec::new(),
        next: 0,
    });
    // The dependency lists of finished frames are reused: no allocation per term.
    let mut deps = spare.pop().unwrap_or_default();
    deps.clear();
    let found = a.deps(an, w, t, &mut deps);
    if let Some(top) = stack.last_mut() {
        top.deps = deps;
    }
    found
}

/// The diagnostic for a cycle that closes at `back_to`: the positions on it and the rules
/// that make its moves.
#[cold]
fn cycle(
    an: &mut Analyzer,
    w: &mut World<'_>,
    stack: &[Frame],
    back_to: TermId,
) -> DiagResult<Box<Diag>> {
    let start = stack.iter().position(|f| f.term == back_to).unwrap_or(0);
    let mut path: Vec<TermId> = stack[start..].iter().map(|f| f.term).collect();
    path.push(back_to);
    if declared_loopy(an, w, &path) {
        return Ok(Box::new(Diag::error(LOOPY_CYCLE, "a declared cycle")));
    }
    cycle_diag(an, w, &path)
}

/// The diagnostic for the cycle `path` (its first term again last): the positions on it and
/// the rules that make its moves.
#[cold]
pub(super) fn cycle_diag(
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
pub(super) fn declared_loopy(an: &Analyzer, w: &World<'_>, path: &[TermId]) -> bool {
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
