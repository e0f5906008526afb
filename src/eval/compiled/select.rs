//! The lane kernels of `if ... then ... else` in lane programs (see `prog.rs`): a select on a
//! condition column, and a select fused with the comparison that decides it and with arms
//! that are `min` or `max` of a lane and a value the same in every lane
//! (`if r >= i then min(l, j) else l`), all in one pass with no column for the condition
//! or the arms.
//!
//! Every arm is computed in every lane, as the unfused operations would compute it; none
//! can fail.

use super::lanes::compare;
use super::prog::{flipped, Src, V};
use crate::syntax::ast::BinaryOp;

/// An operand that varies from lane to lane.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lane {
    Item,
    Index,
    Col(u32),
}

/// An operand the same in every lane.
#[derive(Debug, Clone, Copy)]
pub(super) enum Uniform {
    Lit(i64),
    Reg(u32),
    BoolReg(u32),
}

/// An arm of a fused select: an operand, or `min` (`max`) of a lane and a uniform value.
#[derive(Debug, Clone, Copy)]
pub(super) enum ArmSrc {
    Plain(Src),
    Min(Lane, Uniform),
    Max(Lane, Uniform),
}

impl ArmSrc {
    /// `min(a, b)` (`max` when `min` is false) as an arm, when one side varies from lane
    /// to lane and the other does not (either order: both are commutative).
    pub(super) fn extreme(min: bool, a: Src, b: Src) -> Option<ArmSrc> {
        let (lane, uniform) = match (lane_of(a), uniform_of(b)) {
            (Some(l), Some(u)) => (l, u),
            _ => (lane_of(b)?, uniform_of(a)?),
        };
        Some(if min {
            ArmSrc::Min(lane, uniform)
        } else {
            ArmSrc::Max(lane, uniform)
        })
    }

    /// The arm for one block, its operands resolved by `get`.
    #[inline(always)]
    pub(super) fn resolve<'a>(self, get: impl Fn(Src) -> V<'a>) -> Arm<'a> {
        let pair = |lane: Lane, uniform: Uniform| {
            let lanes = get(match lane {
                Lane::Item => Src::Item,
                Lane::Index => Src::Index,
                Lane::Col(k) => Src::Col(k),
            });
            let value = get(match uniform {
                Uniform::Lit(v) => Src::Lit(v),
                Uniform::Reg(r) => Src::Reg(r),
                Uniform::BoolReg(r) => Src::BoolReg(r),
            });
            (lanes, value)
        };
        match self {
            ArmSrc::Plain(s) => Arm::V(get(s)),
            ArmSrc::Min(l, u) | ArmSrc::Max(l, u) => {
                let min = matches!(self, ArmSrc::Min(..));
                match pair(l, u) {
                    (V::S(xs), V::C(c)) if min => Arm::Min(xs, c),
                    (V::S(xs), V::C(c)) => Arm::Max(xs, c),
                    // A lane source is always lanes and a uniform one a value; were they not,
                    // the arm is still the extreme, lane by lane.
                    (a, b) => Arm::Pair(min, a, b),
                }
            }
        }
    }
}

fn lane_of(s: Src) -> Option<Lane> {
    match s {
        Src::Item => Some(Lane::Item),
        Src::Index => Some(Lane::Index),
        Src::Col(k) => Some(Lane::Col(k)),
        Src::Lit(_) | Src::Reg(_) | Src::BoolReg(_) => None,
    }
}

fn uniform_of(s: Src) -> Option<Uniform> {
    match s {
        Src::Lit(v) => Some(Uniform::Lit(v)),
        Src::Reg(r) => Some(Uniform::Reg(r)),
        Src::BoolReg(r) => Some(Uniform::BoolReg(r)),
        Src::Item | Src::Index | Src::Col(_) => None,
    }
}

