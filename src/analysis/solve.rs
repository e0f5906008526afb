//! One iterative depth-first search that solves any bottom-up recurrence over the graph.
//! Its stack lives on the heap, so a game a million moves deep does not overflow.
//!
//! A search that ends without a value says why in [`Unsolved`]: an error to report, or one
//! of two ends that are not errors and that the caller answers another way. A term met
//! again while it is still on the stack closes a cycle: where a `loopy` game declares it
//! (`cycle.rs`) the search ends with [`Unsolved::Cycle`] and a solver of loopy play answers
//! (`retro.rs`); any other cycle is the diagnostic. A recurrence may also decline a term it
//! does not take ([`Unsolved::Declined`]: the remoteness search limited to positions, at a
//! compound). Either way, its memo is left as if the search had never run.
//!
//! What every recurrence checks of the terms it meets (a payoff game's end in play that is
//! won or lost, say) it declares as its [`Guard`], which the search applies.
//!
//! Each analysis keeps its memo in a `MemoTable`; the remoteness one (`RemMemo`) holds a slot
//! (unknown, active, draw or a remoteness) in one `u32`. Outside the streaming path, `outcome`
//! first runs the remoteness search limited to positions and reads the outcome off the
//! parity, so a later `remoteness` is already known.

use super::kind::Guard;
use super::{cycle, Analyzer};
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

/// Why a search ended without a value.
#[derive(Debug)]
pub(crate) enum Unsolved {
    /// An error, to report.
    Error(Box<Diag>),
    /// A cycle that a `loopy` game declares: the depth-first search cannot solve it, a
    /// solver of loopy play can.
    Cycle,
    /// The recurrence does not take a term it met (a search limited to positions met a
    /// compound).
    Declined,
}

impl From<Box<Diag>> for Unsolved {
    fn from(d: Box<Diag>) -> Unsolved {
        Unsolved::Error(d)
    }
}

/// What a search found: the value, or why there is none.
pub(crate) type Searched<T> = Result<T, Unsolved>;

/// How a search's caller answers where the search could not.
pub(crate) trait OnCycle<T> {
    /// The value found, or where a declared cycle ended the search, what `loopy` answers
    /// instead (a solver of loopy play, or the diagnostic that none exists).
    fn or_loopy(self, loopy: impl FnOnce() -> DiagResult<T>) -> DiagResult<T>;
}

impl<T> OnCycle<T> for Searched<T> {
    fn or_loopy(self, loopy: impl FnOnce() -> DiagResult<T>) -> DiagResult<T> {
        match self {
            Ok(v) => Ok(v),
            Err(Unsolved::Error(d)) => Err(d),
            Err(Unsolved::Cycle) => loopy(),
            Err(Unsolved::Declined) => Err(Box::new(Diag::internal(
                "a search that declines some terms ended without its caller's answer",
            ))),
        }
    }
}

/// A recurrence: a term's value from the values of the terms it depends on.
pub(crate) trait Analysis: Copy {
    /// The value computed per term.
    type V: Copy;
    /// How its memo is kept.
    type Memo: MemoTable<Self::V>;
    /// How a term's value is made, decided with its dependencies and handed to `combine`
    /// (a compound by a theorem or by its moves, say), so that it is decided once.
    type Way: Copy + Default;
    /// What it refuses at the terms it meets.
    const GUARD: Guard;
    /// The memo table in the graph.
    fn memo(self, an: &mut Analyzer) -> &mut Self::Memo;
    /// The terms whose values this term's value needs, into `out` (empty on entry), and
    /// how their values make this one's.
    fn deps(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        out: &mut Vec<TermId>,
    ) -> Searched<Self::Way>;
    /// The term's value from theirs (in the order of `deps`).
    fn combine(
        self,
        an: &mut Analyzer,
        w: &mut World<'_>,
        t: TermId,
        way: Self::Way,
        values: &[Self::V],
    ) -> Searched<Self::V>;
}

fn get<A: Analysis>(a: A, an: &mut Analyzer, t: TermId) -> Slot<A::V> {
    a.memo(an).slot(t.0 as usize)
}

fn set<A: Analysis>(a: A, an: &mut Analyzer, t: TermId, value: Slot<A::V>) {
    a.memo(an).put(t.0 as usize, value);
}

struct Frame<W> {
    term: TermId,
    deps: Vec<TermId>,
    next: usize,
    way: W,
}

