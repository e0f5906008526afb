//! Building canonical forms: `{left | right}` with duplicates and dominated options
//! removed and reversible options bypassed, hash-consed into the table; and the options of
//! the forms stored by value alone (numbers, nus).

use std::rc::Rc;

use super::*;

impl ValueTable {
    /// The canonical form of `{left | right}`, for any option ids: duplicates and dominated
    /// options are removed and reversible options bypassed until none is left.
    pub fn game(&mut self, left: &[GameId], right: &[GameId]) -> Result<GameId, CgtError> {
        self.tick()?;
        let mut l = left.to_vec();
        let mut r = right.to_vec();
        l.sort();
        l.dedup();
        r.sort();
        r.dedup();
        if let Some(x) = self.number_of_numbers(&l, &r)? {
            return self.number(x);
        }
        let key: OptionsKey = (Rc::from(&l[..]), Rc::from(&r[..]));
        if let Some(&g) = self.built.get(&key) {
            return Ok(g);
        }
        let g = self.canonicalise(l, r)?;
        self.option_ids += key.0.len() + key.1.len();
        self.built.insert(key, g);
        Ok(g)
    }

    /// The canonical form of `{l | r}` (sorted and distinct, not all numbers in order).
    pub(super) fn canonicalise(
        &mut self,
        mut l: Vec<GameId>,
        mut r: Vec<GameId>,
    ) -> Result<GameId, CgtError> {
        let mut cmp = ListCmp::default();
        self.remove_dominated(&mut l, Side::Left)?;
        self.remove_dominated(&mut r, Side::Right)?;
        loop {
            self.tick()?;
            let (snap_l, snap_r) = (l.clone(), r.clone());
            let mut changed = false;
            // A Left option A is reversible when some A^R <= G: replace A by A^RL.
            let mut new_l = Vec::with_capacity(l.len());
            for &a in &snap_l {
                let mut bypass = None;
                for &ar in self.opts(a, Side::Right)?.iter() {
                    if self.le_id_lists(ar, &snap_l, &snap_r, &mut cmp)? {
                        bypass = Some(ar);
                        break;
                    }
                }
                match bypass {
                    Some(ar) => {
                        new_l.extend(self.opts(ar, Side::Left)?.iter());
                        changed = true;
                    }
                    None => new_l.push(a),
                }
            }
            // A Right option B is reversible when some B^L >= G: replace B by B^LR.
            let mut new_r = Vec::with_capacity(r.len());
            for &b in &snap_r {
                let mut bypass = None;
                for &bl in self.opts(b, Side::Left)?.iter() {
                    if self.le_lists_id(&snap_l, &snap_r, bl, &mut cmp)? {
                        bypass = Some(bl);
                        break;
                    }
                }
                match bypass {
                    Some(bl) => {
                        new_r.extend(self.opts(bl, Side::Right)?.iter());
                        changed = true;
                    }
                    None => new_r.push(b),
                }
            }
            l = new_l;
            r = new_r;
            l.sort();
            l.dedup();
            r.sort();
            r.dedup();
            self.remove_dominated(&mut l, Side::Left)?;
            self.remove_dominated(&mut r, Side::Right)?;
            if !changed {
                break;
            }
        }
        if let Some(x) = self.number_of_numbers(&l, &r)? {
            return self.number(x);
        }
        self.intern(l, r)
    }

    /// When every option is a number and each Left one is below each Right one, the game is
    /// the simplest number between the greatest Left and the least Right option.
    pub(super) fn number_of_numbers(
        &self,
        l: &[GameId],
        r: &[GameId],
    ) -> Result<Option<Dyadic>, CgtError> {
        let mut lo: Option<Dyadic> = None;
        for &a in l {
            let Some(x) = self.as_number(a) else {
                return Ok(None);
            };
            lo = Some(lo.map_or(x, |m| m.max(x)));
        }
        let mut hi: Option<Dyadic> = None;
        for &b in r {
            let Some(x) = self.as_number(b) else {
                return Ok(None);
            };
            hi = Some(hi.map_or(x, |m| m.min(x)));
        }
        if let (Some(a), Some(b)) = (lo, hi) {
            if a >= b {
                return Ok(None);
            }
        }
        Dyadic::simplest_between(lo, hi).map(Some)
    }

