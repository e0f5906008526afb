//! The values a game's list positions can hold, inferred from its compiled rules by abstract
//! interpretation (issue 19): for a position that is a list of `k` integers, a finite set
//! `D` such that every move target of a position of `k` cells in `D` is again a list of `k`
//! cells in `D`. The graph uses it to give such positions a dense index (`graph::dense`).
//!
//! The abstraction: an integer expression evaluates to a finite set of values (at most
//! [`MAX_VALUES`]) or to *unknown*; a list expression to *a board* (`k` cells, each in `D`),
//! a constant list, or unknown. Literals, `if` (both branches), arithmetic of two sets (each
//! pair of values; a pair that would fail is an error at run time, which makes no target),
//! `min`/`max`, indexing a board (`D`) or a constant, `len` of a board (`k`), loop variables
//! of ranges with known bounds and of `for c in board`, inlined calls' arguments, and the
//! instance's integer and boolean parameters are known; everything else (counts, sums,
//! built-ins, comprehensions) is unknown. Guards are ignored, which can only let more
//! through. A target must be a board: the position with `set`s applied (each `set` adds the
//! values it can write to `D`), `reversed` of one, or a literal of `k` cells; `D` is grown
//! until it is stable. Anything unknown that reaches a target, a target that is not a list
//! of `k` cells, or a rule the compiler did not accept means no domain (`None`).
//!
//! The result never decides an answer: a position outside `D` (asked by the user, or one
//! the inference missed) is simply indexed the ordinary way. Soundness is what makes the
//! dense index *cover* the game, not what makes it correct.

mod ranges;
mod sorted;

pub use ranges::position_ranges;
pub use sorted::{sorted_domain, SortedDomain};

use std::collections::BTreeSet;
use std::rc::Rc;

use super::lists::{Binding, GenClause, ListExpr};
use super::{CompiledGame, CompiledRule, IntExpr, Target};
use crate::eval::value::Value;
use crate::lower::ir::{Game, Pattern, PositionShape};

/// Most values an integer expression's set, or the domain, may hold before it counts as
/// unknown.
pub const MAX_VALUES: usize = 64;

/// Most pairs of values an operator's result is computed from.
const MAX_PAIRS: usize = 4096;

/// How many times `D` may grow before the inference gives up (each round adds a value).
const MAX_ROUNDS: usize = MAX_VALUES + 1;

/// An integer expression's values.
type Ints = Option<BTreeSet<i64>>;

/// A list expression's abstract value.
#[derive(Clone, Debug)]
enum List {
    /// `k` cells, each in the domain.
    Board,
    /// A list known exactly (a constant, a parameter).
    Known(Rc<[i64]>),
    Unknown,
}

/// What a register holds, as far as the inference knows.
#[derive(Clone, Debug)]
enum Reg {
    Int(BTreeSet<i64>),
    List(List),
}

/// The registers an analysis's pass over a rule has bound so far, innermost last, each with
/// what the analysis knows of it (`R`); a binding shadows the outer ones of its register. A
/// scope is a length: [`Regs::scope`] opens one, [`Regs::close`] drops what it bound.
pub(super) struct Regs<R>(Vec<(u32, R)>);

impl<R> Default for Regs<R> {
    fn default() -> Regs<R> {
        Regs(Vec::new())
    }
}

impl<R> Regs<R> {
    /// What the innermost binding of `reg` holds.
    pub(super) fn get(&self, reg: u32) -> Option<&R> {
        self.0.iter().rev().find(|(r, _)| *r == reg).map(|(_, v)| v)
    }

    pub(super) fn bind(&mut self, reg: u32, value: R) {
        self.0.push((reg, value));
    }

    /// The scope that bindings from now on belong to.
    pub(super) fn scope(&self) -> usize {
        self.0.len()
    }

    /// Drops the bindings of `scope` and of the scopes inside it.
    pub(super) fn close(&mut self, scope: usize) {
        self.0.truncate(scope);
    }
}

/// The registers bound so far.
#[derive(Default)]
struct Env {
    regs: Regs<Reg>,
}

