//! Analyses on canonical forms: stops, thermographs, mean and temperature, cooling and
//! heating, birthday, atomic weight, reduced canonical form. Each is memoised in the table.
//!
//! Definitions as in Siegel, *Combinatorial Game Theory* (II.3–II.7 and III), and CGSuite:
//!
//! - stops: `LS(x) = RS(x) = x` for a number; otherwise `LS(G) = max RS(G^L)`,
//!   `RS(G) = min LS(G^R)`;
//! - thermograph: an integer's is a mast from `t = -1`; otherwise the left scaffold is the
//!   maximum of the Left options' right walls, tilted by `-t`, the right scaffold the minimum
//!   of the Right options' left walls, tilted by `+t`, and the walls follow them up to where
//!   they meet (the temperature), then the mast (the mean). So a number `m/2^j` (`j > 0`)
//!   has temperature `-1/2^j` and an integer `-1`, as in Siegel and CGSuite;
//! - cooling (CGSuite's `Cool`): an integer is unchanged; a game whose temperature is below
//!   `t` is frozen to its mean; otherwise `G_t = {G^L_t - t | G^R_t + t}`;
//! - heating (`Heat`): a number is unchanged; otherwise `{∫G^L + t | ∫G^R - t}`;
//! - atomic weight of an all-small game by the atomic weight calculus (Siegel II.7): the
//!   nus `n·^ + *m` weighs `n`; otherwise `G° = {aw(G^L) - 2 | aw(G^R) + 2}`, except that
//!   when `G°` is an integer and `G` is below (above) the far star, the weight is the least
//!   (greatest) integer confused with or above every `aw(G^L) - 2` (below every `aw(G^R) + 2`);
//! - reduced canonical form (CGSuite's `ReducedCanonicalForm`): a nus `x + ...` reduces to
//!   `x`; otherwise the star projection (`x*` to `x`, throughout) of `G` heated by `*`.

use std::rc::Rc;

use super::budget::deeper;
use super::dyadic::Dyadic;
use super::table::{GameId, Side, ValueTable};
use super::thermo::{Thermograph, Trajectory};
use super::CgtError;

