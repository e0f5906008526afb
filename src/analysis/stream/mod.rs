//! The streaming solver: Grundy values and outcomes computed while the rules generate a
//! position's options, without storing its moves and without interning the sums that `split`
//! makes (their value is the XOR of their parts', Sprague–Grundy).
//!
//! It applies under normal play when no game of the program declares draws or `loopy` (then
//! no position can reach a draw) and compounds are not forced explicit. A position is scanned once when the
//! values of its options' parts are known, twice when some are not: the first scan collects
//! the unknown parts, which are solved first (depth-first, on a heap stack). An outcome stops
//! at the first move to a known P-position, as a hand-written solver does: the position is N
//! whatever its other options are, so they are neither generated nor solved. An error in the
//! rules of a position that such a search passes over is reported by any query that needs
//! the rest (`moves`, `grundy`, `remoteness`, ...); every error is reported in the order the
//! general solver reports it. A move into a
//! conjunctive or selective compound, and a cycle, hand the query back to the general solver
//! ([`super::solve`]), which has the full machinery and the diagnostics; the two share memo
//! tables, so work done here is never lost.
//!
//! Its inner loops read the memos' dense tables by value (the Grundy values of small integer
//! positions, the outcomes of pairs) rather than the tables by term id.

use std::ops::ControlFlow;

use super::solve::Slot;
use super::Analyzer;
use crate::diag::Span;
use crate::diag::{Diag, DiagResult};
use crate::eval::compiled::{AffineRun, Batching, Block, Emitted, LaneShape};

mod kernels;
use crate::eval::value::{CompoundKind, InstanceId, Outcome, Value};
use crate::eval::{Interp, PositionData, World};
use crate::graph::{Term, TermId};
use crate::syntax::ast::Convention;
use kernels::{affine_xors, gather, Mex};

/// Whether the streaming solver may answer queries under `conv`.
pub(crate) fn applies(an: &Analyzer, w: &World<'_>, conv: Convention) -> bool {
    conv == Convention::Normal && !an.graph.config.explicit && {
        let kinds = w.program.kinds();
        !kinds.draws && !kinds.loopy && !kinds.payoffs
    }
}

/// What one analysis needs of the streaming search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Grundy,
    Outcome,
}

fn slot<V: Copy>(memo: &[Slot<V>], t: TermId) -> Slot<V> {
    memo.get(t.0 as usize).copied().unwrap_or(Slot::Unknown)
}

fn set<V: Copy>(memo: &mut Vec<Slot<V>>, t: TermId, value: Slot<V>) {
    let i = t.0 as usize;
    if memo.len() <= i {
        memo.resize(i + 1, Slot::Unknown);
    }
    memo[i] = value;
}

/// The Grundy value of `t`, or `None` when the general solver must answer.
pub(crate) fn grundy(an: &mut Analyzer, w: &mut World<'_>, t: TermId) -> DiagResult<Option<u64>> {
    match an.graph.compound_of(t) {
        None => {
            if !search(an, w, t, Kind::Grundy)? {
                return Ok(None);
            }
            match slot(&an.memos.grundy, t) {
                Slot::Done(v) => Ok(Some(v)),
                _ => Err(Box::new(Diag::internal(
                    "the streaming search left no value",
                ))),
            }
        }
        Some((CompoundKind::Disjunctive, parts)) => {
            let mut x = 0;
            // Owned: solving a part changes the graph.
            let parts = parts.to_vec();
            for part in parts {
                match grundy(an, w, part)? {
                    Some(v) => x ^= v,
                    None => return Ok(None),
                }
            }
            Ok(Some(x))
        }
        Some(_) => Ok(None),
    }
}

