//! Thermographs as data: each wall a continuous piecewise-linear function of the temperature
//! `t >= -1` with dyadic breakpoints.

use super::dyadic::Dyadic;
use super::CgtError;

/// One linear piece of a [`Trajectory`]: from temperature `start`, where it has `value`, with
/// `slope` (value per unit of temperature) up to the next piece's start, or for ever.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    /// Where the piece begins.
    pub start: Dyadic,
    /// The value at `start`.
    pub value: Dyadic,
    /// The slope: in a thermograph's walls 0 or -1 on the left, 0 or 1 on the right.
    pub slope: i64,
}

/// A continuous piecewise-linear function on `t >= -1`: its pieces in increasing `start`,
/// the first starting at -1, no two neighbours with the same slope.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Trajectory {
    pieces: Vec<Piece>,
}

/// The thermograph of a game: its walls (the stops of the game cooled by `t`), which meet at
/// the temperature and go on as the vertical mast at the mean.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Thermograph {
    /// The left wall: the left stop of `G` cooled by `t`.
    pub left: Trajectory,
    /// The right wall: the right stop of `G` cooled by `t`.
    pub right: Trajectory,
    /// The mast's value: the mean of `G`.
    pub mast: Dyadic,
    /// Where the walls meet and the mast begins: the temperature of `G`.
    pub temperature: Dyadic,
}

/// `a / d` for `d` a power of two (negative allowed); anything else cannot arise in
/// thermographs of short games, whose slopes are 0 and ±1.
fn div_pow2(a: Dyadic, d: i64) -> Result<Dyadic, CgtError> {
    if d == 0 || d.unsigned_abs().count_ones() != 1 {
        return Err(CgtError::Internal(
            "a thermograph crossing that is not dyadic",
        ));
    }
    let mut r = if d < 0 { a.checked_neg()? } else { a };
    for _ in 0..d.unsigned_abs().trailing_zeros() {
        r = r.half()?;
    }
    Ok(r)
}

impl Trajectory {
    /// The constant function `value`.
    pub fn constant(value: Dyadic) -> Trajectory {
        Trajectory {
            pieces: vec![Piece {
                start: Dyadic::MINUS_ONE,
                value,
                slope: 0,
            }],
        }
    }

    /// The pieces, in increasing `start`.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The value at `t` (for `t < -1`, the first piece extended).
    pub fn value_at(&self, t: Dyadic) -> Result<Dyadic, CgtError> {
        let p = self.piece_at(t);
        p.value
            .checked_add(t.checked_sub(p.start)?.mul_int(p.slope)?)
    }

    fn piece_at(&self, t: Dyadic) -> &Piece {
        let i = self.pieces.partition_point(|p| p.start <= t);
        &self.pieces[i.saturating_sub(1)]
    }

    /// The breakpoints of the pieces after the first.
    fn breaks(&self) -> impl Iterator<Item = Dyadic> + '_ {
        self.pieces.iter().skip(1).map(|p| p.start)
    }

    /// `self(t) + c·t`.
    pub(super) fn tilt(&self, c: i64) -> Result<Trajectory, CgtError> {
        let mut pieces = Vec::with_capacity(self.pieces.len());
        for p in &self.pieces {
            let value = p.value.checked_add(p.start.mul_int(c)?)?;
            let slope = p.slope.checked_add(c).ok_or(CgtError::Overflow)?;
            pieces.push(Piece {
                start: p.start,
                value,
                slope,
            });
        }
        Ok(Trajectory { pieces })
    }

    /// The pointwise maximum (`max = true`) or minimum of two trajectories.
    pub(super) fn extreme(&self, other: &Trajectory, max: bool) -> Result<Trajectory, CgtError> {
        let mut starts: Vec<Dyadic> = std::iter::once(Dyadic::MINUS_ONE)
            .chain(self.breaks())
            .chain(other.breaks())
            .collect();
        starts.sort();
        starts.dedup();
        let mut out: Vec<Piece> = Vec::new();
        for (i, &s) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied();
            let (a, b) = (self.piece_at(s), other.piece_at(s));
            let (va, vb) = (self.value_at(s)?, other.value_at(s)?);
            // Which wins just above s: the greater value, or on a tie the better slope.
            let a_wins = |va: Dyadic, vb: Dyadic| {
                if max {
                    va > vb || (va == vb && a.slope >= b.slope)
                } else {
                    va < vb || (va == vb && a.slope <= b.slope)
                }
            };
            let (win, lose, vw, vl) = if a_wins(va, vb) {
                (a, b, va, vb)
            } else {
                (b, a, vb, va)
            };
            out.push(Piece {
                start: s,
                value: vw,
                slope: win.slope,
            });
            // The loser overtakes where the lines cross, if that is before the interval ends.
            let overtakes = if max {
                lose.slope > win.slope
            } else {
                lose.slope < win.slope
            };
            if overtakes && vw != vl {
                let cross =
                    s.checked_add(div_pow2(vw.checked_sub(vl)?, lose.slope - win.slope)?)?;
                if end.is_none_or(|e| cross < e) {
                    let value = vw.checked_add(cross.checked_sub(s)?.mul_int(win.slope)?)?;
                    out.push(Piece {
                        start: cross,
                        value,
                        slope: lose.slope,
                    });
                }
            }
        }
        Ok(Trajectory::normalised(out))
    }

    /// Merges neighbouring pieces of equal slope.
    fn normalised(pieces: Vec<Piece>) -> Trajectory {
        let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
        for p in pieces {
            match out.last() {
                Some(q) if q.slope == p.slope => {}
                _ => out.push(p),
            }
        }
        Trajectory { pieces: out }
    }

    /// This trajectory up to `t`, then constant.
    fn frozen_at(&self, t: Dyadic) -> Result<Trajectory, CgtError> {
        let value = self.value_at(t)?;
        let mut pieces: Vec<Piece> = self
            .pieces
            .iter()
            .copied()
            .filter(|p| p.start < t)
            .collect();
        pieces.push(Piece {
            start: t,
            value,
            slope: 0,
        });
        if pieces[0].start > Dyadic::MINUS_ONE {
            pieces.insert(
                0,
                Piece {
                    start: Dyadic::MINUS_ONE,
                    value,
                    slope: 0,
                },
            );
        }
        Ok(Trajectory::normalised(pieces))
    }
}