impl Env {
    fn get(&self, reg: u32) -> Option<&Reg> {
        self.regs.get(reg)
    }

    fn bind(&mut self, reg: u32, value: Reg) {
        self.regs.bind(reg, value);
    }

    fn bind_ints(&mut self, reg: u32, ints: Ints) {
        match ints {
            Some(set) => self.bind(reg, Reg::Int(set)),
            // Shadows an outer binding of the register.
            None => self.bind(reg, Reg::List(List::Unknown)),
        }
    }
}

/// One pass over the rules with the domain `domain`: what the targets can write.
struct Pass<'d> {
    len: usize,
    domain: &'d BTreeSet<i64>,
    /// Values the targets' `set`s and literal cells can write.
    writes: BTreeSet<i64>,
    /// Something unknown could reach a target.
    escaped: bool,
}

/// The compiled forms of every move rule of a game that is not strategic, if the compiler
/// accepted them all (the inference reads the rules, so one interpreted rule means none).
fn all_rules<'c>(compiled: &'c CompiledGame, game: &Game) -> Option<Vec<&'c CompiledRule>> {
    if game.strategic.is_some() || compiled.rules.len() != game.rules.len() {
        return None;
    }
    compiled.rules.iter().map(Option::as_ref).collect()
}

/// The values every cell of the positions of `game` (compiled as `compiled`, instance
/// parameters `params`) can hold, starting from a position of cells `first`: sorted, at
/// most [`MAX_VALUES`], `first`'s cells among them. `None` when the rules can write a value
/// the inference cannot bound, change a list's length, make anything but a list, or are not
/// all compiled.
pub fn cell_domain(
    compiled: &CompiledGame,
    game: &Game,
    params: &[Value],
    first: &[i64],
) -> Option<Vec<i64>> {
    let PositionShape::Single(Pattern::Bind(slot, _)) = &game.position else {
        return None;
    };
    let rules = all_rules(compiled, game)?;
    let mut domain: BTreeSet<i64> = first.iter().copied().collect();
    for _ in 0..MAX_ROUNDS {
        if domain.len() > MAX_VALUES {
            return None;
        }
        let mut pass = Pass {
            len: first.len(),
            domain: &domain,
            writes: BTreeSet::new(),
            escaped: false,
        };
        for rule in &rules {
            let mut env = Env::default();
            for (i, value) in params.iter().enumerate() {
                if let Some(reg) = param_reg(value) {
                    env.bind(i as u32, reg);
                }
            }
            env.bind(*slot, Reg::List(List::Board));
            for step in &rule.steps {
                pass.step(step, &mut env);
            }
            pass.target(&rule.target, &mut env);
            if pass.escaped {
                return None;
            }
        }
        if pass.writes.is_subset(&domain) {
            return Some(domain.into_iter().collect());
        }
        domain.extend(pass.writes);
    }
    None
}

/// What the inference knows of a parameter's value.
fn param_reg(value: &Value) -> Option<Reg> {
    match value {
        Value::Int(n) => Some(Reg::Int(BTreeSet::from([*n]))),
        Value::Bool(b) => Some(Reg::Int(BTreeSet::from([i64::from(*b)]))),
        Value::List(items) => {
            let ints: Option<Rc<[i64]>> = items.iter().map(Value::as_int).collect();
            ints.map(|ints| Reg::List(List::Known(ints)))
        }
        _ => None,
    }
}

