//! Sorted list positions, inferred from a game's compiled rules (issue 19): for a position
//! that is a sorted list of at most `k` integers, an interval `lo..=hi` and the direction
//! such that every move target of a list sorted that way, of at most `k` cells in the
//! interval, is again one (Chomp's rows). The graph ranks such positions densely by the
//! combinatorial number system (`graph::SortedRanks`), where `m^k` ranks would be too many.
//!
//! The abstraction is one of monotonicity. A list expression is a *sequence*: how its
//! items move along the list (constant, non-decreasing, non-increasing, or unknown), an
//! interval holding them and a bound on its length. An integer expression inside a
//! comprehension `[g for (r, l) in enumerate(xs) if ...]` has an interval and how it moves
//! with the index `r` (for a fixed item) and with the item `l` (for a fixed index); the
//! comprehension's items then move as `g` in `r` plus `g` in `l` composed with `xs`'s
//! direction (`g(r', l') - g(r, l)` is the sum of a step in `l` at `r'` and a step in `r` at
//! `l`). Sums, differences, negation, products and floor quotients by a constant of known
//! sign, `min`, `max` and `abs` of known sign keep directions; a comparison is a
//! non-decreasing (or non-increasing) indicator when its difference moves one way, `and`,
//! `or`, `not` combine them; `if c then a else b` moves one way when both branches do and the
//! condition switches once the right way, from the smaller branch to the greater, which a
//! small prover of `a <= b` for all values checks (intervals, `min(a, ..) <= a`, `a - c <= a`
//! for `c >= 0`, and the branches of an `if`). Guards of a comprehension (and a fused filter)
//! only drop items, which keeps a sequence sorted and shortens it; they narrow the item's
//! interval where they compare it. Guards of a rule are ignored (which can only let more
//! through). Anything else inside a comprehension is unknown, as is every list form but a
//! register, a literal, `[v; n]`, `reversed`, a comprehension over one list and a filter.
//!
//! A target must be a sequence sorted the position's way (or constant), of at most `k` cells
//! (exactly `k` for fixed-length lists, tried first), in a bounded interval; the interval
//! starts as the first position's cells and grows until every target's lies in it.
//!
//! As with the cell domain, the result never decides an answer: ranking checks that each
//! list is sorted and in bounds, and a position that is not is indexed the ordinary way.

use std::rc::Rc;

use super::super::lanes::flipped;
mod mono;

use mono::{bin, cmp_mono, fixed, if_mono, refine, Int, Iv, Mono};

use super::super::lists::{Binding, Gen, GenClause, ListExpr};
use super::super::prog::Src;
use super::super::{BoolExpr, CompiledGame, IntExpr, Target};
use super::{all_rules, Regs};
use crate::eval::arith::IntOp;
use crate::eval::value::Value;
use crate::lower::ir::{Game, Pattern, PositionShape};

/// How many times the interval may grow before the inference gives up.
const MAX_ROUNDS: usize = 16;

/// How deep the prover of `a <= b` looks into the expressions.
const MAX_PROOF_DEPTH: usize = 8;

/// What the inference found: positions stay lists sorted one way, of at most (or exactly)
/// `len` cells in `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortedDomain {
    /// Each cell at most the one before (else at least).
    pub non_increasing: bool,
    /// The least cell.
    pub lo: i64,
    /// The greatest cell.
    pub hi: i64,
    /// The most cells (the first position's).
    pub len: usize,
    /// Every position has exactly `len` cells.
    pub fixed: bool,
}

/// A list: how its items move along it, an interval holding them, its greatest length, and
/// whether it has exactly that many.
#[derive(Clone, Debug)]
struct Seq {
    mono: Mono,
    iv: Iv,
    len: Option<usize>,
    exact: bool,
}

/// A list expression's abstract value.
#[derive(Clone, Debug)]
enum List {
    Seq(Seq),
    Known(Rc<[i64]>),
    Unknown,
}

/// How a value moves with the comprehension's index and with its item.
type Dirs = (Mono, Mono);

/// What a register holds.
#[derive(Clone, Debug)]
enum Reg {
    Int(Int),
    /// A boolean: how it moves (with the index, with the item), as an indicator.
    Bool(Dirs),
    List(List),
}

