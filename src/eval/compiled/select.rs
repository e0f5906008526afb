//! The lane kernels of `if ... then ... else` in lane programs (see `prog.rs`): a select on a
//! condition column, and a select fused with the comparison that decides it and with arms
//! that are `min` or `max` of a lane and a value the same in every lane or another lane
//! (`if r >= i then min(l, j) else l`, `j` a register or, crossed, a lane), all in one pass
//! with no column for the condition or the arms.
//!
//! Every arm is computed in every lane, as the unfused operations would compute it; none
//! can fail.
//!
//! Each kind of condition and arms is one branch-free pass (`pick_loop`), its lanes cut to the
//! block's length so that it reads them unchecked. On x86-64 the crate is built for x86-64-v2
//! (`.cargo/config.toml`), whose SSE4.2 compares 64-bit lanes in one instruction; `src/main.rs`
//! refuses a processor without it.
//!
//! This file and `prog.rs` import each other, on purpose: it is one operation of the lane
//! program (`Op::Select`, `Op::SelectCmp`) taken out of `prog.rs` for its size, so it reads
//! the program's operands (`Src`, and `V` as one block resolves them) and the program builds
//! its arms (`ArmSrc`) and runs its kernels. Moving the operand types to a file of their own
//! would separate them from the only code that makes them.

use super::lanes::{compare, flipped, Lanes, LANES};
use super::prog::{Src, V};
use crate::syntax::ast::BinaryOp;

/// An operand that varies from lane to lane.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lane {
    Item,
    Index,
    Outer(u8),
    Col(u32),
}

/// An operand the same in every lane.
#[derive(Debug, Clone, Copy)]
pub(super) enum Uniform {
    Lit(i64),
    Reg(u32),
    BoolReg(u32),
}

/// An arm of a fused select: an operand, or `min` (`max`) of a lane and a uniform value
/// or of two lanes.
#[derive(Debug, Clone, Copy)]
pub(super) enum ArmSrc {
    Plain(Src),
    Min(Lane, Uniform),
    Max(Lane, Uniform),
    MinLanes(Lane, Lane),
    MaxLanes(Lane, Lane),
}

impl ArmSrc {
    /// `min(a, b)` (`max` when `min` is false) as an arm, when at least one side varies
    /// from lane to lane (either order: both are commutative).
    pub(super) fn extreme(min: bool, a: Src, b: Src) -> Option<ArmSrc> {
        if let (Some(x), Some(y)) = (lane_of(a), lane_of(b)) {
            return Some(if min {
                ArmSrc::MinLanes(x, y)
            } else {
                ArmSrc::MaxLanes(x, y)
            });
        }
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
            Lane::Outer(k) => at.outer_values[k as usize],
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
            ArmSrc::MinLanes(x, y) => Arm::MinLanes(lanes(x), lanes(y)),
            ArmSrc::MaxLanes(x, y) => Arm::MaxLanes(lanes(x), lanes(y)),
        }
    }
}

fn lane_of(s: Src) -> Option<Lane> {
    match s {
        Src::Item => Some(Lane::Item),
        Src::Index => Some(Lane::Index),
        Src::Outer(k) => Some(Lane::Outer(k)),
        Src::Col(k) => Some(Lane::Col(k)),
        Src::Lit(_) | Src::Reg(_) | Src::BoolReg(_) => None,
    }
}

fn uniform_of(s: Src) -> Option<Uniform> {
    match s {
        Src::Lit(v) => Some(Uniform::Lit(v)),
        Src::Reg(r) => Some(Uniform::Reg(r)),
        Src::BoolReg(r) => Some(Uniform::BoolReg(r)),
        Src::Item | Src::Index | Src::Outer(_) | Src::Col(_) => None,
    }
}

/// An arm resolved for one block.
#[derive(Clone, Copy)]
pub(super) enum Arm<'a> {
    V(V<'a>),
    Min(&'a [i64], i64),
    Max(&'a [i64], i64),
    MinLanes(&'a [i64], &'a [i64]),
    MaxLanes(&'a [i64], &'a [i64]),
}

/// A source of one value a lane for [`pick_loop`]: `fit` cuts its lanes to the block's
/// length inside the loop's function, so that the loop reads them with no bounds checks.
trait At: Copy {
    fn fit(self, n: usize) -> Self;
    fn at(&self, k: usize) -> i64;
}

/// The lanes of an operand.
#[derive(Clone, Copy)]
struct Of<'a>(&'a [i64]);
/// A value the same in every lane.
#[derive(Clone, Copy)]
struct Same(i64);
/// `min` (`max` when the flag is false) of a lane and a uniform value.
#[derive(Clone, Copy)]
struct MinOf<'a, const MIN: bool>(&'a [i64], i64);
/// `min` (`max` when the flag is false) of two lanes.
#[derive(Clone, Copy)]
struct MinOfLanes<'a, const MIN: bool>(&'a [i64], &'a [i64]);

