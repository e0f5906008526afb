//! The lattice of the sorted-list inference: directions ([`Mono`]), intervals ([`Iv`]) and
//! what an integer is ([`Int`]), with the rules of operators, comparisons and `if`.

use crate::eval::arith::IntOp;
use crate::syntax::ast::BinaryOp;

/// How a value moves as a variable (or a list's index) grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mono {
    Const,
    Up,
    Down,
    Any,
}

impl Mono {
    pub(super) fn flip(self) -> Mono {
        match self {
            Mono::Up => Mono::Down,
            Mono::Down => Mono::Up,
            m => m,
        }
    }

    /// The direction of a sum of two steps (and of `min`/`max`, `and`/`or`).
    pub(super) fn join(self, other: Mono) -> Mono {
        match (self, other) {
            (Mono::Const, m) | (m, Mono::Const) => m,
            (a, b) if a == b => a,
            _ => Mono::Any,
        }
    }

    /// The direction of `f(x(t))` in `t`, `f` moving as `self` in `x` and `x` as `inner`.
    pub(super) fn compose(self, inner: Mono) -> Mono {
        match (self, inner) {
            (Mono::Const, _) | (_, Mono::Const) => Mono::Const,
            (Mono::Any, _) | (_, Mono::Any) => Mono::Any,
            (a, b) if a == b => Mono::Up,
            _ => Mono::Down,
        }
    }
}

/// An interval, either end possibly unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Iv {
    pub(super) lo: Option<i64>,
    pub(super) hi: Option<i64>,
}

impl Iv {
    pub(super) const ALL: Iv = Iv { lo: None, hi: None };

    pub(super) fn of(lo: i64, hi: i64) -> Iv {
        Iv {
            lo: Some(lo),
            hi: Some(hi),
        }
    }

    pub(super) fn hull(self, o: Iv) -> Iv {
        Iv {
            lo: self.lo.zip(o.lo).map(|(a, b)| a.min(b)),
            hi: self.hi.zip(o.hi).map(|(a, b)| a.max(b)),
        }
    }

    pub(super) fn neg(self) -> Iv {
        Iv {
            lo: self.hi.and_then(i64::checked_neg),
            hi: self.lo.and_then(i64::checked_neg),
        }
    }

    pub(super) fn bounded(self) -> Option<(i64, i64)> {
        self.lo.zip(self.hi)
    }

    /// At least 0 (`Up`), at most 0 (`Down`), else `Any`.
    pub(super) fn sign(self) -> Mono {
        match (self.lo, self.hi) {
            (Some(lo), _) if lo >= 0 => Mono::Up,
            (_, Some(hi)) if hi <= 0 => Mono::Down,
            _ => Mono::Any,
        }
    }
}

/// An integer's interval, and how it moves with the comprehension's index and item.
#[derive(Clone, Copy, Debug)]
pub(super) struct Int {
    pub(super) iv: Iv,
    pub(super) index: Mono,
    pub(super) item: Mono,
}

impl Int {
    pub(super) fn constant(iv: Iv) -> Int {
        Int {
            iv,
            index: Mono::Const,
            item: Mono::Const,
        }
    }

    pub(super) fn unknown() -> Int {
        Int {
            iv: Iv::ALL,
            index: Mono::Any,
            item: Mono::Any,
        }
    }
}

/// The interval of items `x` with `x op other` for `other` in `o`.
pub(super) fn refine(iv: Iv, op: BinaryOp, o: Iv) -> Iv {
    let max = |a: Option<i64>, b: Option<i64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let min = |a: Option<i64>, b: Option<i64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    match op {
        BinaryOp::Gt => Iv {
            lo: max(iv.lo, o.lo.and_then(|x| x.checked_add(1))),
            ..iv
        },
        BinaryOp::Ge => Iv {
            lo: max(iv.lo, o.lo),
            ..iv
        },
        BinaryOp::Lt => Iv {
            hi: min(iv.hi, o.hi.and_then(|x| x.checked_sub(1))),
            ..iv
        },
        BinaryOp::Le => Iv {
            hi: min(iv.hi, o.hi),
            ..iv
        },
        BinaryOp::Eq => Iv {
            lo: max(iv.lo, o.lo),
            hi: min(iv.hi, o.hi),
        },
        _ => iv,
    }
}

