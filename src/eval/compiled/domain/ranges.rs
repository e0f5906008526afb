//! The values a game's integer and tuple positions can hold, inferred from its compiled
//! rules (issue 19): for a position of `k` integers (`position n`, `position (a, b)`), a box
//! `[lo_1, hi_1] × … × [lo_k, hi_k]` such that every move target of a position in the box is
//! again in it. The graph sizes its tables of integer and pair positions by it
//! (`graph::index::IntAtoms`).
//!
//! The abstraction: an integer expression has a set of lower bounds and a set of upper
//! bounds, each an affine form `c + Σ a_j·x_j` of the position's components `x_j` (any bound
//! may be missing). Sums, differences, negation and multiplication by a constant keep the
//! forms, so `n - i` for `i` in `1..=n` is at least `n - n = 0` and at most `n - 1`; `min`
//! keeps every item's upper bounds, `max` every item's lower bounds. Every other operator
//! (products, floor division and modulo, bitwise `&`, `|`, `^` of non-negative values, `abs`,
//! `if`, indexing a constant list) works on the concrete intervals the forms take over the
//! current box. Loop variables of ranges take their bounds' forms; guards are ignored (which
//! only lets more through). A target's component is the interval its forms take over the
//! box; the box is grown to hold every target's until it is stable, and given up on after
//! [`MAX_ROUNDS`] rounds (a game that counts up, `move n + 1`, has no bound).
//!
//! As with the cell domain, the result never decides an answer: a position outside the box
//! is indexed the ordinary way.

use std::rc::Rc;

use super::super::lists::{Binding, GenClause, ListExpr};
use super::super::{BoolExpr, CompiledGame, IntExpr, Target};
use super::Regs;
use crate::eval::arith::IntOp;
use crate::eval::value::Value;
use crate::lower::ir::{Game, Pattern, PositionShape};
use crate::syntax::ast::BinaryOp;

/// Most components a position may have.
pub const MAX_COMPONENTS: usize = 4;

/// How many times the box may grow before the inference gives up.
const MAX_ROUNDS: usize = 24;

/// Most lower (and most upper) bounds an expression keeps.
const MAX_FORMS: usize = 4;

/// `c + Σ x[j]·v_j` over the position's components `v_j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Affine {
    c: i64,
    x: [i64; MAX_COMPONENTS],
}

impl Affine {
    fn constant(c: i64) -> Affine {
        Affine {
            c,
            x: [0; MAX_COMPONENTS],
        }
    }

    fn var(j: usize) -> Affine {
        let mut x = [0; MAX_COMPONENTS];
        x[j] = 1;
        Affine { c: 0, x }
    }

    fn zip(self, other: Affine, f: impl Fn(i64, i64) -> Option<i64>) -> Option<Affine> {
        let mut x = [0; MAX_COMPONENTS];
        for (j, out) in x.iter_mut().enumerate() {
            *out = f(self.x[j], other.x[j])?;
        }
        Some(Affine {
            c: f(self.c, other.c)?,
            x,
        })
    }

    fn scale(self, k: i64) -> Option<Affine> {
        self.zip(Affine::constant(0), |a, _| a.checked_mul(k))
    }

    /// The least (`least`) or greatest value over the box.
    fn extreme(&self, lo: &[i64], hi: &[i64], least: bool) -> Option<i64> {
        let mut acc = i128::from(self.c);
        for (j, &a) in self.x.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let at = if (a > 0) == least { lo[j] } else { hi[j] };
            acc += i128::from(a) * i128::from(at);
        }
        i64::try_from(acc).ok()
    }
}

/// An integer expression's bounds: it is at least every form of `lo` and at most every
/// form of `hi` (none: no bound on that side).
#[derive(Clone, Debug, Default)]
struct Bounds {
    lo: Vec<Affine>,
    hi: Vec<Affine>,
}

impl Bounds {
    fn exactly(a: Affine) -> Bounds {
        Bounds {
            lo: vec![a],
            hi: vec![a],
        }
    }