impl Thermograph {
    /// The thermograph of a number `x` that is an integer: the mast at `x` from -1 up.
    pub(super) fn mast(x: Dyadic) -> Thermograph {
        Thermograph {
            left: Trajectory::constant(x),
            right: Trajectory::constant(x),
            mast: x,
            temperature: Dyadic::MINUS_ONE,
        }
    }

    /// The thermograph whose left and right scaffolds (the options' walls, tilted) are
    /// `ls` and `rs`: the walls follow the scaffolds up to the least `t` where `ls(t) <=
    /// rs(t)`, then the mast. `ls - rs` is non-increasing (slopes of `ls` are -1 or 0, of
    /// `rs` 0 or 1), so that point is found by one scan. Where the scaffolds already cross
    /// at -1 (a cave at the base), the mast is placed as CGSuite does: at 0 if 0 is between
    /// them, else at the scaffold nearer 0.
    pub(super) fn from_scaffolds(
        ls: &Trajectory,
        rs: &Trajectory,
    ) -> Result<Thermograph, CgtError> {
        let base = Dyadic::MINUS_ONE;
        let (l0, r0) = (ls.value_at(base)?, rs.value_at(base)?);
        if l0 <= r0 {
            let mast = if l0 == r0 || l0 > Dyadic::ZERO {
                l0
            } else if r0 < Dyadic::ZERO {
                r0
            } else {
                Dyadic::ZERO
            };
            return Ok(Thermograph {
                left: Trajectory::constant(mast),
                right: Trajectory::constant(mast),
                mast,
                temperature: base,
            });
        }
        let mut points: Vec<Dyadic> = ls.breaks().chain(rs.breaks()).collect();
        points.sort();
        points.dedup();
        let diff = |t: Dyadic| -> Result<Dyadic, CgtError> {
            ls.value_at(t)?.checked_sub(rs.value_at(t)?)
        };
        let mut prev = base;
        let mut meet = None;
        for &p in points.iter().chain(std::iter::once(&base)) {
            // The last round (p == base) stands for the pieces that go on for ever.
            let last = p == base;
            if !last && diff(p)? > Dyadic::ZERO {
                prev = p;
                continue;
            }
            let slope = ls.piece_at(prev).slope - rs.piece_at(prev).slope;
            if slope >= 0 {
                return Err(CgtError::Internal("thermograph walls that never meet"));
            }
            meet = Some(prev.checked_add(div_pow2(diff(prev)?, -slope)?)?);
            break;
        }
        let t = meet.ok_or(CgtError::Internal("thermograph walls that never meet"))?;
        let mast = ls.value_at(t)?;
        Ok(Thermograph {
            left: ls.frozen_at(t)?,
            right: rs.frozen_at(t)?,
            mast,
            temperature: t,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, den: i64) -> Dyadic {
        Dyadic::from_fraction(n, den).unwrap()
    }

    #[test]
    fn switch_thermograph() {
        // {2 | -1}: scaffolds 2 - t and -1 + t meet at t = 3/2, value 1/2.
        let ls = Trajectory::constant(Dyadic::int(2)).tilt(-1).unwrap();
        let rs = Trajectory::constant(Dyadic::int(-1)).tilt(1).unwrap();
        let th = Thermograph::from_scaffolds(&ls, &rs).unwrap();
        assert_eq!(th.temperature, d(3, 2));
        assert_eq!(th.mast, d(1, 2));
        assert_eq!(th.left.value_at(Dyadic::ZERO).unwrap(), Dyadic::int(2));
        assert_eq!(th.left.value_at(Dyadic::int(5)).unwrap(), d(1, 2));
        assert_eq!(th.right.value_at(Dyadic::ONE).unwrap(), Dyadic::ZERO);
        assert_eq!(th.left.pieces().len(), 2);
    }

    #[test]
    fn max_and_min_cross() {
        let a = Trajectory::constant(Dyadic::ZERO).tilt(1).unwrap(); // t
        let b = Trajectory::constant(d(1, 2)); // 1/2
        let m = a.extreme(&b, true).unwrap();
        assert_eq!(m.value_at(Dyadic::ZERO).unwrap(), d(1, 2));
        assert_eq!(m.value_at(Dyadic::int(2)).unwrap(), Dyadic::int(2));
        assert_eq!(m.pieces()[1].start, d(1, 2));
        let n = a.extreme(&b, false).unwrap();
        assert_eq!(n.value_at(Dyadic::MINUS_ONE).unwrap(), Dyadic::MINUS_ONE);
        assert_eq!(n.value_at(Dyadic::int(3)).unwrap(), d(1, 2));
        assert_eq!(
            div_pow2(Dyadic::ONE, 3),
            Err(CgtError::Internal(
                "a thermograph crossing that is not dyadic"
            ))
        );
    }
}
