//! The value table: canonical forms of short games, hash-consed, with memoised order and sums.
//!
//! Every [`GameId`] names one canonical form, so two ids are equal exactly when the games
//! are equal. A number is stored as its value alone (its options, `{n-1 |}` or
//! `{(m-1)/2^j | (m+1)/2^j}`, are made when asked); any other game as its sorted Left and
//! Right option ids. A game equal to `x + n·^ + *m` (a number plus up multiples plus a
//! nimber, a *nus*) carries that triple, which printing and the sum's fast path use.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::budget::{deeper, Budget, CHECK_EVERY};
use super::dyadic::Dyadic;
use super::CgtError;

mod canonical;
mod memo;
pub(super) use canonical::number_options;
pub(super) use memo::Ordered;
use memo::{Memo, OrderMemo};

/// The id of a canonical form in a [`ValueTable`]. Ids from different tables do not mix.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct GameId(u32);

impl GameId {
    /// The id's index in its table (dense, from 0).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A number plus a multiple of up plus a nimber: `number + ups·^ + *nim`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Nus {
    /// The number part.
    pub number: Dyadic,
    /// The multiple of up (negative: of down).
    pub ups: i32,
    /// The nimber part.
    pub nim: u32,
}

/// Which player: Left (Blue, positive) or Right (Red, negative).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Left, who wins positive games.
    Left,
    /// Right, who wins negative games.
    Right,
}

/// How two games compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Relation {
    /// `G < H`.
    Less,
    /// `G == H`.
    Equal,
    /// `G > H`.
    Greater,
    /// `G <> H` (CGSuite), written `G || H` in Winning Ways: confused, incomparable.
    Confused,
}

/// The outcome class of a game: who wins with perfect play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// `G > 0`: Left wins whoever starts.
    L,
    /// `G < 0`: Right wins whoever starts.
    R,
    /// `G <> 0`: the player to move wins.
    N,
    /// `G == 0`: the player to move loses.
    P,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
        })
    }
}

/// One canonical form.
enum Node {
    /// A number, whose options are made on demand.
    Number(Dyadic),
    /// Any other canonical form: option ids sorted and distinct, none dominated or
    /// reversible; `nus` when the game is a number plus ups plus a nimber.
    Game {
        left: Rc<[GameId]>,
        right: Rc<[GameId]>,
        nus: Option<Nus>,
    },
}

/// A non-number's Left and Right options, the key it is found by.
type OptionsKey = (Rc<[GameId]>, Rc<[GameId]>);

/// The default limit on the number of canonical forms a table may hold.
pub const DEFAULT_MAX_VALUES: usize = 50_000_000;

/// The largest nimber the table builds (`*m` has `m` options on each side).
pub const MAX_NIMBER: u32 = 1024;

/// The largest multiple of up [`ValueTable::nus`] builds (one sum for each up); sums of
/// nus may go further.
pub const MAX_UPS: u32 = 4096;

/// Canonical forms of short games and the memoised operations on them.
///
/// Build games with [`ValueTable::game`] from option ids (any ids: the result is
/// canonicalised), or from [`ValueTable::number`], [`ValueTable::nimber`], [`ValueTable::nus`],
/// [`ValueTable::parse`]; combine them with [`ValueTable::add`], [`ValueTable::neg`],
/// [`ValueTable::sub`]; compare with [`ValueTable::le`] and [`ValueTable::compare`].
/// Operations that make values return `Err` on overflow of a number or when the table
/// would grow past its limit, never a wrong value; every operation that recurses checks the
/// table's [`Budget`] (a deadline, a stop flag, a memory cap) as it goes, see
/// [`ValueTable::with_budget`].
pub struct ValueTable {
    nodes: Vec<Node>,
    by_number: FxHashMap<Dyadic, GameId>,
    by_options: FxHashMap<OptionsKey, GameId>,
    by_nus: FxHashMap<Nus, GameId>,
    le_memo: FxHashMap<(GameId, GameId), bool>,
    sum_memo: FxHashMap<(GameId, GameId), GameId>,
    neg_memo: FxHashMap<GameId, GameId>,
    /// Canonical forms by the (sorted, distinct) option lists they were built from.
    built: FxHashMap<OptionsKey, GameId>,
    /// What the analyses on values have computed (`analysis.rs`).
    pub(super) memo: Memo,
    /// What the form order has compared ([`ValueTable::form_order`]).
    pub(super) order: OrderMemo,
    max_values: usize,
    zero: GameId,
    /// Whether new forms are matched against the nus forms (off only in the test that
    /// checks those forms against sums).
    recognise_nus: bool,
    /// What the current computation may spend ([`ValueTable::with_budget`]).
    budget: Budget,
    /// Steps since the table was made, to check the budget every [`CHECK_EVERY`] of them.
    ticks: u32,
    /// Option ids held in arrays (the forms' and the construction memo's keys).
    option_ids: usize,
    /// Most memory the table may hold, estimated ([`ValueTable::estimated_bytes`]).
    max_bytes: usize,
}