/// The comparison's direction as an indicator, given its difference's.
pub(super) fn cmp_mono(op: BinaryOp, diff: Mono) -> Mono {
    match op {
        BinaryOp::Gt | BinaryOp::Ge => diff,
        BinaryOp::Lt | BinaryOp::Le => diff.flip(),
        _ if diff == Mono::Const => Mono::Const,
        _ => Mono::Any,
    }
}

/// The direction of `if c then a else b` in one variable: `c` as an indicator, the
/// branches' directions, and whether `a <= b` and `b <= a` hold for all values.
pub(super) fn if_mono(c: Mono, a: Mono, b: Mono, a_le_b: bool, b_le_a: bool) -> Mono {
    let both = a.join(b);
    let (up, down) = match c {
        Mono::Const => return both,
        Mono::Any => return Mono::Any,
        // From `b` to `a` as the variable grows.
        Mono::Up => (b_le_a, a_le_b),
        // From `a` to `b`.
        Mono::Down => (a_le_b, b_le_a),
    };
    match (up && both != Mono::Down, down && both != Mono::Up) {
        (true, true) => both,
        (true, false) => Mono::Up,
        (false, true) => Mono::Down,
        (false, false) => Mono::Any,
    }
}

/// `Const` when neither moves, else `Any`.
pub(super) fn fixed(x: Mono, y: Mono) -> Mono {
    if x == Mono::Const && y == Mono::Const {
        Mono::Const
    } else {
        Mono::Any
    }
}

/// A binary operator's interval and directions.
pub(super) fn bin(op: IntOp, a: Int, b: Int) -> Int {
    let add = |x: Option<i64>, y: Option<i64>| x.zip(y).and_then(|(x, y)| x.checked_add(y));
    let still = |i: Int| i.index == Mono::Const && i.item == Mono::Const;
    let both = |f: fn(Mono, Mono) -> Mono| Int {
        iv: Iv::ALL,
        index: f(a.index, b.index),
        item: f(a.item, b.item),
    };
    match op {
        IntOp::Add => Int {
            iv: Iv {
                lo: add(a.iv.lo, b.iv.lo),
                hi: add(a.iv.hi, b.iv.hi),
            },
            ..both(Mono::join)
        },
        IntOp::Sub => {
            let nb = b.iv.neg();
            Int {
                iv: Iv {
                    lo: add(a.iv.lo, nb.lo),
                    hi: add(a.iv.hi, nb.hi),
                },
                index: a.index.join(b.index.flip()),
                item: a.item.join(b.item.flip()),
            }
        }
        IntOp::Mul | IntOp::Div => {
            let iv = corners(op, a.iv, b.iv);
            // By a constant of known sign (a divisor other than 0).
            let by = |x: Int, k: Int| {
                let sign = if op == IntOp::Div && k.iv.lo.is_some_and(|l| l <= 0) {
                    if k.iv.hi.is_some_and(|h| h < 0) {
                        Mono::Down
                    } else {
                        Mono::Any
                    }
                } else {
                    k.iv.sign()
                };
                match sign {
                    Mono::Up => Some((x.index, x.item)),
                    Mono::Down => Some((x.index.flip(), x.item.flip())),
                    _ => None,
                }
            };
            let dirs = if still(a) && still(b) {
                Some((Mono::Const, Mono::Const))
            } else if still(b) {
                by(a, b)
            } else if still(a) && op == IntOp::Mul {
                by(b, a)
            } else {
                None
            };
            let (index, item) = dirs.unwrap_or((Mono::Any, Mono::Any));
            Int { iv, index, item }
        }
        _ => Int {
            iv: Iv::ALL,
            ..both(fixed)
        },
    }
}

/// The interval of a product or floor quotient, from its corners (unbounded where an end
/// is, or a divisor's interval holds 0).
pub(super) fn corners(op: IntOp, a: Iv, b: Iv) -> Iv {
    let (Some((a0, a1)), Some((b0, b1))) = (a.bounded(), b.bounded()) else {
        return Iv::ALL;
    };
    if op == IntOp::Div && b0 <= 0 && b1 >= 0 {
        return Iv::ALL;
    }
    let mut out: Option<(i64, i64)> = None;
    for x in [a0, a1] {
        for y in [b0, b1] {
            let Ok(v) = op.apply(x, y) else {
                return Iv::ALL;
            };
            out = Some(out.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
        }
    }
    out.map_or(Iv::ALL, |(lo, hi)| Iv::of(lo, hi))
}