impl At for Of<'_> {
    #[inline(always)]
    fn fit(self, n: usize) -> Self {
        Of(&self.0[..n])
    }
    #[inline(always)]
    fn at(&self, k: usize) -> i64 {
        self.0[k]
    }
}

impl At for Same {
    #[inline(always)]
    fn fit(self, _: usize) -> Self {
        self
    }
    #[inline(always)]
    fn at(&self, _: usize) -> i64 {
        self.0
    }
}

impl<const MIN: bool> At for MinOf<'_, MIN> {
    #[inline(always)]
    fn fit(self, n: usize) -> Self {
        MinOf(&self.0[..n], self.1)
    }
    #[inline(always)]
    fn at(&self, k: usize) -> i64 {
        if MIN {
            self.0[k].min(self.1)
        } else {
            self.0[k].max(self.1)
        }
    }
}

impl<const MIN: bool> At for MinOfLanes<'_, MIN> {
    #[inline(always)]
    fn fit(self, n: usize) -> Self {
        MinOfLanes(&self.0[..n], &self.1[..n])
    }
    #[inline(always)]
    fn at(&self, k: usize) -> i64 {
        if MIN {
            self.0[k].min(self.1[k])
        } else {
            self.0[k].max(self.1[k])
        }
    }
}

/// `$body` with `$g` bound to the arm as an [`At`], a type per kind of arm (so that each
/// loop is compiled with its arms inlined).
macro_rules! with_arm {
    ($arm:expr, |$g:ident| $body:expr) => {
        match $arm {
            Arm::V(V::S(xs)) => {
                let $g = Of(xs);
                $body
            }
            Arm::V(V::C(c)) => {
                let $g = Same(c);
                $body
            }
            Arm::Min(xs, c) => {
                let $g = MinOf::<true>(xs, c);
                $body
            }
            Arm::Max(xs, c) => {
                let $g = MinOf::<false>(xs, c);
                $body
            }
            Arm::MinLanes(xs, ys) => {
                let $g = MinOfLanes::<true>(xs, ys);
                $body
            }
            Arm::MaxLanes(xs, ys) => {
                let $g = MinOfLanes::<false>(xs, ys);
                $body
            }
        }
    };
}

/// `dst = if c then t else f`, lane by lane, `c` a condition column or value (0 or 1).
#[inline(never)]
pub(super) fn select(dst: &mut [i64], c: V<'_>, t: V<'_>, f: V<'_>) -> bool {
    match c {
        V::C(c) => fill(dst, Arm::V(if c != 0 { t } else { f })),
        V::S(cs) => pick(dst, NonZero(cs), Arm::V(t), Arm::V(f)),
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
    super::mark(super::Reached::Select);
    match (a, b) {
        (V::C(x), V::C(y)) => fill(dst, if compare(op, x, y) { t } else { f }),
        (V::S(xs), V::C(y)) => by_lane(op, dst, xs, Same(y), t, f),
        (V::C(x), V::S(ys)) => by_lane(flipped(op), dst, ys, Same(x), t, f),
        (V::S(xs), V::S(ys)) => by_lane(op, dst, xs, Of(ys), t, f),
    }
    false
}

/// [`select_cmp`] of lanes `xs` against `y` (one value, or lanes), a loop per comparison.
#[inline(always)]
fn by_lane(op: BinaryOp, dst: &mut [i64], xs: &[i64], y: impl At, t: Arm<'_>, f: Arm<'_>) {
    match op {
        BinaryOp::Eq => pick(dst, LaneVs::<EQ, _>(xs, y), t, f),
        BinaryOp::Ne => pick(dst, LaneVs::<NE, _>(xs, y), t, f),
        BinaryOp::Lt => pick(dst, LaneVs::<LT, _>(xs, y), t, f),
        BinaryOp::Le => pick(dst, LaneVs::<LE, _>(xs, y), t, f),
        BinaryOp::Gt => pick(dst, LaneVs::<GT, _>(xs, y), t, f),
        _ => pick(dst, LaneVs::<GE, _>(xs, y), t, f),
    }
}

/// A select's condition, lane by lane, cut to the block's length as [`At`] is.
trait Test: Copy {
    fn fit(self, n: usize) -> Self;
    fn holds(&self, k: usize) -> bool;
}

/// A condition column: the lanes that are not 0.
#[derive(Clone, Copy)]
struct NonZero<'a>(&'a [i64]);
/// A lane compared with one value or another lane, the operator a type parameter (see
/// [`EQ`]).
#[derive(Clone, Copy)]
struct LaneVs<'a, const OP: u8, Y>(&'a [i64], Y);

/// The operators of [`LaneVs`].
const EQ: u8 = 0;
const NE: u8 = 1;
const LT: u8 = 2;
const LE: u8 = 3;
const GT: u8 = 4;
const GE: u8 = 5;

impl Test for NonZero<'_> {
    #[inline(always)]
    fn fit(self, n: usize) -> Self {
        NonZero(&self.0[..n])
    }
    #[inline(always)]
    fn holds(&self, k: usize) -> bool {
        self.0[k] != 0
    }
}