/// Estimated bytes of one entry of the table's hash maps and memos (key, value, control
/// byte and the free share of the buckets), for [`ValueTable::estimated_bytes`].
const ENTRY_BYTES: usize = 48;
/// Estimated bytes of one array of option ids beside its ids (the `Rc` header).
const ARRAY_BYTES: usize = 16;

impl Default for ValueTable {
    fn default() -> Self {
        Self::new()
    }
}

impl ValueTable {
    /// An empty table (holding only 0) with the default limit.
    pub fn new() -> ValueTable {
        Self::with_limit(DEFAULT_MAX_VALUES)
    }

    /// An empty table that holds at most `max_values` canonical forms.
    pub fn with_limit(max_values: usize) -> ValueTable {
        let mut table = ValueTable {
            nodes: vec![Node::Number(Dyadic::ZERO)],
            by_number: FxHashMap::default(),
            by_options: FxHashMap::default(),
            by_nus: FxHashMap::default(),
            le_memo: FxHashMap::default(),
            sum_memo: FxHashMap::default(),
            neg_memo: FxHashMap::default(),
            built: FxHashMap::default(),
            memo: Default::default(),
            order: Default::default(),
            max_values: max_values.max(1),
            zero: GameId(0),
            recognise_nus: true,
            budget: Budget::unlimited(),
            ticks: 0,
            option_ids: 0,
            max_bytes: usize::MAX,
        };
        table.by_number.insert(Dyadic::ZERO, table.zero);
        table
    }

    /// How many canonical forms the table holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the table holds only 0 (it never holds less).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The memory the table holds, estimated from its size in bytes: its forms, their
    /// option arrays, and an entry of [`ENTRY_BYTES`] per index and memo entry. What the
    /// [`Budget`]'s memory cap is checked against.
    pub fn estimated_bytes(&self) -> usize {
        let entries = self.by_number.len()
            + self.by_options.len()
            + self.by_nus.len()
            + self.le_memo.len()
            + self.sum_memo.len()
            + self.neg_memo.len()
            + self.built.len()
            + self.memo.entries()
            + self.order.entries();
        self.nodes.len() * std::mem::size_of::<Node>()
            + self.option_ids * std::mem::size_of::<GameId>()
            + (self.by_options.len() + self.built.len()) * 2 * ARRAY_BYTES
            + entries * ENTRY_BYTES
            + self.memo.extra_bytes()
            + self.order.extra_bytes()
    }

    /// Caps the memory the table may hold (estimated, [`ValueTable::estimated_bytes`]): past
    /// it, operations that make forms return [`CgtError::Memory`]. No cap by default.
    pub fn set_max_bytes(&mut self, bytes: usize) {
        self.max_bytes = bytes;
    }

    /// Runs `f` with `budget` as the table's budget (the previous one back afterwards): every
    /// operation inside returns [`CgtError::Timeout`], [`CgtError::Interrupted`] or
    /// [`CgtError::Memory`] soon after the budget is spent. What was computed before the
    /// stop stays valid and memoised; nothing half-computed is kept.
    pub fn with_budget<R>(&mut self, budget: Budget, f: impl FnOnce(&mut Self) -> R) -> R {
        let before = std::mem::replace(&mut self.budget, budget);
        let r = f(self);
        self.budget = before;
        r
    }

