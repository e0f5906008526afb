//! The lane kernels of `if ... then ... else` in lane programs (see `prog.rs`): a select on a
//! condition column, and a select fused with the comparison that decides it and with arms
//! that are `min` or `max` of a lane and a value the same in every lane
//! (`if r >= i then min(l, j) else l`), all in one pass with no column for the condition
//! or the arms.
//!
//! Every arm is computed in every lane, as the unfused operations would compute it; none
//! can fail.

use super::lanes::{compare, flipped, Lanes, LANES};
use super::prog::{Src, V};
use crate::syntax::ast::BinaryOp;

/// An operand that varies from lane to lane.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lane {
    Item,
    Index,
    Outer,
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

    /// The arm for one block: `get` resolves a plain operand; a lane is read from `at`
    /// and the columns `done`, a uniform value from the registers.
    #[inline(always)]
    pub(super) fn resolve<'a>(
        self,
        get: impl Fn(Src) -> V<'a>,
        at: &Lanes<'a>,
        done: &'a [i64],
        n: usize,
    ) -> Arm<'a> {
        let lanes = |lane: Lane| match lane {
            Lane::Item => at.values,
            Lane::Index => at.index_values,
            Lane::Outer => at.outer_values,
            Lane::Col(k) => &done[k as usize * LANES..][..n],
        };
        let value = |uniform: Uniform| match uniform {
            Uniform::Lit(v) => v,
            Uniform::Reg(r) => at.regs[r as usize],
            Uniform::BoolReg(r) => i64::from(at.regs[r as usize] != 0),
        };
        match self {
            ArmSrc::Plain(s) => Arm::V(get(s)),
            ArmSrc::Min(l, u) => Arm::Min(lanes(l), value(u)),
            ArmSrc::Max(l, u) => Arm::Max(lanes(l), value(u)),
        }
    }
}

fn lane_of(s: Src) -> Option<Lane> {
    match s {
        Src::Item => Some(Lane::Item),
        Src::Index => Some(Lane::Index),
        Src::Outer => Some(Lane::Outer),
        Src::Col(k) => Some(Lane::Col(k)),
        Src::Lit(_) | Src::Reg(_) | Src::BoolReg(_) => None,
    }
}

fn uniform_of(s: Src) -> Option<Uniform> {
    match s {
        Src::Lit(v) => Some(Uniform::Lit(v)),
        Src::Reg(r) => Some(Uniform::Reg(r)),
        Src::BoolReg(r) => Some(Uniform::BoolReg(r)),
        Src::Item | Src::Index | Src::Outer | Src::Col(_) => None,
    }
}

/// An arm resolved for one block.
#[derive(Clone, Copy)]
pub(super) enum Arm<'a> {
    V(V<'a>),
    Min(&'a [i64], i64),
    Max(&'a [i64], i64),
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