/// An arm resolved for one block.
#[derive(Clone, Copy)]
pub(super) enum Arm<'a> {
    V(V<'a>),
    Min(&'a [i64], i64),
    Max(&'a [i64], i64),
    /// `min` (true) or `max` of two operands of any kind.
    Pair(bool, V<'a>, V<'a>),
}

/// The value of operand `v` in lane `k`.
#[inline(always)]
fn at(v: V<'_>, k: usize) -> i64 {
    match v {
        V::S(xs) => xs[k],
        V::C(c) => c,
    }
}

/// `$body` with `$g` bound to the arm's value in lane `k`, a closure per kind of arm (so that
/// each loop is compiled with its arms inlined).
macro_rules! with_arm {
    ($arm:expr, $n:expr, |$g:ident| $body:expr) => {
        match $arm {
            Arm::V(V::S(xs)) => {
                let xs = &xs[..$n];
                let $g = |k: usize| xs[k];
                $body
            }
            Arm::V(V::C(c)) => {
                let $g = |_: usize| c;
                $body
            }
            Arm::Min(xs, c) => {
                let xs = &xs[..$n];
                let $g = |k: usize| xs[k].min(c);
                $body
            }
            Arm::Max(xs, c) => {
                let xs = &xs[..$n];
                let $g = |k: usize| xs[k].max(c);
                $body
            }
            Arm::Pair(min, a, b) => {
                let $g = |k: usize| {
                    let (x, y) = (at(a, k), at(b, k));
                    if min {
                        x.min(y)
                    } else {
                        x.max(y)
                    }
                };
                $body
            }
        }
    };
}

/// `dst = if c then t else f`, lane by lane, `c` a condition column or value (0 or 1).
#[inline(never)]
pub(super) fn select(dst: &mut [i64], c: V<'_>, t: V<'_>, f: V<'_>) -> bool {
    let n = dst.len();
    match c {
        V::C(c) => fill(dst, Arm::V(if c != 0 { t } else { f })),
        V::S(cs) => {
            let cs = &cs[..n];
            pick(dst, |k| cs[k] != 0, Arm::V(t), Arm::V(f));
        }
    }
    false
}

/// `dst = if a op b then t else f`, lane by lane: the comparison of each lane decides which
/// arm it takes, in the same pass.
#[inline(never)]
pub(super) fn select_cmp(
    op: BinaryOp,
    dst: &mut [i64],
    [a, b]: [V<'_>; 2],
    t: Arm<'_>,
    f: Arm<'_>,
) -> bool {
    let n = dst.len();
    match (a, b) {
        (V::C(x), V::C(y)) => fill(dst, if compare(op, x, y) { t } else { f }),
        (V::S(xs), V::C(y)) => by_lane_and_value(op, dst, &xs[..n], y, t, f),
        (V::C(x), V::S(ys)) => by_lane_and_value(flipped(op), dst, &ys[..n], x, t, f),
        (V::S(xs), V::S(ys)) => {
            let (xs, ys) = (&xs[..n], &ys[..n]);
            pick(dst, |k| compare(op, xs[k], ys[k]), t, f);
        }
    }
    false
}

/// [`select_cmp`] of lanes `xs` against one value `y`, a loop per comparison.
#[inline(always)]
fn by_lane_and_value(op: BinaryOp, dst: &mut [i64], xs: &[i64], y: i64, t: Arm<'_>, f: Arm<'_>) {
    match op {
        BinaryOp::Eq => pick(dst, |k| xs[k] == y, t, f),
        BinaryOp::Ne => pick(dst, |k| xs[k] != y, t, f),
        BinaryOp::Lt => pick(dst, |k| xs[k] < y, t, f),
        BinaryOp::Le => pick(dst, |k| xs[k] <= y, t, f),
        BinaryOp::Gt => pick(dst, |k| xs[k] > y, t, f),
        _ => pick(dst, |k| xs[k] >= y, t, f),
    }
}

/// `dst[k] = if cond(k) then t(k) else f(k)`, in one pass.
#[inline(always)]
fn pick(dst: &mut [i64], cond: impl Fn(usize) -> bool, t: Arm<'_>, f: Arm<'_>) {
    let n = dst.len();
    with_arm!(t, n, |tk| with_arm!(f, n, |fk| {
        for (k, d) in dst.iter_mut().enumerate() {
            *d = if cond(k) { tk(k) } else { fk(k) };
        }
    }))
}

/// `dst[k] = arm(k)` in every lane.
fn fill(dst: &mut [i64], arm: Arm<'_>) {
    let n = dst.len();
    with_arm!(arm, n, |g| {
        for (k, d) in dst.iter_mut().enumerate() {
            *d = g(k);
        }
    })
}