/// Solves `a` at `root`, and at every term below it that it needs.
pub(crate) fn solve<A: Analysis>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    a: A,
    root: TermId,
) -> Searched<A::V> {
    if let Slot::Done(v) = get(a, an, root) {
        return Ok(v);
    }
    let mut stack: Vec<Frame<A::Way>> = Vec::new();
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
    stack: &mut Vec<Frame<A::Way>>,
    spare: &mut Vec<Vec<TermId>>,
) -> Searched<A::V> {
    push(an, w, a, root, stack, spare)?;
    let mut values = Vec::new();
    let mut steps: u32 = 0;
    let mut held = Held::default();
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
                Slot::Unknown => {
                    push(an, w, a, dep, stack, spare)?;
                    let pushed = stack.last().map_or(0, |f| f.deps.len());
                    held.push(an, pushed)?;
                }
            }
            continue;
        }
        let Some(frame) = stack.pop() else { break };
        held.pop(frame.deps.len());
        values.clear();
        for dep in &frame.deps {
            match get(a, an, *dep) {
                Slot::Done(v) => values.push(v),
                _ => {
                    return Err(Unsolved::Error(Box::new(Diag::internal(
                        "a dependency was not solved before its user",
                    ))))
                }
            }
        }
        let value = A::GUARD
            .at_value(an, w, frame.term, &frame.deps)
            .map_err(Unsolved::Error)
            .and_then(|()| a.combine(an, w, frame.term, frame.way, &values));
        match value {
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
        _ => Err(Unsolved::Error(Box::new(Diag::internal(
            "the search ended without a value for its root",
        )))),
    }
}

/// The terms a search's stack holds, counted against the memory budget: a position with
/// many options under one with many (`n - k for k in 1..=n`) holds the square of its size,
/// which neither the graph nor the memos count. The streaming solver counts its stack too.
#[derive(Default)]
pub(super) struct Held {
    ids: usize,
    /// `ids` at which the budget is asked again (at each doubling).
    next: usize,
}

impl Held {
    /// Ids from which the stack's options are counted.
    const FROM: usize = 1 << 16;

    fn push(&mut self, an: &Analyzer, ids: usize) -> Searched<()> {
        self.ids += ids;
        self.check(an).map_err(Unsolved::Error)
    }

    /// An error if the stack's `ids` terms would take more than the memory budget leaves;
    /// asked again at each doubling.
    pub(super) fn holding(&mut self, an: &Analyzer, ids: usize) -> DiagResult<()> {
        self.ids = ids;
        self.check(an)
    }

    fn check(&mut self, an: &Analyzer) -> DiagResult<()> {
        if self.ids < self.next.max(Self::FROM) {
            return Ok(());
        }
        self.next = self.ids.saturating_mul(2);
        // Twice, for the lists kept for reuse beside those on the stack.
        let bytes = self.ids.saturating_mul(2 * std::mem::size_of::<TermId>());
        let room = an.graph.account.room();
        if bytes <= room {
            return Ok(());
        }
        Err(Box::new(
            Diag::error(
                Code::GraphTooMuchMemory,
                format!(
                    "the search would hold {} positions on its stack ({} MiB), more than the \
                     {} MiB --max-memory leaves",
                    self.ids,
                    bytes.div_ceil(1 << 20),
                    room >> 20
                ),
            )
            .help(
                "analyse a smaller position, or allow more memory with --max-memory (MiB); \
                 a long line of play through positions with many moves holds all of them",
            ),
        ))
    }

    fn pop(&mut self, ids: usize) {
        self.ids = self.ids.saturating_sub(ids);
    }
}

fn push<A: Analysis>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    a: A,
    t: TermId,
    stack: &mut Vec<Frame<A::Way>>,
    spare: &mut Vec<Vec<TermId>>,
) -> Searched<()> {
    set(a, an, t, Slot::Active);
    stack.push(Frame {
        term: t,
        deps: Vec::new(),
        next: 0,
        way: A::Way::default(),
    });
    // The dependency lists of finished frames are reused: no allocation per term.
    let mut deps = spare.pop().unwrap_or_default();
    deps.clear();
    let found = a.deps(an, w, t, &mut deps).and_then(|way| {
        A::GUARD.at_moves(an, w, t, &deps)?;
        Ok(way)
    });
    if let Some(top) = stack.last_mut() {
        top.deps = deps;
        if let Ok(way) = found {
            top.way = way;
        }
    }
    found.map(|_| ())
}

/// Why the search cannot go on at a cycle that closes at `back_to`: a `loopy` game declares
/// it, or the diagnostic of the positions on it and the rules that make its moves.
#[cold]
fn cycle<W>(
    an: &mut Analyzer,
    w: &mut World<'_>,
    stack: &[Frame<W>],
    back_to: TermId,
) -> DiagResult<Unsolved> {
    let start = stack.iter().position(|f| f.term == back_to).unwrap_or(0);
    let mut path: Vec<TermId> = stack[start..].iter().map(|f| f.term).collect();
    path.push(back_to);
    if cycle::declared(an, w, &path) {
        return Ok(Unsolved::Cycle);
    }
    Ok(Unsolved::Error(cycle::diagnostic(an, w, &path)?))
}