    fn interval(lo: Option<i64>, hi: Option<i64>) -> Bounds {
        Bounds {
            lo: lo.map(Affine::constant).into_iter().collect(),
            hi: hi.map(Affine::constant).into_iter().collect(),
        }
    }

    fn unknown() -> Bounds {
        Bounds::default()
    }
}

/// Every `f(a, b)` that does not overflow, at most [`MAX_FORMS`] of them (dropping a bound
/// only loses precision).
fn combine(
    a: &[Affine],
    b: &[Affine],
    f: impl Fn(Affine, Affine) -> Option<Affine>,
) -> Vec<Affine> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            if let Some(z) = f(*x, *y) {
                if !out.contains(&z) && out.len() < MAX_FORMS {
                    out.push(z);
                }
            }
        }
    }
    out
}

/// The forms of `a` and of `b`, at most [`MAX_FORMS`].
fn union(a: &[Affine], b: &[Affine]) -> Vec<Affine> {
    let mut out = Vec::new();
    for z in a.iter().chain(b) {
        if !out.contains(z) && out.len() < MAX_FORMS {
            out.push(*z);
        }
    }
    out
}

/// What a register holds.
#[derive(Clone, Debug)]
enum Reg {
    Int(Bounds),
    /// A list known exactly (a constant, a parameter).
    List(Rc<[i64]>),
    Unknown,
}

/// One pass over the rules with the current box.
struct Pass<'b> {
    lo: &'b [i64],
    hi: &'b [i64],
    /// The components' registers (`None`: `_`).
    slots: &'b [Option<u32>],
    /// The targets' intervals so far, by component (`None`: nothing yet).
    found: Vec<Option<(i64, i64)>>,
    /// By component, the least of the targets' constant lower bounds and the greatest of
    /// their constant upper bounds (`None`: some target has none): where the box may jump
    /// to when it grows.
    fixed: Vec<(Option<i64>, Option<i64>)>,
    /// Some target was noted (else `fixed` means nothing).
    any: Vec<bool>,
    /// Something unbounded, or of the wrong shape, could be a target.
    escaped: bool,
    regs: Regs<Reg>,
}

/// The box of the positions of `game` (compiled as `compiled`, instance parameters
/// `params`) reachable from the position of components `first` (an integer position:
/// one): an interval `(lo, hi)` per component, holding `first`'s. `None` when a rule could
/// make a target the inference cannot bound, or of another shape, or the rules are not all
/// compiled.
pub fn position_ranges(
    compiled: &CompiledGame,
    game: &Game,
    params: &[Value],
    first: &[i64],
) -> Option<Vec<(i64, i64)>> {
    let plain = |p: &Pattern| match p {
        Pattern::Bind(slot, _) => Some(Some(*slot)),
        Pattern::Wildcard(_) => Some(None),
        Pattern::Tuple(..) => None,
    };
    let slots: Vec<Option<u32>> = match (&game.position, first.len()) {
        (PositionShape::Single(Pattern::Bind(slot, _)), 1) => vec![Some(*slot)],
        (PositionShape::Single(Pattern::Tuple(items, _)), k) if items.len() == k && k > 1 => {
            items.iter().map(plain).collect::<Option<_>>()?
        }
        (PositionShape::Fields(fields), k) if fields.len() == k && k > 1 => fields
            .iter()
            .map(|(p, _)| plain(p))
            .collect::<Option<_>>()?,
        _ => return None,
    };
    if slots.len() > MAX_COMPONENTS {
        return None;
    }
    let rules = super::all_rules(compiled, game)?;
    let (mut lo, mut hi) = (first.to_vec(), first.to_vec());
    for round in 0..MAX_ROUNDS {
        let mut pass = Pass {
            lo: &lo,
            hi: &hi,
            slots: &slots,
            found: vec![None; slots.len()],
            fixed: vec![(None, None); slots.len()],
            any: vec![false; slots.len()],
            escaped: false,
            regs: Regs::default(),
        };
        for rule in &rules {
            pass.regs = Regs::default();
            for (i, value) in params.iter().enumerate() {
                pass.regs.bind(i as u32, param_reg(value));
            }
            for (j, slot) in slots.iter().enumerate() {
                if let Some(slot) = slot {
                    pass.regs
                        .bind(*slot, Reg::Int(Bounds::exactly(Affine::var(j))));
                }
            }
            for step in &rule.steps {
                pass.step(step);
            }
            pass.target(&rule.target);
            if pass.escaped {
                return None;
            }
        }
        let (found, fixed) = (pass.found, pass.fixed);
        let mut grown = false;
        for (j, range) in found.iter().enumerate() {
            let Some((a, b)) = *range else { continue };
            let (fixed_lo, fixed_hi) = fixed[j];
            // A side that grows jumps to the targets' constant bound if they all have one
            // (`n + 1 if n < 10` grows to 10 at once), else grows by twice as much as
            // the last time, so that a slow but bounded growth is caught in a few rounds.
            if a < lo[j] {
                grown = true;
                let step = (lo[j] - a).saturating_mul((1 << round.min(32)) - 1);
                lo[j] = match fixed_lo {
                    Some(f) if f <= a => f,
                    _ => a.saturating_sub(step),
                };
            }
            if b > hi[j] {
                grown = true;
                let step = (b - hi[j]).saturating_mul((1 << round.min(32)) - 1);
                hi[j] = match fixed_hi {
                    Some(f) if f >= b => f,
                    _ => b.saturating_add(step),
                };
            }
        }
        if !grown {
            return Some(lo.into_iter().zip(hi).collect());
        }
    }
    None
}