impl Pass<'_> {
    /// Binds the registers of one clause of a rule (guards bind nothing).
    fn step(&mut self, step: &GenClause, env: &mut Env) {
        match step {
            GenClause::Range {
                reg,
                lo,
                hi,
                inclusive,
            } => {
                let range = match (self.int(lo, env), self.int(hi, env)) {
                    (Some(lo), Some(hi)) => {
                        let (lo, hi) = (lo.first().copied(), hi.last().copied());
                        lo.zip(hi).and_then(|(lo, hi)| {
                            let hi = if *inclusive { hi } else { hi.checked_sub(1)? };
                            interval(lo, hi)
                        })
                    }
                    _ => None,
                };
                env.bind_ints(*reg, range);
            }
            GenClause::Items { index, item, list } => {
                let list = self.list(list, env);
                let (indexes, items) = match &list {
                    List::Board => (interval(0, self.len as i64 - 1), Some(self.domain.clone())),
                    List::Known(xs) => (
                        interval(0, xs.len() as i64 - 1),
                        small(xs.iter().copied().collect()),
                    ),
                    List::Unknown => (None, None),
                };
                if let Some(reg) = index {
                    env.bind_ints(*reg, indexes);
                }
                if let Some(reg) = item {
                    env.bind_ints(*reg, items);
                }
            }
            GenClause::Rows { reg, .. } => env.bind(*reg, Reg::List(List::Unknown)),
            GenClause::If(_) => {}
        }
    }

    fn target(&mut self, target: &Target, env: &mut Env) {
        match target {
            Target::List(list) => match self.list(list, env) {
                List::Board => {}
                // A literal of `k` cells (or a parameter's list): its cells are written.
                List::Known(xs) if xs.len() == self.len => self.writes.extend(xs.iter()),
                _ => self.escaped = true,
            },
            Target::Let(bindings, inner) => {
                let scope = env.regs.scope();
                self.bind(bindings, env);
                self.target(inner, env);
                env.regs.close(scope);
            }
            Target::Int(_) | Target::Tuple(_) | Target::Split(_) | Target::SplitList(_) => {
                self.escaped = true;
            }
        }
    }

    fn bind(&mut self, bindings: &[Binding], env: &mut Env) {
        for binding in bindings {
            match binding {
                Binding::Int(reg, e) => {
                    let ints = self.int(e, env);
                    env.bind_ints(*reg, ints);
                }
                Binding::List(reg, e) => {
                    let list = self.list(e, env);
                    env.bind(*reg, Reg::List(list));
                }
                Binding::Bool(reg, _) => env.bind(*reg, Reg::Int(BTreeSet::from([0, 1]))),
                Binding::Rows(reg, _) => env.bind(*reg, Reg::List(List::Unknown)),
                // Reads go to the caller's register itself.
                Binding::Alias(..) => {}
            }
        }
    }

    /// A list expression's abstract value; the values a board's `set`s write are noted.
    fn list(&mut self, e: &ListExpr, env: &mut Env) -> List {
        match e {
            ListExpr::Reg(r) => match env.get(*r) {
                Some(Reg::List(list)) => list.clone(),
                _ => List::Unknown,
            },
            ListExpr::Lit(xs) => List::Known(Rc::from(&xs[..])),
            ListExpr::Elems(items) => {
                if items.len() != self.len {
                    return List::Unknown;
                }
                for item in items {
                    match self.int(item, env) {
                        Some(values) => self.writes.extend(values),
                        None => return List::Unknown,
                    }
                }
                List::Board
            }
            ListExpr::SetAt(inner, _, value) => {
                let inner = self.list(inner, env);
                let values = self.int(value, env);
                match (inner, values) {
                    (List::Board, Some(values)) => {
                        self.writes.extend(values);
                        List::Board
                    }
                    (List::Known(xs), Some(values)) if xs.len() == self.len => {
                        self.writes.extend(xs.iter().copied().chain(values));
                        List::Board
                    }
                    _ => List::Unknown,
                }
            }
            ListExpr::Repeat(value, count) => {
                let count = self.int(count, env);
                let values = self.int(value, env);
                match (count, values) {
                    (Some(count), Some(values))
                        if count.len() == 1 && count.first() == Some(&(self.len as i64)) =>
                    {
                        self.writes.extend(values);
                        List::Board
                    }
                    _ => List::Unknown,
                }
            }
            ListExpr::Reversed(inner) => match self.list(inner, env) {
                List::Known(xs) => List::Known(xs.iter().rev().copied().collect()),
                other => other,
            },
            ListExpr::Let(bindings, body) => {
                let scope = env.regs.scope();
                self.bind(bindings, env);
                let list = self.list(body, env);
                env.regs.close(scope);
                list
            }
            ListExpr::Comp(..)
            | ListExpr::Extreme(..)
            | ListExpr::ExtremeOf(..)
            | ListExpr::Regions(..)
            | ListExpr::Filter(_) => List::Unknown,
        }
    }

    /// An integer expression's values.
    fn int(&mut self, e: &IntExpr, env: &mut Env) -> Ints {
        match e {
            IntExpr::Lit(n) => Some(BTreeSet::from([*n])),
            IntExpr::Reg(r) => match env.get(*r) {
                Some(Reg::Int(set)) => Some(set.clone()),
                _ => None,
            },
            IntExpr::Neg(a) => map(self.int(a, env)?, |a| a.checked_neg()),
            IntExpr::Abs(a) => map(self.int(a, env)?, |a| a.checked_abs()),
            IntExpr::Bin(op, a, b) => {
                let (a, b) = (self.int(a, env)?, self.int(b, env)?);
                if a.len() * b.len() > MAX_PAIRS {
                    return None;
                }
                let mut out = BTreeSet::new();
                for x in &a {
                    for y in &b {
                        // A failing pair raises an error at run time: no target.
                        if let Ok(v) = op.apply(*x, *y) {
                            out.insert(v);
                        }
                    }
                }
                small(out)
            }
            IntExpr::If(_, a, b) => {
                let (mut a, b) = (self.int(a, env)?, self.int(b, env)?);
                a.extend(b);
                small(a)
            }
            IntExpr::Min(items) | IntExpr::Max(items) => {
                let least = matches!(e, IntExpr::Min(_));
                let mut acc: Option<BTreeSet<i64>> = None;
                for item in items {
                    let values = self.int(item, env)?;
                    acc = Some(match acc {
                        None => values,
                        Some(prev) => {
                            if prev.len() * values.len() > MAX_PAIRS {
                                return None;
                            }
                            let mut out = BTreeSet::new();
                            for x in &prev {
                                for y in &values {
                                    out.insert(if least { *x.min(y) } else { *x.max(y) });
                                }
                            }
                            out
                        }
                    });
                }
                small(acc?)
            }
            IntExpr::ExtremeList(_, list) | IntExpr::Index(list, _) => {
                if let IntExpr::Index(_, index) = e {
                    // Evaluated for its bindings' sake only; any index reads a cell.
                    let _ = self.int(index, env);
                }
                match self.list(list, env) {
                    List::Board => Some(self.domain.clone()),
                    List::Known(xs) => small(xs.iter().copied().collect()),
                    List::Unknown => None,
                }
            }
            IntExpr::Len(list) => match self.list(list, env) {
                List::Board => Some(BTreeSet::from([self.len as i64])),
                List::Known(xs) => Some(BTreeSet::from([xs.len() as i64])),
                List::Unknown => None,
            },
            IntExpr::Let(bindings, body) | IntExpr::Memo(_, bindings, body) => {
                let scope = env.regs.scope();
                self.bind(bindings, env);
                let ints = self.int(body, env);
                env.regs.close(scope);
                ints
            }
            IntExpr::Call(..) | IntExpr::SumList(_) | IntExpr::Fold(_) => None,
        }
    }
}

/// `f` of each value (a value it fails on makes no target).
fn map(set: BTreeSet<i64>, f: impl Fn(i64) -> Option<i64>) -> Ints {
    small(set.into_iter().filter_map(f).collect())
}

/// The set, if it is small enough to keep.
fn small(set: BTreeSet<i64>) -> Ints {
    (set.len() <= MAX_VALUES).then_some(set)
}

/// `lo..=hi`, if it is small enough to keep (empty when `hi < lo`).
fn interval(lo: i64, hi: i64) -> Ints {
    if hi < lo {
        return Some(BTreeSet::new());
    }
    if hi.checked_sub(lo)? >= MAX_VALUES as i64 {
        return None;
    }
    Some((lo..=hi).collect())
}