/// The normal-play outcome of `t`, or `None` when the general solver must answer.
pub(crate) fn outcome(
    an: &mut Analyzer,
    w: &mut World<'_>,
    t: TermId,
) -> DiagResult<Option<Outcome>> {
    match an.graph.compound_of(t) {
        None => {
            if !search(an, w, t, Kind::Outcome)? {
                return Ok(None);
            }
            match slot(an.memos.outcome(Convention::Normal), t) {
                Slot::Done(o) => Ok(Some(o)),
                _ => Err(Box::new(Diag::internal(
                    "the streaming search left no value",
                ))),
            }
        }
        Some((CompoundKind::Disjunctive, _)) => Ok(grundy(an, w, t)?.map(zero_is_p)),
        Some(_) => Ok(None),
    }
}

/// P when a Grundy value is 0, else N (normal play, no draws).
pub(super) fn zero_is_p(v: u64) -> Outcome {
    if v == 0 {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// What a scan of one position found.
enum Scan {
    /// Every option's value was known: the position's value.
    Value(ScanValue),
    /// Some options' parts have no value yet: solve these first, then scan again.
    Missing,
    /// The general solver must take over (a cycle, or a compound of another kind).
    GiveUp,
}

#[derive(Clone, Copy)]
enum ScanValue {
    Grundy(u64),
    Outcome(Outcome),
}

/// Scratch space reused from scan to scan.
#[derive(Default)]
struct Scratch {
    parts: Vec<(InstanceId, Value)>,
    ids: Vec<TermId>,
    missing: Vec<TermId>,
    mex: Mex,
}

/// Solves `kind` at the atom `root` and below. False when the general solver must answer;
/// then every memo entry this search marked active is unknown again.
fn search(an: &mut Analyzer, w: &mut World<'_>, root: TermId, kind: Kind) -> DiagResult<bool> {
    let mut stack = vec![root];
    let mut scratch = Scratch::default();
    let result = run(an, w, kind, &mut stack, &mut scratch);
    if !matches!(result, Ok(true)) {
        for t in &stack {
            if is_active(an, kind, *t) {
                mark(an, kind, *t, None);
            }
        }
    }
    result
}

fn is_active(an: &Analyzer, kind: Kind, t: TermId) -> bool {
    match kind {
        Kind::Grundy => matches!(slot(&an.memos.grundy, t), Slot::Active),
        Kind::Outcome => matches!(slot(an.memos.outcome(Convention::Normal), t), Slot::Active),
    }
}

fn is_done(an: &Analyzer, kind: Kind, t: TermId) -> bool {
    match kind {
        Kind::Grundy => matches!(slot(&an.memos.grundy, t), Slot::Done(_)),
        Kind::Outcome => matches!(slot(an.memos.outcome(Convention::Normal), t), Slot::Done(_)),
    }
}

/// Sets `t`'s memo entry to a value, or back to unknown (`None`).
fn mark(an: &mut Analyzer, kind: Kind, t: TermId, value: Option<ScanValue>) {
    match (kind, value) {
        (Kind::Grundy, Some(ScanValue::Grundy(v))) => {
            set(&mut an.memos.grundy, t, Slot::Done(v));
            if an.memos.note_int_grundy(&an.graph, t, v) {
                an.graph.set_value_table_bytes(an.memos.value_table_bytes());
            }
        }
        (Kind::Outcome, Some(ScanValue::Outcome(o))) => {
            set(an.memos.outcome_mut(Convention::Normal), t, Slot::Done(o));
            if an.memos.note_pair_outcome(&an.graph, t, o) {
                an.graph.set_value_table_bytes(an.memos.value_table_bytes());
            }
        }
        (Kind::Grundy, _) => set(&mut an.memos.grundy, t, Slot::Unknown),
        (Kind::Outcome, _) => set(an.memos.outcome_mut(Convention::Normal), t, Slot::Unknown),
    }
}

fn mark_active(an: &mut Analyzer, kind: Kind, t: TermId) {
    match kind {
        Kind::Grundy => set(&mut an.memos.grundy, t, Slot::Active),
        Kind::Outcome => set(an.memos.outcome_mut(Convention::Normal), t, Slot::Active),
    }
}

fn run(
    an: &mut Analyzer,
    w: &mut World<'_>,
    kind: Kind,
    stack: &mut Vec<TermId>,
    scratch: &mut Scratch,
) -> DiagResult<bool> {
    let mut held = super::solve::Held::default();
    while let Some(&t) = stack.last() {
        if is_done(an, kind, t) {
            stack.pop();
            continue;
        }
        // A scan generates every option of a position: long enough to look at the clock.
        an.graph.check_stop(w.stop)?;
        match scan(an, w, kind, t, scratch)? {
            Scan::Value(v) => {
                mark(an, kind, t, Some(v));
                stack.pop();
            }
            Scan::Missing => {
                mark_active(an, kind, t);
                // The first missing part ends up on top: solved first, as the rules list it.
                stack.extend(scratch.missing.iter().rev());
                held.holding(an, stack.len())?;
            }
            Scan::GiveUp => return Ok(false),
        }
    }
    Ok(true)
}

/// Generates the options of the atom `t` once and combines what is known of them.
fn scan(
    an: &mut Analyzer,
    w: &mut World<'_>,
    kind: Kind,
    t: TermId,
    scratch: &mut Scratch,
) -> DiagResult<Scan> {
    let Term::Atom(inst, data) = an.graph.term(t) else {
        return Ok(Scan::GiveUp);
    };
    if let Some(g) = super::take_break::grundy(an, w, t)? {
        return Ok(Scan::Value(match kind {
            Kind::Grundy => ScanValue::Grundy(g),
            Kind::Outcome => ScanValue::Outcome(zero_is_p(g)),
        }));
    }
    scratch.missing.clear();
    scratch.mex.clear();
    if let Some(found) = from_stored_moves(an, w, kind, t, inst, scratch)? {
        return Ok(found);
    }
    let scanned = {
        let mut interp = Interp::new(w.reborrow(), None);
        let mut scanner = Scanner::new(an, kind, inst, scratch);
        // A split of integers into a disjunctive sum of a game whose positions may be any
        // integer: its parts are looked up by value, with nothing to check or build.
        scanner.int_parts_direct = interp.splits_disjunctively(inst) && interp.any_value_fits(inst);
        // Likewise a tuple of integers when positions are tuples of that many integers, and a
        // list of integers (a board) when a position may be any value.
        scanner.tuple_len = interp.int_tuple_len(inst);
        scanner.values_fit = interp.any_value_fits(inst);
        let live = !scanner.an.graph.info(t).terminal;
        let result = interp.scan_options(
            inst,
            PositionData::Value(&data),
            Batching::Affine,
            live,
            &mut |this, target, _rule, span| scanner.target(this, target, span),
        );
        (
            result,
            scanner.give_up,
            scanner.p_option,
            scanner.intern_error,
        )
    };
    let (scanned, give_up, p_option, intern_error) = scanned;
    let forced = scanned.map_err(|d| {
        an.graph
            .while_generating(w, inst, PositionData::Value(&data), d)
    })?;
    if give_up {
        return Ok(Scan::GiveUp);
    }
    if let Some(e) = intern_error {
        return Err(e);
    }
    if forced {
        return Ok(Scan::Value(match kind {
            Kind::Grundy => ScanValue::Grundy(0),
            Kind::Outcome => ScanValue::Outcome(Outcome::P),
        }));
    }
    // A move to P decides the outcome whatever the unknown options turn out to be.
    if p_option {
        return Ok(Scan::Value(ScanValue::Outcome(Outcome::N)));
    }
    if !scratch.missing.is_empty() {
        return Ok(Scan::Missing);
    }
    Ok(Scan::Value(match kind {
        Kind::Grundy => ScanValue::Grundy(scratch.mex.value()),
        Kind::Outcome => ScanValue::Outcome(Outcome::P),
    }))
}

/// A scan of a position whose moves the graph keeps (another analysis explored it): its
/// options are read, not generated. `None` when a move is a compound the streaming solver
/// does not value (then the rules run as usual, and give up the same way).
fn from_stored_moves(
    an: &mut Analyzer,
    w: &mut World<'_>,
    kind: Kind,
    t: TermId,
    inst: InstanceId,
    scratch: &mut Scratch,
) -> DiagResult<Option<Scan>> {
    let Some(options) = an.graph.stored_successors(t) else {
        return Ok(None);
    };
    // Each option as the atoms of its sum.
    let mut sums: Vec<Vec<TermId>> = Vec::with_capacity(options.len());
    for option in options {
        match an.graph.compound_of(option) {
            None => sums.push(vec![option]),
            Some((CompoundKind::Disjunctive, parts))
                if parts.iter().all(|p| an.graph.compound_of(*p).is_none()) =>
            {
                sums.push(parts.to_vec())
            }
            _ => return Ok(None),
        }
    }
    let mut scanner = Scanner::new(an, kind, inst, scratch);
    for parts in sums {
        scanner.scratch.ids.clear();
        scanner.scratch.ids.extend(parts);
        if scanner.combine(w).is_break() {
            break;
        }
    }
    let (give_up, p_option, error) = (scanner.give_up, scanner.p_option, scanner.intern_error);
    if let Some(e) = error {
        return Err(e);
    }
    Ok(Some(if give_up {
        Scan::GiveUp
    } else if p_option {
        Scan::Value(ScanValue::Outcome(Outcome::N))
    } else if !scratch.missing.is_empty() {
        Scan::Missing
    } else {
        match kind {
            Kind::Grundy => Scan::Value(ScanValue::Grundy(scratch.mex.value())),
            Kind::Outcome => Scan::Value(ScanValue::Outcome(Outcome::P)),
        }
    }))
}

/// What a scan learns from the options of one position, as the rules emit them.
struct Scanner<'s> {
    an: &'s mut Analyzer,
    kind: Kind,
    /// The instance of the position scanned (its options are of the same game).
    inst: InstanceId,
    scratch: &'s mut Scratch,
    int_parts_direct: bool,
    tuple_len: Option<usize>,
    values_fit: bool,
    /// A compound of another kind, or a cycle: the general solver must answer.
    give_up: bool,
    /// A move to a P-position was found (outcomes).
    p_option: bool,
    /// An error from interning an option (or solving a part). It is reported as it is, but
    /// only once every rule of this position has run: as the general solver does, an error in
    /// this position's own rules comes first, and says whose moves were being generated.
    intern_error: Option<Box<Diag>>,
}

impl<'s> Scanner<'s> {
    fn new(
        an: &'s mut Analyzer,
        kind: Kind,
        inst: InstanceId,
        scratch: &'s mut Scratch,
    ) -> Scanner<'s> {
        Scanner {
            an,
            kind,
            inst,
            scratch,
            int_parts_direct: false,
            tuple_len: None,
            values_fit: false,
            give_up: false,
            p_option: false,
            intern_error: None,
        }
    }

    /// One emitted target: an option, or a block of options.
    fn target(
        &mut self,
        this: &mut Interp<'_>,
        target: Emitted<'_>,
        span: Span,
    ) -> DiagResult<ControlFlow<()>> {
        let block = match target {
            Emitted::Block(block) => block,
            Emitted::Affine(run) => return self.affine(this, run, span),
            _ => return self.option(this, target, span),
        };
        let direct_grundy = self.kind == Kind::Grundy
            && self.intern_error.is_none()
            && block.shape() == LaneShape::Split
            && self.int_parts_direct;
        // The common case of a game on pairs (Wythoff): every option's outcome known.
        let direct_pairs = self.kind == Kind::Outcome
            && self.intern_error.is_none()
            && block.shape() == LaneShape::Tuple
            && block.width() == 2
            && self.tuple_len == Some(2);
        if direct_grundy {
            // The common case of a heap game: every part's Grundy value known. Lanes that are
            // not (a part not interned or not solved yet) go the general way, in order, after.
            let mut slow = Vec::new();
            {
                let (values, any_bits) = self.an.memos.int_grundy_values(self.inst);
                // A negative part wraps to a huge index: not found, the general way.
                let known = |n: i64| values.get(n as usize).copied().filter(|v| *v != u64::MAX);
                let mex = &mut self.scratch.mex;
                // The options' bits are gathered in registers and merged once per block: a
                // store per option into the bitset would chain every option to the one before
                // through the same word. The XOR of known values has no bit that none of them
                // has, so `any_bits` bounds every option's value.
                if any_bits < 64 {
                    // Heap games such as Kayles: one word, no test per option.
                    let mut low = 0u64;
                    gather(block, &known, &mut slow, |x| low |= 1 << (x & 63));
                    mex.insert_words(&[low]);
                } else if any_bits < 256 {
                    // Four words, picked by masks rather than a branch: the values are too
                    // varied for a branch to be predicted (Grundy's game).
                    let mut low = [0u64; 4];
                    gather(block, &known, &mut slow, |x| {
                        let bit = 1u64 << (x & 63);
                        for (k, w) in low.iter_mut().enumerate() {
                            *w |= bit & u64::from(x >> 6 == k as u64).wrapping_neg();
                        }
                    });
                    mex.insert_words(&low);
                } else {
                    gather(block, &known, &mut slow, |x| mex.insert(x));
                }
            }
            return self.lanes_one_by_one(this, block, slow.into_iter(), span);
        }
        let mut first = 0;
        if direct_pairs {
            // Lanes whose outcome is known are settled here; the first that is not, and the
            // rest after it, go the general way.
            let outcomes = self.an.memos.pair_outcomes(self.inst);
            let columns = block.columns();
            let lanes = block.keep().iter().zip(&columns[0]).zip(&columns[1]);
            let mut first_unknown = None;
            for (lane, ((keep, x), y)) in lanes.enumerate() {
                if !*keep {
                    continue;
                }
                match outcomes.get(*x, *y) {
                    2 => {
                        self.p_option = true;
                        return Ok(ControlFlow::Break(()));
                    }
                    1 => {}
                    _ => {
                        first_unknown = Some(lane);
                        break;
                    }
                }
            }
            match first_unknown {
                Some(lane) => first = lane,
                None => return Ok(ControlFlow::Continue(())),
            }
        }
        self.lanes_one_by_one(this, block, block.lanes().filter(|l| *l >= first), span)
    }

    /// A loop's options given by affine parts. The common case of a heap game's split
    /// (Kayles, Grundy's game: `split(i, n - 1 - i) for i in 0..n`) whose parts' Grundy values
    /// are all known is one pass over the table of values; otherwise each option goes the
    /// general way, in order.
    fn affine(
        &mut self,
        this: &mut Interp<'_>,
        run: &AffineRun<'_>,
        span: Span,
    ) -> DiagResult<ControlFlow<()>> {
        if self.kind == Kind::Grundy
            && self.intern_error.is_none()
            && run.shape() == LaneShape::Split
            && self.int_parts_direct
        {
            let (values, any_bits) = self.an.memos.int_grundy_values(self.inst);
            let mex = &mut self.scratch.mex;
            // As for blocks: the bits gathered in registers, merged once; nothing merged
            // when some part turns out to have no value yet.
            let known = if any_bits < 64 {
                let mut low = 0u64;
                let known = affine_xors(values, run, |x| low |= 1 << (x & 63));
                if known {
                    mex.insert_words(&[low]);
                }
                known
            } else if any_bits < 256 {
                let mut low = [0u64; 4];
                let known = affine_xors(values, run, |x| {
                    let bit = 1u64 << (x & 63);
                    for (k, w) in low.iter_mut().enumerate() {
                        *w |= bit & u64::from(x >> 6 == k as u64).wrapping_neg();
                    }
                });
                if known {
                    mex.insert_words(&low);
                }
                known
            } else {
                let mut xs = Vec::new();
                let known = affine_xors(values, run, |x| xs.push(x));
                if known {
                    xs.into_iter().for_each(|x| mex.insert(x));
                }
                known
            };
            if known {
                return Ok(ControlFlow::Continue(()));
            }
        }
        let mut first = 0;
        if let (Kind::Outcome, None, LaneShape::Tuple, &[x, y], Some(2)) = (
            self.kind,
            &self.intern_error,
            run.shape(),
            run.parts(),
            self.tuple_len,
        ) {
            // A game on pairs (Wythoff): the options read from the table of pair outcomes
            // until one is P (then this position is N) or not known yet (the rest go the
            // general way, from there).
            let (j, code) = self
                .an
                .memos
                .pair_outcomes(self.inst)
                .first_not_n(x, y, run.len());
            if code == 2 {
                self.p_option = true;
                return Ok(ControlFlow::Break(()));
            }
            first = j;
        }
        let mut parts = Vec::new();
        for j in first..run.len() {
            if j % 4096 == 4095 {
                this.world.stop.check()?;
            }
            run.option(j, &mut parts);
            let option = match run.shape() {
                LaneShape::Int => Emitted::Value(Value::Int(parts[0])),
                LaneShape::Tuple => Emitted::IntTuple(&parts),
                LaneShape::Split => Emitted::IntSplit(&parts),
            };
            if self.option(this, option, span)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The options of a block's `lanes`, one at a time, in order.
    fn lanes_one_by_one(
        &mut self,
        this: &mut Interp<'_>,
        block: &Block<'_>,
        lanes: impl Iterator<Item = usize>,
        span: Span,
    ) -> DiagResult<ControlFlow<()>> {
        let mut lane_parts = Vec::new();
        for lane in lanes {
            lane_parts.clear();
            lane_parts.extend(block.columns().iter().map(|c| c[lane]));
            if self.option(this, block.lane(&lane_parts), span)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// One option.
    fn option(
        &mut self,
        this: &mut Interp<'_>,
        target: Emitted<'_>,
        span: Span,
    ) -> DiagResult<ControlFlow<()>> {
        let inst = self.inst;
        let Scratch { parts, ids, .. } = &mut *self.scratch;
        let an = &mut *self.an;
        ids.clear();
        if self.intern_error.is_some() {
            // The error is known: only the rules' own checks still matter (the first error of
            // the position's own rules wins), and integers that fit the position pattern need
            // none.
            let checked = match &target {
                Emitted::IntSplit(_) => self.int_parts_direct,
                Emitted::IntTuple(items) => self.tuple_len == Some(items.len()),
                Emitted::IntList(_) => self.values_fit,
                _ => false,
            };
            if checked {
                return Ok(ControlFlow::Continue(()));
            }
            parts.clear();
            if !this.disjunctive_parts(inst, target, span, parts)? {
                self.give_up = true;
                return Ok(ControlFlow::Break(()));
            }
            return Ok(ControlFlow::Continue(()));
        }
        let interned = match target {
            Emitted::IntSplit(ns) if self.int_parts_direct => ns.iter().try_for_each(|n| {
                let id = match an.graph.lookup_int(inst, *n) {
                    Some(id) => id,
                    None => an
                        .graph
                        .intern_atom_owned(&mut this.world, inst, Value::Int(*n))?,
                };
                ids.push(id);
                Ok(())
            }),
            Emitted::IntTuple(items) if self.tuple_len == Some(items.len()) => {
                match an.graph.lookup_int_tuple(inst, items) {
                    Some(id) => {
                        ids.push(id);
                        Ok(())
                    }
                    None => {
                        let data = Value::Tuple(items.iter().map(|n| Value::Int(*n)).collect());
                        an.graph
                            .intern_atom_owned(&mut this.world, inst, data)
                            .map(|id| ids.push(id))
                    }
                }
            }
            Emitted::IntList(items) if self.values_fit => an
                .graph
                .intern_int_list(&mut this.world, inst, items)
                .map(|id| ids.push(id)),
            target => {
                parts.clear();
                if !this.disjunctive_parts(inst, target, span, parts)? {
                    self.give_up = true;
                    return Ok(ControlFlow::Break(()));
                }
                let interned = parts.drain(..).try_for_each(|(part_inst, part_data)| {
                    ids.push(
                        an.graph
                            .intern_atom_owned(&mut this.world, part_inst, part_data)?,
                    );
                    Ok(())
                });
                if an.graph.has_partizan() && ids.iter().any(|id| an.graph.info(*id).partizan) {
                    // A move into a partizan game: the general solver reports it.
                    self.give_up = true;
                    return Ok(ControlFlow::Break(()));
                }
                interned
            }
        };
        if let Err(e) = interned {
            self.intern_error = Some(e);
            return Ok(ControlFlow::Continue(()));
        }
        Ok(self.combine(&mut this.world))
    }

    /// Values the option whose parts are `scratch.ids`: records its Grundy value (or whether
    /// it is P), or the parts still unknown.
    fn combine(&mut self, world: &mut World<'_>) -> ControlFlow<()> {
        let Scratch {
            ids, missing, mex, ..
        } = &mut *self.scratch;
        let an = &mut *self.an;
        let single = ids.len() == 1;
        let mut x = 0;
        let mut known = true;
        for &id in ids.iter() {
            if self.kind == Kind::Outcome && single {
                let known = match (
                    slot(an.memos.outcome(Convention::Normal), id),
                    slot(&an.memos.grundy, id),
                ) {
                    (Slot::Done(o), _) => Some(o),
                    (Slot::Active, _) => {
                        self.give_up = true;
                        return ControlFlow::Break(());
                    }
                    (Slot::Unknown, Slot::Done(v)) => Some(zero_is_p(v)),
                    (Slot::Unknown, _) => None,
                };
                match known {
                    Some(Outcome::P) => {
                        self.p_option = true;
                        return ControlFlow::Break(());
                    }
                    Some(_) => {}
                    None => missing.push(id),
                }
                return ControlFlow::Continue(());
            }
            // A part of a sum (or any part, for Grundy values): its Grundy value.
            let value = match slot(&an.memos.grundy, id) {
                Slot::Done(v) => Some(v),
                Slot::Active => {
                    self.give_up = true;
                    return ControlFlow::Break(());
                }
                Slot::Unknown if self.kind == Kind::Outcome => {
                    // Outcomes of sums come from their parts' Grundy values: a search of its
                    // own, finished before this scan goes on.
                    match grundy(an, world, id) {
                        Ok(Some(v)) => Some(v),
                        Ok(None) => {
                            self.give_up = true;
                            return ControlFlow::Break(());
                        }
                        Err(e) => {
                            self.intern_error = Some(e);
                            return ControlFlow::Continue(());
                        }
                    }
                }
                Slot::Unknown => None,
            };
            match value {
                Some(v) => x ^= v,
                None => {
                    known = false;
                    missing.push(id);
                }
            }
        }
        if known {
            match self.kind {
                Kind::Grundy => mex.insert(x),
                Kind::Outcome if x == 0 => {
                    self.p_option = true;
                    return ControlFlow::Break(());
                }
                Kind::Outcome => {}
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::Mex;

    /// No cut-off: values past 2^20, 2^26 and a word count like small ones.
    #[test]
    fn the_mex_bitset_counts_every_value() {
        for n in [0u64, 63, 64, 65, 1 << 20, (1 << 26) + 1] {
            let mut mex = Mex::default();
            (0..n).rev().for_each(|v| mex.insert(v));
            mex.insert(n + 1);
            assert_eq!(mex.value(), n, "0..{n}");
            mex.clear();
            assert_eq!(mex.value(), 0);
        }
    }
}