    /// Keeps the maximal Left options (minimal Right ones) of a sorted, distinct list.
    pub(super) fn remove_dominated(
        &mut self,
        opts: &mut Vec<GameId>,
        side: Side,
    ) -> Result<(), CgtError> {
        if opts.len() < 2 {
            return Ok(());
        }
        let mut kept = Vec::with_capacity(opts.len());
        for &a in opts.iter() {
            let mut dominated = false;
            for &b in opts.iter() {
                if b != a
                    && match side {
                        Side::Left => deeper(|| self.le(a, b))?,
                        Side::Right => deeper(|| self.le(b, a))?,
                    }
                {
                    dominated = true;
                    break;
                }
            }
            if !dominated {
                kept.push(a);
            }
        }
        *opts = kept;
        Ok(())
    }

    /// `G <= h` where `G = {gl | gr}` is not yet interned.
    fn le_lists_id(
        &mut self,
        gl: &[GameId],
        gr: &[GameId],
        h: GameId,
        cmp: &mut ListCmp,
    ) -> Result<bool, CgtError> {
        if let Some(&r) = cmp.g_le.get(&h) {
            return Ok(r);
        }
        self.tick()?;
        let mut r = self.none_ge(gl, h)?;
        if r {
            for &hr in self.opts(h, Side::Right)?.iter() {
                if deeper(|| self.le_id_lists(hr, gl, gr, cmp))? {
                    r = false;
                    break;
                }
            }
        }
        cmp.g_le.insert(h, r);
        Ok(r)
    }

    /// `h <= G` where `G = {gl | gr}` is not yet interned.
    fn le_id_lists(
        &mut self,
        h: GameId,
        gl: &[GameId],
        gr: &[GameId],
        cmp: &mut ListCmp,
    ) -> Result<bool, CgtError> {
        if let Some(&r) = cmp.le_g.get(&h) {
            return Ok(r);
        }
        self.tick()?;
        let mut r = self.none_le(gr, h)?;
        if r {
            for &hl in self.opts(h, Side::Left)?.iter() {
                if deeper(|| self.le_lists_id(gl, gr, hl, cmp))? {
                    r = false;
                    break;
                }
            }
        }
        cmp.le_g.insert(h, r);
        Ok(r)
    }

    /// Interns a canonical non-number form (sorted, distinct options) and recognises nus.
    pub(super) fn intern(
        &mut self,
        left: Vec<GameId>,
        right: Vec<GameId>,
    ) -> Result<GameId, CgtError> {
        let left: Rc<[GameId]> = Rc::from(left);
        let right: Rc<[GameId]> = Rc::from(right);
        if let Some(&id) = self.by_options.get(&(left.clone(), right.clone())) {
            return Ok(id);
        }
        let nus = if self.recognise_nus {
            self.recognise(&left, &right)
        } else {
            None
        };
        let id = self.push(Node::Game {
            left: left.clone(),
            right: right.clone(),
            nus,
        })?;
        self.option_ids += left.len() + right.len();
        self.by_options.insert((left, right), id);
        if let Some(v) = nus {
            self.by_nus.entry(v).or_insert(id);
        }
        Ok(id)
    }

    pub(super) fn push(&mut self, node: Node) -> Result<GameId, CgtError> {
        if self.nodes.len() >= self.max_values {
            return Err(CgtError::Limit);
        }
        let id = GameId(u32::try_from(self.nodes.len()).map_err(|_| CgtError::Limit)?);
        self.nodes.push(node);
        Ok(id)
    }