/// One pass over the rules with the position `board`.
struct Pass {
    board: Seq,
    /// The comprehension whose index and item the integers move with, when inside one.
    inside: Option<(Option<u32>, Option<u32>)>,
    regs: Regs<Reg>,
}

/// Sorted lists whose rules keep them sorted, starting from a position of cells `first`
/// (see the module's doc): `None` when the rules can break the order, lengthen a list,
/// write a value the inference cannot bound, or are not all compiled.
pub fn sorted_domain(
    compiled: &CompiledGame,
    game: &Game,
    params: &[Value],
    first: &[i64],
) -> Option<SortedDomain> {
    let PositionShape::Single(Pattern::Bind(slot, _)) = &game.position else {
        return None;
    };
    let rules = all_rules(compiled, game)?;
    let down = first.windows(2).all(|w| w[0] >= w[1]);
    let up = first.windows(2).all(|w| w[0] <= w[1]);
    let lo = *first.iter().min()?;
    let hi = *first.iter().max()?;
    let orders = [(down, Mono::Down), (up, Mono::Up)];
    for (_, order) in orders.iter().filter(|(ok, _)| *ok) {
        for fixed in [true, false] {
            let found = grow(&rules, *slot, params, first.len(), *order, fixed, (lo, hi));
            if let Some((lo, hi)) = found {
                return Some(SortedDomain {
                    non_increasing: *order == Mono::Down,
                    lo,
                    hi,
                    len: first.len(),
                    fixed,
                });
            }
        }
    }
    None
}

/// The interval, grown from `start` until every target of every rule lies in it, if the
/// targets stay sorted `order` and short enough.
fn grow(
    rules: &[&super::super::CompiledRule],
    slot: u32,
    params: &[Value],
    len: usize,
    order: Mono,
    fixed: bool,
    start: (i64, i64),
) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = start;
    for _ in 0..MAX_ROUNDS {
        let board = Seq {
            mono: order,
            iv: Iv::of(lo, hi),
            len: Some(len),
            exact: fixed,
        };
        let mut writes = Iv::of(lo, hi);
        for rule in rules {
            let mut pass = Pass {
                board: board.clone(),
                inside: None,
                regs: Regs::default(),
            };
            for (i, value) in params.iter().enumerate() {
                if let Some(reg) = param_reg(value) {
                    pass.regs.bind(i as u32, reg);
                }
            }
            pass.regs.bind(slot, Reg::List(List::Seq(board.clone())));
            for step in &rule.steps {
                pass.step(step);
            }
            let target = pass.target(&rule.target)?;
            let sorted = matches!(target.mono, Mono::Const) || target.mono == order;
            let short = match target.len {
                Some(n) if fixed => n == len && target.exact,
                Some(n) => n <= len,
                None => false,
            };
            if !sorted || !short {
                return None;
            }
            writes = writes.hull(target.iv);
        }
        let (wlo, whi) = writes.bounded()?;
        if (wlo, whi) == (lo, hi) {
            return Some((lo, hi));
        }
        (lo, hi) = (wlo, whi);
    }
    None
}

/// What the inference knows of a parameter's value.
fn param_reg(value: &Value) -> Option<Reg> {
    match value {
        Value::Int(n) => Some(Reg::Int(Int::constant(Iv::of(*n, *n)))),
        Value::Bool(_) => Some(Reg::Bool((Mono::Const, Mono::Const))),
        Value::List(items) => {
            let ints: Option<Rc<[i64]>> = items.iter().map(Value::as_int).collect();
            ints.map(|ints| Reg::List(List::Known(ints)))
        }
        _ => None,
    }
}

/// A known list as a sequence (its interval any for an empty list: it has no cells).
fn known_seq(xs: &[i64], board: &Seq) -> Seq {
    let mono = xs.windows(2).fold(Mono::Const, |m, w| {
        m.join(match w[0].cmp(&w[1]) {
            std::cmp::Ordering::Less => Mono::Up,
            std::cmp::Ordering::Equal => Mono::Const,
            std::cmp::Ordering::Greater => Mono::Down,
        })
    });
    let iv = match (xs.iter().min(), xs.iter().max()) {
        (Some(lo), Some(hi)) => Iv::of(*lo, *hi),
        _ => board.iv,
    };
    Seq {
        mono,
        iv,
        len: Some(xs.len()),
        exact: true,
    }
}