    /// One step of a recursion: every [`CHECK_EVERY`] steps, an error if the budget is spent.
    #[inline]
    pub(super) fn tick(&mut self) -> Result<(), CgtError> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(CHECK_EVERY) {
            self.budget.check(self.estimated_bytes(), self.max_bytes)
        } else {
            Ok(())
        }
    }

    // ------------------------------------------------------------------ named values

    /// The game 0 = `{ | }`.
    pub fn zero(&self) -> GameId {
        self.zero
    }

    /// The number `x`.
    pub fn number(&mut self, x: Dyadic) -> Result<GameId, CgtError> {
        if let Some(&id) = self.by_number.get(&x) {
            return Ok(id);
        }
        let id = self.push(Node::Number(x))?;
        self.by_number.insert(x, id);
        Ok(id)
    }

    /// The integer `n`.
    pub fn integer(&mut self, n: i64) -> Result<GameId, CgtError> {
        self.number(Dyadic::int(n))
    }

    /// The canonical options of the number `x`, as numbers.
    pub fn number_options(x: Dyadic) -> Result<(Option<Dyadic>, Option<Dyadic>), CgtError> {
        number_options(x)
    }

    /// The nimber `*m` = `{0, *, ..., *(m-1) | 0, *, ..., *(m-1)}`; `m` at most [`MAX_NIMBER`].
    pub fn nimber(&mut self, m: u32) -> Result<GameId, CgtError> {
        self.nus(Nus {
            number: Dyadic::ZERO,
            ups: 0,
            nim: m,
        })
    }

    /// `*` = `{0 | 0}`.
    pub fn star(&mut self) -> Result<GameId, CgtError> {
        self.nimber(1)
    }

    /// `^` = `{0 | *}`.
    pub fn up(&mut self) -> Result<GameId, CgtError> {
        self.nus(Nus {
            number: Dyadic::ZERO,
            ups: 1,
            nim: 0,
        })
    }

    /// `v` = `{* | 0}`.
    pub fn down(&mut self) -> Result<GameId, CgtError> {
        self.nus(Nus {
            number: Dyadic::ZERO,
            ups: -1,
            nim: 0,
        })
    }

    /// The game `number + ups·^ + *nim`.
    pub fn nus(&mut self, v: Nus) -> Result<GameId, CgtError> {
        if let Some(&id) = self.by_nus.get(&v) {
            return Ok(id);
        }
        if v.ups == 0 && v.nim == 0 {
            return self.number(v.number);
        }
        if v.nim > MAX_NIMBER || v.ups.unsigned_abs() > MAX_UPS {
            return Err(CgtError::Limit);
        }
        let id = if v.number != Dyadic::ZERO {
            let x = self.number(v.number)?;
            let rest = self.nus(Nus {
                number: Dyadic::ZERO,
                ..v
            })?;
            self.add(x, rest)?
        } else if v.ups == 0 {
            // *m: its options are the smaller nimbers, already canonical.
            let mut opts = Vec::with_capacity(v.nim as usize);
            for k in 0..v.nim {
                opts.push(self.nimber(k)?);
            }
            opts.sort();
            self.intern(opts.clone(), opts)?
        } else if v.ups == 1 && v.nim == 0 {
            let star = self.star()?;
            self.intern(vec![self.zero], vec![star])?
        } else if v.ups < 0 {
            let pos = self.nus(Nus {
                ups: v.ups.checked_neg().ok_or(CgtError::Overflow)?,
                ..v
            })?;
            self.neg(pos)?
        } else {
            let up = self.up()?;
            let nim = self.nimber(v.nim)?;
            let mut acc = nim;
            for _ in 0..v.ups {
                acc = self.add(acc, up)?;
            }
            acc
        };
        self.set_nus(id, v);
        Ok(id)
    }

    /// Records that `id` is the game `v`.
    fn set_nus(&mut self, id: GameId, v: Nus) {
        if let Some(Node::Game { nus, .. }) = self.nodes.get_mut(id.index()) {
            *nus = Some(v);
        }
        self.by_nus.entry(v).or_insert(id);
    }

    // ------------------------------------------------------------------ reading a value

    /// The number `id` is, if it is one.
    pub fn as_number(&self, id: GameId) -> Option<Dyadic> {
        match self.nodes[id.index()] {
            Node::Number(x) => Some(x),
            Node::Game { .. } => None,
        }
    }

    /// Whether `id` is a number.
    pub fn is_number(&self, id: GameId) -> bool {
        self.as_number(id).is_some()
    }

    /// `id` as `number + ups·^ + *nim`, if it is of that form (numbers are, with 0 and 0).
    pub fn as_nus(&self, id: GameId) -> Option<Nus> {
        match self.nodes[id.index()] {
            Node::Number(number) => Some(Nus {
                number,
                ups: 0,
                nim: 0,
            }),
            Node::Game { nus, .. } => nus,
        }
    }

    /// The nimber `id` is (`0` counts as `*0`), if it is one.
    pub fn as_nimber(&self, id: GameId) -> Option<u32> {
        self.as_nus(id)
            .filter(|v| v.number.is_zero() && v.ups == 0)
            .map(|v| v.nim)
    }

    /// The canonical options of `id` for `side`, sorted by id. For a number they are made now.
    pub fn options(&mut self, id: GameId, side: Side) -> Result<Vec<GameId>, CgtError> {
        match &self.nodes[id.index()] {
            Node::Game { left, right, .. } => Ok(match side {
                Side::Left => left.to_vec(),
                Side::Right => right.to_vec(),
            }),
            &Node::Number(x) => {
                let (l, r) = number_options(x)?;
                let o = match side {
                    Side::Left => l,
                    Side::Right => r,
                };
                match o {
                    Some(y) => Ok(vec![self.number(y)?]),
                    None => Ok(vec![]),
                }
            }
        }
    }

    /// The canonical options of `id` for `side`, shared with the table where it stores them.
    fn opts(&mut self, id: GameId, side: Side) -> Result<Rc<[GameId]>, CgtError> {
        match &self.nodes[id.index()] {
            Node::Game { left, right, .. } => Ok(match side {
                Side::Left => left.clone(),
                Side::Right => right.clone(),
            }),
            Node::Number(_) => Ok(Rc::from(self.options(id, side)?)),
        }
    }

    /// The stored options of a non-number (empty for a number).
    pub(super) fn stored(&self, id: GameId) -> (Rc<[GameId]>, Rc<[GameId]>) {
        match &self.nodes[id.index()] {
            Node::Game { left, right, .. } => (left.clone(), right.clone()),
            Node::Number(_) => (Rc::from(vec![]), Rc::from(vec![])),
        }
    }

    // ------------------------------------------------------------------ order

    /// `g <= h`: no `g^L >= h` and no `h^R <= g`, memoised. A number against a non-number
    /// looks only at the non-number's options (number avoidance). An error only when the
    /// budget is spent.
    pub fn le(&mut self, g: GameId, h: GameId) -> Result<bool, CgtError> {
        if g == h {
            return Ok(true);
        }
        self.tick()?;
        match (self.as_number(g), self.as_number(h)) {
            (Some(x), Some(y)) => return Ok(x <= y),
            (None, Some(_)) => {
                // g <= x iff no g^L >= x.
                let (gl, _) = self.stored(g);
                return self.none_ge(&gl, h);
            }
            (Some(_), None) => {
                // x <= h iff no h^R <= x.
                let (_, hr) = self.stored(h);
                return self.none_le(&hr, g);
            }
            (None, None) => {}
        }
        if let (Some(a), Some(b)) = (self.as_nus(g), self.as_nus(h)) {
            if a.ups == 0 && b.ups == 0 && a.number == b.number {
                // x + *a <= x + *b iff a == b, and g != h here.
                return Ok(false);
            }
        }
        if let Some(&r) = self.le_memo.get(&(g, h)) {
            return Ok(r);
        }
        let (gl, _) = self.stored(g);
        let (_, hr) = self.stored(h);
        let r = self.none_ge(&gl, h)? && self.none_le(&hr, g)?;
        self.le_memo.insert((g, h), r);
        Ok(r)
    }

    /// Whether no option in `opts` is `>= h`.
    fn none_ge(&mut self, opts: &[GameId], h: GameId) -> Result<bool, CgtError> {
        for &a in opts {
            if deeper(|| self.le(h, a))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether no option in `opts` is `<= g`.
    fn none_le(&mut self, opts: &[GameId], g: GameId) -> Result<bool, CgtError> {
        for &b in opts {
            if deeper(|| self.le(b, g))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `g >= h`.
    pub fn ge(&mut self, g: GameId, h: GameId) -> Result<bool, CgtError> {
        self.le(h, g)
    }

    /// `g < h`.
    pub fn lt(&mut self, g: GameId, h: GameId) -> Result<bool, CgtError> {
        Ok(self.le(g, h)? && !self.le(h, g)?)
    }

    /// `g > h`.
    pub fn gt(&mut self, g: GameId, h: GameId) -> Result<bool, CgtError> {
        self.lt(h, g)
    }

    /// `g <> h`: neither `g <= h` nor `g >= h`.
    pub fn confused(&mut self, g: GameId, h: GameId) -> Result<bool, CgtError> {
        Ok(!self.le(g, h)? && !self.le(h, g)?)
    }

    /// How `g` compares with `h`.
    pub fn compare(&mut self, g: GameId, h: GameId) -> Result<Relation, CgtError> {
        Ok(match (self.le(g, h)?, self.le(h, g)?) {
            (true, true) => Relation::Equal,
            (true, false) => Relation::Less,
            (false, true) => Relation::Greater,
            (false, false) => Relation::Confused,
        })
    }

    /// The outcome class of `g`, read off its comparison with 0.
    pub fn outcome(&mut self, g: GameId) -> Result<Outcome, CgtError> {
        Ok(match self.compare(g, self.zero)? {
            Relation::Equal => Outcome::P,
            Relation::Greater => Outcome::L,
            Relation::Less => Outcome::R,
            Relation::Confused => Outcome::N,
        })
    }

    // ------------------------------------------------------------------ arithmetic

    /// `-g`: `{-g^R | -g^L}` (already canonical), memoised.
    pub fn neg(&mut self, g: GameId) -> Result<GameId, CgtError> {
        if let Some(x) = self.as_number(g) {
            return self.number(x.checked_neg()?);
        }
        if let Some(&n) = self.neg_memo.get(&g) {
            return Ok(n);
        }
        self.tick()?;
        let (gl, gr) = self.stored(g);
        let mut left = Vec::with_capacity(gr.len());
        for &b in gr.iter() {
            left.push(deeper(|| self.neg(b))?);
        }
        let mut right = Vec::with_capacity(gl.len());
        for &a in gl.iter() {
            right.push(deeper(|| self.neg(a))?);
        }
        left.sort();
        right.sort();
        let n = self.intern(left, right)?;
        if let Some(v) = self.as_nus(g) {
            let ups = v.ups.checked_neg().ok_or(CgtError::Overflow)?;
            self.set_nus(
                n,
                Nus {
                    number: v.number.checked_neg()?,
                    ups,
                    nim: v.nim,
                },
            );
        }
        self.neg_memo.insert(g, n);
        self.neg_memo.insert(n, g);
        Ok(n)
    }

    /// `g + h`, memoised on the pair. A number is added to each option of the other game
    /// (number translation); two nus add part by part.
    pub fn add(&mut self, g: GameId, h: GameId) -> Result<GameId, CgtError> {
        if g == self.zero {
            return Ok(h);
        }
        if h == self.zero {
            return Ok(g);
        }
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sum_memo.get(&key) {
            return Ok(s);
        }
        let (g, h) = key;
        self.tick()?;
        if let (Some(x), Some(y)) = (self.as_number(g), self.as_number(h)) {
            return self.number(x.checked_add(y)?);
        }
        let nus_sum = match (self.as_nus(g), self.as_nus(h)) {
            (Some(a), Some(b)) => {
                let v = Nus {
                    number: a.number.checked_add(b.number)?,
                    ups: a.ups.checked_add(b.ups).ok_or(CgtError::Overflow)?,
                    nim: a.nim ^ b.nim,
                };
                if let Some(&s) = self.by_nus.get(&v) {
                    self.sum_memo.insert(key, s);
                    return Ok(s);
                }
                Some(v)
            }
            _ => None,
        };
        let mut left = Vec::new();
        let mut right = Vec::new();
        for (a, b) in [(g, h), (h, g)] {
            // Moves in `a`, with `b` left as it is; none in a number when the other is not.
            if self.is_number(a) && !self.is_number(b) {
                continue;
            }
            for &al in self.opts(a, Side::Left)?.iter() {
                left.push(deeper(|| self.add(al, b))?);
            }
            for &ar in self.opts(a, Side::Right)?.iter() {
                right.push(deeper(|| self.add(ar, b))?);
            }
        }
        let s = self.game(&left, &right)?;
        if let Some(v) = nus_sum {
            if !self.is_number(s) {
                self.set_nus(s, v);
            }
        }
        self.sum_memo.insert(key, s);
        Ok(s)
    }

    /// `g - h`.
    pub fn sub(&mut self, g: GameId, h: GameId) -> Result<GameId, CgtError> {
        let n = self.neg(h)?;
        self.add(g, n)
    }
}

#[cfg(test)]
mod tests {
    use super::canonical::nus_options;
    use super::*;

    #[test]
    fn small_values() {
        let mut t = ValueTable::new();
        let z = t.zero();
        let one = t.game(&[z], &[]).unwrap();
        assert_eq!(t.as_number(one), Some(Dyadic::ONE));
        let half = t.game(&[z], &[one]).unwrap();
        assert_eq!(t.as_number(half), Some(Dyadic::new(1, 1).unwrap()));
        let star = t.game(&[z], &[z]).unwrap();
        assert_eq!(Some(star), t.star().ok());
        assert_eq!(t.as_nimber(star), Some(1));
        // {* | *} = 0, {0, * | 0, *} = *2.
        assert_eq!(t.game(&[star], &[star]).unwrap(), z);
        let s2 = t.game(&[z, star], &[z, star]).unwrap();
        assert_eq!(t.as_nimber(s2), Some(2));
        // {1/2 | 2} = 1 through a reversible number option.
        let two = t.integer(2).unwrap();
        assert_eq!(t.game(&[half], &[two]).unwrap(), one);
        assert_eq!(t.outcome(star), Ok(Outcome::N));
        assert_eq!(t.outcome(one), Ok(Outcome::L));
        assert_eq!(t.outcome(z), Ok(Outcome::P));
        let m1 = t.neg(one).unwrap();
        assert_eq!(t.outcome(m1), Ok(Outcome::R));
    }

    /// The canonical forms of `n·^ + *m` (and translations) computed as sums, without
    /// recognition, against [`nus_options`].
    #[test]
    fn nus_forms_match_sums() {
        let mut t = ValueTable::new();
        t.recognise_nus = false;
        for x in [Dyadic::ZERO, Dyadic::new(3, 2).unwrap(), Dyadic::int(-2)] {
            for ups in -6..=6 {
                for nim in 0..=9u32 {
                    let v = Nus {
                        number: x,
                        ups,
                        nim,
                    };
                    if ups == 0 && nim == 0 {
                        continue;
                    }
                    let g = t.nus(v).unwrap();
                    let (l, r) = t.stored(g);
                    let tags = |o: &[GameId]| {
                        let mut o: Vec<Nus> = o.iter().map(|&a| t.as_nus(a).unwrap()).collect();
                        o.sort_by_key(|v| (v.ups, v.nim));
                        o
                    };
                    let (mut fl, mut fr) = nus_options(v);
                    fl.sort_by_key(|v| (v.ups, v.nim));
                    fr.sort_by_key(|v| (v.ups, v.nim));
                    assert_eq!((tags(&l), tags(&r)), (fl, fr), "{v:?}");
                }
            }
        }
    }

    #[test]
    fn limit_is_an_error() {
        let mut t = ValueTable::with_limit(3);
        t.integer(1).unwrap();
        t.integer(2).unwrap();
        assert_eq!(t.integer(3), Err(CgtError::Limit));
        assert_eq!(t.nimber(MAX_NIMBER + 1), Err(CgtError::Limit));
        let mut t = ValueTable::new();
        let big = Nus {
            number: Dyadic::ZERO,
            ups: i32::MAX,
            nim: 0,
        };
        assert_eq!(t.nus(big), Err(CgtError::Limit));
    }

    #[test]
    fn overflow_is_an_error() {
        let mut t = ValueTable::new();
        let big = t.integer(i64::MAX).unwrap();
        let one = t.integer(1).unwrap();
        assert_eq!(t.add(big, one), Err(CgtError::Overflow));
        // A switch translated past the range: {MAX | MAX-2} + 2.
        let (a, b) = (
            t.integer(i64::MAX).unwrap(),
            t.integer(i64::MAX - 2).unwrap(),
        );
        let sw = t.game(&[a], &[b]).unwrap();
        let two = t.integer(2).unwrap();
        assert_eq!(t.add(sw, two), Err(CgtError::Overflow));
        let fine = t
            .number(Dyadic::new(1, crate::cgt::MAX_EXP).unwrap())
            .unwrap();
        // Its options are 0 and 1/2^61; the number between 0 and it is too fine.
        assert_eq!(t.options(fine, Side::Left).unwrap(), vec![t.zero()]);
        let z = t.zero();
        assert_eq!(t.game(&[z], &[fine]), Err(CgtError::Overflow));
        let min = t.integer(i64::MIN).unwrap();
        assert_eq!(t.neg(min), Err(CgtError::Overflow));
        assert_eq!(t.birthday(min).unwrap(), 1u64 << 63);
    }
}