    /// Whether the canonical form `{left | right}` is a nus, from its options' triples and
    /// the canonical forms of nus ([`nus_options`]).
    pub(super) fn recognise(&self, left: &[GameId], right: &[GameId]) -> Option<Nus> {
        let mut lt = Vec::with_capacity(left.len());
        for &a in left {
            lt.push(self.as_nus(a)?);
        }
        let mut rt = Vec::with_capacity(right.len());
        for &b in right {
            rt.push(self.as_nus(b)?);
        }
        let number = lt.first().or(rt.first())?.number;
        if lt.iter().chain(&rt).any(|v| v.number != number) {
            return None;
        }
        let mut candidates = Vec::new();
        let m = u32::try_from(lt.len()).ok()?;
        candidates.push(Nus {
            number,
            ups: 0,
            nim: m,
        });
        for v in lt.iter().take(2).chain(rt.iter().take(2)) {
            for du in [-1, 1] {
                let ups = v.ups.checked_add(du)?;
                candidates.push(Nus {
                    number,
                    ups,
                    nim: v.nim,
                });
                candidates.push(Nus {
                    number,
                    ups,
                    nim: v.nim ^ 1,
                });
            }
        }
        let key = |v: &Nus| (v.ups, v.nim);
        lt.sort_by_key(key);
        rt.sort_by_key(key);
        candidates.into_iter().find(|&c| {
            if c.ups == 0 && c.nim == 0 {
                return false;
            }
            let (mut fl, mut fr) = nus_options(c);
            fl.sort_by_key(key);
            fr.sort_by_key(key);
            fl == lt && fr == rt
        })
    }
}

/// The memo of one construction's comparisons with the game being built.
#[derive(Default)]
struct ListCmp {
    g_le: FxHashMap<GameId, bool>,
    le_g: FxHashMap<GameId, bool>,
}

/// The canonical options of a number: `n > 0` is `{n-1 |}`, `n < 0` is `{| n+1}`, `0` is
/// `{|}`, and `m/2^j` is `{(m-1)/2^j | (m+1)/2^j}`.
pub(in crate::cgt) fn number_options(
    x: Dyadic,
) -> Result<(Option<Dyadic>, Option<Dyadic>), CgtError> {
    if x.is_integer() {
        let n = x.numerator();
        return Ok(match n.cmp(&0) {
            std::cmp::Ordering::Greater => (Some(Dyadic::int(n - 1)), None),
            std::cmp::Ordering::Less => (None, Some(Dyadic::int(n + 1))),
            std::cmp::Ordering::Equal => (None, None),
        });
    }
    let step = Dyadic::new(1, x.exponent())?;
    Ok((Some(x.checked_sub(step)?), Some(x.checked_add(step)?)))
}

/// The canonical options of the nus `x + n·^ + *m` (not a number), as nus: the options of
/// `n·^ + *m` translated by `x`. For `n = 0` (`*m`) the smaller nimbers on both sides; for
/// `n > 0`, `{0 | (n-1)·^ + *(m xor 1)}`, except `^* = {0, * | 0}`; for `n < 0` the
/// negative of the `-n` form. `nus_forms_match_sums` checks them against sums.
pub(super) fn nus_options(v: Nus) -> (Vec<Nus>, Vec<Nus>) {
    let x = v.number;
    let at = |ups: i32, nim: u32| Nus {
        number: x,
        ups,
        nim,
    };
    if v.ups == 0 {
        let opts: Vec<Nus> = (0..v.nim).map(|k| at(0, k)).collect();
        return (opts.clone(), opts);
    }
    if v.ups < 0 {
        let (l, r) = nus_options(Nus {
            number: x,
            ups: -v.ups,
            nim: v.nim,
        });
        let flip = |o: Vec<Nus>| o.into_iter().map(|o| at(-o.ups, o.nim)).collect();
        return (flip(r), flip(l));
    }
    let n = v.ups;
    let m = v.nim;
    if n == 1 && m == 1 {
        return (vec![at(0, 0), at(0, 1)], vec![at(0, 0)]);
    }
    (vec![at(0, 0)], vec![at(n - 1, m ^ 1)])
}