/// Whether two expressions are the same (and so have the same value where both are read).
fn same(a: &IntExpr, b: &IntExpr) -> bool {
    match (a, b) {
        (IntExpr::Lit(x), IntExpr::Lit(y)) => x == y,
        (IntExpr::Reg(x), IntExpr::Reg(y)) => x == y,
        (IntExpr::Neg(x), IntExpr::Neg(y)) => same(x, y),
        (IntExpr::Bin(o, x1, y1), IntExpr::Bin(p, x2, y2)) => {
            o == p && same(x1, x2) && same(y1, y2)
        }
        (IntExpr::Min(xs), IntExpr::Min(ys)) | (IntExpr::Max(xs), IntExpr::Max(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

impl Pass {
    /// The default of an expression the inference does not follow.
    fn opaque(&self) -> Int {
        match self.inside {
            Some(_) => Int::unknown(),
            None => Int::constant(Iv::ALL),
        }
    }

    /// Binds the registers of one clause of a rule (guards bind nothing).
    fn step(&mut self, step: &GenClause) {
        match step {
            GenClause::Range {
                reg,
                lo,
                hi,
                inclusive,
            } => {
                let (lo, hi) = (self.int(lo).iv, self.int(hi).iv);
                let hi = if *inclusive {
                    hi.hi
                } else {
                    hi.hi.and_then(|h| h.checked_sub(1))
                };
                let iv = Iv { lo: lo.lo, hi };
                self.regs.bind(*reg, Reg::Int(Int::constant(iv)));
            }
            GenClause::Items { index, item, list } => {
                let (index_iv, item_iv) = match self.list(list) {
                    List::Seq(s) => (
                        Iv {
                            lo: Some(0),
                            hi: s.len.map(|n| n as i64 - 1),
                        },
                        s.iv,
                    ),
                    List::Known(xs) => {
                        let s = known_seq(&xs, &self.board);
                        (Iv::of(0, xs.len() as i64 - 1), s.iv)
                    }
                    List::Unknown => (Iv::ALL, Iv::ALL),
                };
                if let Some(reg) = index {
                    self.regs.bind(*reg, Reg::Int(Int::constant(index_iv)));
                }
                if let Some(reg) = item {
                    self.regs.bind(*reg, Reg::Int(Int::constant(item_iv)));
                }
            }
            GenClause::Rows { reg, .. } => self.regs.bind(*reg, Reg::List(List::Unknown)),
            GenClause::If(_) => {}
        }
    }

    /// A target's sequence, if it is a list the inference follows.
    fn target(&mut self, target: &Target) -> Option<Seq> {
        match target {
            Target::List(list) => match self.list(list) {
                List::Seq(s) => Some(s),
                List::Known(xs) => Some(known_seq(&xs, &self.board)),
                List::Unknown => None,
            },
            Target::Let(bindings, inner) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                let seq = self.target(inner);
                self.regs.close(scope);
                seq
            }
            Target::Int(_) | Target::Tuple(_) | Target::Split(_) | Target::SplitList(_) => None,
        }
    }

    fn bind(&mut self, bindings: &[Binding]) {
        for binding in bindings {
            let (reg, value) = match binding {
                Binding::Int(reg, e) => (*reg, Reg::Int(self.int(e))),
                // Inside a comprehension only a register bound outside it (a list made
                // there may move with the item).
                Binding::List(reg, e) if self.inside.is_some() => match e {
                    ListExpr::Reg(r) => match self.regs.get(*r) {
                        Some(Reg::List(list)) => (*reg, Reg::List(list.clone())),
                        _ => (*reg, Reg::List(List::Unknown)),
                    },
                    _ => (*reg, Reg::List(List::Unknown)),
                },
                Binding::List(reg, e) => (*reg, Reg::List(self.list(e))),
                Binding::Bool(reg, e) => (*reg, Reg::Bool(self.boolean(e))),
                Binding::Rows(reg, _) => (*reg, Reg::List(List::Unknown)),
                // Reads go to the caller's register itself.
                Binding::Alias(..) => continue,
            };
            self.regs.bind(reg, value);
        }
    }

    fn list(&mut self, e: &ListExpr) -> List {
        match e {
            ListExpr::Reg(r) => match self.regs.get(*r) {
                Some(Reg::List(list)) => list.clone(),
                _ => List::Unknown,
            },
            ListExpr::Lit(xs) => List::Known(Rc::from(&xs[..])),
            ListExpr::Comp(gen, body) if self.inside.is_none() => self.comp(gen, body),
            ListExpr::Filter(filter) => {
                let List::Seq(mut s) = self.seq(&filter.list) else {
                    return List::Unknown;
                };
                let (op, other) = filter.test.parts();
                let other = match other {
                    Src::Lit(n) => Iv::of(n, n),
                    Src::Reg(r) => match self.regs.get(r) {
                        Some(Reg::Int(i)) => i.iv,
                        _ => Iv::ALL,
                    },
                    _ => Iv::ALL,
                };
                s.iv = refine(s.iv, op, other);
                s.exact = false;
                List::Seq(s)
            }
            ListExpr::Repeat(value, count) => {
                let (value, count) = (self.int(value), self.int(count));
                if value.index != Mono::Const || value.item != Mono::Const {
                    return List::Unknown;
                }
                List::Seq(Seq {
                    mono: Mono::Const,
                    iv: value.iv,
                    len: count.iv.hi.and_then(|n| usize::try_from(n.max(0)).ok()),
                    exact: count.iv.lo.is_some() && count.iv.lo == count.iv.hi,
                })
            }
            ListExpr::Reversed(inner) => match self.list(inner) {
                List::Known(xs) => List::Known(xs.iter().rev().copied().collect()),
                List::Seq(s) => List::Seq(Seq {
                    mono: s.mono.flip(),
                    ..s
                }),
                List::Unknown => List::Unknown,
            },
            ListExpr::Let(bindings, body) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                let list = self.list(body);
                self.regs.close(scope);
                list
            }
            ListExpr::Comp(..)
            | ListExpr::Elems(_)
            | ListExpr::SetAt(..)
            | ListExpr::Extreme(..)
            | ListExpr::ExtremeOf(..)
            | ListExpr::Regions(..) => List::Unknown,
        }
    }

    /// A list expression as a sequence, known lists too.
    fn seq(&mut self, e: &ListExpr) -> List {
        match self.list(e) {
            List::Known(xs) => List::Seq(known_seq(&xs, &self.board)),
            other => other,
        }
    }

    /// `[body for (index, item) in enumerate(xs) if ...]`: one list clause and guards.
    fn comp(&mut self, gen: &Gen, body: &IntExpr) -> List {
        let mut over = None;
        for clause in &gen.clauses {
            match clause {
                GenClause::Items { index, item, list } if over.is_none() => {
                    over = Some((*index, *item, list));
                }
                GenClause::If(_) => {}
                _ => return List::Unknown,
            }
        }
        let Some((index, item, list)) = over else {
            return List::Unknown;
        };
        let List::Seq(s) = self.seq(list) else {
            return List::Unknown;
        };
        let guarded = gen.clauses.iter().any(|c| matches!(c, GenClause::If(_)));
        let scope = self.regs.scope();
        if let Some(reg) = index {
            let iv = Iv {
                lo: Some(0),
                hi: s.len.map(|n| n as i64 - 1),
            };
            let int = Int {
                index: Mono::Up,
                ..Int::constant(iv)
            };
            self.regs.bind(reg, Reg::Int(int));
        }
        if let Some(reg) = item {
            let item_int = Int {
                item: Mono::Up,
                ..Int::constant(s.iv)
            };
            self.regs.bind(reg, Reg::Int(item_int));
            // Guards that compare the item narrow it (they hold wherever the body is read).
            let mut iv = s.iv;
            for clause in &gen.clauses {
                if let GenClause::If(BoolExpr::Cmp(op, a, b)) = clause {
                    let is_item = |e: &IntExpr| matches!(e, IntExpr::Reg(r) if *r == reg);
                    if is_item(a) {
                        iv = refine(iv, *op, self.int(b).iv);
                    } else if is_item(b) {
                        iv = refine(iv, flipped(*op), self.int(a).iv);
                    }
                }
            }
            self.regs.bind(reg, Reg::Int(Int { iv, ..item_int }));
        }
        self.inside = Some((index, item));
        let g = self.int(body);
        self.inside = None;
        self.regs.close(scope);
        List::Seq(Seq {
            mono: g.index.join(g.item.compose(s.mono)),
            iv: g.iv,
            len: s.len,
            exact: s.exact && !guarded,
        })
    }

    fn int(&mut self, e: &IntExpr) -> Int {
        match e {
            IntExpr::Lit(n) => Int::constant(Iv::of(*n, *n)),
            IntExpr::Reg(r) => match self.regs.get(*r) {
                Some(Reg::Int(i)) => *i,
                Some(Reg::Bool((index, item))) => Int {
                    iv: Iv::of(0, 1),
                    index: *index,
                    item: *item,
                },
                _ => self.opaque(),
            },
            IntExpr::Neg(a) => {
                let a = self.int(a);
                Int {
                    iv: a.iv.neg(),
                    index: a.index.flip(),
                    item: a.item.flip(),
                }
            }
            IntExpr::Abs(a) => {
                let a = self.int(a);
                match a.iv.sign() {
                    Mono::Up => a,
                    Mono::Down => Int {
                        iv: a.iv.neg(),
                        index: a.index.flip(),
                        item: a.item.flip(),
                    },
                    _ => Int {
                        iv: Iv {
                            lo: Some(0),
                            hi: None,
                        },
                        index: a.index.join(a.index.flip()),
                        item: a.item.join(a.item.flip()),
                    },
                }
            }
            IntExpr::Bin(op, a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                bin(*op, a, b)
            }
            IntExpr::If(c, a, b) => {
                let (c_index, c_item) = self.boolean(c);
                let (ai, bi) = (self.int(a), self.int(b));
                let a_le_b = self.le(a, b, 0);
                let b_le_a = self.le(b, a, 0);
                Int {
                    iv: ai.iv.hull(bi.iv),
                    index: if_mono(c_index, ai.index, bi.index, a_le_b, b_le_a),
                    item: if_mono(c_item, ai.item, bi.item, a_le_b, b_le_a),
                }
            }
            IntExpr::Min(items) | IntExpr::Max(items) => {
                let least = matches!(e, IntExpr::Min(_));
                let mut acc: Option<Int> = None;
                for item in items {
                    let x = self.int(item);
                    acc = Some(match acc {
                        None => x,
                        Some(p) => Int {
                            iv: if least {
                                Iv {
                                    lo: p.iv.lo.zip(x.iv.lo).map(|(a, b)| a.min(b)),
                                    hi: match (p.iv.hi, x.iv.hi) {
                                        (Some(a), Some(b)) => Some(a.min(b)),
                                        (a, b) => a.or(b),
                                    },
                                }
                            } else {
                                Iv {
                                    lo: match (p.iv.lo, x.iv.lo) {
                                        (Some(a), Some(b)) => Some(a.max(b)),
                                        (a, b) => a.or(b),
                                    },
                                    hi: p.iv.hi.zip(x.iv.hi).map(|(a, b)| a.max(b)),
                                }
                            },
                            index: p.index.join(x.index),
                            item: p.item.join(x.item),
                        },
                    });
                }
                acc.unwrap_or_else(Int::unknown)
            }
            IntExpr::Index(list, index) => {
                let i = self.int(index);
                let list = self.seq_outside(list);
                match list {
                    Some(s) => Int {
                        iv: s.iv,
                        index: s.mono.compose(i.index),
                        item: s.mono.compose(i.item),
                    },
                    None => self.opaque(),
                }
            }
            IntExpr::ExtremeList(_, list) => match self.seq_outside(list) {
                Some(s) => Int::constant(s.iv),
                None => self.opaque(),
            },
            IntExpr::Len(list) => match self.seq_outside(list) {
                Some(s) => Int::constant(Iv {
                    lo: Some(if s.exact {
                        s.len.unwrap_or(0) as i64
                    } else {
                        0
                    }),
                    hi: s.len.map(|n| n as i64),
                }),
                None => self.opaque(),
            },
            IntExpr::Let(bindings, body) | IntExpr::Memo(_, bindings, body) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                let int = self.int(body);
                self.regs.close(scope);
                int
            }
            IntExpr::Call(..) | IntExpr::SumList(_) | IntExpr::Fold(_) => self.opaque(),
        }
    }

    /// The sequence of a list that does not move with the comprehension: a register bound
    /// outside it (or any list outside a comprehension).
    fn seq_outside(&mut self, list: &ListExpr) -> Option<Seq> {
        if self.inside.is_some() && !matches!(list, ListExpr::Reg(_)) {
            return None;
        }
        match self.seq(list) {
            List::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// A condition's directions (with the index, with the item), as an indicator (0 or 1).
    fn boolean(&mut self, e: &BoolExpr) -> Dirs {
        let still = (Mono::Const, Mono::Const);
        let unknown = if self.inside.is_none() {
            still
        } else {
            (Mono::Any, Mono::Any)
        };
        match e {
            BoolExpr::Lit(_) => still,
            BoolExpr::Reg(r) => match self.regs.get(*r) {
                Some(Reg::Bool(m)) => *m,
                _ => unknown,
            },
            BoolExpr::Cmp(op, a, b) => {
                let (a, b) = (self.int(a), self.int(b));
                (
                    cmp_mono(*op, a.index.join(b.index.flip())),
                    cmp_mono(*op, a.item.join(b.item.flip())),
                )
            }
            BoolExpr::Not(a) => {
                let (index, item) = self.boolean(a);
                (index.flip(), item.flip())
            }
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                let (a, b) = (self.boolean(a), self.boolean(b));
                (a.0.join(b.0), a.1.join(b.1))
            }
            BoolExpr::Same(_, a, b) => {
                let (a, b) = (self.boolean(a), self.boolean(b));
                (fixed(a.0, b.0), fixed(a.1, b.1))
            }
            BoolExpr::TupleCmp(_, xs, ys) => {
                let mut dirs = still;
                for x in xs.iter().chain(ys) {
                    let x = self.int(x);
                    dirs = (fixed(dirs.0, x.index), fixed(dirs.1, x.item));
                }
                dirs
            }
            BoolExpr::Let(bindings, body) | BoolExpr::Memo(_, bindings, body) => {
                let scope = self.regs.scope();
                self.bind(bindings);
                let m = self.boolean(body);
                self.regs.close(scope);
                m
            }
            BoolExpr::In(..)
            | BoolExpr::Quant(..)
            | BoolExpr::IndexedQuant(_)
            | BoolExpr::LinesQuant(_) => unknown,
        }
    }

    /// Whether `a <= b` for every value of the registers they read.
    fn le(&mut self, a: &IntExpr, b: &IntExpr, depth: usize) -> bool {
        if depth > MAX_PROOF_DEPTH {
            return false;
        }
        if same(a, b) {
            return true;
        }
        let (ai, bi) = (self.int(a).iv, self.int(b).iv);
        if let (Some(x), Some(y)) = (ai.hi, bi.lo) {
            if x <= y {
                return true;
            }
        }
        let d = depth + 1;
        let nonneg = |p: &mut Pass, e: &IntExpr| p.int(e).iv.sign() == Mono::Up;
        match a {
            IntExpr::Min(items) if items.iter().any(|x| self.le(x, b, d)) => return true,
            IntExpr::Max(items) if items.iter().all(|x| self.le(x, b, d)) => return true,
            IntExpr::Bin(IntOp::Sub, x, y) if nonneg(self, y) && self.le(x, b, d) => return true,
            IntExpr::If(_, p, q) if self.le(p, b, d) && self.le(q, b, d) => return true,
            _ => {}
        }
        match b {
            IntExpr::Max(items) => items.iter().any(|x| self.le(a, x, d)),
            IntExpr::Min(items) => items.iter().all(|x| self.le(a, x, d)),
            IntExpr::Bin(IntOp::Add, x, y) => {
                (nonneg(self, y) && self.le(a, x, d)) || (nonneg(self, x) && self.le(a, y, d))
            }
            IntExpr::If(_, p, q) => self.le(a, p, d) && self.le(a, q, d),
            _ => false,
        }
    }
}