impl<const OP: u8, Y: At> Test for LaneVs<'_, OP, Y> {
    #[inline(always)]
    fn fit(self, n: usize) -> Self {
        LaneVs(&self.0[..n], self.1.fit(n))
    }
    #[inline(always)]
    fn holds(&self, k: usize) -> bool {
        let (x, y) = (self.0[k], self.1.at(k));
        match OP {
            EQ => x == y,
            NE => x != y,
            LT => x < y,
            LE => x <= y,
            GT => x > y,
            _ => x >= y,
        }
    }
}

/// `dst[k] = if cond(k) then t(k) else f(k)`, in one pass.
#[inline(always)]
fn pick(dst: &mut [i64], cond: impl Test, t: Arm<'_>, f: Arm<'_>) {
    with_arm!(t, |tk| with_arm!(f, |fk| pick_loop(dst, cond, tk, fk)))
}

/// [`pick`]'s loop for one condition and one kind of each arm: a function of its own, so
/// that its condition and arms are inlined into it however many kinds of arms there are.
/// Both arms are read in every lane (neither can fail), so the choice needs no branch.
#[inline(never)]
fn pick_loop(dst: &mut [i64], cond: impl Test, t: impl At, f: impl At) {
    let n = dst.len();
    let (cond, t, f) = (cond.fit(n), t.fit(n), f.fit(n));
    for (k, d) in dst.iter_mut().enumerate() {
        let (x, y) = (t.at(k), f.at(k));
        *d = if cond.holds(k) { x } else { y };
    }
}

/// `dst[k] = arm(k)` in every lane.
fn fill(dst: &mut [i64], arm: Arm<'_>) {
    with_arm!(arm, |g| {
        let g = g.fit(dst.len());
        for (k, d) in dst.iter_mut().enumerate() {
            *d = g.at(k);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::lanes::test_values::{EDGES, OPS};
    use super::*;

    /// An arm's value in lane `k`, as the unfused operations compute it.
    fn arm_at(arm: Arm<'_>, k: usize) -> i64 {
        match arm {
            Arm::V(V::S(xs)) => xs[k],
            Arm::V(V::C(c)) => c,
            Arm::Min(xs, c) => xs[k].min(c),
            Arm::Max(xs, c) => xs[k].max(c),
            Arm::MinLanes(xs, ys) => xs[k].min(ys[k]),
            Arm::MaxLanes(xs, ys) => xs[k].max(ys[k]),
        }
    }

    fn v_at(v: V<'_>, k: usize) -> i64 {
        match v {
            V::S(xs) => xs[k],
            V::C(c) => c,
        }
    }

    /// Every comparison, every pair of operand shapes and every pair of kinds of arms, over
    /// blocks of every length up to a few vectors (and their tails) and values at the ends
    /// of the integers, against the lane-by-lane meaning.
    #[test]
    fn a_fused_select_picks_lane_by_lane_what_the_unfused_operations_would() {
        let edges = EDGES;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut lanes = |n: usize| -> Vec<i64> {
            (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    edges[(seed >> 33) as usize % edges.len()]
                })
                .collect()
        };
        for n in 0..=11 {
            let [a, b, x, y, z] = [lanes(n), lanes(n), lanes(n), lanes(n), lanes(n)];
            let (c, d) = (edges[n % edges.len()], edges[(n * 5 + 3) % edges.len()]);
            let operands = [
                [V::S(&a), V::S(&b)],
                [V::S(&a), V::C(c)],
                [V::C(c), V::S(&b)],
                [V::C(c), V::C(d)],
            ];
            let arms = [
                Arm::V(V::S(&x)),
                Arm::V(V::C(d)),
                Arm::Min(&y, c),
                Arm::Max(&z, d),
                Arm::MinLanes(&x, &y),
                Arm::MaxLanes(&y, &z),
            ];
            for op in OPS {
                for [p, q] in operands {
                    for t in arms {
                        for f in arms {
                            let mut got = vec![7; n];
                            assert!(!select_cmp(op, &mut got, [p, q], t, f));
                            let want: Vec<i64> = (0..n)
                                .map(|k| {
                                    let arm = if compare(op, v_at(p, k), v_at(q, k)) {
                                        t
                                    } else {
                                        f
                                    };
                                    arm_at(arm, k)
                                })
                                .collect();
                            assert_eq!(got, want, "{op:?} over {n} lanes");
                        }
                    }
                }
            }
            for cond in [V::S(&a), V::C(0), V::C(1)] {
                let (t, f) = (V::S(&x), V::S(&y));
                let mut got = vec![7; n];
                select(&mut got, cond, t, f);
                let want: Vec<i64> = (0..n)
                    .map(|k| if v_at(cond, k) != 0 { x[k] } else { y[k] })
                    .collect();
                assert_eq!(got, want);
            }
        }
    }
}