/// A comparison of an integer with `min(xs)` or `max(xs)` that holds exactly when it
/// holds of every item: the operator, the other side, the items, and whether the items
/// are on the left.
fn spread<'e>(
    op: BinaryOp,
    l: &'e IntExpr,
    r: &'e IntExpr,
) -> Option<(BinaryOp, &'e IntExpr, &'e [IntExpr], bool)> {
    let below = matches!(op, BinaryOp::Le | BinaryOp::Lt);
    let above = matches!(op, BinaryOp::Ge | BinaryOp::Gt);
    match (l, r) {
        // min(xs) >= g, max(xs) <= g
        (IntExpr::Min(items), _) if above => Some((op, r, items, true)),
        (IntExpr::Max(items), _) if below => Some((op, r, items, true)),
        // g <= min(xs), g >= max(xs)
        (_, IntExpr::Min(items)) if below => Some((op, l, items, false)),
        (_, IntExpr::Max(items)) if above => Some((op, l, items, false)),
        _ => None,
    }
}

/// The terms of a sum, with their signs: `a - (b + c)` is `+a`, `-b`, `-c`.
fn additive<'e>(e: &'e IntExpr, sign: i64, out: &mut Vec<(i64, &'e IntExpr)>) {
    match e {
        IntExpr::Bin(IntOp::Add, a, b) => {
            additive(a, sign, out);
            additive(b, sign, out);
        }
        IntExpr::Bin(IntOp::Sub, a, b) => {
            additive(a, sign, out);
            additive(b, -sign, out);
        }
        IntExpr::Neg(a) => additive(a, -sign, out),
        _ => out.push((sign, e)),
    }
}

/// What the inference knows of a parameter's value.
fn param_reg(value: &Value) -> Reg {
    match value {
        Value::Int(n) => Reg::Int(Bounds::exactly(Affine::constant(*n))),
        Value::Bool(b) => Reg::Int(Bounds::exactly(Affine::constant(i64::from(*b)))),
        Value::List(items) => items
            .iter()
            .map(Value::as_int)
            .collect::<Option<Rc<[i64]>>>()
            .map_or(Reg::Unknown, Reg::List),
        _ => Reg::Unknown,
    }
}