impl ValueTable {
    /// Both stops of `g`: `(left stop, right stop)`.
    pub fn stops(&mut self, g: GameId) -> Result<(Dyadic, Dyadic), CgtError> {
        if let Some(x) = self.as_number(g) {
            return Ok((x, x));
        }
        if let Some(&s) = self.memo.stops.get(&g) {
            return Ok(s);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut ls: Option<Dyadic> = None;
        for &a in gl.iter() {
            let r = deeper(|| self.stops(a))?.1;
            ls = Some(ls.map_or(r, |m| m.max(r)));
        }
        let mut rs: Option<Dyadic> = None;
        for &b in gr.iter() {
            let l = deeper(|| self.stops(b))?.0;
            rs = Some(rs.map_or(l, |m| m.min(l)));
        }
        let s = match (ls, rs) {
            (Some(l), Some(r)) => (l, r),
            _ => {
                return Err(CgtError::Internal(
                    "a non-number with options on one side only",
                ))
            }
        };
        self.memo.stops.insert(g, s);
        Ok(s)
    }

    /// The left stop: where play ends, Left moving first, both playing for the stop.
    pub fn left_stop(&mut self, g: GameId) -> Result<Dyadic, CgtError> {
        Ok(self.stops(g)?.0)
    }

    /// The right stop: where play ends, Right moving first.
    pub fn right_stop(&mut self, g: GameId) -> Result<Dyadic, CgtError> {
        Ok(self.stops(g)?.1)
    }

    /// Whether `g` is infinitesimal: both stops are 0 (so 0 itself is, as in CGSuite).
    pub fn is_infinitesimal(&mut self, g: GameId) -> Result<bool, CgtError> {
        Ok(self.stops(g)? == (Dyadic::ZERO, Dyadic::ZERO))
    }

    /// The thermograph of `g`.
    pub fn thermograph(&mut self, g: GameId) -> Result<Rc<Thermograph>, CgtError> {
        if let Some(t) = self.memo.thermographs.get(&g) {
            return Ok(t.clone());
        }
        self.tick()?;
        let th = match self.as_number(g) {
            Some(x) if x.is_integer() => Thermograph::mast(x),
            _ => {
                let mut ls: Option<Trajectory> = None;
                for a in self.options(g, Side::Left)? {
                    let w = deeper(|| self.thermograph(a))?.right.clone();
                    ls = Some(match ls {
                        None => w,
                        Some(m) => m.extreme(&w, true)?,
                    });
                }
                let mut rs: Option<Trajectory> = None;
                for b in self.options(g, Side::Right)? {
                    let w = deeper(|| self.thermograph(b))?.left.clone();
                    rs = Some(match rs {
                        None => w,
                        Some(m) => m.extreme(&w, false)?,
                    });
                }
                match (ls, rs) {
                    (Some(l), Some(r)) => Thermograph::from_scaffolds(&l.tilt(-1)?, &r.tilt(1)?)?,
                    _ => {
                        return Err(CgtError::Internal(
                            "a non-integer with options on one side only",
                        ))
                    }
                }
            }
        };
        let th = Rc::new(th);
        self.memo.thermographs.insert(g, th.clone());
        Ok(th)
    }

    /// The mean value (the thermograph's mast).
    pub fn mean(&mut self, g: GameId) -> Result<Dyadic, CgtError> {
        if let Some(v) = self.as_nus(g) {
            return Ok(v.number);
        }
        Ok(self.thermograph(g)?.mast)
    }

    /// The temperature: where the thermograph's walls meet. `-1/2^j` for a number `m/2^j`
    /// (`-1` for an integer), 0 for a number plus a nonzero infinitesimal nus.
    pub fn temperature(&mut self, g: GameId) -> Result<Dyadic, CgtError> {
        if let Some(x) = self.as_number(g) {
            return Dyadic::new(-1, x.exponent());
        }
        Ok(self.thermograph(g)?.temperature)
    }

    /// The birthday: 0 for 0, otherwise one more than the greatest of the options'.
    pub fn birthday(&mut self, g: GameId) -> Result<u64, CgtError> {
        if let Some(x) = self.as_number(g) {
            // |n| for an integer; floor(|x|) + j + 1 for m/2^j.
            let whole = i128::from(x.numerator()).unsigned_abs() >> x.exponent();
            let whole = u64::try_from(whole).map_err(|_| CgtError::Overflow)?;
            return Ok(if x.is_integer() {
                whole
            } else {
                whole + u64::from(x.exponent()) + 1
            });
        }
        if let Some(&b) = self.memo.birthdays.get(&g) {
            return Ok(b);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut b = 0u64;
        for &o in gl.iter().chain(gr.iter()) {
            let bo = deeper(|| self.birthday(o))?;
            b = b.max(bo.checked_add(1).ok_or(CgtError::Overflow)?);
        }
        self.memo.birthdays.insert(g, b);
        Ok(b)
    }

    /// `g` cooled by `t` (see the module doc; CGSuite's `G.Cool(t)`).
    pub fn cool(&mut self, g: GameId, t: Dyadic) -> Result<GameId, CgtError> {
        if self.as_number(g).is_some_and(Dyadic::is_integer) {
            return Ok(g);
        }
        if let Some(&c) = self.memo.cooled.get(&(g, t)) {
            return Ok(c);
        }
        self.tick()?;
        let c = if self.temperature(g)? < t {
            let m = self.mean(g)?;
            self.number(m)?
        } else {
            let tid = self.number(t)?;
            let mut left = Vec::new();
            for a in self.options(g, Side::Left)? {
                let ca = deeper(|| self.cool(a, t))?;
                left.push(self.sub(ca, tid)?);
            }
            let mut right = Vec::new();
            for b in self.options(g, Side::Right)? {
                let cb = deeper(|| self.cool(b, t))?;
                right.push(self.add(cb, tid)?);
            }
            self.game(&left, &right)?
        };
        self.memo.cooled.insert((g, t), c);
        Ok(c)
    }

    /// `g` heated by the game `t` (CGSuite's `G.Heat(t)`): numbers stay, otherwise
    /// `{∫G^L + t | ∫G^R - t}`.
    pub fn heat(&mut self, g: GameId, t: GameId) -> Result<GameId, CgtError> {
        if self.is_number(g) {
            return Ok(g);
        }
        if let Some(&h) = self.memo.heated.get(&(g, t)) {
            return Ok(h);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut left = Vec::with_capacity(gl.len());
        for &a in gl.iter() {
            let ha = deeper(|| self.heat(a, t))?;
            left.push(self.add(ha, t)?);
        }
        let mut right = Vec::with_capacity(gr.len());
        for &b in gr.iter() {
            let hb = deeper(|| self.heat(b, t))?;
            right.push(self.sub(hb, t)?);
        }
        let h = self.game(&left, &right)?;
        self.memo.heated.insert((g, t), h);
        Ok(h)
    }

    /// Whether `g` is all-small: every follower with a move for one player has one for the
    /// other (in canonical form: `0`, or a non-number whose options are all all-small).
    pub fn is_all_small(&mut self, g: GameId) -> Result<bool, CgtError> {
        if g == self.zero() {
            return Ok(true);
        }
        if self.is_number(g) {
            return Ok(false);
        }
        if let Some(&b) = self.memo.all_small.get(&g) {
            return Ok(b);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut b = true;
        for &o in gl.iter().chain(gr.iter()) {
            if !deeper(|| self.is_all_small(o))? {
                b = false;
                break;
            }
        }
        self.memo.all_small.insert(g, b);
        Ok(b)
    }

    /// One more than the greatest nimber among `g`'s followers, at least 1: the far star is
    /// the nimber of that size.
    fn far_star(&mut self, g: GameId) -> Result<u32, CgtError> {
        if let Some(m) = self.as_nimber(g) {
            return Ok(m + 1);
        }
        if let Some(&m) = self.memo.far_star.get(&g) {
            return Ok(m);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut m = 1;
        for &o in gl.iter().chain(gr.iter()) {
            m = m.max(deeper(|| self.far_star(o))?);
        }
        self.memo.far_star.insert(g, m);
        Ok(m)
    }

    /// The atomic weight of an all-small game ([`CgtError::NotAllSmall`] otherwise).
    pub fn atomic_weight(&mut self, g: GameId) -> Result<GameId, CgtError> {
        if !self.is_all_small(g)? {
            return Err(CgtError::NotAllSmall);
        }
        self.atomic_weight_of_small(g)
    }

    fn atomic_weight_of_small(&mut self, g: GameId) -> Result<GameId, CgtError> {
        if let Some(v) = self.as_nus(g) {
            return self.integer(i64::from(v.ups));
        }
        if let Some(&w) = self.memo.atomic_weights.get(&g) {
            return Ok(w);
        }
        self.tick()?;
        let two = self.integer(2)?;
        let (gl, gr) = self.stored(g);
        let mut left = Vec::with_capacity(gl.len());
        for &a in gl.iter() {
            let w = deeper(|| self.atomic_weight_of_small(a))?;
            left.push(self.sub(w, two)?);
        }
        let mut right = Vec::with_capacity(gr.len());
        for &b in gr.iter() {
            let w = deeper(|| self.atomic_weight_of_small(b))?;
            right.push(self.add(w, two)?);
        }
        let g0 = self.game(&left, &right)?;
        let mut w = g0;
        if self.as_number(g0).is_some_and(Dyadic::is_integer) {
            let far = self.far_star(g)?;
            let fs = self.nimber(far)?;
            let (below, above) = (self.le(g, fs)?, self.le(fs, g)?);
            if below && !above {
                // The least integer n with n |> every aw(G^L) - 2.
                let mut best: Option<i64> = None;
                for &a in &left {
                    let mut n = self.right_stop(a)?.ceil();
                    let nid = self.integer(n)?;
                    if self.le(nid, a)? {
                        n = n.checked_add(1).ok_or(CgtError::Overflow)?;
                    }
                    best = Some(best.map_or(n, |b| b.max(n)));
                }
                w = self.integer(best.unwrap_or(0))?;
            } else if above && !below {
                // The greatest integer n with n <| every aw(G^R) + 2.
                let mut best: Option<i64> = None;
                for &b in &right {
                    let mut n = self.left_stop(b)?.floor();
                    let nid = self.integer(n)?;
                    if self.le(b, nid)? {
                        n = n.checked_sub(1).ok_or(CgtError::Overflow)?;
                    }
                    best = Some(best.map_or(n, |c| c.min(n)));
                }
                w = self.integer(best.unwrap_or(0))?;
            }
        }
        self.memo.atomic_weights.insert(g, w);
        Ok(w)
    }

    /// The reduced canonical form: the simplest game infinitesimally close to `g` (see the
    /// module doc for the construction CGSuite uses).
    pub fn reduced(&mut self, g: GameId) -> Result<GameId, CgtError> {
        if let Some(v) = self.as_nus(g) {
            return self.number(v.number);
        }
        let star = self.star()?;
        let h = self.heat(g, star)?;
        self.star_projection(h)
    }

    /// Replaces every follower `x*` (a number plus star) by `x`.
    fn star_projection(&mut self, g: GameId) -> Result<GameId, CgtError> {
        if self.is_number(g) {
            return Ok(g);
        }
        if let Some(v) = self.as_nus(g) {
            if v.ups == 0 && v.nim == 1 {
                return self.number(v.number);
            }
        }
        if let Some(&p) = self.memo.projected.get(&g) {
            return Ok(p);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut left = Vec::with_capacity(gl.len());
        for &a in gl.iter() {
            left.push(deeper(|| self.star_projection(a))?);
        }
        let mut right = Vec::with_capacity(gr.len());
        for &b in gr.iter() {
            right.push(deeper(|| self.star_projection(b))?);
        }
        let p = self.game(&left, &right)?;
        self.memo.projected.insert(g, p);
        Ok(p)
    }
}