impl Pass<'_> {
    /// The interval the bounds take over the box (`None` on a side without a bound).
    fn concrete(&self, b: &Bounds) -> (Option<i64>, Option<i64>) {
        let lo =
            b.lo.iter()
                .filter_map(|f| f.extreme(self.lo, self.hi, true))
                .max();
        let hi =
            b.hi.iter()
                .filter_map(|f| f.extreme(self.lo, self.hi, false))
                .min();
        (lo, hi)
    }

    fn step(&mut self, step: &GenClause) {
        match step {
            GenClause::Range {
                reg,
                lo,
                hi,
                inclusive,
            } => {
                // The loop runs only when `lo <= hi` (`lo < hi`): a guard for what follows.
                let op = if *inclusive {
                    BinaryOp::Le
                } else {
                    BinaryOp::Lt
                };
                self.guard(&BoolExpr::Cmp(op, lo.clone(), hi.clone()));
                let (lo, hi) = (self.int(lo), self.int(hi));
                let hi = if *inclusive {
                    hi.hi
                } else {
                    combine(&hi.hi, &[Affine::constant(1)], |a, b| {
                        a.zip(b, i64::checked_sub)
                    })
                };
                let bounds = Bounds { lo: lo.lo, hi };
                self.regs.bind(*reg, Reg::Int(bounds));
            }
            GenClause::Items { index, item, list } => {
                let (indexes, items) = match self.list(list) {
                    Some(xs) => (
                        Bounds::interval(Some(0), Some(xs.len() as i64 - 1)),
                        Bounds::interval(xs.iter().min().copied(), xs.iter().max().copied()),
                    ),
                    None => (Bounds::unknown(), Bounds::unknown()),
                };
                if let Some(reg) = index {
                    self.regs.bind(*reg, Reg::Int(indexes));
                }
                if let Some(reg) = item {
                    self.regs.bind(*reg, Reg::Int(items));
                }
            }
            GenClause::Rows { reg, .. } => self.regs.bind(*reg, Reg::Unknown),
            GenClause::If(cond) => self.guard(cond),
        }
    }

    /// Narrows the registers a guard bounds, for the clauses after it: `b > 0`,
    /// `n - k >= -50`, `x < w and y < h`. A comparison `L op R` is read as `D op' 0` with
    /// `D = L - R` a sum of signed terms; each term that is a register `r` (sign `s`) gets
    /// the bound `s·r op' -(the rest)`. Anything else narrows nothing.
    fn guard(&mut self, cond: &BoolExpr) {
        match cond {
            BoolExpr::And(a, b) => {
                self.guard(a);
                self.guard(b);
            }
            // `l <= min(xs)` holds when `l <= x` for every `x`, and so on.
            BoolExpr::Cmp(op, l, r) if spread(*op, l, r).is_some() => {
                let (op, l, items, left) = spread(*op, l, r).unwrap_or((*op, l, &[], true));
                for item in items {
                    let (a, b) = if left { (item, l) } else { (l, item) };
                    self.guard(&BoolExpr::Cmp(op, a.clone(), b.clone()));
                }
            }
            BoolExpr::Cmp(op, l, r) => {
                // D >= low (`Some`) and/or D <= high.
                let (low, high) = match op {
                    BinaryOp::Ge => (Some(0), None),
                    BinaryOp::Gt => (Some(1), None),
                    BinaryOp::Le => (None, Some(0)),
                    BinaryOp::Lt => (None, Some(-1)),
                    BinaryOp::Eq => (Some(0), Some(0)),
                    _ => return,
                };
                let mut terms = Vec::new();
                additive(l, 1, &mut terms);
                additive(r, -1, &mut terms);
                for i in 0..terms.len() {
                    let (sign, IntExpr::Reg(reg)) = terms[i] else {
                        continue;
                    };
                    let Some(Reg::Int(own)) = self.regs.get(*reg).cloned() else {
                        continue;
                    };
                    // The rest of D's terms: their sum's bounds.
                    let mut rest = Bounds::exactly(Affine::constant(0));
                    for (k, (s, e)) in terms.iter().enumerate() {
                        if k != i {
                            let b = self.int(e);
                            let op = if *s > 0 { IntOp::Add } else { IntOp::Sub };
                            rest = self.bin(op, rest, b);
                        }
                    }
                    let g_minus = |g: i64, forms: &[Affine]| {
                        combine(&[Affine::constant(g)], forms, |x, y| {
                            x.zip(y, i64::checked_sub)
                        })
                    };
                    let minus_g = |g: i64, forms: &[Affine]| {
                        combine(forms, &[Affine::constant(g)], |x, y| {
                            x.zip(y, i64::checked_sub)
                        })
                    };
                    let (mut lo, mut hi) = (Vec::new(), Vec::new());
                    // s·r + rest >= g: r >= g - rest (s = 1), r <= rest - g (s = -1).
                    if let Some(g) = low {
                        if sign > 0 {
                            lo = g_minus(g, &rest.hi);
                        } else {
                            hi = minus_g(g, &rest.hi);
                        }
                    }
                    // s·r + rest <= g: r <= g - rest (s = 1), r >= rest - g (s = -1).
                    if let Some(g) = high {
                        if sign > 0 {
                            hi = g_minus(g, &rest.lo);
                        } else {
                            lo = minus_g(g, &rest.lo);
                        }
                    }
                    let narrowed = Bounds {
                        lo: union(&own.lo, &lo),
                        hi: union(&own.hi, &hi),
                    };
                    self.regs.bind(*reg, Reg::Int(narrowed));
                }
            }
            _ => {}
        }
    }

    /// Notes the interval of component `j` that a target can take.
    fn note(&mut self, j: usize, e: &IntExpr) {
        let bounds = self.int(e);
        match self.concrete(&bounds) {
            (Some(a), Some(b)) if a > b => {} // no target at all
            (Some(a), Some(b)) => {
                let slot = &mut self.found[j];
                *slot = Some(slot.map_or((a, b), |(x, y)| (x.min(a), y.max(b))));
                let constant = |forms: &[Affine], least: bool| {
                    let values = forms.iter().filter(|f| f.x == [0; MAX_COMPONENTS]);
                    let values = values.map(|f| f.c);
                    if least {
                        values.max()
                    } else {
                        values.min()
                    }
                };
                // A side within the box does not push it: no threshold needed.
                let flo = if a < self.lo[j] {
                    constant(&bounds.lo, true)
                } else {
                    Some(a)
                };
                let fhi = if b > self.hi[j] {
                    constant(&bounds.hi, false)
                } else {
                    Some(b)
                };
                let (old_lo, old_hi) = self.fixed[j];
                self.fixed[j] = if self.any[j] {
                    (
                        old_lo.zip(flo).map(|(x, y)| x.min(y)),
                        old_hi.zip(fhi).map(|(x, y)| x.max(y)),
                    )
                } else {
                    (flo, fhi)
                };
                self.any[j] = true;
            }
            _ => self.escaped = true,
        }
    }

    fn target(&mut self, target: &Target) {
        match target {
            Target::Int(e) if self.slots.len() == 1 => self.note(0, e),
            Target::Tuple(items) if items.len() == self.slots.len() && items.len() > 1 => {
                for (j, e) in items.iter().enumerate() {
                    self.note(j, e);
                }
            }
            Target::Split(parts) => {
                for part in parts {
                    self.target(part);
                }
            }
            Target::Let(bindings, inner) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                self.target(inner);
                self.regs.close(scope);
            }
            _ => self.escaped = true,
        }
    }

    fn bind(&mut self, bindings: &[Binding]) {
        for binding in bindings {
            let (reg, value) = match binding {
                Binding::Int(reg, e) => (*reg, Reg::Int(self.int(e))),
                Binding::List(reg, e) => (*reg, self.list(e).map_or(Reg::Unknown, Reg::List)),
                Binding::Bool(reg, _) => (*reg, Reg::Int(Bounds::interval(Some(0), Some(1)))),
                Binding::Rows(reg, _) => (*reg, Reg::Unknown),
                // Reads go to the caller's register itself.
                Binding::Alias(..) => continue,
            };
            self.regs.bind(reg, value);
        }
    }

    /// A list expression, when it is known exactly.
    fn list(&mut self, e: &ListExpr) -> Option<Rc<[i64]>> {
        match e {
            ListExpr::Reg(r) => match self.regs.get(*r) {
                Some(Reg::List(xs)) => Some(xs.clone()),
                _ => None,
            },
            ListExpr::Lit(xs) => Some(Rc::from(&xs[..])),
            ListExpr::Reversed(inner) => Some(self.list(inner)?.iter().rev().copied().collect()),
            ListExpr::Let(bindings, body) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                let list = self.list(body);
                self.regs.close(scope);
                list
            }
            _ => None,
        }
    }

    /// An integer expression's bounds.
    fn int(&mut self, e: &IntExpr) -> Bounds {
        match e {
            IntExpr::Lit(n) => Bounds::exactly(Affine::constant(*n)),
            IntExpr::Reg(r) => match self.regs.get(*r) {
                Some(Reg::Int(b)) => b.clone(),
                _ => Bounds::unknown(),
            },
            IntExpr::Neg(a) => {
                let a = self.int(a);
                let neg = |f: &Vec<Affine>| combine(f, &[Affine::constant(0)], |x, _| x.scale(-1));
                Bounds {
                    lo: neg(&a.hi),
                    hi: neg(&a.lo),
                }
            }
            IntExpr::Abs(a) => {
                let a = self.int(a);
                match self.concrete(&a) {
                    (Some(lo), _) if lo >= 0 => a,
                    (lo, hi) => {
                        let most = lo.and_then(i64::checked_neg).zip(hi).map(|(l, h)| l.max(h));
                        Bounds::interval(Some(0), most)
                    }
                }
            }
            IntExpr::Bin(op, a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                self.bin(*op, a, b)
            }
            IntExpr::If(_, a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                let ((alo, ahi), (blo, bhi)) = (self.concrete(&a), self.concrete(&b));
                let lo = alo.zip(blo).map(|(x, y)| x.min(y));
                let hi = ahi.zip(bhi).map(|(x, y)| x.max(y));
                Bounds::interval(lo, hi)
            }
            IntExpr::Min(items) | IntExpr::Max(items) => {
                let least = matches!(e, IntExpr::Min(_));
                let all: Vec<Bounds> = items.iter().map(|i| self.int(i)).collect();
                // The least item is at most each item's upper bounds; at least the least of
                // their lower ones.
                let mut kept = Vec::new();
                let mut other: Option<Option<i64>> = None;
                for b in &all {
                    let (lo, hi) = self.concrete(b);
                    kept = union(&kept, if least { &b.hi } else { &b.lo });
                    let side = if least { lo } else { hi };
                    other = Some(match other {
                        None => side,
                        Some(prev) => prev
                            .zip(side)
                            .map(|(x, y)| if least { x.min(y) } else { x.max(y) }),
                    });
                }
                let other: Vec<Affine> =
                    other.flatten().map(Affine::constant).into_iter().collect();
                if least {
                    Bounds {
                        lo: other,
                        hi: kept,
                    }
                } else {
                    Bounds {
                        lo: kept,
                        hi: other,
                    }
                }
            }
            IntExpr::ExtremeList(_, list) | IntExpr::Index(list, _) => match self.list(list) {
                Some(xs) => Bounds::interval(xs.iter().min().copied(), xs.iter().max().copied()),
                None => Bounds::unknown(),
            },
            IntExpr::Len(list) => match self.list(list) {
                Some(xs) => Bounds::exactly(Affine::constant(xs.len() as i64)),
                None => Bounds::interval(Some(0), None),
            },
            IntExpr::Let(bindings, body) | IntExpr::Memo(_, bindings, body) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                let b = self.int(body);
                self.regs.close(scope);
                b
            }
            IntExpr::Call(..) | IntExpr::SumList(_) | IntExpr::Fold(_) => Bounds::unknown(),
        }
    }

    fn bin(&self, op: IntOp, a: Bounds, b: Bounds) -> Bounds {
        let sub = |x: Affine, y: Affine| x.zip(y, i64::checked_sub);
        match op {
            IntOp::Add => {
                let add = |x: Affine, y: Affine| x.zip(y, i64::checked_add);
                return Bounds {
                    lo: combine(&a.lo, &b.lo, add),
                    hi: combine(&a.hi, &b.hi, add),
                };
            }
            IntOp::Sub => {
                return Bounds {
                    lo: combine(&a.lo, &b.hi, sub),
                    hi: combine(&a.hi, &b.lo, sub),
                }
            }
            _ => {}
        }
        let (ca, cb) = (self.concrete(&a), self.concrete(&b));
        if op == IntOp::Mul {
            // By a constant: the forms scaled.
            for (k, other) in [(cb, &a), (ca, &b)] {
                if let (Some(k), Some(k2)) = k {
                    if k == k2 {
                        let scale =
                            |f: &Vec<Affine>| combine(f, &[Affine::constant(0)], |x, _| x.scale(k));
                        let (lo, hi) = if k >= 0 {
                            (scale(&other.lo), scale(&other.hi))
                        } else {
                            (scale(&other.hi), scale(&other.lo))
                        };
                        return Bounds { lo, hi };
                    }
                }
            }
        }
        let ((Some(alo), Some(ahi)), (Some(blo), Some(bhi))) = (ca, cb) else {
            return Bounds::unknown();
        };
        if alo > ahi || blo > bhi {
            // An empty side: no value (the rule makes no target here).
            return Bounds::interval(Some(1), Some(0));
        }
        let corners = |xs: &[i64], ys: &[i64]| -> Bounds {
            let values: Vec<i64> = xs
                .iter()
                .flat_map(|x| ys.iter().filter_map(move |y| op.apply(*x, *y).ok()))
                .collect();
            match (values.iter().min(), values.iter().max()) {
                (Some(lo), Some(hi)) => Bounds::interval(Some(*lo), Some(*hi)),
                // Every corner fails: only an overflow or division by zero, no target.
                _ => Bounds::unknown(),
            }
        };
        match op {
            IntOp::Mul => corners(&[alo, ahi], &[blo, bhi]),
            IntOp::Div => {
                // Floor division is monotone in each operand on either side of zero.
                let ys: Vec<i64> = [blo, -1, 1, bhi]
                    .into_iter()
                    .filter(|y| *y != 0 && (blo..=bhi).contains(y))
                    .collect();
                corners(&[alo, ahi], &ys)
            }
            IntOp::Rem => {
                // Floor modulo has the divisor's sign and is smaller than it.
                let lo = if blo < 0 { blo + 1 } else { 0 };
                let hi = if bhi > 0 { bhi - 1 } else { 0 };
                Bounds::interval(Some(lo), Some(hi))
            }
            IntOp::And if alo >= 0 && blo >= 0 => Bounds::interval(Some(0), Some(ahi.min(bhi))),
            IntOp::Or | IntOp::Xor if alo >= 0 && blo >= 0 => {
                let bits = 64 - ahi.max(bhi).leading_zeros();
                let most = if bits >= 63 {
                    i64::MAX
                } else {
                    (1i64 << bits) - 1
                };
                Bounds::interval(Some(0), Some(most))
            }
            _ => Bounds::unknown(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_extremes_over_a_box() {
        // 3 - a + 2b over a in [0, 4], b in [1, 2].
        let f = Affine {
            c: 3,
            x: [-1, 2, 0, 0],
        };
        let (lo, hi) = ([0, 1, 0, 0], [4, 2, 0, 0]);
        assert_eq!(f.extreme(&lo, &hi, true), Some(1));
        assert_eq!(f.extreme(&lo, &hi, false), Some(7));
    }
}
